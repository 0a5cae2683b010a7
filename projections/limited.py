"""Before round 1 of a limited event (swu-1.4 §2.3.2, swu-1.0 §2.3.2): when a draft's
pods may be assigned and deck building started, and why not.

- Limited: the decks are built at the event, "Die Spieler haben 30 Minuten Zeit, ihr
  Deck zu bauen" (§2.3.2), in the ruleset's limited formats only (draft and sealed).
- Draft: the players draft in pods, "8 Spieler pro Gruppe werden empfohlen"
  (§2.3.2.1); a pod needs players to pass cards to (``projections.pods``).

Where the document is silent, our choices (tested): pods are assigned before round 1
is paired and again (a late registration, a withdrawn one) until deck building
starts; deck building starts once, before round 1, and in a draft only when every
active player has a seat in a pod. Pairing does not wait for either: the ledger cannot
see when the decks are done.

The formats and their sections are the ruleset's (``Ruleset.deck_formats``); a refusal
for an event of a game without them names the first registered ruleset that has them.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from ledger.limited_events import DeckBuildingStarted
from projections.pods import SMALLEST_POD
from projections.refusal import ALLOWED, Step, rule_violation, wrong_phase
from projections.rulesets import Ruleset, registered
from projections.rulesets.deck_rules import DeckFormat
from projections.state import TournamentState


def having(rules: Ruleset, wanted: Callable[[DeckFormat], bool]) -> tuple[str, list[DeckFormat]]:
    """The event's ruleset id and its ``wanted`` formats; where it has none, those of the
    first registered ruleset that has (a refusal names where such a format is)."""
    for kind in (type(rules), *registered()):
        found = [f for f in kind.deck_formats if wanted(f)]
        if found:
            return kind.id, found
    raise AssertionError("no registered ruleset has such a format")


def ends_at_text(started: DeckBuildingStarted) -> str:
    ends = started.at + timedelta(minutes=started.minutes)
    return ends.strftime("%H:%M UTC")


def assign_pods(state: TournamentState, rules: Ruleset) -> Step:
    """``assign_pods``: in a draft, before round 1, until deck building starts, with
    players enough for a pod."""
    rid, drafts = having(rules, lambda f: f.pods is not None)
    refusal = f"assign_pods: draft pods are for a draft event ({rid} {drafts[0].pods})"
    refused = not_format(rules, drafts, refusal) or after_round_1(
        state, "assign_pods", f"{rid} {(rules.deck_format or drafts[0]).section}"
    )
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
    """``start_deck_building``: in a limited format, once, before round 1; in a draft
    only once every active player has a seat."""
    rid, limited = having(rules, lambda f: f.limited)
    names = " and ".join(f.name for f in limited)
    refusal = (f"start_deck_building: decks are built at the event in {names} only "
               f"({rid} {limited[0].section})")  # fmt: skip
    refused = not_format(rules, limited, refusal) or after_round_1(
        state, "start_deck_building", f"{rid} {(rules.deck_format or limited[0]).section}"
    )
    if refused is not None:
        return refused
    if state.deck_building is not None:
        return wrong_phase(f"start_deck_building: deck building started already at "
                           f"{state.deck_building.at:%H:%M UTC} (until "
                           f"{ends_at_text(state.deck_building)})")  # fmt: skip
    fmt = rules.deck_format
    return seats(state, f"{rid} {fmt.pods}") if fmt is not None and fmt.pods else ALLOWED


def not_format(rules: Ruleset, formats: list[DeckFormat], refusal: str) -> Step | None:
    """The refusal, saying what the event is instead, unless its deck format is one of
    ``formats``."""
    fmt = rules.deck_format
    if fmt is not None and fmt in formats:
        return None
    what = f"its deck_format is {fmt.name}" if fmt else f"it runs {rules.id}"
    return rule_violation(f"{refusal}; {what}")


def after_round_1(state: TournamentState, what: str, section: str) -> Step | None:
    if state.stage == "registration":
        return None
    return wrong_phase(
        f"{what}: round 1 is paired (stage {state.stage}); limited events build their "
        f"decks before the first round ({section})"
    )


def seats(state: TournamentState, section: str) -> Step:
    """A draft's decks are built from what was drafted: every active player needs a seat."""
    if state.pods is None:
        return wrong_phase(f"start_deck_building: a draft builds from the cards drafted in "
                           f"pods: assign_pods first ({section})")  # fmt: skip
    seated = {p for pod in state.pods.pods for p in pod.players}
    unseated = [p for p in state.active_players if p not in seated]
    if not unseated:
        return ALLOWED
    verb = "has" if len(unseated) == 1 else "have"
    return rule_violation(
        f"start_deck_building: {', '.join(unseated)} {verb} no seat in a pod "
        "(registered after the pods were assigned): assign_pods again"
    )
