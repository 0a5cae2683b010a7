"""What every route shares: the caller from the bearer token, the documented errors,
and the application's handler and store."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import Depends, Header, HTTPException, Query, Request
from pydantic import BaseModel

from commands.api.limits import RateLimiter, RoleLimiters, Settings
from commands.group_commit import GroupCommit
from commands.handler import Handler
from commands.pages.venue import UTC_VENUE, Venue
from commands.roles import Forbidden, Principal
from commands.tokens import refusal, token_hash
from ledger.store import Store, TokenEntry

#: RFC 6750: a token that is known but no longer works
INVALID_TOKEN = 'Bearer error="invalid_token"'
#: makes the one group commit of an application
GROUP_COMMIT_MADE = threading.Lock()
#: the largest position a store can hold (a signed 64-bit integer in SQLite and PostgreSQL)
MAX_POSITION = 2**63 - 1


class ErrorBody(BaseModel):
    """The body of every error answer: one message naming the problem."""

    error: str


ERROR_TEXT = {
    400: "Malformed JSON, body or cursor", 401: "No or unknown bearer token",
    403: "The token's role or scope", 404: "Unknown tournament", 409: "Refused by the rules",
    413: "Body too large", 422: "Does not fit the schema",
    429: "Too many requests from this token (see Retry-After)", 503: "Store unavailable",
}  # fmt: skip


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The documented error answers of a route (so /openapi.json states the real shape)."""
    return {code: {"model": ErrorBody, "description": ERROR_TEXT[code]} for code in codes}


READ_ERRORS = errors(401, 403, 404, 409, 422, 503)


def handler_of(request: Request) -> Handler:
    handler: Handler = request.app.state.handler
    return handler


def group_commit_of(request: Request) -> GroupCommit:
    """The process's single writer of commands sent over HTTP (made on first use): what
    arrives together is committed together (commands/group_commit.py)."""
    state = request.app.state
    with GROUP_COMMIT_MADE:
        writer: GroupCommit | None = getattr(state, "group_commit", None)
        if writer is None:
            writer = state.group_commit = GroupCommit(handler_of(request))
    return writer


def store_of(request: Request) -> Store:
    return handler_of(request).store


def settings_of(request: Request) -> Settings:
    """The process's limits (``create_app``'s settings, ``tledger serve`` options)."""
    settings: Settings = request.app.state.settings
    return settings


def venue_of(request: Request) -> Venue:
    """The venue this process serves (``tledger serve --tz``, ``--venue``, ``--base-url``):
    the zone every page shows its times in, and the address phones reach; UTC and the
    request's own address when the application was made without one."""
    venue: Venue = getattr(request.app.state, "venue", UTC_VENUE)
    return venue


def slip_base(request: Request) -> str:
    """The base URL that slips and the welcome sheet carry: the venue's address, else the
    address this request came in on (a browser on the laptop: loopback)."""
    return venue_of(request).base_url or str(request.base_url).rstrip("/")


def limiter_of(request: Request) -> RateLimiter:
    """The player tokens' command rate limiter of this process (one bucket per token),
    which match slip codes share."""
    limiter: RateLimiter = request.app.state.limiter
    return limiter


def limiters_of(request: Request) -> RoleLimiters:
    """The command rate limiters of this process, one per limited role."""
    limiters: RoleLimiters = request.app.state.limiters
    return limiters


@dataclass(frozen=True, slots=True)
class Kept:
    """A token as read from the store, and when (on the cache's monotonic clock)."""

    entry: TokenEntry
    read_at: float


class TokenCache:
    """The tokens this process has read, by hash, each trusted for ``recheck`` seconds.

    A request with a kept token costs no store query and no thread hop, so reads keep
    pace with 2,000 phones at a venue. The staleness is bounded: ``recheck`` seconds after
    a token was read it is read again, so a ``tledger token revoke`` run by another
    process is refused here at most ``recheck`` seconds later (``tledger serve
    --token-recheck``, default 5 s), for at most one query per token and period.
    An expiry needs no query: it is in the kept entry and is checked against ``now``
    on every request, so an expired token is refused at once. An unknown token is
    kept as unknown for ``recheck`` seconds as well, so a client repeating a wrong
    token costs one store read per period, not one per request; at most
    ``unknown_limit`` of them are kept, the oldest forgotten first, so guessing
    cannot fill the memory. A token made by another process works at its first use
    unless that very secret was tried in the ``recheck`` seconds before. Both clocks
    are inputs, so tests move time instead of sleeping.
    """

    def __init__(
        self, recheck: float, clock: Callable[[], float] = time.monotonic,
        now: Callable[[], datetime] = lambda: datetime.now(UTC), unknown_limit: int = 4096,
    ) -> None:  # fmt: skip
        self.recheck, self.clock, self.now = recheck, clock, now
        self.unknown_limit = unknown_limit
        self._kept: dict[str, Kept] = {}
        self._unknown: dict[str, float] = {}

    def get(self, digest: str) -> TokenEntry | None:
        """The kept token while it is trusted, else None (read it from the store)."""
        kept = self._kept.get(digest)
        if kept is None or self.clock() - kept.read_at >= self.recheck:
            return None
        return kept.entry

    def keep(self, digest: str, entry: TokenEntry, read_at: float) -> None:
        """Keep a token read at ``read_at`` (taken before the read: never trusted longer)."""
        self._kept[digest] = Kept(entry, read_at)
        self._unknown.pop(digest, None)

    def unknown(self, digest: str) -> bool:
        """Whether the store had no such token when it was last read, ``recheck``
        seconds ago at most."""
        read_at = self._unknown.get(digest)
        return read_at is not None and self.clock() - read_at < self.recheck

    def keep_unknown(self, digest: str, read_at: float) -> None:
        """Remember that the store had no such token at ``read_at``."""
        self._unknown.pop(digest, None)  # the newest last: the oldest goes first
        self._unknown[digest] = read_at
        while len(self._unknown) > self.unknown_limit:
            del self._unknown[next(iter(self._unknown))]


def tokens_of(request: Request) -> TokenCache:
    """The tokens this process has seen (the cache is made on first use)."""
    state = request.app.state
    cache: TokenCache | None = getattr(state, "tokens", None)
    if cache is None:
        cache = state.tokens = TokenCache(settings_of(request).token_recheck_seconds)
    return cache


async def principal(
    request: Request, authorization: Annotated[str | None, Header()] = None
) -> Principal:
    """The caller, from the bearer token: 401 when it is missing or unknown, and with
    "token expired" or "token revoked" when it no longer works (see TokenCache for how
    late a revocation by another process is seen)."""
    scheme, _, secret = (authorization or "").partition(" ")
    entry = None
    cache = tokens_of(request)
    if scheme.lower() == "bearer":
        digest = token_hash(secret.strip())
        entry = cache.get(digest)
        if entry is None and not cache.unknown(digest):
            read_at = cache.clock()
            entry = await asyncio.to_thread(store_of(request).token, digest)
            if entry is not None:
                cache.keep(digest, entry, read_at)
            else:
                cache.keep_unknown(digest, read_at)
    if entry is None:
        raise HTTPException(401, "a valid bearer token is required",
                            headers={"WWW-Authenticate": "Bearer"})  # fmt: skip
    refused = refusal(entry, cache.now())
    if refused is not None:
        raise HTTPException(401, refused, headers={"WWW-Authenticate": INVALID_TOKEN})
    return Principal(entry)


def readable(caller: Principal, tournament: str) -> None:
    """403 unless the caller's token may read ``tournament``."""
    if not caller.may_read(tournament):
        raise Forbidden(f"this token reads only tournament {caller.token.tournament!r}")


Caller = Annotated[Principal, Depends(principal)]
AsOf = Annotated[str | None, Query(description="seq or UTC time (ISO 8601)")]
