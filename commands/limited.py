"""SWU limited events, draft and sealed (swu-1.4 §2.3.2, swu-1.0 §2.3.2), and
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
  does not wait for it, as the ledger cannot see when the decks are done. When each
  step may be taken is the lifecycle's to say (``projections.limited``).
- Swiss pairing of a draft event ignores the pods: the document is silent, and round 1
  is paired at random across the whole field like any other (§4.1.1).
- Lists of a limited event are submitted after deck building, as any list, and lock
  when round 1 starts at competitive tier (commands.lists).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from commands import models as m
from commands.context import Base, require, require_role
from commands.errors import InvalidCommand
from ledger.event_base import EventBase
from ledger.limited_events import DeckBuildingStarted, PodsAssigned
from projections.lifecycle import lifecycle
from projections.pods import ENGINE, draw_pods
from projections.rulesets import ruleset_class
from projections.rulesets.deck_rules import DeckFormat
from projections.standings import ruleset_of
from projections.state import TournamentState


def deck_format(state: TournamentState) -> DeckFormat | None:
    """The event's deck-building format (``Ruleset.deck_format``); None for a game that
    has no formats to choose from."""
    return ruleset_of(state).deck_format


def assign_pods(state: TournamentState, c: m.AssignPods, base: Base, seed: int) -> list[EventBase]:
    """The draft's pods, when the lifecycle allows them (``projections.limited``)."""
    require_role(c.actor, ("organizer",), "assign draft pods")
    require(lifecycle(state).assign_pods)
    chosen = c.seed if c.seed is not None else seed
    pods = draw_pods(state.active_players, c.pod_size, chosen)
    return [PodsAssigned(**base, pod_size=c.pod_size, seed=chosen, engine=ENGINE, pods=pods,
                         reason=c.reason)]  # fmt: skip


def start_deck_building(
    state: TournamentState, c: m.StartDeckBuilding, base: Base, seed: int
) -> list[EventBase]:
    """Deck building, when the lifecycle allows it (``projections.limited``)."""
    require_role(c.actor, ("organizer",), "start deck building")
    require(lifecycle(state).start_deck_building)
    return [DeckBuildingStarted(**base, minutes=c.minutes)]


def refuse_unsupported(command: str, ruleset_id: str, options: Mapping[str, Any]) -> None:
    """Refuse an event this ledger does not run though its document has it, an SWU Twin
    Suns event (``Ruleset.refusal``; module docstring): input this ledger does not
    take, as any option value a ruleset does not take (exit 2)."""
    reason = ruleset_class(ruleset_id).refusal(options)
    if reason is not None:
        raise InvalidCommand(f"{command}: {reason}")
