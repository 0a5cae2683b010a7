"""SWU limited events, draft and sealed (swu-1.4 §2.3.2, swu-1.0 §2.3.2), and
Twin Suns refused.

- Limited: the decks are built at the event, "Die Spieler haben 30 Minuten Zeit, ihr
  Deck zu bauen" (§2.3.2): ``start_deck_building`` records when the phase began and
  how long it lasts (30 minutes unless the organizer says otherwise).
- Draft: the players sit as a group around a table, "8 Spieler pro Gruppe werden
  empfohlen" and the organizer may make groups smaller or larger (§2.3.2.1):
  ``assign_pods`` seats the active players at random from a recorded seed
  (:mod:`projections.pods` says how they split).
- Twin Suns "verwendet die Multiplayer-Regeln" of the Comprehensive Rules (§2.3.1.2)
  and "hat ... seine eigenen Regeln, was Rundenzeit, Ausgang eines Matches und
  Rundenanzahl anbelangt" (swu-1.4 §4.2 note, swu-1.0 §4.2 note): those rules are in
  a document the regulations here do not contain, so a Twin Suns event is refused
  when it is created or switched to, rather than run by head-to-head rules it does not
  follow. A ``tournament_created`` already stored with ``deck_format: "twin_suns"``
  still folds (events are facts): its lists are still checked by the Twin Suns rules
  and ``pair_round`` still refuses to pair it.

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

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from commands import models as m
from commands.context import Base, require_role
from commands.errors import InvalidCommand, RuleViolation, WrongPhase
from ledger.event_base import EventBase
from ledger.limited_events import DeckBuildingStarted, PodsAssigned
from projections.pods import ENGINE, SMALLEST_POD, draw_pods
from projections.state import TournamentState

LIMITED_FORMATS = ("draft", "sealed")
#: the sections, numbered alike in swu-1.4 and swu-1.0
LIMITED, DRAFT, TWIN_SUNS = "§2.3.2", "§2.3.2.1", "§2.3.1.2"


def deck_format(state: TournamentState) -> str | None:
    """The SWU event's deck format (premier unless the option says otherwise); None for
    another game, which has no limited formats."""
    if not state.ruleset.startswith("swu-"):
        return None
    return str(state.options.get("deck_format") or "premier")


def is_limited(state: TournamentState) -> bool:
    return deck_format(state) in LIMITED_FORMATS


def cited(state: TournamentState, section: str) -> str:
    """``swu-1.4 §2.3.2``: the event's SWU ruleset, or swu-1.4 for another game's."""
    return f"{state.ruleset if state.ruleset.startswith('swu-') else 'swu-1.4'} {section}"


def ends_at_text(started: DeckBuildingStarted) -> str:
    ends = started.at + timedelta(minutes=started.minutes)
    return ends.strftime("%H:%M UTC")


def before_round_1(state: TournamentState, what: str) -> None:
    if state.stage != "registration":
        raise WrongPhase(
            f"{what}: round 1 is paired (stage {state.stage}); limited events build their "
            f"decks before the first round ({cited(state, LIMITED)})"
        )


def require_format(state: TournamentState, formats: tuple[str, ...], refusal: str) -> str:
    """The event's deck format when it is one of ``formats``; else the refusal, saying
    what the event is instead."""
    fmt = deck_format(state)
    if fmt not in formats:
        what = f"its deck_format is {fmt}" if fmt else f"it runs {state.ruleset}"
        raise RuleViolation(f"{refusal}; {what}")
    return str(fmt)


def assign_pods(state: TournamentState, c: m.AssignPods, base: Base, seed: int) -> list[EventBase]:
    require_role(c.actor, ("organizer",), "assign draft pods")
    require_format(
        state, ("draft",), f"assign_pods: draft pods are for a draft event ({cited(state, DRAFT)})"
    )
    before_round_1(state, "assign_pods")
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
    fmt = require_format(
        state,
        LIMITED_FORMATS,
        "start_deck_building: decks are built at the "
        f"event in draft and sealed only ({cited(state, LIMITED)})",
    )
    before_round_1(state, "start_deck_building")
    if state.deck_building is not None:
        raise WrongPhase(f"start_deck_building: deck building started already at "
                         f"{state.deck_building.at:%H:%M UTC} (until "
                         f"{ends_at_text(state.deck_building)})")  # fmt: skip
    if fmt == "draft":
        require_seats(state)
    return [DeckBuildingStarted(**base, minutes=c.minutes)]


def require_seats(state: TournamentState) -> None:
    """A draft's decks are built from what was drafted: every active player needs a seat."""
    if state.pods is None:
        raise WrongPhase(f"start_deck_building: a draft builds from the cards drafted in "
                         f"pods: assign_pods first ({cited(state, DRAFT)})")  # fmt: skip
    seated = {p for pod in state.pods.pods for p in pod.players}
    unseated = [p for p in state.active_players if p not in seated]
    if unseated:
        verb = "has" if len(unseated) == 1 else "have"
        raise RuleViolation(
            f"start_deck_building: {', '.join(unseated)} {verb} no seat in a pod "
            "(registered after the pods were assigned): assign_pods again"
        )


def is_twin_suns(value: Any) -> bool:
    """``twin-suns``, ``twin_suns``, ``Twin Suns``: the format, however it is spelt."""
    if not isinstance(value, str):
        return False
    return "".join(ch for ch in value.casefold() if ch.isalnum()) == "twinsuns"


def refuse_twin_suns(command: str, ruleset_id: str, options: Mapping[str, Any]) -> None:
    """Refuse an SWU event in the Twin Suns format (module docstring): input this ledger
    does not take, as any option value a ruleset does not take (exit 2)."""
    if not ruleset_id.startswith("swu-"):
        return
    if any(is_twin_suns(options.get(key)) for key in ("format", "deck_format")):
        raise InvalidCommand(
            f"{command}: Twin Suns is a multiplayer format ({ruleset_id} {TWIN_SUNS}, §4.2 "
            "note): its round and match rules are in the Comprehensive Rules (sections 11 "
            "and 12), a document these regulations do not contain; this ledger runs premier, "
            "draft and sealed"
        )
