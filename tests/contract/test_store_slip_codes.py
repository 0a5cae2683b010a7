"""Match slips' report codes in every store (memory, SQLite, PostgreSQL): a hash and the
match it reports, one code per match (a new one replaces it), and a store made before
slips gaining the table when it is opened.

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

from ledger.slip_rows import TABLE
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
                db.execute(f"DELETE FROM {TABLE} WHERE tournament LIKE %s", (f"{tid}%",))


def entry(tid: str, code: str, round_number: int = 1, players: tuple[str, str] = ("p1", "p2"),
          at: datetime = NOW) -> SlipCodeEntry:  # fmt: skip
    return SlipCodeEntry(digest(code), tid, round_number, players, at)


def test_a_code_is_found_by_its_hash_with_its_match(store: Store, tid: str) -> None:
    first, second = entry(tid, "AAAABBBB"), entry(tid, "CCCCDDDD", players=("p3", "p4"))
    store.put_slip_codes([first, second])
    assert store.slip_code(digest("AAAABBBB")) == first
    assert store.slip_code(digest("CCCCDDDD")) == second
    assert store.slip_code(digest("EEEEFFFF")) is None


def test_a_new_code_for_a_match_replaces_its_old_one(store: Store, tid: str) -> None:
    store.put_slip_codes([entry(tid, "AAAABBBB"), entry(tid, "CCCCDDDD", players=("p3", "p4"))])
    later = NOW + timedelta(minutes=3)
    store.put_slip_codes([entry(tid, "GGGGHHHH", at=later)])
    assert store.slip_code(digest("AAAABBBB")) is None, "the replaced code stops working"
    assert store.slip_code(digest("GGGGHHHH")) == entry(tid, "GGGGHHHH", at=later)
    assert store.slip_code(digest("CCCCDDDD")) is not None, "another match keeps its code"


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
def old_store(kind: str, tmp_path: Path) -> Iterator[str]:
    """A store as made before slips: every table but the slip codes' (dropped again)."""
    if kind == "sqlite":
        url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
        open_store(url).close()
        with sqlite3.connect(tmp_path / "old.sqlite3") as db:
            db.execute(f"DROP TABLE {TABLE}")
        yield url
        return
    import psycopg

    with fresh_postgres_database(store_url(kind, tmp_path)) as url:
        open_store(url).close()
        with psycopg.connect(url, autocommit=True) as db:
            db.execute(f"DROP TABLE {TABLE}")
        yield url
