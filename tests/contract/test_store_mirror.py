"""What a mirror asks of every store (memory, SQLite, PostgreSQL): a stream's head, stored
bytes appended as they are, lists kept beside events appended before, and one claim per
mirrored tournament, the first one winning, decided in the transaction that appends: a
push claims with the stream's first events, a claimed stream takes no command of the
mirror's own, and a stream with events of the mirror's own takes no claim."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from commands.decide import decide
from commands.errors import Mirrored
from commands.handler import Handler
from commands.models import parse_command
from ledger.chain import GENESIS, seal
from ledger.errors import Claimed, ConcurrencyConflict, NotClaimable
from ledger.list_events import list_hash
from ledger.store import Append, Claim, ListEntry, PlayerEntry, Store
from ledger.url import open_store
from tests.builders import create, register
from tests.public_event import clean_postgres
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
    assert store.claimed_by(t) is None and store.claimed_by(t + "x") is None


def test_lists_kept_beside_events_appended_before(store: Store) -> None:
    t = f"l-{uuid.uuid4().hex[:8]}"
    kept = {"leader": "L", "base": "B", "deck": []}
    entry = ListEntry(t, 3, "p1", list_hash(kept, "ab"), kept, (), "ab")
    store.put_lists([entry])
    assert store.lists(t) == [entry]


def venue_log(t: str) -> tuple[list[tuple[str, bytes]], list[str]]:
    """A venue's tournament ``t`` (created, two players): its stored events as a push
    appends them, and their hashes."""
    venue = open_store(f"memory://{uuid.uuid4().hex}")
    handler = Handler(venue)
    for command in [create(t), *register("p1", "p2", t=t)]:
        handler.handle(parse_command(command))
    rows = venue.load_raw(t)
    loaded = venue.load(t)
    return ([(r.event.type, data) for r, (_, _, data) in zip(loaded, rows, strict=True)],
            [r.event.hash for r in loaded])  # fmt: skip


def test_a_push_claims_with_its_first_events_and_the_claim_refuses_the_rest(
    store: Store,
) -> None:
    t = f"c-{uuid.uuid4().hex[:8]}"
    kinds, hashes = venue_log(t)
    names = [PlayerEntry(t, "p1", "One", None)]
    try:
        store.append_stored(t, kinds[:2], 0, GENESIS, players=names, claim=Claim(t, "venue-a", AT))
        assert store.claimed_by(t) == "venue-a"
        with pytest.raises(Claimed):  # another venue's push: nothing written
            store.append_stored(t, kinds[2:], 2, hashes[1], claim=Claim(t, "venue-b", AT))
        assert store.head(t) == (2, hashes[1])
        store.append_stored(t, kinds[2:], 2, hashes[1], claim=Claim(t, "venue-a", AT))
        assert store.head(t) == (3, hashes[2])
        mirror = Handler(store)
        state = mirror.folds.state(t)
        command = parse_command(register("p9", t=t)[0])
        sealed = seal(decide(state, command, now=AT, seed=1), state.head)
        with pytest.raises(Claimed):  # a command of the mirror's own, however it got here
            store.append(t, sealed, expected_version=3, players=[PlayerEntry(t, "p9", "P9", None)])
        assert isinstance(store.append_many([Append(t, sealed, 3)])[0], Claimed)
        with pytest.raises(Mirrored):
            mirror.handle(command)
        assert store.head(t) == (3, hashes[2]) and "p9" not in store.players(t)
    finally:
        clean_postgres(store.url, t)


def test_a_stream_with_events_of_the_mirrors_own_is_never_claimed(store: Store) -> None:
    own, first, fresh = (f"{k}-{uuid.uuid4().hex[:8]}" for k in ("o", "f", "n"))
    try:
        Handler(store).handle(parse_command(create(own)))
        head = store.head(own)
        kinds, _ = venue_log(own)
        for pushed, after in ((kinds[1:], head[0]), ([], head[0]), ([], 0)):
            with pytest.raises(NotClaimable):  # events of its own before, or a claim alone
                store.append_stored(own, pushed, after, head[1], claim=Claim(own, "venue-a", AT))
        assert store.claimed_by(own) is None and store.head(own) == head
        Handler(store).handle(parse_command(create(first)))  # its first event taken first
        kinds, _ = venue_log(first)
        with pytest.raises((ConcurrencyConflict, NotClaimable)):
            store.append_stored(first, kinds, 0, GENESIS, claim=Claim(first, "venue-a", AT),
                                players=[PlayerEntry(first, "p1", "One", None)])  # fmt: skip
        assert store.claimed_by(first) is None and store.players(first) == {}
        assert store.head(first)[0] == 1
        store.append_stored(fresh, [], 0, GENESIS, claim=Claim(fresh, "venue-a", AT))
        assert store.claimed_by(fresh) == "venue-a"  # a first push of nothing claims the id
        with pytest.raises(Mirrored):
            Handler(store).handle(parse_command(create(fresh)))
        assert store.head(fresh) == (0, GENESIS)
    finally:
        clean_postgres(store.url, own, first, fresh)
