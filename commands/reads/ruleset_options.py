"""The options of each ruleset and their defaults, as a new event's form shows them, so
the organizer sees what each option will be before changing any.

Read from the ruleset objects themselves (``option_choices``, ``defaults`` and the
options every ruleset shares), so that no face keeps a list of its own: a ruleset
that gains an option shows it here. ``rounds`` and ``cut`` have no fixed default (the
regulation sets them by the number of players), so their default reads "by players";
``seed`` is drawn when none is given. A true-or-false option (lcg-2.1d ``team``) shows
and takes ``true``/``false``, as the CLI's ``KEY=VALUE`` spells them, and defaults to
false; where the format such an option selects (``projections.rulesets.VARIANTS``) has
defaults of its own, they are shown beside the ruleset's ("90 with team true": a team
round's time).
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from commands.reads.models import ReadModel
from projections.rulesets import RULESETS, VARIANTS, ruleset

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
    #: the default where a true-or-false option selects another format ("90 with team true")
    variant_default: str = ""


class PlanRow(ReadModel):
    """Players from ``low`` to ``high`` play ``rounds`` Swiss rounds and a top ``cut``
    (0: none), by the ruleset's table with its default options."""

    low: int
    high: int
    rounds: int
    cut: int


class RulesetOptions(ReadModel):
    ruleset: str
    options: list[OptionField]
    #: the round count by players, as the ruleset's table gives it (for the new-event form)
    plan: list[PlanRow] = Field(default_factory=list, exclude=True)


#: the plan's table is read up to this many players
PLAN_UP_TO = 1024


def round_plan(ruleset_id: str, options: dict[str, Any] | None = None) -> list[PlanRow]:
    """The Swiss rounds and cut by the number of players, read from the ruleset itself
    (``rounds_planned``, ``cut_size``: swu-1.4 §4.5's table, X-Wing's and Armada's
    structures, lcg-2.1d's ceil(log2)), as rows of equal rounds and cut: "9–16 players:
    5 rounds". The count is fixed by the players present at round 1."""
    rules = ruleset(ruleset_id, options)
    rows: list[PlanRow] = []
    for players in range(2, PLAN_UP_TO + 1):
        rounds, cut = rules.rounds_planned(players), rules.cut_size(players)
        if rows and (rows[-1].rounds, rows[-1].cut) == (rounds, cut):
            rows[-1] = rows[-1].model_copy(update={"high": players})
        else:
            rows.append(PlanRow(low=players, high=players, rounds=rounds, cut=cut))
    return rows


class RulesetCatalog(ReadModel):
    rulesets: list[RulesetOptions]


def shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "document" if value is None else str(value)


def variant_defaults(ruleset_id: str) -> dict[str, str]:
    """Per option, its default in the formats a true-or-false option selects, where it
    differs from the ruleset's own: ``{"round_minutes": "90 with team true"}``."""
    own = ruleset(ruleset_id).defaults
    found: dict[str, str] = {}
    for (rid, option), _ in VARIANTS.items():
        if rid != ruleset_id:
            continue
        for name, value in ruleset(rid, {option: True}).defaults.items():
            if own.get(name) != value:
                found[name] = f"{shown(value)} with {option} true"
    return found


def ruleset_options(ruleset_id: str) -> RulesetOptions:
    """The options ``ruleset_id`` takes, its own first, then the shared ones."""
    rules = ruleset(ruleset_id)
    variants = variant_defaults(ruleset_id)
    fields: list[OptionField] = []
    for name, choices in rules.option_choices.items():
        default = rules.defaults.get(name)
        if default is None and choices and all(isinstance(c, bool) for c in choices):
            default = False  # a format the option selects: absent is not selected
        fields.append(OptionField(
            name=name, choices=[shown(c) for c in choices] if choices else [],
            default=shown(default), number=choices is None and isinstance(default, int),
            variant_default=variants.get(name, "")))  # fmt: skip
    for name in rules.COMMON_OPTIONS:
        choices = SHARED_CHOICES[name]
        default = rules.defaults.get(name)
        fields.append(OptionField(
            name=name, choices=[str(c) for c in choices] if choices else [],
            default=str(default) if default is not None else SHARED_DEFAULTS[name],
            number=choices is None))  # fmt: skip
    return RulesetOptions(ruleset=ruleset_id, options=fields, plan=round_plan(ruleset_id))


def catalog() -> RulesetCatalog:
    """Every ruleset's options, in the order the rulesets are listed."""
    return RulesetCatalog(rulesets=[ruleset_options(r) for r in RULESETS])


def options_from(ruleset_id: str, given: dict[str, str], *, null: bool = False
                 ) -> dict[str, Any]:  # fmt: skip
    """The options a form gave (blank: not sent), typed as the ruleset takes them: whole
    numbers for number options, a choice as the ruleset spells it (``true`` a boolean,
    ``document`` None). With ``null`` (``change_options``, the CLI's ``KEY=null``), the
    word ``null`` sends None: that option back to its default."""
    rules = ruleset(ruleset_id)
    known = {f.name: f for f in ruleset_options(ruleset_id).options}
    options: dict[str, Any] = {}
    for name, text in given.items():
        field = known.get(name)
        value = text.strip()
        if field is None or not value:
            continue
        if null and value == "null":
            options[name] = None
        elif field.number:
            options[name] = int(value) if value.lstrip("-").isdigit() else value
        else:
            raw = rules.option_choices.get(name) or ()
            options[name] = next((c for c in raw if shown(c) == value), value)
    return options
