"""Group commit in every store (memory, SQLite, PostgreSQL): several appends, to several
tournaments or queued on one, written in one transaction, each checked as ``append``
checks it, and one that fails leaving the others written.

PostgreSQL runs when ``TLEDGER_TEST_POSTGRES`` names a database (CI sets it); every test
uses fresh tournament ids and deletes its rows afterwards.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from ledger.chain import GENESIS, Sealed, seal
from ledger.errors import ConcurrencyConflict, StoreWentBack
from ledger.store import Append, PlayerEntry, Store
from ledger.url import open_store
from tests.builders import Given, create, register
from tests.public_event import clean_postgres
from tests.stores import KINDS, store_url


@pytest.fixture(params=["memory", *KINDS])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "memory":
        return f"memory://{uuid.uuid4().hex}"
    return store_url(request.param, tmp_path, "group.sqlite3")


@pytest.fixture
def tids(url: str) -> Iterator[list[str]]:
    """Three fresh tournament ids; on PostgreSQL what the test wrote of them goes after."""
    made = [f"gc-{uuid.uuid4().hex[:12]}" for _ in range(3)]
    yield made
    clean_postgres(url, *made)


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    opened = open_store(url)
    yield opened
    opened.close()


def log(tid: str, players: int = 2) -> list[Sealed]:
    """A created tournament and its registrations, sealed from the genesis hash."""
    names = [f"p{i}" for i in range(1, players + 1)]
    return seal([r.event for r in Given(create(tid), *register(*names, t=tid)).log], GENESIS)


def test_appends_to_several_tournaments_are_written_together(store: Store, tids: list[str]) -> None:
    logs = {t: log(t) for t in tids}
    out = store.append_many([Append(t, logs[t], 0) for t in tids])
    for t, recorded in zip(tids, out, strict=True):
        assert not isinstance(recorded, Exception)
        assert [r.seq for r in recorded] == [1, 2, 3]
        assert [r.event.hash for r in store.load(t)] == [s.event.hash for s in logs[t]]
    positions = [r.position for got in out if isinstance(got, list) for r in got]
    assert positions == sorted(positions) and len(set(positions)) == len(positions)


def test_queued_appends_to_one_tournament_follow_each_other(store: Store, tids: list[str]) -> None:
    t = tids[0]
    whole = log(t, players=3)
    out = store.append_many([Append(t, whole[:2], 0), Append(t, whole[2:3], 2),
                             Append(t, whole[3:], 3)])  # fmt: skip
    assert [[r.seq for r in got] for got in out if isinstance(got, list)] == [[1, 2], [3], [4]]
    assert [r.event.hash for r in store.load(t)] == [s.event.hash for s in whole]


def test_a_conflicting_append_writes_nothing_and_the_others_are_written(
    store: Store, tids: list[str]
) -> None:
    a, b, c = tids
    store.append(b, log(b)[:1], 0)
    other = log(b)[:1]  # a second writer that decided on the same empty stream
    rows = [PlayerEntry(b, "p1", "Lost Name", None)]
    kept = [PlayerEntry(a, "p1", "P1", None)]
    out = store.append_many([Append(a, log(a), 0, players=kept), Append(b, other, 0, players=rows),
                             Append(c, log(c), 0)])  # fmt: skip
    assert isinstance(out[1], ConcurrencyConflict)
    assert [len(got) for got in (out[0], out[2]) if isinstance(got, list)] == [3, 3]
    assert len(store.load(b)) == 1 and store.players(b) == {}
    assert len(store.load(a)) == 3 and len(store.load(c)) == 3
    assert store.players(a)["p1"].name == "P1"


def test_an_append_on_a_tip_that_is_gone_is_refused_alone(store: Store, tids: list[str]) -> None:
    """The decision was made on a head the stream no longer ends at (seq 3 of another
    history): StoreWentBack for that append, the one beside it written."""
    a, b = tids[:2]
    store.append(a, log(a)[:2], 0)
    elsewhere = seal([s.event for s in log(a)[2:]], "ab" * 32)
    out = store.append_many([Append(a, elsewhere, 2), Append(b, log(b), 0)])
    assert isinstance(out[0], StoreWentBack)
    assert len(store.load(a)) == 2 and len(store.load(b)) == 3


def test_empty_appends_write_nothing(store: Store, tids: list[str]) -> None:
    assert store.append_many([]) == []
    assert store.append_many([Append(tids[0], [], 0)]) == [[]]
    assert store.load(tids[0]) == []


def test_several_streams_load_in_one_read_each_checked_as_load_checks_it(
    store: Store, tids: list[str]
) -> None:
    a, b, c = tids
    logs = {t: log(t) for t in tids}
    for t in tids:
        store.append(t, logs[t], 0)
    wanted: list[tuple[str, int, str | None]] = [
        (a, 1, logs[a][0].event.hash), (b, 0, GENESIS), (c, 2, "ab" * 32), (a, 3, None)
    ]  # fmt: skip
    got = store.load_many(wanted)
    assert got[0] == store.load(a, after=1, head=logs[a][0].event.hash)
    assert isinstance(got[0], list) and [r.seq for r in got[0]] == [2, 3]
    assert got[1] == store.load(b)
    assert isinstance(got[2], StoreWentBack)  # event 2 of c is not the one with that hash
    assert got[3] == []
    assert store.load_many([]) == []
