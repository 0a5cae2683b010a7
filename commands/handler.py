"""The thin handler: load, fold, decide, append with the expected version.

This is the imperative shell around ``decide``: it reads the clock and draws
seeds and the salts of lists' hashes, decides against the process's kept fold of the
tournament (``Folds``, so a long ``apply`` does not refold the whole log for every
line), and retries when another writer appended first.
"""

from __future__ import annotations

import copy
import random
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from commands.decide import decide
from commands.errors import CommandError, Mirrored
from commands.folds import Folds
from commands.idempotency import CommandIdReused, registry_id, same_personal_data, seen_before
from commands.lists import list_entries, wants_lists
from commands.models import Command, RegisterPlayer, RegisterTeam
from ledger.chain import Sealed, seal
from ledger.errors import Claimed, ConcurrencyConflict, StoreWentBack
from ledger.store import ListEntry, PlayerEntry, Recorded, Store
from projections.state import CommandSeen, TournamentState, evolve

MAX_ATTEMPTS = 20


def backoff(attempt: int) -> None:
    """Wait a random, growing moment so that a writer that keeps losing gets its turn."""
    time.sleep(random.uniform(0, min(0.2, 0.002 * 2**attempt)))


class BatchRefused(Exception):
    """Command ``index`` of a batch was refused with ``error``; nothing was appended."""

    def __init__(self, index: int, error: CommandError) -> None:
        super().__init__(str(error))
        self.index, self.error = index, error


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


@dataclass(frozen=True)
class Batch:
    """A batch decided: its sealed events, registry entries and lists, and the state they
    leave."""

    sealed: list[Sealed]
    players: list[PlayerEntry]
    lists: list[ListEntry]
    state: TournamentState


def one_tournament(commands: Sequence[Command]) -> str:
    """The one tournament a batch's commands act on."""
    tournament = commands[0].tournament if commands else ""
    if any(c.tournament != tournament for c in commands):
        raise ValueError("a batch holds commands of one tournament")
    return tournament


def utc_now() -> datetime:
    return datetime.now(UTC)


def random_seed() -> int:
    return secrets.randbits(32)


#: bytes of a list's salt: enough that nobody guesses it, so nobody confirms a guessed
#: list against its hash before it is published
SALT_BYTES = 16


def random_salt() -> bytes:
    return secrets.token_bytes(SALT_BYTES)


class Handler:
    """Executes commands against one store."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], datetime] = utc_now,
        seeds: Callable[[], int] = random_seed,
        folds: Folds | None = None,
        salts: Callable[[], bytes] = random_salt,
    ) -> None:
        self.store = store
        self.clock = clock
        self.seeds = seeds
        self.salts = salts
        self.folds = folds if folds is not None else Folds(store)

    def handle(self, command: Command) -> Outcome:
        """Decide and append under the tournament's lock; on a concurrent append by
        another process, reload and decide again."""
        with self.folds.lock(command.tournament):
            return self._handle(command)

    def _handle(self, command: Command) -> Outcome:
        seed, salt = self.seeds(), self.salts()
        for attempt in range(MAX_ATTEMPTS):
            state = self.folds.state(command.tournament)
            seen = seen_before(state, command)
            if seen is not None:
                return self.repeated(command, seen)
            events = decide(state, command, now=self.clock(), seed=seed,
                            kept_lists=self.kept_lists(command), salt=salt)  # fmt: skip
            try:
                recorded = self._append(
                    command.tournament, state, seal(events, state.head), personal_data(command),
                    list_entries(state, command, events, state.seq + 1, salt),
                )  # fmt: skip
            except ConcurrencyConflict:
                backoff(attempt)
                continue
            return Outcome(command.tournament, recorded)
        raise ConcurrencyConflict(command.tournament, self.folds.state(command.tournament).seq)

    def handle_batch(self, commands: Sequence[Command]) -> Outcome:
        """Commands of one tournament decided in order, each against the state the ones
        before it leave, and appended as one append with one expected version: all of
        them or none (``register --csv``: a spreadsheet of 37 players is one transaction,
        with every registry entry). A command id seen before adds nothing, as in
        ``handle``. A refused command raises ``BatchRefused`` naming its index."""
        tournament = one_tournament(commands)
        with self.folds.lock(tournament):
            seed = self.seeds()
            for attempt in range(MAX_ATTEMPTS):
                state = self.folds.state(tournament)
                batch = self._decide_batch(state, commands, seed)
                if not batch.sealed:
                    return Outcome(tournament, [])
                try:
                    recorded = self._append(tournament, state, batch.sealed, batch.players,
                                            batch.lists)  # fmt: skip
                except ConcurrencyConflict:
                    backoff(attempt)
                    continue
                return Outcome(tournament, recorded)
            raise ConcurrencyConflict(tournament, self.folds.state(tournament).seq)

    def _append(self, tournament: str, state: TournamentState, sealed: list[Sealed],
                players: list[PlayerEntry], lists: list[ListEntry]) -> list[Recorded]:  # fmt: skip
        """Append what was decided on ``state``; the store refuses it unless the stream
        still ends at ``state``'s seq and head (``StoreWentBack``: the kept fold is then
        dropped, so the next command or read reloads the log with every check), and
        when a venue claimed the tournament (``Mirrored``: a hosted mirror's copy takes
        no command of its own)."""
        try:
            return self.store.append(tournament, sealed, expected_version=state.seq,
                                     players=players, lists=lists)  # fmt: skip
        except StoreWentBack:
            self.folds.drop(tournament)
            raise
        except Claimed:
            raise Mirrored(tournament) from None

    def rehearse(self, commands: Sequence[Command]) -> TournamentState:
        """The state a batch would leave, decided as ``handle_batch`` decides it, with
        nothing appended (a dry run); ``BatchRefused`` as there."""
        tournament = one_tournament(commands)
        with self.folds.lock(tournament):
            return self._decide_batch(self.folds.state(tournament), commands, self.seeds()).state

    def _decide_batch(
        self, state: TournamentState, commands: Sequence[Command], seed: int
    ) -> Batch:
        """The batch's sealed events, registry entries and lists, decided on a copy of the
        state (the cached fold changes only by what the store holds); each command's
        lists are salted with a salt of their own."""
        scratch = copy.deepcopy(state)
        now = self.clock()
        sealed: list[Sealed] = []
        players: list[PlayerEntry] = []
        lists: list[ListEntry] = []
        for index, command in enumerate(commands):
            try:
                if self._seen_in(scratch, command):
                    continue
                kept, salt = [*self.kept_lists(command), *lists], self.salts()
                new = seal(decide(scratch, command, now=now, seed=seed, kept_lists=kept,
                                  salt=salt), scratch.head)  # fmt: skip
                lists += list_entries(scratch, command, [s.event for s in new], scratch.seq + 1,
                                      salt)  # fmt: skip
            except CommandError as exc:
                raise BatchRefused(index, exc) from exc
            for s in new:
                evolve(scratch, Recorded(scratch.seq + 1, 0, s.event))
            sealed += new
            players += personal_data(command)
        return Batch(sealed, players, lists, scratch)

    def kept_lists(self, command: Command) -> list[ListEntry]:
        """The tournament's ``tledger_lists`` rows when deciding ``command`` reads them (a
        deck check with what was presented), else none: other commands need no read."""
        return self.store.lists(command.tournament) if wants_lists(command) else []

    def _seen_in(self, state: TournamentState, command: Command) -> bool:
        """Whether the command's id was seen before with this body (and these personal data)."""
        seen = seen_before(state, command)
        if seen is None:
            return False
        entry = self.store.players(command.tournament).get(registry_id(command))
        if not same_personal_data(command, entry):
            raise CommandIdReused(command.command_id or "", seen.first)
        return True

    def repeated(self, command: Command, seen: CommandSeen) -> Outcome:
        """A command id seen before with this body: the original outcome, nothing appended
        (safe retries). A registration retried under another name is refused."""
        entry = self.store.players(command.tournament).get(registry_id(command))
        if not same_personal_data(command, entry):
            raise CommandIdReused(command.command_id or "", seen.first)
        recorded = self.store.load(command.tournament, after=seen.first - 1, head=None)
        return Outcome(command.tournament, [r for r in recorded if r.seq <= seen.last])


def personal_data(command: Command) -> list[PlayerEntry]:
    """Names and external ids go to the registry, never into the hashed log; the store
    writes them in the transaction that appends the registration, or not at all. A team
    (lcg-2.1d Team-Turniere) has an entry of its own and one per member, so that
    forgetting a member erases that person's name only."""
    if isinstance(command, RegisterTeam):
        team = PlayerEntry(command.tournament, command.team, command.name or command.team, None)
        return [team, *(PlayerEntry(command.tournament, p.player, p.name or p.player, None)
                        for p in command.members)]  # fmt: skip
    if not isinstance(command, RegisterPlayer):
        return []
    name = command.name or command.player
    return [PlayerEntry(command.tournament, command.player, name, command.external_id)]
