"""API tokens in every store (memory, SQLite, PostgreSQL): label, expiry, revocation,
the list, and a tokens table made before these existed gaining their columns.

PostgreSQL runs when ``TLEDGER_TEST_POSTGRES`` names a database (CI sets it); its
old-schema test makes and drops a database of its own, so the shared one keeps its
table. Every other test uses fresh tournament ids, since a shared database holds
the tokens of earlier runs.
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from commands.tokens import create_token, token_hash
from ledger.store import Store, TokenEntry
from ledger.url import open_store
from tests.stores import KINDS, fresh_postgres_database, store_url

NOW = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)
OLD_TABLE = (
    "CREATE TABLE tledger_tokens (token_hash TEXT PRIMARY KEY, token_id TEXT NOT NULL, "
    "role TEXT NOT NULL, tournament TEXT, player TEXT)"
)
OLD_ROW = "INSERT INTO tledger_tokens VALUES ('{hash}', 'old00001', 'judge', NULL, NULL)"


@pytest.fixture(params=["memory", *KINDS])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "memory":
        return f"memory://{uuid.uuid4().hex}"
    return store_url(request.param, tmp_path, "tokens.sqlite3")


@pytest.fixture
def store(url: str) -> Store:
    return open_store(url)


@pytest.fixture
def tid() -> str:
    return f"tok-{uuid.uuid4().hex[:12]}"


def entry_of(store: Store, secret: str) -> TokenEntry:
    found = store.token(token_hash(secret))
    assert found is not None
    return found


def test_a_token_keeps_its_label_expiry_and_creation_time(store: Store, tid: str) -> None:
    expires = NOW + timedelta(hours=8)
    secret = create_token(store, "judge", tid, None, label="Anna (head judge)",
                          expires_at=expires, now=NOW)  # fmt: skip
    entry = entry_of(store, secret)
    assert (entry.role, entry.tournament, entry.player) == ("judge", tid, None)
    assert (entry.label, entry.expires_at, entry.created_at) == ("Anna (head judge)", expires, NOW)
    assert entry.revoked_at is None


def test_the_list_of_a_tournament_holds_its_tokens_and_those_for_every_tournament(
    store: Store, tid: str
) -> None:
    later = NOW + timedelta(minutes=1)
    mine = entry_of(store, create_token(store, "player", tid, "p1", now=later))
    first = entry_of(store, create_token(store, "scorekeeper", tid, None, now=NOW))
    other = entry_of(store, create_token(store, "judge", tid + "-other", None, now=NOW))
    everywhere = entry_of(store, create_token(store, "organizer", None, None, now=NOW))
    listed = [t.token_id for t in store.tokens(tid)]
    assert first.token_id in listed and mine.token_id in listed
    assert everywhere.token_id in listed and other.token_id not in listed
    assert listed.index(first.token_id) < listed.index(mine.token_id), "oldest first"
    assert {first.token_id, other.token_id} <= {t.token_id for t in store.tokens()}


def test_revoking_marks_the_token_once_and_keeps_the_first_time(store: Store, tid: str) -> None:
    entry = entry_of(store, create_token(store, "judge", tid, None, now=NOW))
    at = NOW + timedelta(hours=1)
    assert store.revoke_token(entry.token_id, at) is True
    assert store.revoke_token(entry.token_id, at + timedelta(hours=1)) is False
    assert store.token(entry.token_hash) == TokenEntry(
        entry.token_hash, entry.token_id, "judge", tid, None, created_at=NOW, revoked_at=at
    )
    assert store.revoke_token("no-such-id", at) is False


@contextmanager
def old_store(kind: str, tmp_path: Path, secret: str) -> Iterator[str]:
    """A store whose tokens table predates labels and expiry, holding one token."""
    row = OLD_ROW.format(hash=token_hash(secret))
    if kind == "sqlite":
        path = tmp_path / "old.sqlite3"
        with sqlite3.connect(path) as db:
            db.execute(OLD_TABLE)
            db.execute(row)
        yield f"sqlite:///{path}"
        return
    import psycopg

    with fresh_postgres_database(store_url(kind, tmp_path)) as url:
        with psycopg.connect(url, autocommit=True) as db:
            db.execute(OLD_TABLE)
            db.execute(row)
        yield url


@pytest.mark.parametrize("kind", KINDS)
def test_an_old_tokens_table_gains_the_new_columns_and_its_tokens_keep_working(
    kind: str, tmp_path: Path
) -> None:
    with old_store(kind, tmp_path, "tl_old-secret") as url:
        store = open_store(url)
        try:
            old = entry_of(store, "tl_old-secret")
            assert (old.token_id, old.role, old.label, old.expires_at, old.created_at) == (
                "old00001", "judge", None, None, None)  # fmt: skip
            new = entry_of(store, create_token(store, "reader", None, None, label="Ben", now=NOW))
            assert [t.token_id for t in store.tokens()] == ["old00001", new.token_id]
            assert store.revoke_token("old00001", NOW) is True
            assert entry_of(store, "tl_old-secret").revoked_at == NOW
        finally:
            store.close()
        reopened = open_store(url)  # the columns are there now: opening again changes nothing
        try:
            assert entry_of(reopened, "tl_old-secret").revoked_at == NOW
        finally:
            reopened.close()
