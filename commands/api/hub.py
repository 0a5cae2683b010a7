"""One tail of the store per process, fanned out to every open event stream.

A stream that polls the database on its own does not scale: 500 idle streams cost 47%
of a core, and 20 tournament-scoped streams scanning the global log stalled every
writer. Here one task reads the global sequence after the last position it handed out
and gives each new event, framed once as Server-Sent Event bytes, to every subscriber
that wants it (the unscoped ones and those of its tournament). It wakes when an
append may have happened: on PostgreSQL a thread LISTENs to the NOTIFY the library
sends in every insert transaction (and a slow poll covers a notification missed while
that connection was down); on SQLite and in memory it polls. Either way it reads at
most once per ``ROUND_SECONDS``: feeding a thousand streams costs tens of milliseconds
of the one event loop whether it hands out one event or fifty, so appends that come
close together go out together instead of taking the loop from the writers once per
commit. The tail runs only while someone subscribes.

A subscriber's buffer is bounded (``Settings.subscriber_queue``): a reader too slow
to take what the tail hands out is dropped, its stream ends and the client resumes
with ``Last-Event-ID``, so neither memory nor the tail ever waits for one reader.

Catching up from a cursor is the stream's work (commands/api/stream.py); the hub
only hands out what it reads after a subscriber joined.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
from collections import deque
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from types import FrameType

import orjson
from fastapi import FastAPI

from commands.api.limits import Settings
from ledger.errors import ChainBroken, LedgerError
from ledger.store import Listener, Recorded, Store

PAGE = 1000
ROUND_SECONDS = 0.25  # at most one read and hand-out per this; SQLite and memory poll so
SAFETY_POLL_SECONDS = 1.0  # PostgreSQL: a read even when no NOTIFY came
LISTEN_SECONDS = 0.25  # how soon the listening thread notices that the tail stopped
RETRY_SECONDS = 1.0  # the store did not answer: streams stay open, the tail tries again
WAKE_BATCH = 10  # streams woken at once; then the writers get as long as they took


@dataclass(frozen=True, slots=True)
class Frame:
    """One event as a stream sends it, made once for every subscriber: its SSE bytes
    (``id:`` the position, ``event:`` the type, ``data:`` the JSON of ``GET /events``)
    and what a tournament-scoped stream checks of its link."""

    position: int
    tournament: str
    seq: int
    prev_hash: str
    hash: str
    data: bytes


def frame_of(tournament: str, recorded: Recorded) -> Frame:
    body = orjson.dumps({"position": recorded.position, "tournament": tournament,
                         **recorded.as_json()})  # fmt: skip
    head = f"id: {recorded.position}\nevent: {recorded.event.type}\ndata: ".encode()
    event = recorded.event
    return Frame(recorded.position, tournament, recorded.seq, event.prev_hash, event.hash,
                 head + body + b"\n\n")  # fmt: skip


def error_frame(exc: Exception) -> bytes:
    """The stream's last frame when the store is damaged: never served past it."""
    return b"event: error\ndata: " + orjson.dumps({"error": str(exc)}) + b"\n\n"


#: the last frame of a dropped stream (a comment: clients ignore it, people read it)
DROPPED = b": dropped: this reader fell behind; resume with Last-Event-ID\n\n"


class Subscriber:
    """One open stream's share of the tail: the frames handed to it and not yet sent,
    at most ``limit`` of them."""

    __slots__ = ("_ready", "final", "frames", "limit", "scope")

    def __init__(self, scope: str | None, limit: int) -> None:
        self.scope, self.limit = scope, limit
        self.frames: deque[Frame] = deque()
        self.final: bytes | None = None  # set when the stream is to end, with its last bytes
        self._ready = asyncio.Event()

    def offer(self, frames: Sequence[Frame]) -> bool:
        """Buffer frames; False when the buffer would overflow (the reader fell behind)."""
        if len(self.frames) + len(frames) > self.limit:
            return False
        self.frames.extend(frames)
        self._ready.set()
        return True

    def end(self, final: bytes = b"") -> None:
        """End the stream after ``final``; what was buffered is dropped (the client
        resumes from the last id it received)."""
        if self.final is None:
            self.final = final
            self.frames.clear()
            self._ready.set()

    async def take(self, idle: float) -> list[Frame] | None:
        """Every frame buffered since the last take, waiting up to ``idle`` seconds for
        one ([] then: time for a keep-alive); None once the stream is to end."""
        if not self.frames and self.final is None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(idle):
                    await self._ready.wait()
        if self.final is not None:
            return None
        frames = list(self.frames)
        self.frames.clear()
        self._ready.clear()
        return frames


class ShuttingDown(Exception):
    """The server is stopping: no new stream."""


class Hub:
    """The process's tail of the store and its subscribers, by scope (``None``: every
    tournament), plus the open streams per token (``Settings.streams_per_token``) and in
    all (``Settings.max_streams``)."""

    def __init__(self, store: Store, settings: Settings, pace: float = ROUND_SECONDS) -> None:
        self.store, self.settings, self.pace = store, settings, pace
        #: events read at once: at most half a subscriber's buffer, so that a burst (an
        #: import) reaches a reader that keeps up in pages it can take, not as a drop
        self.page = max(1, min(PAGE, settings.subscriber_queue // 2))
        self.cursor = 0  # the last position handed out (or skipped: nobody wanted it)
        self.subscribers: dict[str | None, set[Subscriber]] = {}
        self.streams: dict[str, int] = {}
        self.open_streams = 0
        self.closed = False
        self._task: asyncio.Task[None] | None = None
        self._starting = asyncio.Lock()
        self._wake = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None

    # -- open streams per token ---------------------------------------------------------

    def open_stream(self, token_hash: str, limit: int | None = None) -> bool:
        """Count one more open stream of a token (or of another key: a public page's
        live streams count under their tournament); False when it has its share
        already (``limit``, by default ``streams_per_token``)."""
        if self.streams.get(token_hash, 0) >= (limit or self.settings.streams_per_token):
            return False
        self.streams[token_hash] = self.streams.get(token_hash, 0) + 1
        self.open_streams += 1
        return True

    def full(self) -> bool:
        """The process has its most event streams open (``Settings.max_streams``): each
        holds a connection and a descriptor, and the pages need some too."""
        most = self.settings.max_streams
        return most is not None and self.open_streams >= most

    def close_stream(self, token_hash: str) -> None:
        self.open_streams -= 1
        left = self.streams.get(token_hash, 0) - 1
        if left > 0:
            self.streams[token_hash] = left
        else:
            self.streams.pop(token_hash, None)

    # -- subscribers ----------------------------------------------------------------------

    async def subscribe(self, scope: str | None) -> Subscriber:
        """A new subscriber: from now on, every event of its scope that the tail reads is
        handed to it. Events before may or may not be: the stream catches up from the
        store after subscribing, then skips what it already sent."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # the first stream, or the app now runs on another loop
            self._loop, self._task = loop, None  # (close_soon reaches the streams there)
            self._starting, self._wake = asyncio.Lock(), asyncio.Event()
        if self._task is None:
            async with self._starting:
                if self._task is None:
                    cursor = await asyncio.to_thread(self.store.head_position)
                    subscriber = self._join(scope)
                    self.cursor = cursor
                    self._task = asyncio.create_task(self._tail())
                    return subscriber
        return self._join(scope)

    def _join(self, scope: str | None) -> Subscriber:
        if self.closed:  # also when the server began to stop while this one waited
            raise ShuttingDown("the server is shutting down")
        subscriber = Subscriber(scope, self.settings.subscriber_queue)
        self.subscribers.setdefault(scope, set()).add(subscriber)
        return subscriber

    def leave(self, subscriber: Subscriber) -> None:
        group = self.subscribers.get(subscriber.scope)
        if group is not None:
            group.discard(subscriber)
            if not group:
                del self.subscribers[subscriber.scope]

    def _end(self, subscribers: Iterable[Subscriber], final: bytes) -> None:
        for subscriber in list(subscribers):
            self.leave(subscriber)
            subscriber.end(final)

    async def hand_out(self, frames: Sequence[Frame]) -> None:
        """Give frames, in order, to every unscoped subscriber and to the subscribers of
        their tournament; drop those whose buffer is full.

        Each subscriber given frames is a task woken to send them, and a thousand of
        them keep the one event loop (and the GIL, and on a small machine the CPU) busy
        for tens of milliseconds. So they are woken ``WAKE_BATCH`` at a time, and after
        each batch the loop is left to everything else for as long as the batch took:
        each of the several steps a command takes through the loop waits for one batch
        at most, and the command competes for the processor half the time of a round
        rather than all of it. (Measured on two cores with 1,000 streams: batches of 50
        let a command's p99 go from 9 ms to 19 ms and its worst to 128 ms; of 10, it
        stayed under 10 ms, and the last stream had each event within 0.7 s.)
        """
        by_tournament: dict[str, list[Frame]] = {}
        for frame in frames:
            by_tournament.setdefault(frame.tournament, []).append(frame)
        targets = [(s, list(frames)) for s in self.subscribers.get(None, ())]
        for tournament, own in by_tournament.items():
            targets += [(s, own) for s in self.subscribers.get(tournament, ())]
        clock = asyncio.get_running_loop().time
        for done, (subscriber, given) in enumerate(targets, start=1):
            if subscriber.final is None and not subscriber.offer(given):
                self._end([subscriber], DROPPED)
            if done % WAKE_BATCH == 0 or done == len(targets):
                woken = clock()
                await asyncio.sleep(0)  # the woken streams send, before this resumes
                await asyncio.sleep(clock() - woken)

    # -- the tail -------------------------------------------------------------------------

    async def _tail(self) -> None:
        """Read after the cursor while anyone subscribes; wait between empty reads."""
        stop = threading.Event()
        listener = await asyncio.to_thread(self.store.listener)
        if listener is not None:
            threading.Thread(target=self._listen, args=(listener, stop), daemon=True,
                             name="tledger-listen").start()  # fmt: skip
        clock = asyncio.get_running_loop().time
        try:
            while self.subscribers and not self.closed:
                started = clock()
                if await self._read():
                    continue  # a full page: more is waiting
                await self._idle(SAFETY_POLL_SECONDS if listener else self.pace)
                await asyncio.sleep(max(0.0, started + self.pace - clock()))
        except Exception as exc:  # never leave subscribers waiting on a dead tail
            self._end(self._everyone(), error_frame(exc))
        finally:
            if self._task is asyncio.current_task():
                self._task = None
            stop.set()

    def _listen(self, listener: Listener, stop: threading.Event) -> None:
        """The listening thread: wake the tail on every NOTIFY until the tail stops."""
        loop = self._loop
        try:
            while not stop.is_set():
                if listener.wait(LISTEN_SECONDS) and loop is not None and not loop.is_closed():
                    loop.call_soon_threadsafe(self._wake.set)
        finally:
            listener.close()

    async def _idle(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await self._wake.wait()
        self._wake.clear()  # before the read: a NOTIFY during it wakes the next wait

    async def _read(self) -> bool:
        """Hand out one page after the cursor; whether a full page came (read on)."""
        try:
            found, last = await asyncio.to_thread(self.store.scan, self.cursor, self.page)
        except ChainBroken as exc:
            return await self._read_around(exc)
        except LedgerError:
            await asyncio.sleep(RETRY_SECONDS)
            return False
        self.cursor = last
        await self.hand_out([frame_of(t, r) for t, r in found])
        return len(found) == self.page

    async def _read_around(self, exc: ChainBroken) -> bool:
        """A damaged event in the page: the unscoped streams end with the error (they are
        never served past it); the streams of each tournament read only their own events,
        so damage elsewhere does not stop them."""
        self._end(self.subscribers.get(None, ()), error_frame(exc))
        scanned: list[int] = []
        for scope in [s for s in self.subscribers if s is not None]:
            try:
                found, last = await asyncio.to_thread(
                    self.store.scan, self.cursor, self.page, scope
                )
            except LedgerError as damaged:
                self._end(self.subscribers.get(scope, ()), error_frame(damaged))
                continue
            await self.hand_out([frame_of(t, r) for t, r in found])
            scanned.append(last)
        # the least page end: a scope that read further meanwhile gets some events
        # again, which its streams skip (they never send a position twice)
        self.cursor = min(scanned, default=self.cursor)
        return False

    def _everyone(self) -> list[Subscriber]:
        return [s for group in self.subscribers.values() for s in group]

    # -- shutdown -------------------------------------------------------------------------

    def close(self) -> None:
        """End every stream and the tail: the server is stopping (uvicorn waits for open
        responses before it stops, and a stream would never end by itself)."""
        self.closed = True
        self._end(self._everyone(), b"")
        if self._task is not None:
            self._task.cancel()

    def close_soon(self) -> None:
        """``close`` from another thread or a signal handler."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.close)
        else:
            self.closed = True


#: the signals that stop uvicorn (and most ASGI servers)
EXIT_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The application's lifespan: the hub closes when the server stops.

    uvicorn runs a lifespan's shutdown only after every open response finished, and an
    event stream never finishes by itself: so the exit signal itself ends the streams
    (then uvicorn's wait is short and ``tledger serve`` exits within a second of
    SIGTERM), and the server's own handler runs as before.
    """
    hub: Hub = app.state.hub
    with streams_end_on_exit(hub):
        yield
    hub.close()


@contextlib.contextmanager
def streams_end_on_exit(hub: Hub) -> Iterator[None]:
    """Chain a handler for the exit signals that ends every stream, while the block runs.
    Only the main thread may set signal handlers (an app in a test client runs in
    another: nothing to do there, its streams end with the client)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {sig: signal.getsignal(sig) for sig in EXIT_SIGNALS}

    def on_exit(sig: int, frame: FrameType | None) -> None:
        hub.close_soon()
        previous = before.get(signal.Signals(sig))
        if callable(previous):
            previous(sig, frame)
        elif previous == signal.SIG_DFL:
            signal.signal(sig, signal.SIG_DFL)
            signal.raise_signal(sig)

    for sig in EXIT_SIGNALS:
        signal.signal(sig, on_exit)
    try:
        yield
    finally:
        for sig, previous in before.items():
            if signal.getsignal(sig) is on_exit:
                signal.signal(sig, previous)
