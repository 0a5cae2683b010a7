"""``GET /tournaments`` and ``GET /tournaments/{t}/...``: the typed read models of one
tournament, now or as known at a seq or time (``as_of``), the same JSON as the CLI's
``--json``.

Every answer is the read side's cached bytes (``commands.reads.cache``), computed once
per (tournament, seq, query), with a strong ``ETag``; a request whose
``If-None-Match`` names it gets 304 and no body. The current round's tables and
their states are in ``status`` (``tables``, every table) and in ``outstanding`` (the
tables still waiting for a confirmed result, with counts): the second is the
scorekeepers' and judges' queue and stays small as the round completes.
"""

from __future__ import annotations

import asyncio
import gzip
import threading
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response

from commands.api.deps import (
    MAX_POSITION,
    READ_ERRORS,
    AsOf,
    Caller,
    errors,
    handler_of,
    readable,
    settings_of,
)
from commands.reads.cache import LOG_PAGE, Entry, LogQuery, ReadSide
from commands.reads.cache import Query as ReadQuery
from commands.reads.listmodels import PublishedLists
from commands.reads.logfilter import TYPES_PATTERN, LogFilter, event_types
from commands.reads.lru import Lru
from commands.reads.models import (
    Bracket,
    Clock,
    LogPage,
    Outstanding,
    Pairings,
    PlayerHistory,
    Players,
    Standings,
    Status,
    Tournaments,
)
from commands.reads.podviews import Pods
from ledger.errors import LedgerError
from ledger.fields import MAX_ID

router = APIRouter()
TYPE_TEXT = "Only events of these types (repeated, or comma-separated)"
#: documented as ``event_types`` reads it: a schema-valid value is never refused
TYPE_SCHEMA: dict[str, Any] = {"items": {"type": "string", "pattern": TYPES_PATTERN}}
_CREATING = threading.Lock()
#: bodies from this size on go out gzipped to a client that takes gzip (below it, the
#: header and the work cost more than the bytes saved)
GZIP_FROM = 1400
#: zlib's level: about the size of level 9 at a third of its time on JSON like this
GZIP_LEVEL = 6
#: gzipped bodies kept (by the plain body's ETag; the bytes are bounded by ``Lru``)
GZIPPED_KEPT = 1024

ETAG = {"ETag": {"description": "The head hash of the point read and a hash of the query",
                 "schema": {"type": "string"}}}  # fmt: skip
CACHED: dict[int | str, dict[str, Any]] = {
    **READ_ERRORS,
    200: {"headers": ETAG},
    304: {
        "description": "Not modified: the request's If-None-Match names the current ETag",
        "headers": ETAG,
    },
}


async def read_side(request: Request) -> ReadSide:
    """The application's one read side, made on first use (its cache is per process)."""
    state = request.app.state
    side: ReadSide | None = getattr(state, "read_side", None)
    if side is not None:
        return side
    with _CREATING:
        side = getattr(state, "read_side", None)
        if side is None:
            side = ReadSide(handler_of(request).folds, as_of_cache=settings_of(request).as_of_cache)
            state.read_side = side
    return side


Side = Annotated[ReadSide, Depends(read_side)]


async def event_name(request: Request, tournament: str) -> str | None:
    """The event's name for a page that says its log is damaged: the read side's summary,
    kept once read, else read from the first event in a worker thread (the damage lies
    past it unless the first event is itself the damaged one: then None, and the page
    names the id)."""
    side = await read_side(request)
    kept = side.summary(tournament, kept_only=True)
    if kept is not None:
        return kept.name
    try:
        found = await asyncio.to_thread(side.summary, tournament)
    except LedgerError:
        return None
    return found.name if found is not None else None


def matches(if_none_match: str | None, etag: str) -> bool:
    """Whether ``If-None-Match`` names ``etag`` (weak comparison, RFC 9110 §13.1.2)."""
    if if_none_match is None:
        return False
    tags = [t.strip().removeprefix("W/") for t in if_none_match.split(",")]
    return "*" in tags or etag in tags


def gzipped_of(request: Request) -> Lru[bytes]:
    """The process's gzipped read bodies, by the plain body's ETag (made on first use)."""
    state = request.app.state
    found: Lru[bytes] | None = getattr(state, "gzipped_reads", None)
    if found is None:
        with _CREATING:
            found = getattr(state, "gzipped_reads", None)
            if found is None:
                found = state.gzipped_reads = Lru(GZIPPED_KEPT, len)
    return found


def takes_gzip(request: Request) -> bool:
    """Whether the request's ``Accept-Encoding`` takes gzip (RFC 9110 §12.5.3): named, or
    ``*`` when gzip is not named, with a weight above zero."""
    weights: dict[str, float] = {}
    for coding in request.headers.get("accept-encoding", "").split(","):
        name, _, params = coding.partition(";")
        weight = 1.0
        key, _, value = params.partition("=")
        if key.strip().lower() == "q":
            try:
                weight = float(value)
            except ValueError:
                weight = 0.0
        weights[name.strip().lower()] = weight
    return weights.get("gzip", weights.get("*", 0.0)) > 0


async def answer(request: Request, entry: Entry) -> Response:
    """The cached bytes as they are, gzipped for a client that takes gzip (a body of
    ``GZIP_FROM`` bytes or more: a 2,048-player standings of about 420 KiB goes out as
    about a tenth of it), or 304 when the client's copy is current. Each encoding has
    its own strong ETag (RFC 9110 §8.8.3); a copy held under either is current. The
    gzipped bytes are made once per entry, in a worker thread, and kept by the plain
    one's ETag. ``If-None-Match`` is read here rather than declared as a parameter: it
    is the conditional-request header of HTTP itself (the 304 answer documents it)."""
    zipped = len(entry.body) >= GZIP_FROM and takes_gzip(request)
    zipped_tag = f'{entry.etag[:-1]}-gzip"'
    headers = {"ETag": zipped_tag if zipped else entry.etag, "Cache-Control": "no-cache",
               "Vary": "Accept-Encoding"}  # fmt: skip
    held = request.headers.get("if-none-match")
    if matches(held, entry.etag) or matches(held, zipped_tag):
        return Response(status_code=304, headers=headers)
    if not zipped:
        return Response(entry.body, media_type="application/json", headers=headers)
    kept = gzipped_of(request)
    body = kept.get(entry.etag)
    if body is None:
        body = await asyncio.to_thread(gzip.compress, entry.body, GZIP_LEVEL, mtime=0)
        kept.put(entry.etag, body)
    headers["Content-Encoding"] = "gzip"
    return Response(body, media_type="application/json", headers=headers)


async def model_read(request: Request, side: ReadSide, caller: Caller, tournament: str,
                     query: ReadQuery, as_of: str | None) -> Response:  # fmt: skip
    """A cached current entry is answered on the event loop; anything to compute or to
    wait for (a past point, a new seq, a busy tournament) goes to a worker thread."""
    readable(caller, tournament)
    entry = side.cached(tournament, query) if as_of is None else None
    if entry is None:
        entry = await asyncio.to_thread(side.get, tournament, query, as_of)
    return await answer(request, entry)


@router.get("/tournaments", response_model=Tournaments, responses=errors(401, 503))
def get_tournaments(caller: Caller, side: Side) -> Tournaments:
    """The tournaments this token may read, in order of creation."""
    return side.tournaments(caller.token.tournament)


@router.get("/tournaments/{tournament}/status", response_model=Status, responses=CACHED)
async def get_status(request: Request, tournament: str, caller: Caller, side: Side,
               as_of: AsOf = None) -> Response:  # fmt: skip
    """Stage, round, players, head; the current round's tables and their states, and
    ``over_time`` on those still playing after their time (not with ``as_of``). The
    flags are part of the ETag, which changes when a table runs over."""
    if as_of is not None:
        return await model_read(request, side, caller, tournament, ReadQuery("status"), as_of)
    readable(caller, tournament)
    now = datetime.now(UTC)
    entry = side.cached_status(tournament, now)
    if entry is None:
        entry = await asyncio.to_thread(side.status_at, tournament, now)
    return await answer(request, entry)


@router.get("/tournaments/{tournament}/clock", response_model=Clock, responses=CACHED)
async def get_clock(
    request: Request, tournament: str, caller: Caller, side: Side, as_of: AsOf = None,
    round: Annotated[int | None, Query(ge=1, le=MAX_POSITION)] = None,
) -> Response:  # fmt: skip
    """The current (or round ``round``'s) clock: start, end, and each table's end with
    the minutes added to it, as absolute UTC times (the time left is the client's to
    compute, so the ETag is the head's); an empty clock (round 0) before round 1."""
    query = ReadQuery("clock", round=round)
    return await model_read(request, side, caller, tournament, query, as_of)


@router.get("/tournaments/{tournament}/standings", response_model=Standings, responses=CACHED)
async def get_standings(request: Request, tournament: str, caller: Caller, side: Side,
                  as_of: AsOf = None) -> Response:  # fmt: skip
    return await model_read(request, side, caller, tournament, ReadQuery("standings"), as_of)


@router.get("/tournaments/{tournament}/pairings", response_model=Pairings, responses=CACHED)
async def get_pairings(
    request: Request, tournament: str, caller: Caller, side: Side, as_of: AsOf = None,
    round: Annotated[int | None, Query(ge=1, le=MAX_POSITION)] = None,
) -> Response:  # fmt: skip
    """The current round's pairings, or round ``round``'s (409 when it was never paired)."""
    query = ReadQuery("pairings", round=round)
    return await model_read(request, side, caller, tournament, query, as_of)


@router.get("/tournaments/{tournament}/bracket", response_model=Bracket, responses=CACHED)
async def get_bracket(request: Request, tournament: str, caller: Caller, side: Side,
                as_of: AsOf = None) -> Response:  # fmt: skip
    return await model_read(request, side, caller, tournament, ReadQuery("bracket"), as_of)


@router.get("/tournaments/{tournament}/outstanding", response_model=Outstanding,
            responses=CACHED)  # fmt: skip
async def get_outstanding(request: Request, tournament: str, caller: Caller, side: Side,
                    as_of: AsOf = None) -> Response:  # fmt: skip
    """The current round's tables without a confirmed result: missing, unconfirmed (one
    player's self-report) or disputed (the players' reports differ)."""
    return await model_read(request, side, caller, tournament, ReadQuery("outstanding"), as_of)


@router.get("/tournaments/{tournament}/players", response_model=Players, responses=CACHED)
async def get_players(
    request: Request, tournament: str, caller: Caller, side: Side, as_of: AsOf = None,
    search: Annotated[str | None, Query(max_length=200, description=(
        "Only players whose name or id holds this text (accents and case ignored)"))] = None,
) -> Response:  # fmt: skip
    """The players sorted by name as people read them, with their status; the names are
    those of standings. The access log keeps the parameter's name, never the search."""
    query = ReadQuery("players", search=search or None)
    return await model_read(request, side, caller, tournament, query, as_of)


@router.get("/tournaments/{tournament}/players/{player}", response_model=PlayerHistory,
            responses=CACHED)  # fmt: skip
async def get_player(request: Request, tournament: str, player: str, caller: Caller, side: Side,
               as_of: AsOf = None) -> Response:  # fmt: skip
    """A player's matches by round, drops, penalties, deck checks and time extensions (404:
    no such player); ``player`` is an id (the contract names players by id)."""
    query = ReadQuery("player", player=player)
    return await model_read(request, side, caller, tournament, query, as_of)


@router.get("/tournaments/{tournament}/pods", response_model=Pods, responses=CACHED)
async def get_pods(request: Request, tournament: str, caller: Caller, side: Side,
                   as_of: AsOf = None) -> Response:  # fmt: skip
    """A draft's pods (swu-1.4 §2.3.2.1): each pod's seats in order round the table, with
    the seq, size asked for and seed of the assignment in force; empty before one."""
    return await model_read(request, side, caller, tournament, ReadQuery("pods"), as_of)


@router.get("/tournaments/{tournament}/lists", response_model=PublishedLists, responses=CACHED)
async def get_lists(request: Request, tournament: str, caller: Caller, side: Side) -> Response:
    """The deck lists when they may be shown, to any token that may read the tournament:
    all after the event (swu-1.4 §7.1), the top cut's while it runs (swu-1.4 §4.6.1);
    409 before. Each with the ``list_hash`` its event committed to."""
    readable(caller, tournament)
    return await answer(request, await asyncio.to_thread(side.lists, tournament))


#: the log's ``player`` filter: ids only, as the whole contract; an unknown one is a 404
PLAYER_TEXT = "Only events naming this player id (404: a player the tournament never had)"


@router.get("/tournaments/{tournament}/log", response_model=LogPage, responses=CACHED)
async def get_log(
    request: Request, tournament: str, caller: Caller, side: Side, as_of: AsOf = None,
    after_seq: Annotated[int, Query(ge=0, le=MAX_POSITION)] = 0,
    limit: Annotated[int, Query(ge=1, le=LOG_PAGE)] = LOG_PAGE,
    types: Annotated[list[str] | None, Query(alias="type", description=TYPE_TEXT,
                                             json_schema_extra=TYPE_SCHEMA)] = None,
    player: Annotated[str | None, Query(max_length=MAX_ID, description=PLAYER_TEXT)] = None,
    round: Annotated[int | None, Query(ge=1, le=MAX_POSITION,
                                       description="Only events of this round")] = None,
) -> Response:  # fmt: skip
    """Events after seq ``after_seq``, oldest first, at most ``limit`` (as known at
    ``as_of``); ``next_after_seq`` is there when more follow. ``type``, ``player`` and
    ``round`` keep only the events that match all of them (422: an unknown type, 404:
    an unknown player)."""
    readable(caller, tournament)
    keep = LogFilter(event_types(types or []), player, round)
    entry = await asyncio.to_thread(side.get, tournament, LogQuery(after_seq, limit, keep), as_of)
    return await answer(request, entry)
