"""One module per regulation; ``ruleset(id, options)`` builds the one a tournament uses."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import Any

from projections.errors import UnknownRuleset
from projections.rulesets.base import Outcome, Ruleset, Scores

#: ruleset id -> "module:Class" (imported on first use)
RULESETS: dict[str, str] = {
    "swu-1.4": "projections.rulesets.swu_1_4:Swu14",
    "swu-1.0": "projections.rulesets.swu_1_0:Swu10",
    "xwing-2.0": "projections.rulesets.xwing_2_0:XWing20",
    "armada-2.0": "projections.rulesets.armada_2_0:Armada20",
    "lcg-2.1d": "projections.rulesets.lcg_2_1d:Lcg21d",
}

#: (ruleset id, option) -> "module:Class" of the format that option set to true selects
#: (lcg-2.1d "Team-Turniere": ``"team": true``)
VARIANTS: dict[tuple[str, str], str] = {
    ("lcg-2.1d", "team"): "projections.rulesets.lcg_teams:Lcg21dTeams",
}

__all__ = ["RULESETS", "Outcome", "Ruleset", "Scores", "ruleset"]


def ruleset(ruleset_id: str, options: Mapping[str, Any] | None = None) -> Ruleset:
    """The ruleset object for ``ruleset_id`` with the tournament's options."""
    target = RULESETS.get(ruleset_id)
    if target is None:
        raise UnknownRuleset(ruleset_id, sorted(RULESETS))
    for (rid, option), variant in VARIANTS.items():
        if rid == ruleset_id and (options or {}).get(option) is True:
            target = variant
    module, name = target.split(":")
    cls: type[Ruleset] = getattr(import_module(module), name)
    return cls(options)
