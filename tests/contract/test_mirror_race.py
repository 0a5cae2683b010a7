"""A venue's first push of an id and a command of the mirror's own for the same id, sent
to a hosted mirror at the same moment, on SQLite and PostgreSQL: exactly one of them
wins, decided in the store's transaction, and the loser hears one clear 409 with nothing
written. Each side runs in a process of its own (an application and a store of its
own over one database) and is held at a chosen point of its path while the other goes
on, so that every interleaving is run, in order, with no clock.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from commands.handler import Handler
from commands.mirror import NameEntry, NotYours, PushBody, PushConflict, Pushed, receive
from commands.models import parse_command
from commands.tokens import create_token
from commands.web import create_app
from ledger.store import Store, TokenEntry
from ledger.url import open_store
from tests.builders import create, register
from tests.public_event import clean_postgres
from tests.stores import KINDS, store_url

AT = datetime(2026, 11, 28, 9, tzinfo=UTC)
VENUE = TokenEntry("hash-of-venue-a", "venue-a", "venue", None, None)
#: generous: only a broken test waits this long (the order comes from events, not time)
STUCK = 60


class Held:
    """A store held at the first call of one of ``methods``, before it runs (or, with
    ``after``, once it returned): ``reached`` is set there, and the call goes on once
    ``go`` is. Everything else passes through."""

    def __init__(self, store: Store, *methods: str, after: bool = False) -> None:
        self.store, self.methods, self.after = store, set(methods), after
        self.reached, self.go = threading.Event(), threading.Event()
        self.used = False

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.store, name)
        if name not in self.methods or self.used:
            return found

        def held(*args: Any, **kwargs: Any) -> Any:
            self.used = True
            if not self.after:
                self.wait()
            out = found(*args, **kwargs)
            if self.after:
                self.wait()
            return out

        return held

    def wait(self) -> None:
        self.reached.set()
        assert self.go.wait(STUCK), "the test never let the held call go on"


@dataclass
class Side:
    """One process of the mirror: its store (``held`` when the test holds it somewhere),
    its application and an organizer's client."""

    store: Store
    app: FastAPI
    api: TestClient

    def command(self, body: dict[str, Any]) -> httpx.Response:
        return self.api.post("/commands", json=body)

    def close(self) -> None:
        writer = getattr(self.app.state, "group_commit", None)
        if writer is not None:
            writer.close()


@pytest.fixture(params=KINDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return store_url(request.param, tmp_path, "mirror.sqlite3")


@pytest.fixture
def t(url: str) -> Iterator[str]:
    made = f"race-{uuid.uuid4().hex[:10]}"
    yield made
    clean_postgres(url, made)


@pytest.fixture
def side(url: str) -> Iterator[Callable[..., Side]]:
    """``side(*methods, after=False)``: a process of the mirror, its store held at the
    first call of one of ``methods`` (none: not held)."""
    made: list[Side] = []

    def one(*methods: str, after: bool = False) -> Side:
        opened = open_store(url)
        store: Any = Held(opened, *methods, after=after) if methods else opened
        app = create_app(Handler(store))
        secret = create_token(opened, "organizer", None, None)
        api = TestClient(app, headers={"Authorization": f"Bearer {secret}"})
        made.append(Side(store, app, api))
        return made[-1]

    yield one
    for s in made:
        s.close()


def venue_push(t: str) -> PushBody:
    """The venue's tournament ``t``, created and two players registered, as its first
    push carries it."""
    venue = open_store(f"memory://{uuid.uuid4().hex}")
    handler = Handler(venue, clock=lambda: AT, seeds=lambda: 7)
    for command in [create(t), *register("p1", "p2", t=t)]:
        handler.handle(parse_command(command))
    return PushBody(events=[data.decode() for _, _, data in venue.load_raw(t)],
                    names=[NameEntry(player=p, name=p.upper()) for p in ("p1", "p2")])  # fmt: skip


def own_create(t: str) -> dict[str, Any]:
    return {**create(t), "name": "The mirror's own"}


def stored(store: Store, t: str) -> list[bytes]:
    return [data for _, _, data in store.load_raw(t)]


def mirrored(t: str) -> str:
    return f"tournament {t!r} is mirrored from its venue; commands go there"


def in_thread(pool: ThreadPoolExecutor, held: Held, work: Callable[[], Any]) -> Future[Any]:
    """``work`` started in a thread of its own and run up to ``held``'s call."""
    running = pool.submit(work)
    assert held.reached.wait(STUCK), "the held call was never made"
    return running


def test_a_create_appended_between_a_push_reading_and_writing_wins(
    side: Callable[..., Side], t: str
) -> None:
    """The push has read the mirror's head and the id's claim (none, no events) when the
    create is decided and appended: the create wins, the push is refused as a push to
    the mirror's own, and no claim is left behind."""
    pusher, creator = side("claim", "append_stored"), side()
    body = venue_push(t)
    with ThreadPoolExecutor(1) as pool:
        push = in_thread(pool, pusher.store, lambda: receive(pusher.store, t, body, VENUE, AT))
        made = creator.command(own_create(t))
        pusher.store.go.set()
        with pytest.raises(PushConflict) as refused:
            push.result(STUCK)
    assert made.status_code == 200, made.text
    assert str(refused.value) == f"tournament {t!r} is this mirror's own, not mirrored from a venue"
    assert creator.store.claimed_by(t) is None
    assert [e["type"] for e in made.json()["events"]] == ["tournament_created"]
    assert len(stored(creator.store, t)) == 1 and creator.store.players(t) == {}
    for process, player in ((creator, "p7"), (pusher, "p8")):  # commands in every process
        assert process.command(register(player, t=t)[0]).status_code == 200


def test_a_first_push_of_nothing_held_before_its_claim_loses_to_the_create(
    side: Callable[..., Side], t: str
) -> None:
    """A venue's first push of no events claims the id alone: a create appended while it
    is held wins, and the claim is refused."""
    pusher, creator = side("claim", "append_stored"), side()
    with ThreadPoolExecutor(1) as pool:
        push = in_thread(pool, pusher.store,
                         lambda: receive(pusher.store, t, PushBody(), VENUE, AT))  # fmt: skip
        assert creator.command(own_create(t)).status_code == 200
        pusher.store.go.set()
        with pytest.raises(PushConflict, match="this mirror's own"):
            push.result(STUCK)
    assert creator.store.claimed_by(t) is None
    assert creator.command(register("p7", t=t)[0]).status_code == 200


def test_a_push_written_while_a_create_waits_to_append_wins(
    side: Callable[..., Side], t: str
) -> None:
    """The create passed the claim check and was decided on an empty log when the push
    claims the id and appends the venue's log: the push wins, and the create is refused
    as a command of a mirrored tournament."""
    creator, pusher = side("append_many"), side()
    body = venue_push(t)
    with ThreadPoolExecutor(1) as pool:
        made = in_thread(pool, creator.store, lambda: creator.command(own_create(t)))
        done: Pushed = receive(pusher.store, t, body, VENUE, AT)
        creator.store.go.set()
        answer = made.result(STUCK)
    assert done.appended == 3
    assert answer.status_code == 409 and answer.json()["error"] == mirrored(t)
    assert pusher.store.claimed_by(t) == "venue-a"
    assert stored(pusher.store, t) == [line.encode() for line in body.events]


def test_a_push_written_before_a_create_is_decided_wins(side: Callable[..., Side], t: str) -> None:
    """The create passed the claim check, and the push is written before the create's
    log is loaded: the create is decided on the venue's log, and still answered as a
    command of a mirrored tournament, not as an id that exists."""
    creator, pusher = side("load", "load_many"), side()
    body = venue_push(t)
    with ThreadPoolExecutor(1) as pool:
        made = in_thread(pool, creator.store, lambda: creator.command(own_create(t)))
        receive(pusher.store, t, body, VENUE, AT)
        creator.store.go.set()
        answer = made.result(STUCK)
    assert answer.status_code == 409 and answer.json()["error"] == mirrored(t)
    assert stored(pusher.store, t) == [line.encode() for line in body.events]


def test_a_command_decided_on_the_pushed_log_appends_nothing(
    side: Callable[..., Side], t: str
) -> None:
    """A command of the mirror's own to the same new id passed the claim check before
    the push and is decided on the log the push wrote (a registration the venue's log
    allows): the store refuses it in the transaction, and the mirror keeps exactly the
    venue's log."""
    creator, pusher = side("load", "load_many"), side()
    body = venue_push(t)
    with ThreadPoolExecutor(1) as pool:
        made = in_thread(pool, creator.store, lambda: creator.command(register("p9", t=t)[0]))
        receive(pusher.store, t, body, VENUE, AT)
        creator.store.go.set()
        answer = made.result(STUCK)
    assert answer.status_code == 409 and answer.json()["error"] == mirrored(t)
    assert stored(pusher.store, t) == [line.encode() for line in body.events]
    assert set(pusher.store.players(t)) == {"p1", "p2"}


def test_a_process_that_thinks_the_id_its_own_can_not_write_to_it(
    side: Callable[..., Side], t: str
) -> None:
    """A process's list of the tournaments it appended to spares it a read, never the
    store's check: even with the id in that list (as a process that lost the race would
    have kept it), a command to the id a venue claimed in another process is refused."""
    stale, pusher = side(), side()
    receive(pusher.store, t, venue_push(t), VENUE, AT)
    stale.app.state.own_tournaments = {t}
    answer = stale.command(register("p9", t=t)[0])
    assert answer.status_code == 409 and answer.json()["error"] == mirrored(t)
    assert len(stored(pusher.store, t)) == 3


def test_another_venue_racing_the_first_claim_is_refused(side: Callable[..., Side], t: str) -> None:
    """Two venues' first pushes of one id: the one held after reading loses to the one
    written meanwhile, and nothing of it is written."""
    first, second = side("claim", "append_stored"), side()
    body = venue_push(t)
    other = TokenEntry("hash-of-venue-b", "venue-b", "venue", None, None)
    with ThreadPoolExecutor(1) as pool:
        push = in_thread(pool, first.store, lambda: receive(first.store, t, body, other, AT))
        receive(second.store, t, body, VENUE, AT)
        first.store.go.set()
        with pytest.raises(NotYours, match="claimed by another venue"):
            push.result(STUCK)
    assert second.store.claimed_by(t) == "venue-a"
    assert stored(second.store, t) == [line.encode() for line in body.events]
