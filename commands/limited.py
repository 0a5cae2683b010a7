"""SWU limited events, draft and sealed (swu-1.4 §2.3.2, swu-1.0 §2.3.2; issue 16), and
Twin Suns refused.

- Limited: the decks are built at the event, "Die Spieler haben 30 Minuten Zeit, ihr
  Deck zu bauen" (§2.3.2): ``start_deck_building`` records when the phase began and
  how long it lasts (30 minutes unless the organizer says otherwise).
- Draft: the players sit as a group around a table, "8 Spieler pro Gruppe werden
  empfohlen" and the organizer may make groups smaller or larger (§2.3.2.1):
  ``assign_pods`` seats the active players at random from a recorded seed
  (:mod:`projections.pods` says how they split).
- Twin Suns, a multiplayer format whose rules are in a document the regulations here
  do not contain (:mod:`projections.rulesets.swu_decks`), is refused when an event is
  created or switched to (``Ruleset.refusal``). A ``tournament_created`` already
  stored with ``deck_format: "twin_suns"`` still folds (events are facts): its lists
  are still checked by the Twin Suns rules and ``pair_round`` still refuses to pair it.

The formats and their sections are the ruleset's (``Ruleset.deck_formats``).

Where the document is silent, our choices (tested):
- Pods are assigned before round 1 is paired and may be assigned again (a late
  registration, a withdrawn one) until deck building starts: the last assignment
  counts. Once deck building has started the draft is over, and so is seating.
- Deck building starts once, before round 1 is paired; in a draft only after the
  pods are assigned and only when every active player has a seat (a player registered
  after the assignment needs a new one). Recording the phase is optional: pairing
  does not wait for it, as the ledger cannot see when the decks are done.
- Swiss pairing of a draft event ignores the pods: the document is silent, and round 1
  is paired at random across the whole field like any other (§4.1.1).
- Lists of a limited event are submitted after deck building, as any list, and lock
  when round 1 starts at competitive tier (commands.lists).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any

from commands import models as m
from commands.context import Base, require_role
from commands.errors import InvalidCommand, RuleViolation, WrongPhase
from ledger.event_base import EventBase
from ledger.limited_events import DeckBuildingStarted, PodsAssigned
from projections.pods import ENGINE, SMALLEST_POD, draw_pods
from projections.rulesets import registered, ruleset_class
from projections.rulesets.deck_rules import DeckFormat
from projections.standings import ruleset_of
from projections.state import TournamentState


def deck_format(state: TournamentState) -> DeckFormat | None:
    """The event's deck-building format (``Ruleset.deck_format``); None for a game that
    has no formats to choose from."""
    return ruleset_of(state).deck_format


def having(
    state: TournamentState, wanted: Callable[[DeckFormat], bool]
) -> tuple[str, list[DeckFormat]]:
    """The event's ruleset id and its ``wanted`` formats; where it has none, those of the
    first registered ruleset that has (a refusal names where such a format is)."""
    for rules in (type(ruleset_of(state)), *registered()):
        found = [f for f in rules.deck_formats if wanted(f)]
        if found:
            return rules.id, found
    raise AssertionError("no registered ruleset has such a format")


def ends_at_text(started: DeckBuildingStarted) -> str:
    ends = started.at + timedelta(minutes=started.minutes)
    return ends.strftime("%H:%M UTC")


def before_round_1(state: TournamentState, what: str, section: str) -> None:
    if state.stage != "registration":
        raise WrongPhase(
            f"{what}: round 1 is paired (stage {state.stage}); limited events build their "
            f"decks before the first round ({section})"
        )


def require_format(state: TournamentState, formats: list[DeckFormat], refusal: str) -> DeckFormat:
    """The event's deck format when it is one of ``formats``; else the refusal, saying
    what the event is instead."""
    fmt = deck_format(state)
    if fmt is None or fmt not in formats:
        what = f"its deck_format is {fmt.name}" if fmt else f"it runs {state.ruleset}"
        raise RuleViolation(f"{refusal}; {what}")
    return fmt


def assign_pods(state: TournamentState, c: m.AssignPods, base: Base, seed: int) -> list[EventBase]:
    require_role(c.actor, ("organizer",), "assign draft pods")
    rid, drafts = having(state, lambda f: f.pods is not None)
    fmt = require_format(
        state, drafts, f"assign_pods: draft pods are for a draft event ({rid} {drafts[0].pods})"
    )
    before_round_1(state, "assign_pods", f"{rid} {fmt.section}")
    if state.deck_building is not None:
        raise WrongPhase(f"assign_pods: deck building started at "
                         f"{state.deck_building.at:%H:%M UTC}: the draft is over")  # fmt: skip
    players = state.active_players
    if len(players) < SMALLEST_POD:
        raise RuleViolation(f"assign_pods: a draft pod needs at least {SMALLEST_POD} players; "
                            f"{len(players)} active")  # fmt: skip
    chosen = c.seed if c.seed is not None else seed
    pods = draw_pods(players, c.pod_size, chosen)
    return [PodsAssigned(**base, pod_size=c.pod_size, seed=chosen, engine=ENGINE, pods=pods,
                         reason=c.reason)]  # fmt: skip


def start_deck_building(
    state: TournamentState, c: m.StartDeckBuilding, base: Base, seed: int
) -> list[EventBase]:
    require_role(c.actor, ("organizer",), "start deck building")
    rid, limited = having(state, lambda f: f.limited)
    names = " and ".join(f.name for f in limited)
    fmt = require_format(
        state,
        limited,
        f"start_deck_building: decks are built at the event in {names} only "
        f"({rid} {limited[0].section})",
    )
    before_round_1(state, "start_deck_building", f"{rid} {fmt.section}")
    if state.deck_building is not None:
        raise WrongPhase(f"start_deck_building: deck building started already at "
                         f"{state.deck_building.at:%H:%M UTC} (until "
                         f"{ends_at_text(state.deck_building)})")  # fmt: skip
    if fmt.pods is not None:
        require_seats(state, f"{rid} {fmt.pods}")
    return [DeckBuildingStarted(**base, minutes=c.minutes)]


def require_seats(state: TournamentState, section: str) -> None:
    """A draft's decks are built from what was drafted: every active player needs a seat."""
    if state.pods is None:
        raise WrongPhase(f"start_deck_building: a draft builds from the cards drafted in "
                         f"pods: assign_pods first ({section})")  # fmt: skip
    seated = {p for pod in state.pods.pods for p in pod.players}
    unseated = [p for p in state.active_players if p not in seated]
    if unseated:
        verb = "has" if len(unseated) == 1 else "have"
        raise RuleViolation(
            f"start_deck_building: {', '.join(unseated)} {verb} no seat in a pod "
            "(registered after the pods were assigned): assign_pods again"
        )


def refuse_unsupported(command: str, ruleset_id: str, options: Mapping[str, Any]) -> None:
    """Refuse an event this ledger does not run though its document has it, an SWU Twin
    Suns event (``Ruleset.refusal``; module docstring): input this ledger does not
    take, as any option value a ruleset does not take (exit 2)."""
    reason = ruleset_class(ruleset_id).refusal(options)
    if reason is not None:
        raise InvalidCommand(f"{command}: {reason}")
