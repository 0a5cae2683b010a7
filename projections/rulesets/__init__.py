"""One module per regulation; ``ruleset(id, options)`` builds the one a tournament uses.

Adding a ruleset is its module (a ``Ruleset`` subclass declaring everything the
document decides) and its line in ``RULESETS``; nothing outside this package names a
ruleset's id or class.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from projections.errors import UnknownRuleset
from projections.rulesets.armada_2_0 import Armada20
from projections.rulesets.base import Outcome, Ruleset, Scores, TeamFormat
from projections.rulesets.lcg_2_1d import Lcg21d
from projections.rulesets.lcg_teams import Lcg21dTeams
from projections.rulesets.swu_1_0 import Swu10
from projections.rulesets.swu_1_4 import Swu14
from projections.rulesets.xwing_2_0 import XWing20

#: ruleset id -> its class; the first is the default a new event's form offers
RULESETS: dict[str, type[Ruleset]] = {
    cls.id: cls
    for cls in (
        Swu14,
        Swu10,
        XWing20,
        Armada20,
        Lcg21d,
    )
}
DEFAULT_RULESET: str = next(iter(RULESETS))

#: (ruleset id, option) -> the class of the format that option set to true selects
#: (lcg-2.1d "Team-Turniere": ``"team": true``)
VARIANTS: dict[tuple[str, str], type[Ruleset]] = {
    (Lcg21d.id, "team"): Lcg21dTeams,
}

__all__ = [
    "DEFAULT_RULESET",
    "RULESETS",
    "VARIANTS",
    "Outcome",
    "Ruleset",
    "Scores",
    "registered",
    "ruleset",
    "ruleset_class",
    "team_variant",
]  # fmt: skip


def ruleset_class(ruleset_id: str, options: Mapping[str, Any] | None = None) -> type[Ruleset]:
    """The class of ``ruleset_id``, or of the variant its ``options`` select."""
    found = RULESETS.get(ruleset_id)
    if found is None:
        raise UnknownRuleset(ruleset_id, sorted(RULESETS))
    for (rid, option), variant in VARIANTS.items():
        if rid == ruleset_id and (options or {}).get(option) is True:
            found = variant
    return found


def ruleset(ruleset_id: str, options: Mapping[str, Any] | None = None) -> Ruleset:
    """The ruleset object for ``ruleset_id`` with the tournament's options."""
    return ruleset_class(ruleset_id, options)(options)


def team_variant() -> tuple[str, str, TeamFormat]:
    """The registered team format, with the ruleset id and the option that select it
    (lcg-2.1d ``"team": true``): a singles event's refusals name where teams play."""
    for (rid, option), variant in VARIANTS.items():
        if variant.team is not None:
            return rid, option, variant.team
    raise AssertionError("no registered ruleset has a team format")


def registered() -> list[type[Ruleset]]:
    """Every class a tournament may run under: the rulesets, then their variants."""
    return [*RULESETS.values(), *VARIANTS.values()]
