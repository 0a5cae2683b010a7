"""The process's tail of the store, fanned out (commands/api/hub.py), against a store
that holds literal events: who gets which frame, who is dropped, when the tail runs."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest

from commands.api.hub import DROPPED, Frame, Hub, ShuttingDown, Subscriber
from commands.api.limits import Settings
from ledger.errors import ChainBroken
from ledger.store import Recorded
from tests.builders import Given, create, register

T = TypeVar("T")


def run(scenario: Callable[[], Awaitable[T]]) -> T:
    async def bounded() -> T:
        async with asyncio.timeout(10):
            return await scenario()

    return asyncio.run(bounded())


def frame(position: int, tournament: str = "a") -> Frame:
    return Frame(position, tournament, position, "", "", f"id: {position}\n\n".encode())


class LiteralStore:
    """The global sequence of two tournaments' events, growing when a test appends; the
    tournaments named in ``damaged`` fail every read that includes them."""

    def __init__(self) -> None:
        self.log: list[tuple[str, Recorded]] = []
        self.damaged: set[str] = set()
        self.scans = 0

    def add(self, tournament: str, players: int) -> None:
        for r in Given(create(tournament), *register(*[f"p{i}" for i in range(players)],
                                                      t=tournament)).log:  # fmt: skip
            self.log.append((tournament, Recorded(r.seq, len(self.log) + 1, r.event)))

    def scan(
        self, position: int, limit: int, tournament: str | None = None
    ) -> tuple[list[tuple[str, Recorded]], int]:
        self.scans += 1
        page = [(t, r) for t, r in self.log if r.position > position][:limit]
        last = page[-1][1].position if page else position
        wanted = [(t, r) for t, r in page if tournament in (None, t)]
        if any(t in self.damaged for t, _ in wanted):
            raise ChainBroken(tournament or "?", 2, "hash does not match the stored bytes")
        return wanted, last

    def head_position(self) -> int:
        return len(self.log)

    def listener(self) -> Any:
        return None


def hub_over(store: Any, **settings: Any) -> Hub:
    return Hub(store, Settings(**settings), pace=0.01)


async def taken(subscriber: Subscriber) -> list[int] | None:
    frames = await subscriber.take(0.01)
    return None if frames is None else [f.position for f in frames]


def test_a_frame_reaches_the_unscoped_subscribers_and_those_of_its_tournament_only() -> None:
    async def scenario() -> None:
        hub = hub_over(LiteralStore())
        every, of_a, of_b = [await hub.subscribe(s) for s in (None, "a", "b")]
        await hub.hand_out([frame(1, "a")])
        await hub.hand_out([frame(2, "b")])
        assert [await taken(s) for s in (every, of_a, of_b)] == [[1, 2], [1], [2]]
        assert await taken(of_a) == []  # nothing more: an idle take comes back empty
        hub.close()

    run(scenario)


def test_a_subscriber_that_falls_behind_is_dropped_and_the_others_keep_going() -> None:
    async def scenario() -> None:
        hub = hub_over(LiteralStore(), subscriber_queue=3)
        slow, quick = await hub.subscribe("a"), await hub.subscribe("a")
        for position in range(1, 5):
            await hub.hand_out([frame(position)])
            if position == 2:
                assert await taken(quick) == [1, 2]
        assert await taken(slow) is None and slow.final == DROPPED
        assert slow.frames == type(slow.frames)()  # its buffer is freed at once
        assert await taken(quick) == [3, 4]
        assert hub.subscribers == {"a": {quick}}
        hub.close()

    run(scenario)


def test_the_tail_hands_out_new_events_and_stops_when_the_last_subscriber_leaves() -> None:
    async def scenario() -> None:
        store = LiteralStore()
        store.add("a", 2)  # before anyone subscribed: the streams catch up on these
        hub = hub_over(store)
        subscriber = await hub.subscribe("a")
        store.add("b", 1)
        store.add("a", 1)
        await asyncio.sleep(0.1)
        assert [f.position for f in subscriber.frames] == [6, 7]
        hub.leave(subscriber)
        await asyncio.sleep(0.05)
        scans = store.scans
        await asyncio.sleep(0.1)
        assert store.scans == scans  # no subscriber: no reads
        again = await hub.subscribe(None)  # a new tail starts at the head
        store.add("c", 1)
        await asyncio.sleep(0.1)
        assert [f.position for f in again.frames] == [8, 9]
        hub.close()

    run(scenario)


def test_a_damaged_event_ends_unscoped_streams_and_spares_other_tournaments() -> None:
    async def scenario() -> None:
        store = LiteralStore()
        hub = hub_over(store)
        every, of_a, of_b = [await hub.subscribe(s) for s in (None, "a", "b")]
        store.damaged.add("a")
        store.add("a", 1)
        store.add("b", 1)
        await asyncio.sleep(0.1)
        for ended in (every, of_a):
            assert await taken(ended) is None
            assert ended.final is not None and ended.final.startswith(b"event: error\ndata: ")
            assert b"integrity: seq 2: hash does not match" in ended.final
        assert [f.tournament for f in of_b.frames] == ["b", "b"]
        assert hub.cursor == 4  # past the damage, for the tournaments it does not touch
        hub.close()

    run(scenario)


def test_closing_the_hub_ends_every_stream_and_refuses_new_ones() -> None:
    async def scenario() -> None:
        hub = hub_over(LiteralStore())
        subscribers = [await hub.subscribe(s) for s in (None, "a")]
        hub.close()
        assert [await taken(s) for s in subscribers] == [None, None]
        assert [s.final for s in subscribers] == [b"", b""]
        with pytest.raises(ShuttingDown):
            await hub.subscribe("a")

    run(scenario)


def test_a_token_holds_at_most_its_share_of_streams_and_gets_a_slot_back_on_close() -> None:
    hub = hub_over(LiteralStore(), streams_per_token=2)
    assert [hub.open_stream("k") for _ in range(3)] == [True, True, False]
    assert hub.open_stream("other")
    hub.close_stream("k")
    assert hub.open_stream("k") and not hub.open_stream("k")
    for _ in range(2):
        hub.close_stream("k")
    hub.close_stream("other")
    assert hub.streams == {}


def test_a_burst_reaches_a_reader_that_keeps_up_in_pages_it_can_take() -> None:
    async def scenario() -> list[int]:
        store = LiteralStore()
        hub = hub_over(store, subscriber_queue=4)
        subscriber = await hub.subscribe("a")
        store.add("a", 9)  # ten events at once: more than the reader's buffer holds
        got: list[int] = []
        while len(got) < 10:
            frames = await taken(subscriber)
            assert frames is not None, "dropped"
            got += frames
        hub.close()
        return got

    assert run(scenario) == list(range(1, 11))
