"""Group commit (``commands.group_commit``) in every store (memory, SQLite, PostgreSQL):
many commands at once, to many tournaments and to one, each appended exactly once with
contiguous seqs and each caller answered with its own outcome; a refused command, a
retried command id and a writer in another process affect only what they touch.

PostgreSQL runs when ``TLEDGER_TEST_POSTGRES`` names a database (CI sets it); every test
uses fresh tournament ids and deletes its rows afterwards.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from commands.errors import CommandError
from commands.folds import Folds
from commands.group_commit import GroupCommit, Pending
from commands.handler import Handler, Outcome
from commands.models import parse_command
from ledger.errors import StoreUnavailable
from ledger.store import Append, Recorded, Store
from ledger.url import open_store
from tests.contract.test_store_group_commit import url
from tests.public_event import clean_postgres

ROOT = Path(__file__).resolve().parents[2]
#: threads sending at once, and commands each
SENDERS, EACH = 12, 8
__all__ = ["url"]  # the fixture, used by name: each kind of store


@pytest.fixture
def tids(url: str) -> Iterator[list[str]]:
    made = [f"gw-{uuid.uuid4().hex[:12]}" for _ in range(4)]
    yield made
    clean_postgres(url, *made)


class Watched:
    """A store that counts group appends and can run something just before one (another
    writer first) or fail it (the commit fails)."""

    def __init__(self, store: Store) -> None:
        self.store, self.groups = store, 0
        self.before: list[Any] = []
        self.fail: Exception | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def append_many(self, appends: Sequence[Append]) -> Any:
        self.groups += 1
        while self.before:
            self.before.pop(0)()
        if self.fail is not None:
            raise self.fail
        return self.store.append_many(appends)


@pytest.fixture
def store(url: str) -> Iterator[Watched]:
    opened = open_store(url)
    yield Watched(opened)
    opened.close()


@pytest.fixture
def group(store: Watched) -> Iterator[GroupCommit]:
    writer = GroupCommit(Handler(store))  # type: ignore[arg-type]
    yield writer
    writer.close()


def set_up(handler: Handler, tournament: str) -> None:
    """A tournament with two players and round 1 paired: a warning is then always valid."""
    for body in ({"type": "create_tournament", "name": "Desk", "ruleset": "swu-1.4"},
                 {"type": "register_player", "player": "p1"},
                 {"type": "register_player", "player": "p2"}, {"type": "pair_round"}):  # fmt: skip
        handler.handle(parse_command({"tournament": tournament, **body}))


def warning(tournament: str, command_id: str, player: str = "p1") -> dict[str, Any]:
    return {"type": "issue_penalty", "tournament": tournament, "round": 1, "player": player,
            "penalty": "warning", "infraction": "slow play", "command_id": command_id}  # fmt: skip


def pending(body: dict[str, Any]) -> Pending:
    return Pending(parse_command(body))


def contiguous(store: Store, tournament: str) -> list[Recorded]:
    """The stream, loaded with every check; its seqs are 1..n."""
    loaded = store.load(tournament)
    assert [r.seq for r in loaded] == list(range(1, len(loaded) + 1))
    return loaded


def send_at_once(group: GroupCommit, targets: list[str]) -> dict[str, Outcome]:
    """SENDERS threads each send EACH warnings to its target; the outcome of each command
    id (every one must be accepted)."""
    outcomes: dict[str, Outcome] = {}
    start = threading.Barrier(SENDERS)

    def sender(n: int) -> None:
        start.wait()
        for i in range(EACH):
            command_id = f"s{n}-{i}"
            body = warning(targets[n % len(targets)], command_id)
            outcomes[command_id] = group.submit(parse_command(body)).result(timeout=60)

    threads = [threading.Thread(target=sender, args=(n,)) for n in range(SENDERS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=120)
    assert len(outcomes) == SENDERS * EACH
    return outcomes


@pytest.mark.parametrize("spread", [4, 1], ids=["many tournaments", "one tournament"])
def test_commands_at_once_are_each_appended_once_and_answered_with_their_own_events(
    store: Watched, group: GroupCommit, tids: list[str], spread: int
) -> None:
    targets = tids[:spread]
    for t in targets:
        set_up(group.handler, t)
    outcomes = send_at_once(group, targets)
    for command_id, outcome in outcomes.items():
        [recorded] = outcome.recorded
        assert recorded.event.command_id == command_id
    for t in targets:
        loaded = contiguous(store, t)
        ids = [r.event.command_id for r in loaded if r.event.command_id]
        assert len(ids) == len(set(ids)) == len(loaded) - 4
        mine = {r.seq: r.event.hash for o in outcomes.values() for r in o.recorded
                if o.tournament == t}  # fmt: skip
        assert mine == {r.seq: r.event.hash for r in loaded[4:]}
        assert group.handler.folds.state(t).seq == len(loaded)
    assert store.groups <= SENDERS * EACH


def test_a_group_is_one_transaction_and_a_refused_command_leaves_the_others(
    store: Watched, group: GroupCommit, tids: list[str]
) -> None:
    a, b = tids[:2]
    set_up(group.handler, a)
    set_up(group.handler, b)
    store.groups = 0
    members = [pending(warning(a, "a1")), pending(warning(a, "no", player="p9")),
               pending(warning(a, "a2")), pending(warning(b, "b1"))]  # fmt: skip
    assert group.commit(members) == []
    assert store.groups == 1
    with pytest.raises(CommandError, match="p9"):
        members[1].future.result()
    assert [m.future.result().seq for m in (members[0], members[2], members[3])] == [5, 6, 5]
    assert [r.event.command_id for r in contiguous(store, a)[4:]] == ["a1", "a2"]
    assert len(contiguous(store, b)) == 5


def test_a_retried_command_id_in_the_same_group_gets_the_first_outcome(
    store: Watched, group: GroupCommit, tids: list[str]
) -> None:
    t = tids[0]
    set_up(group.handler, t)
    first, again = pending(warning(t, "once")), pending(warning(t, "once"))
    assert group.commit([first, again]) == [again]
    assert group.commit([again]) == []
    assert again.future.result().recorded == first.future.result().recorded
    assert len(contiguous(store, t)) == 5


def other_process(url: str, body: dict[str, Any]) -> None:
    """One command handled by another process on the same database (in memory: another
    handler with a fold of its own on the same store)."""
    script = ("import json, sys\nfrom commands.handler import Handler\n"
              "from commands.models import parse_command\nfrom ledger.url import open_store\n"
              "command = parse_command(json.loads(sys.argv[2]))\n"
              "Handler(open_store(sys.argv[1])).handle(command)")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", script, url, json.dumps(body)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]


def test_a_writer_in_another_process_first_is_detected_and_only_its_tournament_decided_again(
    url: str, store: Watched, group: GroupCommit, tids: list[str]
) -> None:
    a, b = tids[:2]
    set_up(group.handler, a)
    set_up(group.handler, b)
    if url.startswith("memory"):
        other = Handler(store.store, folds=Folds(store.store))
        store.before.append(lambda: other.handle(parse_command(warning(a, "elsewhere"))))
    else:
        store.before.append(lambda: other_process(url, warning(a, "elsewhere")))
    members = [pending(warning(a, "a1")), pending(warning(a, "a2")), pending(warning(b, "b1"))]
    again = group.commit(members)
    assert again == members[:2]
    assert members[2].future.result().seq == 5
    assert group.commit(again) == []
    assert [m.future.result().seq for m in again] == [6, 7]
    assert [r.event.command_id for r in contiguous(store, a)[4:]] == ["elsewhere", "a1", "a2"]
    assert group.handler.folds.state(a).head == contiguous(store, a)[-1].event.hash


def test_a_failed_commit_answers_every_caller_with_the_error_and_writes_nothing(
    store: Watched, group: GroupCommit, tids: list[str]
) -> None:
    a, b = tids[:2]
    set_up(group.handler, a)
    set_up(group.handler, b)
    store.fail = StoreUnavailable("store error: disk full")
    members = [pending(warning(a, "a1")), pending(warning(a, "a2")), pending(warning(b, "b1"))]
    assert group.commit(members) == []
    for member in members:
        with pytest.raises(StoreUnavailable, match="disk full"):
            member.future.result()
    assert len(contiguous(store, a)) == len(contiguous(store, b)) == 4
    store.fail = None
    later = [pending(warning(a, "a1")), pending(warning(a, "a2")), pending(warning(b, "b1"))]
    assert group.commit(later) == []
    assert [m.future.result().seq for m in later] == [5, 6, 5]
    assert group.handler.folds.state(a).seq == len(contiguous(store, a)) == 6


def test_a_command_whose_caller_went_away_first_is_not_appended_and_the_writer_goes_on(
    store: Watched, tids: list[str]
) -> None:
    writer = GroupCommit(Handler(store))  # type: ignore[arg-type]
    t = tids[0]
    set_up(writer.handler, t)
    gone, kept = pending(warning(t, "gone")), pending(warning(t, "kept"))
    gone.future.cancel()
    for item in (gone, kept, None):
        writer._queue.put(item)
    writer._run()  # in this thread: it stops at the None
    assert kept.future.result().seq == 5
    assert [r.event.command_id for r in contiguous(store, t)[4:]] == ["kept"]
