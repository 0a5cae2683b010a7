"""The thin handler: load, fold, decide, append with the expected version.

This is the imperative shell around ``decide``: it reads the clock and draws
seeds, keeps a folded state per tournament between commands (so a long
``apply`` does not refold the whole log for every line), and retries when
another writer appended first.
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from commands.decide import decide
from commands.models import Command, RegisterPlayer
from ledger.chain import seal
from ledger.errors import ConcurrencyConflict
from ledger.store import PlayerEntry, Recorded, Store
from projections.state import TournamentState, evolve
from replay.rebuild import gc_paused

MAX_ATTEMPTS = 20


def backoff(attempt: int) -> None:
    """Wait a random, growing moment so that a writer that keeps losing gets its turn."""
    time.sleep(random.uniform(0, min(0.2, 0.002 * 2**attempt)))


@dataclass(frozen=True)
class Outcome:
    """What a command appended: the new events with their seq and position."""

    tournament: str
    recorded: list[Recorded]

    @property
    def seq(self) -> int:
        return self.recorded[-1].seq if self.recorded else 0

    @property
    def position(self) -> int:
        return self.recorded[-1].position if self.recorded else 0


def utc_now() -> datetime:
    return datetime.now(UTC)


def random_seed() -> int:
    return secrets.randbits(32)


class Handler:
    """Executes commands against one store."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], datetime] = utc_now,
        seeds: Callable[[], int] = random_seed,
    ) -> None:
        self.store = store
        self.clock = clock
        self.seeds = seeds
        self._states: dict[str, TournamentState] = {}

    def state(self, tournament: str) -> TournamentState:
        """The tournament's current state: the cached fold plus any newer events."""
        state = self._states.get(tournament) or TournamentState()
        with gc_paused():
            for recorded in self.store.load(tournament, after=state.seq):
                evolve(state, recorded)
        self._states[tournament] = state
        return state

    def handle(self, command: Command) -> Outcome:
        """Decide and append; on a concurrent append, reload and decide again."""
        seed = self.seeds()
        for attempt in range(MAX_ATTEMPTS):
            state = self.state(command.tournament)
            if command.command_id is not None and command.command_id in state.command_ids:
                return self.repeated(command.tournament, state.command_ids[command.command_id])
            events = decide(state, command, now=self.clock(), seed=seed)
            self._register_personal_data(command)
            try:
                recorded = self.store.append(
                    command.tournament, seal(events, state.head), expected_version=state.seq
                )
            except ConcurrencyConflict:
                backoff(attempt)
                continue
            return Outcome(command.tournament, recorded)
        raise ConcurrencyConflict(command.tournament, self.state(command.tournament).seq)

    def repeated(self, tournament: str, seqs: tuple[int, int]) -> Outcome:
        """A command id seen before: the original outcome, nothing appended (safe retries)."""
        first, last = seqs
        recorded = self.store.load(tournament, after=first - 1)
        return Outcome(tournament, [r for r in recorded if r.seq <= last])

    def _register_personal_data(self, command: Command) -> None:
        """Names and external ids go to the registry, never into the hashed log."""
        if isinstance(command, RegisterPlayer):
            entry = PlayerEntry(
                command.tournament, command.player, command.name or command.player,
                command.external_id,
            )  # fmt: skip
            self.store.put_players([entry])
