"""The options of each ruleset and their defaults, as a new event's form shows them
(issue 17: "options with the ruleset's defaults shown").

Read from the ruleset objects themselves (``option_choices``, ``defaults`` and the
options every ruleset shares), so that no face keeps a list of its own: a ruleset
that gains an option shows it here. ``rounds`` and ``cut`` have no fixed default (the
regulation's table by the number of players, design: Rulesets), so their default
reads "by players"; ``seed`` is drawn when none is given.
"""

from __future__ import annotations

from typing import Any

from commands.readmodels import ReadModel
from projections.rulesets import RULESETS, ruleset

#: what the shared options default to when a ruleset declares no default of its own
SHARED_DEFAULTS: dict[str, str] = {"rounds": "by players", "cut": "by players",
                                   "elimination": "single", "seed": "drawn"}  # fmt: skip
SHARED_CHOICES: dict[str, tuple[Any, ...] | None] = {
    "rounds": None, "cut": None, "elimination": ("single", "double"), "seed": None}  # fmt: skip


class OptionField(ReadModel):
    """One option: its name, the values it takes (empty: a whole number or free value)
    and its default as shown."""

    name: str
    choices: list[str]
    default: str
    number: bool


class RulesetOptions(ReadModel):
    ruleset: str
    options: list[OptionField]


class RulesetCatalog(ReadModel):
    rulesets: list[RulesetOptions]


def shown(value: Any) -> str:
    return "document" if value is None else str(value)


def ruleset_options(ruleset_id: str) -> RulesetOptions:
    """The options ``ruleset_id`` takes, its own first, then the shared ones."""
    rules = ruleset(ruleset_id)
    fields: list[OptionField] = []
    for name, choices in rules.option_choices.items():
        default = rules.defaults.get(name)
        fields.append(OptionField(
            name=name, choices=[shown(c) for c in choices] if choices else [],
            default=shown(default),
            number=choices is None and isinstance(default, int)))  # fmt: skip
    for name in rules.COMMON_OPTIONS:
        choices = SHARED_CHOICES[name]
        default = rules.defaults.get(name)
        fields.append(OptionField(
            name=name, choices=[str(c) for c in choices] if choices else [],
            default=str(default) if default is not None else SHARED_DEFAULTS[name],
            number=choices is None))  # fmt: skip
    return RulesetOptions(ruleset=ruleset_id, options=fields)


def catalog() -> RulesetCatalog:
    """Every ruleset's options, in the order the rulesets are listed."""
    return RulesetCatalog(rulesets=[ruleset_options(r) for r in RULESETS])


def options_from(ruleset_id: str, given: dict[str, str]) -> dict[str, Any]:
    """The options a form gave (blank: the default, not sent), typed as the ruleset
    takes them: whole numbers for number options, ``document`` back to None."""
    known = {f.name: f for f in ruleset_options(ruleset_id).options}
    options: dict[str, Any] = {}
    for name, text in given.items():
        field = known.get(name)
        if field is None or not text.strip():
            continue
        value = text.strip()
        if field.number:
            options[name] = int(value) if value.lstrip("-").isdigit() else value
        else:
            options[name] = None if value == "document" else value
    return options
