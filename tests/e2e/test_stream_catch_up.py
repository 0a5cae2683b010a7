"""Where a stream's catch-up meets the hub, driven in process so that a test
decides when appends happen and when the reader reads: appends racing every read of the
switch, a reader that falls behind and resumes, a tournament's catch-up by its index."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import pytest

from commands.api import stream as stream_module
from commands.api.hub import Hub
from commands.api.limits import Settings
from commands.api.stream import Reader, Session, follow
from commands.handler import Handler
from commands.models import parse_command
from ledger.store import Store
from ledger.url import open_store
from tests.e2e.test_http import PLAYERS, setup
from tests.stores import KINDS, store_url


@pytest.fixture(params=KINDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return store_url(request.param, tmp_path, "catch-up.sqlite3")


class RacingStore:
    """A store on which another writer appends right after every read a stream or the
    tail makes, until ``budget`` appends are spent: each catch-up page, each switch to
    the hub and each tail read races an append."""

    def __init__(self, store: Store, tournaments: list[str], budget: int) -> None:
        self.store, self.tournaments, self.budget = store, tournaments, budget
        self.handler = Handler(store)
        self.appended = dict.fromkeys(tournaments, 0)
        self.guard = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def race(self) -> None:
        with self.guard:
            if self.budget == 0:
                return
            self.budget -= 1
            t = self.tournaments[self.budget % len(self.tournaments)]
            self.appended[t] += 1
            self.handler.handle(parse_command({"type": "register_player", "tournament": t,
                                               "player": f"r{self.appended[t]}"}))  # fmt: skip

    def scan(self, *args: Any) -> Any:
        found = self.store.scan(*args)
        self.race()
        return found

    def stream_after(self, *args: Any) -> Any:
        found = self.store.stream_after(*args)
        self.race()
        return found

    def head_position(self) -> int:
        head = self.store.head_position()
        self.race()
        return int(head)


def sent(chunk: bytes) -> list[dict[str, Any]]:
    return [json.loads(line[6:]) for line in chunk.split(b"\n") if line.startswith(b"data: ")]


@pytest.mark.parametrize("scoped", [True, False])
def test_catching_up_then_following_has_no_gap_and_no_duplicate_whatever_appends_race_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scoped: bool
) -> None:
    monkeypatch.setattr(stream_module, "PAGE", 2)  # many pages: many switches to race
    store = open_store(store_url("sqlite", tmp_path))
    a, b = "race-a", "race-b"
    for t in (a, b):
        Handler(store).handle(parse_command({"type": "create_tournament", "tournament": t,
                                             "name": t, "ruleset": "swu-1.4"}))  # fmt: skip
    racing = RacingStore(store, [a, b], budget=30)

    def wanted() -> list[tuple[str, int]]:
        return [(t, r.position) for t, r in store.scan(0, 1000)[0] if not scoped or t == a]

    async def collect() -> list[tuple[str, int]]:
        hub = Hub(racing, Settings(), pace=0.005)  # type: ignore[arg-type]
        reader = Reader(racing, a if scoped else None, 0)  # type: ignore[arg-type]
        frames = follow(Session(hub, "k"), reader, 0.05)
        got: list[tuple[str, int]] = []
        try:
            async with asyncio.timeout(20):
                async for chunk in frames:
                    got += [(e["tournament"], e["position"]) for e in sent(chunk)]
                    if racing.budget == 0 and len(got) >= len(wanted()):
                        return got
        finally:
            await frames.aclose()
            hub.close()
        return got

    assert asyncio.run(collect()) == wanted()
    assert racing.appended[a] > 10


def test_a_reader_that_falls_behind_is_dropped_and_resumes_without_gap(tmp_path: Path) -> None:
    store = open_store(store_url("sqlite", tmp_path))
    handler = Handler(store)

    def register(player: str) -> None:
        handler.handle(parse_command({"type": "register_player", "tournament": "slow",
                                      "player": player}))  # fmt: skip

    handler.handle(parse_command({"type": "create_tournament", "tournament": "slow",
                                  "name": "Slow", "ruleset": "swu-1.4"}))  # fmt: skip

    async def scenario() -> tuple[list[dict[str, Any]], bytes, list[dict[str, Any]]]:
        hub = Hub(store, Settings(subscriber_queue=2), pace=0.005)
        frames = follow(Session(hub, "k"), Reader(store, "slow", 0), 5)
        taken = sent(await anext(frames) + await anext(frames))  # opening, then seq 1
        pending = asyncio.ensure_future(anext(frames))  # the reader waits for more...
        while not hub.subscribers:
            await asyncio.sleep(0.005)
        for n in range(6):  # ...and once it has something, takes nothing for a while
            register(f"p{n}")
            await asyncio.sleep(0.02)
        taken += sent(await pending)
        rest = b"".join([chunk async for chunk in frames])
        resumed = follow(Session(hub, "k"), Reader(store, "slow", taken[-1]["position"]), 5)
        again: list[dict[str, Any]] = []
        async for chunk in resumed:
            again += sent(chunk)
            if len(taken) + len(again) == 7:
                break
        await resumed.aclose()
        hub.close()
        return taken, rest, again

    async def bounded() -> tuple[list[dict[str, Any]], bytes, list[dict[str, Any]]]:
        async with asyncio.timeout(10):
            return await scenario()

    taken, rest, again = asyncio.run(bounded())
    assert rest.endswith(b": dropped: this reader fell behind; resume with Last-Event-ID\n\n")
    assert [e["seq"] for e in taken + again] == list(range(1, 8))
    assert len(again) >= 3  # it fell behind by more than its buffer of two


def test_a_tournaments_stream_catches_up_by_its_index_never_by_scanning_the_global_log(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    t, _ = setup(url, "http://unused", PLAYERS[:2])
    setup(url, "http://unused", PLAYERS[:4])  # another tournament's events after them
    store = open_store(url)
    scans: list[Any] = []
    real = type(store).scan
    monkeypatch.setattr(type(store), "scan", lambda self, *a: scans.append(a) or real(self, *a))
    reader = Reader(store, t, 0)

    async def first_page() -> bytes:
        return (await reader.page())[0]

    assert [e["seq"] for e in sent(asyncio.run(first_page()))] == [1, 2, 3, 4, 5]
    assert scans == []
