"""Group commit: commands that arrive together are decided one after the other by a single
writer and appended in one transaction, so that many clients at once cost the database
one commit instead of one each.

Every command is decided as ``Handler.handle`` decides it: under its tournament's lock,
against the process's kept fold, checked against the store (``Folds.state``), with its
own clock reading, seed and salt. Commands of one tournament are decided in the order
they arrived, each on the state the ones before it leave; commands of other tournaments
beside them. The appends go to the store together (``Store.append_many``): each one with
its expected version and its tip check in the same transaction, in a savepoint of its
own. A caller is answered only once the transaction holding its events is committed.

What one command meets is its own: a command ``decide`` refuses is answered with its
error and the others go on; a retried command id is answered with its first outcome (a
retry of a command still in the same group waits for the next group, so that the first
is stored before it is answered again); when another process appended to a tournament
first, that tournament's commands are decided again on the newer log (at most
``MAX_ATTEMPTS`` times, as the handler retries), and the other tournaments' appends are
written. A store that went back answers ``StoreWentBack`` and drops the kept fold; a
tournament a venue claimed on a hosted mirror answers ``Mirrored`` (the store checks the
claim in the transaction).

``decide`` stays pure; the batching is all here, in the shell. The second command of a
tournament in one group is decided on the kept fold evolved with the first one's events
before they are stored; if that append then fails, the fold is dropped and the next use
loads the log again with every check (a copy of a large fold costs more than that rare
reload).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from contextlib import ExitStack
from dataclasses import dataclass, field

from commands.decide import decide
from commands.errors import Mirrored
from commands.handler import MAX_ATTEMPTS, Handler, Outcome, personal_data
from commands.idempotency import seen_before
from commands.lists import list_entries
from commands.models import Command
from ledger.chain import Sealed, seal
from ledger.errors import Claimed, ConcurrencyConflict, LedgerError, StoreWentBack
from ledger.store import Append, ListEntry, PlayerEntry, Recorded
from projections.state import TournamentState, evolve

#: commands taken into one transaction at most
MAX_GROUP = 64


@dataclass
class Pending:
    """A command waiting for its outcome, and how many times it was decided in vain."""

    command: Command
    future: Future[Outcome] = field(default_factory=Future)
    attempts: int = 0


@dataclass
class Plan:
    """One tournament's part of a group: the state it was decided on, the appended events
    in order with the commands they came from, and whether the kept fold was evolved
    ahead of the store (``ahead``: dropped if the append fails)."""

    tournament: str
    state: TournamentState
    base: int
    sealed: list[Sealed] = field(default_factory=list)
    players: list[PlayerEntry] = field(default_factory=list)
    lists: list[ListEntry] = field(default_factory=list)
    members: list[tuple[Pending, int]] = field(default_factory=list)  # command, its events
    unapplied: int = 0  # events at the end of ``sealed`` not yet evolved into ``state``
    ahead: bool = False

    def append(self) -> Append:
        return Append(self.tournament, self.sealed, self.base, self.players, self.lists)


class GroupCommit:
    """The process's single writer: ``submit`` queues a command, the writer's thread
    decides and appends whatever is queued together and settles each caller's future."""

    def __init__(self, handler: Handler, max_group: int = MAX_GROUP) -> None:
        self.handler, self.max_group = handler, max_group
        self._queue: queue.SimpleQueue[Pending | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._guard = threading.Lock()

    def submit(self, command: Command) -> Future[Outcome]:
        """Queue ``command``; its future holds the outcome once its events are committed
        (or the error that refused it)."""
        with self._guard:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="group-commit",
                                                daemon=True)  # fmt: skip
                self._thread.start()
        pending = Pending(command)
        self._queue.put(pending)
        return pending.future

    def handle(self, command: Command) -> Outcome:
        """``submit`` and wait: the outcome, or the error raised."""
        return self.submit(command).result()

    def close(self) -> None:
        """Stop the writer once what is queued is settled."""
        with self._guard:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._queue.put(None)
            thread.join()

    def _run(self) -> None:
        carried: list[Pending] = []
        stopping = False
        while not stopping or carried:
            group, carried = carried, []
            if not group:
                first = self._queue.get()
                if first is None:
                    return
                group = [first]
            while len(group) < self.max_group and not stopping:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stopping = True
                else:
                    group.append(more)
            live = [
                p for p in group if p.future.running() or p.future.set_running_or_notify_cancel()
            ]
            try:
                carried = self.commit(live)
            except BaseException as exc:  # a fault of the writer: every caller waiting hears it
                for pending in live:
                    if not pending.future.done():
                        pending.future.set_exception(exc)
                carried = []
                if not isinstance(exc, Exception):
                    raise

    def commit(self, group: Sequence[Pending]) -> list[Pending]:
        """Decide and append one group; settles every future it can and returns the
        commands to decide again in the next group (in their order). A command whose
        caller went away before it was taken (its future cancelled) is not in ``group``:
        nobody is waiting to be told it was appended."""
        by_tournament: dict[str, list[Pending]] = {}
        for pending in group:
            by_tournament.setdefault(pending.command.tournament, []).append(pending)
        again: list[Pending] = []
        with ExitStack() as locks:
            for tournament in sorted(by_tournament):
                locks.enter_context(self.handler.folds.lock(tournament))
            states = self.handler.folds.states(list(by_tournament))
            plans = [plan for tournament, members in by_tournament.items()
                     if (plan := self.plan(states[tournament], tournament, members, again))
                     is not None]  # fmt: skip
            written = [p for p in plans if p.sealed]
            try:
                results = self.handler.store.append_many([p.append() for p in written])
            except Exception as exc:  # the commit failed: nothing written, nobody answered yes
                for plan in written:
                    self.forget(plan)
                    for pending, _ in plan.members:
                        pending.future.set_exception(exc)
                return again
            for plan, result in zip(written, results, strict=True):
                again += self.settle(plan, result)
            for plan in plans:
                if not plan.sealed:
                    for pending, _ in plan.members:
                        pending.future.set_result(Outcome(plan.tournament, []))
        return again

    def plan(self, state: TournamentState | Exception, tournament: str, members: list[Pending],
             again: list[Pending]) -> Plan | None:  # fmt: skip
        """The tournament's commands decided in order on ``state`` (or all answered with
        the error its load met: a damaged store's names the seq); refusals and repeats
        answered at once, retries of a command of this same group put in ``again``."""
        handler = self.handler
        if isinstance(state, Exception):
            for pending in members:
                pending.future.set_exception(state)
            return None
        plan = Plan(tournament, state, state.seq)
        for pending in members:
            command = pending.command
            self.catch_up(plan)
            try:
                seen = seen_before(state, command)
                if seen is not None and seen.last > plan.base:
                    again.append(pending)  # its first is in this group, not yet stored
                    continue
                if seen is not None:
                    pending.future.set_result(handler.repeated(command, seen))
                    continue
                salt = handler.salts()
                kept = [*handler.kept_lists(command), *plan.lists]
                events = decide(state, command, now=handler.clock(), seed=handler.seeds(),
                                kept_lists=kept, salt=salt)  # fmt: skip
                sealed = seal(events, state.head)
                entries = list_entries(state, command, events, state.seq + 1, salt)
            except Exception as exc:  # a refusal (or a fault) is this command's alone
                pending.future.set_exception(exc)
                continue
            plan.sealed += sealed
            plan.players += personal_data(command)
            plan.lists += entries
            plan.members.append((pending, len(sealed)))
            plan.unapplied = len(sealed)
        return plan

    @staticmethod
    def catch_up(plan: Plan) -> None:
        """Evolve the state with the events of the command before, ahead of the store,
        so that the next command is decided on the state they leave."""
        if not plan.unapplied:
            return
        for s in plan.sealed[-plan.unapplied :]:
            evolve(plan.state, Recorded(plan.state.seq + 1, 0, s.event))
        plan.unapplied, plan.ahead = 0, True

    def settle(self, plan: Plan, result: list[Recorded] | LedgerError) -> list[Pending]:
        """Answer a tournament's commands once the group is committed; those to decide
        again (another writer appended first) are returned."""
        if isinstance(result, list):
            for recorded in result[len(result) - plan.unapplied :] if plan.unapplied else ():
                evolve(plan.state, recorded)
            if plan.ahead and result:  # the last position is the store's, not 0
                plan.state.position = result[-1].position
            self.handler.folds.advanced(plan.tournament)
            start = 0
            for pending, count in plan.members:
                pending.future.set_result(Outcome(plan.tournament, result[start : start + count]))
                start += count
            return []
        self.forget(plan)
        if isinstance(result, StoreWentBack):
            self.handler.folds.drop(plan.tournament)
        refusal = Mirrored(plan.tournament) if isinstance(result, Claimed) else result
        again = []
        for pending, _ in plan.members:
            pending.attempts += 1
            if isinstance(result, ConcurrencyConflict) and pending.attempts < MAX_ATTEMPTS:
                again.append(pending)
            else:
                pending.future.set_exception(refusal)
        return again

    def forget(self, plan: Plan) -> None:
        """A fold evolved ahead of an append that was not written is dropped."""
        if plan.ahead:
            self.handler.folds.drop(plan.tournament)
