"""The process's folded tournaments: each loaded once, kept, and brought up to date
with whatever any process appended since.

What is kept is checked against the store on every use, cheaply: the stored event at
the kept seq must still be the one folded (same hash), or the store went back under
the process (an older backup restored, a rewritten tail) and the fold is dropped with
an integrity error naming the seq. Every new event is checked against the head before
it. Damage further back (a flipped byte at seq 12 of a fold at seq 300) costs a read of
the whole stream to find, so each kept fold's stored bytes are checked whole again once
``full_check_every`` seconds have passed; a damaged or missing event then answers as a
cold read does, with the integrity error of its seq, until the store is repaired.

Commands and reads share one ``Folds`` per process: the handler decides against a
tournament's fold, the read side computes its models from it. A fold is evolved in
place, so whoever uses one holds its tournament's lock (``read`` does).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from ledger.chain import check_stored
from ledger.errors import ChainBroken, LedgerError, StoreWentBack
from ledger.store import Store
from projections.state import TournamentState, evolve
from replay.rebuild import gc_paused

T = TypeVar("T")
#: seconds between checks of a kept fold's whole stored stream
FULL_CHECK_EVERY = 30.0


class Folds:
    """The folded state of each tournament of one store, kept for the process."""

    def __init__(self, store: Store, full_check_every: float = FULL_CHECK_EVERY,
                 clock: Callable[[], float] = time.monotonic) -> None:  # fmt: skip
        self.store = store
        self.full_check_every, self.clock = full_check_every, clock
        self._states: dict[str, TournamentState] = {}
        #: (seq, head) of each kept fold as last brought up to date, read without its lock
        self._points: dict[str, tuple[int, str]] = {}
        self._checked_at: dict[str, float] = {}
        self._locks: dict[str, threading.RLock] = {}
        self._guard = threading.Lock()

    def lock(self, tournament: str) -> threading.RLock:
        """The lock of one tournament's fold: every command and every read of it in this
        process holds it."""
        with self._guard:
            return self._locks.setdefault(tournament, threading.RLock())

    def state(self, tournament: str) -> TournamentState:
        """The tournament's current state: the kept fold, checked against the store, plus
        any newer events, each checked against the head before it. An unknown tournament
        leaves nothing kept; a damaged store leaves nothing kept either, so the next use
        reloads with every check. Callers that keep using the state hold
        ``lock(tournament)``."""
        with self.lock(tournament):
            try:
                state = self._brought_up_to_date(tournament)
            except ChainBroken:
                self.drop(tournament)
                raise
            if state.exists:
                self._states[tournament] = state
                self._points[tournament] = (state.seq, state.head)
            return state

    def states(self, tournaments: Sequence[str]) -> dict[str, TournamentState | Exception]:
        """``state`` of several tournaments, or the error each one meets: the kept folds
        are checked against the store and brought up to date in one read
        (``Store.load_many``, every check of ``state`` made), the others loaded as
        ``state`` loads them. Callers hold every one's ``lock``."""
        quick = [t for t in tournaments if t in self._states and not self.due(t)]
        out: dict[str, TournamentState | Exception] = {}
        try:
            found = self.store.load_many([(t, self._states[t].seq, self._states[t].head)
                                          for t in quick]) if quick else []  # fmt: skip
        except LedgerError as exc:  # the store could not be read
            found = [exc for _ in quick]
        for tournament, got in zip(quick, found, strict=True):
            if isinstance(got, LedgerError):
                if isinstance(got, ChainBroken):
                    self.drop(tournament)
                out[tournament] = got
                continue
            state = self._states[tournament]
            with gc_paused():
                for recorded in got:
                    evolve(state, recorded)
            out[tournament] = state
        for tournament in tournaments:
            if tournament not in out:
                try:
                    out[tournament] = self.state(tournament)
                except Exception as exc:  # that tournament's answer
                    out[tournament] = exc
        return out

    def _brought_up_to_date(self, tournament: str) -> TournamentState:
        kept = self._states.get(tournament)
        if kept is not None and self.due(tournament):
            self._check_whole(tournament, kept)
        state = kept or TournamentState()
        with gc_paused():
            for recorded in self.store.load(tournament, after=state.seq, head=state.head):
                evolve(state, recorded)
        if kept is None:  # loaded whole, every event checked
            self._checked_at[tournament] = self.clock()
        return state

    def _check_whole(self, tournament: str, kept: TournamentState | None) -> None:
        """Every stored byte of the stream against its hash and link (no model parsed);
        what is kept must be its prefix."""
        checked = check_stored(tournament, self.store.load_raw(tournament))
        self._checked_at[tournament] = self.clock()
        if kept is not None and kept.seq:
            if len(checked) < kept.seq:
                raise StoreWentBack(tournament, kept.seq, len(checked))
            if checked[kept.seq - 1].hash != kept.head:
                raise StoreWentBack(tournament, kept.seq, kept.seq)

    def due(self, tournament: str) -> bool:
        """Whether the kept fold's whole stream is to be checked again before its next use
        (a read that must stay cheap goes the slow way instead)."""
        checked = self._checked_at.get(tournament)
        return checked is None or self.clock() - checked >= self.full_check_every

    def drop(self, tournament: str) -> None:
        """Forget the kept fold: the next use loads the stream again with every check."""
        self._points.pop(tournament, None)
        self._states.pop(tournament, None)
        self._checked_at.pop(tournament, None)

    def current_point(self, tournament: str) -> tuple[int, str] | None:
        """The (seq, head) the kept fold was last brought up to, when the store still ends
        exactly there: the stored event at that seq has that hash and none follows (one
        indexed query). Takes no lock and touches no fold, so a read of what was computed
        at that seq never waits behind a command or a computation. None when nothing is
        kept, a check of the whole stream is due, or the store holds anything else
        (newer events, or damage: the next ``state`` says which)."""
        point = self._points.get(tournament)
        if point is None or self.due(tournament):
            return None
        seq, head = point
        try:  # one newer event is enough to say no: the rest are not read here
            newer = self.store.load(tournament, after=seq, head=head, until=seq + 1)
        except LedgerError:
            return None
        return None if newer else point

    def advanced(self, tournament: str) -> None:
        """Note that the kept fold was evolved in place with events the store now holds
        (a group commit's, after its commit), so that ``current_point`` knows its seq.
        The caller holds the tournament's lock."""
        state = self._states.get(tournament)
        if state is not None:
            self._points[tournament] = (state.seq, state.head)

    def known_seq(self, tournament: str) -> int:
        """The seq of the kept fold, without reading the store (0: nothing kept)."""
        kept = self._states.get(tournament)
        return kept.seq if kept is not None else 0

    def read(self, tournament: str, view: Callable[[TournamentState], T]) -> T:
        """``view`` of the current state, computed under the fold's lock."""
        with self.lock(tournament):
            return view(self.state(tournament))
