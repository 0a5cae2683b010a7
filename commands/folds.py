"""The process's folded tournaments: each loaded once, kept, and brought up to date
with whatever any process appended since, every new event checked against the head
the fold holds (a rewritten or missing event is an integrity error, never folded).

Commands and reads share one ``Folds`` per process: the handler decides against a
tournament's fold, the read side computes its models from it. A fold is evolved in
place, so whoever uses one holds its tournament's lock (``read`` does).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

from ledger.store import Store
from projections.state import TournamentState, evolve
from replay.rebuild import gc_paused

T = TypeVar("T")


class Folds:
    """The folded state of each tournament of one store, cached for the process."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._states: dict[str, TournamentState] = {}
        self._locks: dict[str, threading.RLock] = {}
        self._guard = threading.Lock()

    def lock(self, tournament: str) -> threading.RLock:
        """The lock of one tournament's fold: every command and every read of it in this
        process holds it."""
        with self._guard:
            return self._locks.setdefault(tournament, threading.RLock())

    def state(self, tournament: str) -> TournamentState:
        """The tournament's current state: the kept fold plus any newer events, each
        checked against the head the fold holds. An unknown tournament leaves nothing
        kept. Callers that keep using the state hold ``lock(tournament)``."""
        with self.lock(tournament):
            state = self._states.get(tournament) or TournamentState()
            with gc_paused():
                for recorded in self.store.load(tournament, after=state.seq, head=state.head):
                    evolve(state, recorded)
            if state.exists:
                self._states[tournament] = state
            return state

    def known_seq(self, tournament: str) -> int:
        """The seq of the kept fold, without reading the store (0: nothing kept)."""
        kept = self._states.get(tournament)
        return kept.seq if kept is not None else 0

    def read(self, tournament: str, view: Callable[[TournamentState], T]) -> T:
        """``view`` of the current state, computed under the fold's lock."""
        with self.lock(tournament):
            return view(self.state(tournament))
