"""What the event stream asks of every store, so that it scales with the tournament and
not with the store: one tournament's events after a global position by the stream's own
index, the head of the global sequence, and on PostgreSQL a wake-up when any process
appends. Memory, SQLite and PostgreSQL."""

from __future__ import annotations

import sqlite3
import time
import uuid
from pathlib import Path

import pytest

from ledger.chain import GENESIS, Sealed, seal
from ledger.errors import ChainBroken
from ledger.eventsourced import stream_id
from ledger.store import Store
from ledger.url import open_store
from tests.builders import Given, create, register
from tests.stores import fresh_postgres_database, store_url


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "memory":
        return f"memory://{uuid.uuid4().hex}"
    return store_url(request.param, tmp_path)


def tournament(players: int) -> tuple[str, list[Sealed]]:
    t = f"s-{uuid.uuid4().hex[:12]}"
    names = [f"p{i}" for i in range(1, players + 1)]
    return t, seal([r.event for r in Given(create(t), *register(*names, t=t)).log], GENESIS)


def interleaved(store: Store, a: str, ea: list[Sealed], b: str, eb: list[Sealed]) -> None:
    """Append two tournaments' events one by one, alternating, so their positions mix."""
    for i in range(max(len(ea), len(eb))):
        if i < len(ea):
            store.append(a, [ea[i]], expected_version=i)
        if i < len(eb):
            store.append(b, [eb[i]], expected_version=i)


def test_stream_after_gives_only_the_tournaments_events_after_a_position(url: str) -> None:
    store = open_store(url)
    (a, ea), (b, eb) = tournament(6), tournament(6)
    interleaved(store, a, ea, b, eb)
    every = store.load(a)
    assert [r.seq for r in store.stream_after(a, 0, 100)] == list(range(1, 8))
    after = every[2].position
    found = store.stream_after(a, after, 100)
    assert [r.seq for r in found] == [4, 5, 6, 7]
    assert [r.position for r in found] == [r.position for r in every[3:]]
    assert [r.event for r in found] == [r.event for r in every[3:]]
    assert [r.seq for r in store.stream_after(a, after, 2)] == [4, 5]
    assert store.stream_after(a, every[-1].position, 100) == []
    assert store.stream_after("nobody", 0, 100) == []


def test_head_position_is_the_last_position_appended(url: str) -> None:
    store = open_store(url)
    t, events = tournament(2)
    appended = store.append(t, events, expected_version=0)
    assert store.head_position() >= appended[-1].position  # others may append meanwhile
    if url.startswith("memory"):
        assert open_store(f"memory://{uuid.uuid4().hex}").head_position() == 0


def test_stream_after_names_the_seq_of_a_deleted_event(tmp_path: Path) -> None:
    url = store_url("sqlite", tmp_path)
    store = open_store(url)
    t, events = tournament(5)
    store.append(t, events, expected_version=0)
    with sqlite3.connect(url.removeprefix("sqlite:///")) as con:
        con.execute("DELETE FROM stored_events WHERE originator_id = ? AND originator_version = 4",
                    (stream_id(t).hex,))  # fmt: skip
    with pytest.raises(ChainBroken, match="integrity: seq 4: event missing"):
        store.stream_after(t, 0, 100)


def test_on_sqlite_stream_after_is_one_range_of_the_stream_index(tmp_path: Path) -> None:
    url = store_url("sqlite", tmp_path)
    open_store(url)
    with sqlite3.connect(url.removeprefix("sqlite:///")) as con:
        plan = con.execute(
            "EXPLAIN QUERY PLAN SELECT originator_version, rowid AS position, state "
            "FROM stored_events WHERE originator_id = ? AND rowid > ? ORDER BY rowid LIMIT ?",
            ("x", 0, 10),
        ).fetchall()
        load_plan = con.execute(
            "EXPLAIN QUERY PLAN SELECT originator_version, rowid, state FROM stored_events "
            "WHERE originator_id = ? AND originator_version > ? ORDER BY originator_version",
            ("x", 0),
        ).fetchall()
    assert [row[-1] for row in plan] == [
        "SEARCH stored_events USING INDEX tledger_stream_position (originator_id=? AND rowid>?)"
    ]
    assert "USING INDEX sqlite_autoindex_stored_events_1" in load_plan[0][-1]  # load: as before


def test_sqlite_and_memory_stores_have_nothing_to_listen_to(tmp_path: Path) -> None:
    assert open_store(store_url("sqlite", tmp_path)).listener() is None
    assert open_store(f"memory://{uuid.uuid4().hex}").listener() is None


def test_a_postgres_listener_wakes_when_another_connection_appends(tmp_path: Path) -> None:
    """On a database of its own: an append anywhere in a shared one (a test running beside
    this one) would wake the listener when nothing must."""
    with fresh_postgres_database(store_url("postgres", tmp_path)) as url:
        listener = open_store(url).listener()
        assert listener is not None
        try:
            assert listener.wait(0.1) is True  # connected: anything before may have been missed
            assert listener.wait(0.1) is False
            t, events = tournament(1)
            open_store(url).append(t, events, expected_version=0)
            started = time.monotonic()
            assert listener.wait(5) is True
            assert time.monotonic() - started < 1
        finally:
            listener.close()
