"""Before round 1 of an SWU limited event (swu-1.4 §2.3.2, swu-1.0 §2.3.2): when a
draft's pods may be assigned and deck building started, and why not.

- Limited: the decks are built at the event, "Die Spieler haben 30 Minuten Zeit, ihr
  Deck zu bauen" (§2.3.2), in draft and sealed only.
- Draft: the players draft in pods, "8 Spieler pro Gruppe werden empfohlen"
  (§2.3.2.1); a pod needs players to pass cards to (``projections.pods``).

Where the document is silent, our choices (tested): pods are assigned before round 1
is paired and again (a late registration, a withdrawn one) until deck building
starts; deck building starts once, before round 1, and in a draft only when every
active player has a seat in a pod. Pairing does not wait for either: the ledger cannot
see when the decks are done.

The deck format is asked of the event's ruleset: a ruleset without the
``deck_format`` option has no limited formats.
"""

from __future__ import annotations

from datetime import timedelta

from ledger.limited_events import DeckBuildingStarted
from projections.pods import SMALLEST_POD
from projections.refusal import ALLOWED, Step, rule_violation, wrong_phase
from projections.rulesets import Ruleset
from projections.state import TournamentState

LIMITED_FORMATS = ("draft", "sealed")
#: the sections, numbered alike in swu-1.4 and swu-1.0
LIMITED, DRAFT, TWIN_SUNS = "§2.3.2", "§2.3.2.1", "§2.3.1.2"


def deck_format(rules: Ruleset) -> str | None:
    """The event's deck format (premier unless the option says otherwise); None for a
    ruleset without deck formats."""
    if "deck_format" not in rules.option_choices:
        return None
    return str(rules.options.get("deck_format") or "premier")


def cited(rules: Ruleset, section: str) -> str:
    """``swu-1.4 §2.3.2``: the event's own regulation when it has deck formats, else
    swu-1.4 (the regulation that has them)."""
    return f"{rules.id if deck_format(rules) else 'swu-1.4'} {section}"


def ends_at_text(started: DeckBuildingStarted) -> str:
    ends = started.at + timedelta(minutes=started.minutes)
    return ends.strftime("%H:%M UTC")


def assign_pods(state: TournamentState, rules: Ruleset) -> Step:
    """``assign_pods``: in a draft, before round 1, until deck building starts, with
    players enough for a pod."""
    refused = (not_format(rules, ("draft",), "assign_pods: draft pods are for a draft "
                          f"event ({cited(rules, DRAFT)})")
               or after_round_1(state, rules, "assign_pods"))  # fmt: skip
    if refused is not None:
        return refused
    if state.deck_building is not None:
        return wrong_phase(f"assign_pods: deck building started at "
                           f"{state.deck_building.at:%H:%M UTC}: the draft is over")  # fmt: skip
    active = len(state.active_players)
    if active < SMALLEST_POD:
        return rule_violation(f"assign_pods: a draft pod needs at least {SMALLEST_POD} "
                              f"players; {active} active")  # fmt: skip
    return ALLOWED


def start_deck_building(state: TournamentState, rules: Ruleset) -> Step:
    """``start_deck_building``: in draft and sealed, once, before round 1; in a draft
    only once every active player has a seat."""
    refused = (not_format(rules, LIMITED_FORMATS, "start_deck_building: decks are built at "
                          f"the event in draft and sealed only ({cited(rules, LIMITED)})")
               or after_round_1(state, rules, "start_deck_building"))  # fmt: skip
    if refused is not None:
        return refused
    if state.deck_building is not None:
        return wrong_phase(f"start_deck_building: deck building started already at "
                           f"{state.deck_building.at:%H:%M UTC} (until "
                           f"{ends_at_text(state.deck_building)})")  # fmt: skip
    return seats(state, rules) if deck_format(rules) == "draft" else ALLOWED


def not_format(rules: Ruleset, formats: tuple[str, ...], refusal: str) -> Step | None:
    """The refusal, saying what the event is instead, unless its deck format is one of
    ``formats``."""
    fmt = deck_format(rules)
    if fmt in formats:
        return None
    what = f"its deck_format is {fmt}" if fmt else f"it runs {rules.id}"
    return rule_violation(f"{refusal}; {what}")


def after_round_1(state: TournamentState, rules: Ruleset, what: str) -> Step | None:
    if state.stage == "registration":
        return None
    return wrong_phase(
        f"{what}: round 1 is paired (stage {state.stage}); limited events build their "
        f"decks before the first round ({cited(rules, LIMITED)})"
    )


def seats(state: TournamentState, rules: Ruleset) -> Step:
    """A draft's decks are built from what was drafted: every active player needs a seat."""
    if state.pods is None:
        return wrong_phase(f"start_deck_building: a draft builds from the cards drafted in "
                           f"pods: assign_pods first ({cited(rules, DRAFT)})")  # fmt: skip
    seated = {p for pod in state.pods.pods for p in pod.players}
    unseated = [p for p in state.active_players if p not in seated]
    if not unseated:
        return ALLOWED
    verb = "has" if len(unseated) == 1 else "have"
    return rule_violation(
        f"start_deck_building: {', '.join(unseated)} {verb} no seat in a pod "
        "(registered after the pods were assigned): assign_pods again"
    )
