"""Match slips' report codes in every store (memory, SQLite, PostgreSQL): a hash, the
match it reports and the player who holds it, one code per player of a match (a new one
replaces theirs), a store made before slips gaining the table when it is opened, and one
made before players held their own codes gaining the holder's column, its codes working
on.

PostgreSQL runs when ``TLEDGER_TEST_POSTGRES`` names a database (CI sets it). The
tests use fresh tournament ids and delete the codes they made from the shared database;
the old-store test makes and drops a database of its own.
"""

from __future__ import annotations

import hashlib
import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from ledger.slip_rows import STORED_AS
from ledger.store import SlipCodeEntry, Store
from ledger.url import open_store
from tests.stores import KINDS, fresh_postgres_database, store_url

NOW = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)


def digest(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


@pytest.fixture
def tid() -> str:
    return f"slip-{uuid.uuid4().hex[:12]}"


@pytest.fixture(params=["memory", *KINDS])
def store(request: pytest.FixtureRequest, tmp_path: Path, tid: str) -> Iterator[Store]:
    if request.param == "memory":
        yield open_store(f"memory://{uuid.uuid4().hex}")
        return
    url = store_url(request.param, tmp_path, "slips.sqlite3")
    opened = open_store(url)
    try:
        yield opened
    finally:
        opened.close()
        if request.param == "postgres":
            import psycopg

            with psycopg.connect(url, autocommit=True) as db:
                db.execute(f"DELETE FROM {STORED_AS} WHERE tournament LIKE %s", (f"{tid}%",))


def entry(tid: str, code: str, round_number: int = 1, players: tuple[str, str] = ("p1", "p2"),
          at: datetime = NOW, player: str | None = None) -> SlipCodeEntry:  # fmt: skip
    return SlipCodeEntry(digest(code), tid, round_number, players, at, player)


def test_a_code_is_found_by_its_hash_with_its_match(store: Store, tid: str) -> None:
    first, second = entry(tid, "AAAABBBB"), entry(tid, "CCCCDDDD", players=("p3", "p4"))
    store.put_slip_codes([first, second])
    assert store.slip_code(digest("AAAABBBB")) == first
    assert store.slip_code(digest("CCCCDDDD")) == second
    assert store.slip_code(digest("EEEEFFFF")) is None


def test_a_rounds_codes_in_force_are_listed_and_a_replaced_one_is_not(
    store: Store, tid: str
) -> None:
    first, second = entry(tid, "AAAABBBB"), entry(tid, "CCCCDDDD", players=("p3", "p4"))
    store.put_slip_codes([first, second, entry(tid, "EEEEFFFF", round_number=2),
                          entry(tid + "x", "GGGGHHHH")])  # fmt: skip
    again = entry(tid, "JJJJKKKK", at=NOW + timedelta(minutes=1))
    store.put_slip_codes([again])
    listed = sorted(store.slip_codes_of(tid, 1), key=lambda e: e.code_hash)
    assert listed == sorted([again, second], key=lambda e: e.code_hash)
    assert store.slip_codes_of(tid, 3) == []


def test_a_new_code_for_a_match_replaces_its_old_one(store: Store, tid: str) -> None:
    store.put_slip_codes([entry(tid, "AAAABBBB"), entry(tid, "CCCCDDDD", players=("p3", "p4"))])
    later = NOW + timedelta(minutes=3)
    store.put_slip_codes([entry(tid, "GGGGHHHH", at=later)])
    assert store.slip_code(digest("AAAABBBB")) is None, "the replaced code stops working"
    assert store.slip_code(digest("GGGGHHHH")) == entry(tid, "GGGGHHHH", at=later)
    assert store.slip_code(digest("CCCCDDDD")) is not None, "another match keeps its code"


def test_each_player_holds_a_code_of_their_own_and_a_new_one_replaces_only_theirs(
    store: Store, tid: str
) -> None:
    ada = entry(tid, "AAAABBBB", players=("p1", "p2"), player="p1")
    ben = entry(tid, "CCCCDDDD", players=("p2", "p1"), player="p2")
    store.put_slip_codes([ada, ben])
    assert [store.slip_code(digest(c)) for c in ("AAAABBBB", "CCCCDDDD")] == [ada, ben]
    again = entry(tid, "EEEEFFFF", players=("p1", "p2"), player="p1", at=NOW + timedelta(1))
    store.put_slip_codes([again])
    assert store.slip_code(digest("AAAABBBB")) is None
    assert store.slip_code(digest("EEEEFFFF")) == again
    assert store.slip_code(digest("CCCCDDDD")) == ben, "the opponent keeps their code"


def test_the_same_players_in_another_round_or_tournament_are_another_match(
    store: Store, tid: str
) -> None:
    store.put_slip_codes([entry(tid, "AAAABBBB"), entry(tid, "CCCCDDDD", round_number=2),
                          entry(tid + "x", "EEEEFFFF")])  # fmt: skip
    found = [store.slip_code(digest(c)) for c in ("AAAABBBB", "CCCCDDDD", "EEEEFFFF")]
    assert [(e.tournament, e.round) for e in found if e] == [(tid, 1), (tid, 2), (tid + "x", 1)]


@pytest.mark.parametrize("kind", KINDS)
def test_a_store_made_before_slips_gains_the_table_when_opened(kind: str, tmp_path: Path) -> None:
    with old_store(kind, tmp_path) as url:
        store = open_store(url)
        try:
            store.put_slip_codes([entry("old", "AAAABBBB")])
            assert store.slip_code(digest("AAAABBBB")) == entry("old", "AAAABBBB")
        finally:
            store.close()
        reopened = open_store(url)  # the table is there now: opening again keeps it
        try:
            assert reopened.slip_code(digest("AAAABBBB")) == entry("old", "AAAABBBB")
        finally:
            reopened.close()


@contextmanager
def old_store(kind: str, tmp_path: Path, *statements: str) -> Iterator[str]:
    """A store as made before slips: every table but the slip codes' (dropped again),
    then ``statements`` run on it."""
    if kind == "sqlite":
        url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
        open_store(url).close()
        with sqlite3.connect(tmp_path / "old.sqlite3") as db:
            for statement in (f"DROP TABLE {STORED_AS}", *statements):
                db.execute(statement)
        yield url
        return
    import psycopg

    with fresh_postgres_database(store_url(kind, tmp_path)) as url:
        open_store(url).close()
        with psycopg.connect(url, autocommit=True) as db:
            for statement in (f"DROP TABLE {STORED_AS}", *statements):
                db.execute(statement)  # type: ignore[arg-type]
        yield url


#: the slip codes' table as it was before players held codes of their own
BEFORE_HOLDERS = (
    f"CREATE TABLE {STORED_AS} (code_hash TEXT PRIMARY KEY, tournament TEXT NOT NULL, "
    "round_number INTEGER NOT NULL, player_a TEXT NOT NULL, player_b TEXT NOT NULL, "
    "issued_at TEXT NOT NULL, UNIQUE (tournament, round_number, player_a, player_b))"
)
OLD_CODE = (f"INSERT INTO {STORED_AS} VALUES ('{digest('AAAABBBB')}', 'old', 1, 'p1', 'p2', "
            f"'{NOW.isoformat()}')")  # fmt: skip


@pytest.mark.parametrize("kind", KINDS)
def test_a_store_made_before_players_held_codes_gains_the_holder_and_its_codes_work_on(
    kind: str, tmp_path: Path
) -> None:
    with old_store(kind, tmp_path, BEFORE_HOLDERS, OLD_CODE) as url:
        store = open_store(url)
        try:
            assert store.slip_code(digest("AAAABBBB")) == entry("old", "AAAABBBB")
            held = entry("old", "CCCCDDDD", player="p1")
            store.put_slip_codes([held, entry("old", "EEEEFFFF", players=("p2", "p1"),
                                              player="p2")])  # fmt: skip
            assert store.slip_code(digest("AAAABBBB")) is None, "the holder's code replaces it"
            assert store.slip_code(digest("CCCCDDDD")) == held
        finally:
            store.close()
