"""Tournament state: the one fold with many callers.

``evolve`` only applies facts; it never rejects a stored event (rules live in
``decide``). For speed the fold owns one mutable state and ``evolve`` updates it
in place: a 2,048-player event has tens of thousands of events and copying the
state for each would make a rebuild quadratic. ``fold`` itself is pure: the same
events always give an equal, freshly built state. The state's model lives in
:mod:`projections.tournament`, each event's step in :mod:`projections.steps`; both
are re-exported here, where every reader of the fold has always found them.
"""

from __future__ import annotations

from collections.abc import Iterable

from ledger.events import Event
from ledger.store import Recorded
from projections.steps import apply_event, settle
from projections.tournament import (
    OFFICIAL_ROLES,
    TABLE_STATE,
    CommandSeen,
    Match,
    MatchStatus,
    Player,
    Report,
    Round,
    RoundState,
    TableState,
    TournamentState,
)

__all__ = [
    "OFFICIAL_ROLES", "TABLE_STATE", "CommandSeen", "Match", "MatchStatus", "Player",
    "Report", "Round", "RoundState", "TableState", "TournamentState", "apply_event",
    "evolve", "fold", "remember_command", "settle",
]  # fmt: skip


def evolve(state: TournamentState, recorded: Recorded) -> TournamentState:
    """Apply one stored fact to the state (in place) and return it."""
    event: Event = recorded.event
    apply_event(state, event, recorded.seq)
    if event.command_id is not None:
        remember_command(state, event, recorded.seq)
    state.seq, state.position, state.head = recorded.seq, recorded.position, event.hash
    return state


def remember_command(state: TournamentState, event: Event, seq: int) -> None:
    """A client's command id, scoped to its actor, with the seqs and digest of its events."""
    assert event.command_id is not None
    key = (event.actor.role, event.actor.id, event.command_id)
    seen = state.command_ids.get(key)
    first = seen.first if seen is not None else seq
    state.command_ids[key] = CommandSeen(first, seq, event.command_digest)


def fold(events: Iterable[Recorded]) -> TournamentState:
    """Build the state of a tournament from its events, oldest first."""
    state = TournamentState()
    for recorded in events:
        evolve(state, recorded)
    return state
