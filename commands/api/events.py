"""The integration cursor: ``GET /events`` pages the global sequence, ``GET /events/stream``
follows it as Server-Sent Events, resuming after ``Last-Event-ID``; ``?tournament=t``
(or a token scoped to one) keeps one tournament's events, read by that tournament's
index rather than by scanning the global log.

Stream frames: ``id:`` the position, ``event:`` the event type, ``data:`` the event as
``GET /events`` gives it; a ``: keep-alive`` comment every ``heartbeat_seconds`` of
quiet (proxies close idle connections); ``event: error`` and the end of the stream
when the store is damaged. A cursor that is not a position is a 400, never a replay
from the start; so is a stream's cursor past the end of the global sequence (a position
this store never gave out: another store's, or this one restored from an older backup),
which would otherwise wait silently for events the client believes it has. Statuses:
400 a malformed ``Last-Event-ID`` or ``after``, or one past the end; 401; 403 a
tournament the token may not read; 429 the token has ``streams_per_token`` streams
open already (``Retry-After``); 503 the server is shutting down, or has
``Settings.max_streams`` streams open (``Retry-After``).
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Query, Request, Response

from commands.api.deps import MAX_POSITION, Caller, errors, readable, settings_of, store_of
from commands.api.hub import Hub
from commands.api.stream import EventStream, Reader, Session, follow, hash_before
from commands.api.writes import RecordedEvent
from commands.roles import Principal
from ledger.chain import Links
from ledger.store import Store

PAGE = 500
router = APIRouter()

POSITION = "a position: a whole number from 0 to 2**63-1"
CURSOR_TEXT = f"{POSITION} (a malformed one is a 400)"


class StreamedEvent(RecordedEvent):
    """The ``data:`` of a stream's event frame: the event as ``GET /events`` gives it, its
    JSON model (``/schema/events.json``) plus ``seq``, ``position`` and ``tournament``."""

    tournament: str


def stream_schemas() -> dict[str, Any]:
    """The models a stream's frames carry, for the OpenAPI components."""
    schema = StreamedEvent.model_json_schema(ref_template="#/components/schemas/{model}")
    return {"StreamedEvent": schema, **schema.pop("$defs", {})}


def ref(model: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{model}"}


#: one frame of the stream, as OpenAPI declares an item of a sequential media type
#: (``itemSchema``, the way FastAPI declares its own event streams); comment lines
#: (``: keep-alive``, ``: dropped: ...``) carry nothing and are no items
FRAME: dict[str, Any] = {
    "type": "object",
    "required": ["event", "data"],
    "properties": {
        "id": {"type": "string", "pattern": "^[0-9]+$",
               "description": "The event's position: resume after it with Last-Event-ID "
               "(none on an error frame)"},
        "event": {"type": "string", "description": "The event's type; `error` for the last "
                  "frame of a stream that met a damaged event"},
        "data": {"type": "string", "contentMediaType": "application/json",
                 "contentSchema": {"oneOf": [ref("StreamedEvent"), ref("ErrorBody")]},
                 "description": "The event as GET /events gives it; after `event: error`, "
                 "the error (`integrity: seq N: ...`)"},
    },
}  # fmt: skip
STREAM_ANSWER: dict[str, Any] = {
    "description": "Server-Sent Events, one frame per event: `id:` the position, `event:` "
    "the event type, `data:` the event's JSON as GET /events gives it; a `: keep-alive` "
    "comment on a quiet stream",
    "content": {"text/event-stream": {"itemSchema": FRAME}},
}
RETRY_AFTER = {"Retry-After": {"description": "Seconds to wait (an integer, at least 1)",
                               "schema": {"type": "integer", "minimum": 1}}}  # fmt: skip


def page(
    store: Store, after: int, limit: int, tournament: str | None
) -> tuple[list[dict[str, Any]], int]:
    """Events after a position, in global order, each checked against the one before it
    in its tournament; ``last`` is the cursor to resume from."""
    if tournament is not None:
        return tournament_page(store, after, limit, tournament)
    found: list[dict[str, Any]] = []
    cursor = after
    links = Links(partial(hash_before, store))
    while len(found) < limit:
        batch, last = store.scan(cursor, min(PAGE, limit - len(found)))
        for t, r in batch:
            links.follow(t, r.seq, r.event.prev_hash, r.event.hash)
        found.extend({"position": r.position, "tournament": t, **r.as_json()} for t, r in batch)
        if last == cursor:  # the end of the store
            break
        cursor = last
    return found, cursor


def tournament_page(
    store: Store, after: int, limit: int, tournament: str
) -> tuple[list[dict[str, Any]], int]:
    """One tournament's events after a position, by its index. When fewer than ``limit``
    remain, the cursor moves to the store's head as it was before the read (every event
    of the tournament up to it was committed, so was read), as a scan would have."""
    head = store.head_position()
    recorded = store.stream_after(tournament, after, limit)
    found = [{"position": r.position, "tournament": tournament, **r.as_json()} for r in recorded]
    last = recorded[-1].position if recorded else after
    return found, (last if len(recorded) == limit else max(last, head))


def stream_scope(caller: Principal, tournament: str | None) -> str | None:
    """The tournament a reader follows: the token's own, or the one asked for."""
    if caller.token.tournament is not None:
        readable(caller, tournament or caller.token.tournament)
        return caller.token.tournament
    return tournament


def position_of(name: str, value: str | None) -> int | None:
    """A client's cursor, or a 400 naming what is wrong with it."""
    if value is None:
        return None
    text = value.strip()
    if text.isascii() and text.isdigit() and int(text) <= MAX_POSITION:
        return int(text)
    raise HTTPException(400, f"{name} must be {POSITION} (got {value[:40]!r})")


def within_the_end(name: str, position: int, end: int) -> int:
    """A cursor the store's sequence reaches (``end``: its last position), or a 400
    naming the end."""
    if position > end:
        raise HTTPException(400, f"{name} {position} is past the end of the event sequence "
                                 f"(its last position is {end})")  # fmt: skip
    return position


def hub_of(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


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


@router.get(
    "/events/stream",
    response_class=Response,  # errors are JSON; the stream's 200 is declared here
    responses={
        200: STREAM_ANSWER,
        **errors(400, 401, 403, 422, 503),
        429: {**errors(429)[429], "headers": RETRY_AFTER},
    },
)
async def get_stream(
    request: Request,
    caller: Caller,
    tournament: str | None = None,
    after: Annotated[str | None, Query(description=f"Start after {CURSOR_TEXT}")] = None,
    last_event_id: Annotated[
        str | None, Header(description=f"Resume after {CURSOR_TEXT}; wins over `after`")
    ] = None,
) -> EventStream:
    """Server-Sent Events from a cursor on: the events after it, then each new one."""
    scope = stream_scope(caller, tournament)
    asked, resumed = position_of("after", after), position_of("Last-Event-ID", last_event_id)
    start = resumed if resumed is not None else asked or 0
    if start:
        end = await asyncio.to_thread(store_of(request).head_position)
        within_the_end("Last-Event-ID" if resumed is not None else "after", start, end)
    hub = hub_of(request)
    if hub.closed:
        raise HTTPException(503, "the server is shutting down")
    session = Session(hub, caller.token.token_hash)
    reader = Reader(store_of(request), scope, start)
    frames = follow(session, reader, settings_of(request).heartbeat_seconds)
    return EventStream(frames, session.close)
