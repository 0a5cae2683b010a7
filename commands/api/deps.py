"""What every route shares: the caller from the bearer token, the documented errors,
and the application's handler and store."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import Depends, Header, HTTPException, Query, Request
from pydantic import BaseModel

from commands.api.limits import RateLimiter, Settings
from commands.auth import Forbidden, Principal, token_hash
from commands.handler import Handler
from ledger.store import Store, TokenEntry

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


def store_of(request: Request) -> Store:
    return handler_of(request).store


def settings_of(request: Request) -> Settings:
    """The process's limits (``create_app``'s settings, ``tledger serve`` options)."""
    settings: Settings = request.app.state.settings
    return settings


def limiter_of(request: Request) -> RateLimiter:
    """The command rate limiter of this process (one bucket per token)."""
    limiter: RateLimiter = request.app.state.limiter
    return limiter


def tokens_of(request: Request) -> dict[str, TokenEntry]:
    """The tokens this process has seen, by hash (made on first use)."""
    state = request.app.state
    known: dict[str, TokenEntry] | None = getattr(state, "tokens", None)
    if known is None:
        known = state.tokens = {}
    return known


async def principal(
    request: Request, authorization: Annotated[str | None, Header()] = None
) -> Principal:
    """The caller, from the bearer token (401 when missing or unknown).

    Tokens are never changed or revoked once made (``tledger token create`` only adds),
    so a token found once is kept in this process: a read then costs no store query
    and no thread hop for its caller (issue 12: reads at 2,000 phones' pace). An
    unknown token is looked up again each time, so a token made meanwhile works.
    """
    scheme, _, secret = (authorization or "").partition(" ")
    entry = None
    if scheme.lower() == "bearer":
        known = tokens_of(request)
        digest = token_hash(secret.strip())
        entry = known.get(digest)
        if entry is None:
            entry = await asyncio.to_thread(store_of(request).token, digest)
            if entry is not None:
                known[digest] = entry
    if entry is None:
        raise HTTPException(401, "a valid bearer token is required",
                            headers={"WWW-Authenticate": "Bearer"})  # fmt: skip
    return Principal(entry)


def readable(caller: Principal, tournament: str) -> None:
    """403 unless the caller's token may read ``tournament``."""
    if not caller.may_read(tournament):
        raise Forbidden(f"this token reads only tournament {caller.token.tournament!r}")


Caller = Annotated[Principal, Depends(principal)]
AsOf = Annotated[str | None, Query(description="seq or UTC time (ISO 8601)")]
