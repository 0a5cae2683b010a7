"""What a mirror asks of every store (memory, SQLite, PostgreSQL): a stream's head, stored
bytes appended as they are, lists kept beside events appended before, and one claim per
mirrored tournament, the first one winning."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from commands.handler import Handler
from commands.models import parse_command
from ledger.chain import GENESIS
from ledger.errors import ConcurrencyConflict
from ledger.list_events import list_hash
from ledger.store import ListEntry, Store
from ledger.url import open_store
from tests.builders import create, register
from tests.stores import KINDS, store_url

AT = datetime(2026, 11, 28, 9, tzinfo=UTC)


@pytest.fixture(params=["memory", *KINDS])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    url = (f"memory://{uuid.uuid4().hex}" if request.param == "memory"
           else store_url(request.param, tmp_path, "mirror.sqlite3"))  # fmt: skip
    opened = open_store(url)
    try:
        yield opened
    finally:
        opened.close()


def test_head_append_stored_and_claims(store: Store) -> None:
    venue = open_store(f"memory://{uuid.uuid4().hex}")
    t = f"c-{uuid.uuid4().hex[:8]}"
    handler = Handler(venue)
    for command in [create(t), *register("p1", "p2", t=t)]:
        handler.handle(parse_command(command))
    rows = venue.load_raw(t)
    assert store.head(t) == (0, GENESIS)
    kinds = [(r.event.type, data) for r, (_, _, data) in zip(venue.load(t), rows, strict=True)]
    first, second = (r.event.hash for r in venue.load(t)[:2])
    store.append_stored(t, kinds[:2], 0, GENESIS)
    with pytest.raises(ConcurrencyConflict):  # another writer appended seq 2 first
        store.append_stored(t, kinds[1:], 1, first)
    store.append_stored(t, kinds[2:], 2, second)
    assert store.load_raw(t, 1) == [(s, p, d) for s, p, d in store.load_raw(t) if s > 1]
    assert [d for _, _, d in store.load_raw(t)] == [d for _, _, d in rows]
    assert store.head(t) == venue.head(t)
    assert store.claimed_by(t) is None
    assert store.claim(t, "venue-a", AT) == "venue-a"
    assert store.claim(t, "venue-b", AT) == "venue-a"
    assert store.claimed_by(t) == "venue-a" and store.claimed_by(t + "x") is None


def test_lists_kept_beside_events_appended_before(store: Store) -> None:
    t = f"l-{uuid.uuid4().hex[:8]}"
    kept = {"leader": "L", "base": "B", "deck": []}
    entry = ListEntry(t, 3, "p1", list_hash(kept, "ab"), kept, (), "ab")
    store.put_lists([entry])
    assert store.lists(t) == [entry]
