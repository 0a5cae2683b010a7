"""The integration cursor: ``GET /events`` pages the global sequence, ``GET /events/stream``
follows it as Server-Sent Events (``id:`` = position), resuming after ``Last-Event-ID``;
``?tournament=t`` (or a token scoped to one) keeps one tournament's events."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import StreamingResponse

from commands.api.deps import MAX_POSITION, Caller, errors, readable, store_of
from commands.auth import Principal
from ledger.errors import LedgerError
from ledger.store import Store

PAGE = 500
POLL_SECONDS = 0.25
router = APIRouter()


def page(
    store: Store, after: int, limit: int, tournament: str | None
) -> tuple[list[dict[str, Any]], int]:
    """Events after a position, in global order; ``last`` is the cursor to resume from."""
    found: list[dict[str, Any]] = []
    cursor = after
    while len(found) < limit:
        batch, last = store.scan(cursor, PAGE, tournament)
        for t, r in batch:
            found.append({"position": r.position, "tournament": t, **r.as_json()})
            if len(found) == limit:
                return found, r.position
        if last == cursor:  # the end of the store
            break
        cursor = last
    return found, cursor


def stream_scope(caller: Principal, tournament: str | None) -> str | None:
    """The tournament a reader follows: the token's own, or the one asked for."""
    if caller.token.tournament is not None:
        readable(caller, tournament or caller.token.tournament)
        return caller.token.tournament
    return tournament


@router.get("/events", responses=errors(401, 403, 422, 503))
def get_events(
    request: Request,
    caller: Caller,
    after: Annotated[int, Query(ge=0, le=MAX_POSITION)] = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    tournament: str | None = None,
) -> dict[str, Any]:
    found, cursor = page(store_of(request), after, limit, stream_scope(caller, tournament))
    return {"events": found, "last": cursor}


@router.get("/events/stream", responses=errors(401, 403, 422))
async def get_stream(
    request: Request,
    caller: Caller,
    tournament: str | None = None,
    after: Annotated[int | None, Query(ge=0, le=MAX_POSITION)] = None,
    last_event_id: Annotated[str | None, Header()] = None,
) -> StreamingResponse:
    scope = stream_scope(caller, tournament)
    resume = (last_event_id or "").strip()
    resumed = min(int(resume), MAX_POSITION) if resume.isascii() and resume.isdigit() else 0
    start = after if after is not None else resumed
    store = store_of(request)

    async def events() -> AsyncIterator[bytes]:
        cursor = start
        yield b": tledger event stream\n\n"
        while not await request.is_disconnected():
            try:
                found, cursor = await asyncio.to_thread(page, store, cursor, PAGE, scope)
            except LedgerError as exc:  # a damaged store: say so, never serve past it
                yield b"event: error\ndata: " + orjson.dumps({"error": str(exc)}) + b"\n\n"
                return
            for e in found:
                yield f"id: {e['position']}\ndata: ".encode() + orjson.dumps(e) + b"\n\n"
            if not found:
                await asyncio.sleep(POLL_SECONDS)

    return StreamingResponse(events(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache"})  # fmt: skip
