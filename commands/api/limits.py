"""Limits that protect writers at an event: a body is refused while it is read, player
and scorekeeper tokens send commands at a bounded rate, each role at its own, and the
other per-process bounds every part of the API reads from one ``Settings``.

A player's phone and a scorekeeper's desk are not alike. Every player holds a token
(and a slip code), so the player rate is low: 20 at once, then 2 a second, which no
person reporting their own match ever reaches. One scorekeeper enters every slip of a
round at the desk, or an integration sends them in a batch, so theirs lets a whole
round of a big event through at once (300) and then 10 a second, still a bound on an
integration that loops. Organizer and judge tokens run the event: never slowed.

A limit is kept in this process only: several ``tledger serve`` processes on one
PostgreSQL database each keep their own buckets, so a token's rate over the whole
deployment is at most the process count times the rate set here.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import aclosing
from dataclasses import dataclass
from ipaddress import IPv4Network, IPv6Network

from fastapi import HTTPException, Request
from starlette.requests import ClientDisconnect


@dataclass(frozen=True)
class Settings:
    """The bounds of one API process (``tledger serve`` options; docs/REFERENCE.md, "Serving").

    ``max_body``: bytes of one command body; a command is a few hundred bytes, a
    submitted list a few kilobytes. ``rate_per_second`` and ``rate_burst``: commands
    per player token (and reports per match slip code), a steady rate with a burst;
    ``scorekeeper_rate_per_second`` and ``scorekeeper_rate_burst``: the same for a
    scorekeeper token, a burst for a round's slips typed in or sent at once.
    ``streams_per_token``: open event streams of one token.
    ``heartbeat_seconds``: a comment line on an idle stream, under the usual proxy
    idle timeouts (30-60 s). ``subscriber_queue``: events buffered per stream before
    a slow subscriber is dropped (it resumes with ``Last-Event-ID``).
    ``as_of_cache``: past points of read models kept. ``token_recheck_seconds``: how
    long a token read from the store is trusted before it is read again, the bound
    on how late a ``token revoke`` made by another process takes effect here.
    ``slip_misses_per_second`` and ``slip_miss_burst``: wrong match slip codes one
    client address may try at ``/s/``, a burst for typos and then one every six seconds,
    so guessing one of 31^8 codes stays hopeless. ``slip_all_misses_per_second`` and
    ``slip_all_miss_burst``: wrong codes of every address together, which an address
    that guessed wrong within the hour must fit in too, so that guessing from many
    addresses gains nothing (commands.api.guesses). ``public_streams``: open live
    streams of one tournament's public page (a phone each); past it a page polls every
    30 s instead. ``max_streams``: open event streams of the whole process, of every kind
    (None: no bound of its own; ``tledger serve`` derives one from its descriptor
    limit, commands/web/descriptors.py); past it 503 with ``Retry-After``.
    ``trusted_proxies``: the reverse proxies whose ``X-Forwarded-For`` names the client
    (``--trusted-proxy``; commands.api.clients). ``max_push_body``: bytes of one batch a
    venue pushes to a mirror (commands.mirror), a few thousand stored events.
    """

    max_body: int = 64 * 1024
    max_push_body: int = 16 * 1024 * 1024
    rate_per_second: float = 2.0
    rate_burst: int = 20
    scorekeeper_rate_per_second: float = 10.0
    scorekeeper_rate_burst: int = 300
    streams_per_token: int = 8
    heartbeat_seconds: float = 15.0
    subscriber_queue: int = 1000
    as_of_cache: int = 256
    token_recheck_seconds: float = 5.0
    slip_misses_per_second: float = 1 / 6
    slip_miss_burst: int = 10
    slip_all_misses_per_second: float = 1.0
    slip_all_miss_burst: int = 30
    public_streams: int = 5000
    max_streams: int | None = None
    trusted_proxies: tuple[IPv4Network | IPv6Network, ...] = ()


#: roles whose commands are rate limited, each at its own rate (``RoleLimiters``): many
#: holders (every player) or an integration that may loop; organizers and judges run the
#: event and are not slowed
LIMITED_ROLES = frozenset({"player", "scorekeeper"})


@dataclass(slots=True)
class Bucket:
    tokens: float
    at: float


class RateLimiter:
    """A token bucket per API token (keyed by its hash): ``burst`` commands at once,
    then ``rate`` per second. The clock is an input (monotonic by default), so tests
    move time instead of sleeping."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic):
        if rate <= 0 or burst < 1:
            raise ValueError("the rate must be positive and the burst at least 1")
        self.rate, self.burst, self.clock = rate, burst, clock
        self.buckets: dict[str, Bucket] = {}
        self.guard = threading.Lock()

    def take(self, key: str) -> float | None:
        """Spend one command of ``key``'s bucket: None when allowed, else the seconds
        until the next command would be."""
        now = self.clock()
        with self.guard:
            bucket = self.buckets.get(key) or Bucket(float(self.burst), now)
            bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.rate)
            bucket.at = now
            self.buckets[key] = bucket
            if bucket.tokens < 1:
                return (1 - bucket.tokens) / self.rate
            bucket.tokens -= 1
            self.forget_full(now)
            return None

    def forget_full(self, now: float) -> None:
        """Drop buckets that have refilled, so memory follows the active tokens only
        (a full bucket is the same as no bucket)."""
        if len(self.buckets) < 4 * self.burst + 1024:
            return
        refill = self.burst / self.rate
        self.buckets = {k: b for k, b in self.buckets.items() if now - b.at < refill}


class RoleLimiters:
    """A rate limiter per limited role, each from its own settings; ``player``'s is also
    the one a match slip code's reports share (commands.api.slips)."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic):
        self.player = RateLimiter(settings.rate_per_second, settings.rate_burst, clock)
        scorekeeper = RateLimiter(settings.scorekeeper_rate_per_second,
                                  settings.scorekeeper_rate_burst, clock)  # fmt: skip
        self.by_role = {"player": self.player, "scorekeeper": scorekeeper}
        assert set(self.by_role) == LIMITED_ROLES

    def of(self, role: str) -> RateLimiter | None:
        """The role's limiter; None for a role that is not limited."""
        return self.by_role.get(role)


def retry_after(seconds: float) -> str:
    """The ``Retry-After`` value: whole seconds, at least 1 (RFC 9110 §10.2.3)."""
    return str(max(1, math.ceil(seconds)))


def limit_rate(limiters: RoleLimiters, token_hash: str, role: str) -> None:
    """429 with ``Retry-After`` when a player or scorekeeper token is over its role's
    rate (the message names the role's rate, so a scorekeeper learns theirs)."""
    limiter = limiters.of(role)
    if limiter is None:
        return
    wait = limiter.take(token_hash)
    if wait is not None:
        raise HTTPException(
            429,
            f"too many commands from this {role} token: at most {limiter.rate:g} per second "
            f"after a burst of {limiter.burst}",
            headers={"Retry-After": retry_after(wait)},
        )


#: bytes past a body's limit that are still read, and dropped, before its 413 is sent,
#: for a second at most: a client, or a proxy passing its body on, has then sent it all
#: when the connection closes, and reads the 413 rather than a reset connection (a
#: lingering close, as nginx makes). A body larger still is cut off at once, and so is
#: one that does not come.
DRAINED = 1024 * 1024
DRAIN_SECONDS = 1.0


def too_large(limit: int) -> HTTPException:
    """413, closing the connection: the rest of the body is never used."""
    return HTTPException(413, f"the body is larger than {limit} bytes",
                         headers={"Connection": "close"})  # fmt: skip


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, refused (413) as soon as more than ``limit`` bytes arrived:
    a declared ``Content-Length`` above the limit before reading anything, a chunked
    or understated body while it streams in, so memory holds at most one limit. Up to
    ``DRAINED`` bytes past the limit are read and dropped before the 413 goes out."""
    declared = request.headers.get("content-length", "")
    body = bytearray()
    try:
        async with aclosing(request.stream()) as chunks:
            if declared.isdigit() and int(declared) > limit:
                if int(declared) <= limit + DRAINED:
                    await drain(chunks, limit + DRAINED)
                raise too_large(limit)
            async for chunk in chunks:
                body += chunk
                if len(body) > limit:
                    await drain(chunks, limit + DRAINED - len(body))
                    raise too_large(limit)
    except ClientDisconnect:
        raise HTTPException(400, "the body ended before it was complete") from None
    return bytes(body)


async def drain(chunks: AsyncIterator[bytes], allowance: int) -> None:
    """Read and drop the rest of a refused body: ``allowance`` bytes and
    ``DRAIN_SECONDS`` at most (a client gone meanwhile ends it too)."""

    async def dropped(allowance: int) -> None:
        async for chunk in chunks:
            allowance -= len(chunk)
            if allowance < 0:
                return

    with contextlib.suppress(ClientDisconnect, TimeoutError):
        await asyncio.wait_for(dropped(allowance), DRAIN_SECONDS)
