"""One event stream: catch up from the client's cursor, then follow the process's tail.

A stream first reads the store after its cursor, subscribed to nothing, page by page.
Then it subscribes to the hub and reads the store once more up to its end: every
event the hub had handed out before it subscribed is in the store by then, and every
event after reaches its buffer. From there on it sends what the hub hands it,
skipping any position it already sent. So the switch from catching up to following
has no gap and no duplicate, whatever appends race it.

A tournament's stream reads that tournament's events by the stream index
(``Store.stream_after``), never by scanning the global log; an unscoped stream reads
the global log (``Store.scan``). Both check every event they send against the one before
it in its tournament: a deleted, reordered or altered event ends the stream with an
``event: error`` frame naming the seq, as every read of a damaged store does.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from functools import partial

from fastapi import HTTPException
from fastapi.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from commands.api.hub import PAGE, Frame, Hub, ShuttingDown, Subscriber, error_frame, frame_of
from commands.api.limits import retry_after
from ledger.chain import Links
from ledger.errors import LedgerError
from ledger.store import Store

OPENING = b": tledger event stream\n\n"
KEEP_ALIVE = b": keep-alive\n\n"


#: seconds a client is told to wait when the process has its most streams open
FULL_RETRY_SECONDS = 10.0


class Session:
    """What one open stream holds: one of the process's stream slots (503 when none is
    left), one of its token's (429 when none is left; ``limit`` and ``busy`` set another
    bound and its message, for streams that count under another key) and its place in
    the hub; all given back once, however the stream ends."""

    def __init__(
        self, hub: Hub, token_hash: str, limit: int | None = None, busy: str | None = None
    ) -> None:
        if hub.full():
            raise HTTPException(
                503,
                f"this server has {hub.settings.max_streams} event streams open, its most: "
                "try again later",
                headers={"Retry-After": retry_after(FULL_RETRY_SECONDS)},
            )
        if not hub.open_stream(token_hash, limit):
            raise HTTPException(
                429,
                busy
                or f"this token has {hub.settings.streams_per_token} event streams open "
                "already: close one first",
                headers={"Retry-After": retry_after(1.0)},
            )
        self.hub, self.token_hash = hub, token_hash
        self.subscriber: Subscriber | None = None
        self.closed = False

    async def subscribe(self, scope: str | None) -> Subscriber:
        self.subscriber = await self.hub.subscribe(scope)
        return self.subscriber

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            if self.subscriber is not None:
                self.hub.leave(self.subscriber)
            self.hub.close_stream(self.token_hash)


class Reader:
    """A stream's cursor (the last position sent) and the last event sent of each
    tournament, which the next one of that tournament must link to (``Links``)."""

    def __init__(self, store: Store, scope: str | None, cursor: int) -> None:
        self.store, self.scope, self.cursor = store, scope, cursor
        self.links = Links(partial(hash_before, store))

    async def page(self) -> tuple[bytes, bool]:
        """The frames of the next page from the store, and whether a full page came."""
        if self.scope is None:
            found, _ = await asyncio.to_thread(self.store.scan, self.cursor, PAGE)
            frames = [frame_of(t, r) for t, r in found]
        else:
            recorded = await asyncio.to_thread(
                self.store.stream_after, self.scope, self.cursor, PAGE
            )
            frames = [frame_of(self.scope, r) for r in recorded]
        return await self.accept(frames), len(frames) == PAGE

    async def accept(self, frames: Sequence[Frame]) -> bytes:
        """The bytes to send of these frames: each position once, in order, each event
        linked to the one before it in its tournament (the events before the first of a
        tournament it has not met are read in a worker thread)."""
        fresh = [f for f in frames if f.position > self.cursor]
        unmet = {f.tournament: f.seq for f in reversed(fresh)}
        unmet = {t: seq for t, seq in unmet.items() if t not in self.links.heads and seq > 1}
        if unmet:
            await asyncio.to_thread(self.meet, unmet)
        out = []
        for frame in fresh:
            if frame.position <= self.cursor:
                continue
            self.links.follow(frame.tournament, frame.seq, frame.prev_hash, frame.hash)
            out.append(frame.data)
            self.cursor = frame.position
        return b"".join(out)

    def meet(self, unmet: dict[str, int]) -> None:
        for tournament, seq in unmet.items():
            self.links.meet(tournament, seq)


def hash_before(store: Store, tournament: str, seq: int) -> str | None:
    """The stored hash of event ``seq`` (its own bytes checked), or None."""
    found = store.load(tournament, after=seq - 1, head=None, until=seq)
    return found[0].event.hash if found else None


async def follow(session: Session, reader: Reader, idle: float) -> AsyncIterator[bytes]:
    """The stream's bytes: what the store holds after the cursor, then what the hub hands
    out, a keep-alive comment after ``idle`` quiet seconds; it ends when the hub ends it
    (the server stops, the reader fell behind) or on a damaged event."""
    hub = session.hub
    try:
        yield OPENING
        async for data in catch_up(reader, hub):  # subscribed to nothing yet
            yield data
        subscriber = await session.subscribe(reader.scope)
        async for data in catch_up(reader, hub):  # what came before subscribing
            yield data
        while (frames := await subscriber.take(idle)) is not None:
            data = await reader.accept(frames) if frames else KEEP_ALIVE
            if data:
                yield data
        if subscriber.final:
            yield subscriber.final
    except ShuttingDown:
        return
    except LedgerError as exc:  # a damaged store: say so, never serve past it
        yield error_frame(exc)
    finally:
        session.close()


async def catch_up(reader: Reader, hub: Hub) -> AsyncIterator[bytes]:
    more = True
    while more and not hub.closed:
        data, more = await reader.page()
        if data:
            yield data


class EventStream(StreamingResponse):
    """A ``text/event-stream`` answer that gives its session back however it ends: also
    when the client leaves while a frame is being sent (the frames' generator is then
    suspended, and would be closed only when collected)."""

    media_type = "text/event-stream"

    def __init__(self, frames: AsyncIterator[bytes], release: Callable[[], None]) -> None:
        super().__init__(frames, headers={"Cache-Control": "no-cache",
                                          "X-Accel-Buffering": "no"})  # fmt: skip
        self.release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.release()
