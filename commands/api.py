"""The HTTP API (design: Interfaces, HTTP contract): the same commands and read models
as the CLI, with bearer tokens, a cursor over the global event sequence and SSE.

Statuses: 200; 400 malformed JSON; 413 an oversized body; 422 a body that does
not fit the command schema; 401 no or bad token; 403 role or scope; 404 unknown
tournament; 409 a refused command; 503 the store is unavailable. Nothing is
appended on any error. Commands on one tournament are handled one at a time in
this process (a lock per tournament); other processes on the same PostgreSQL
database are kept consistent by the store's expected-version check.
"""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import orjson
from fastapi import Depends, FastAPI, Header, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response, StreamingResponse
from pydantic import BaseModel

from commands import views
from commands.auth import Forbidden, Principal, token_hash
from commands.errors import CommandError, UnknownTournament, WrongPhase
from commands.handler import Handler
from commands.models import COMMAND_ADAPTER, parse_command
from ledger.errors import LedgerError
from ledger.events import event_schema
from projections.errors import ProjectionError
from projections.state import TournamentState
from replay.errors import ReplayError
from replay.points import prefix
from replay.rebuild import rebuild

MAX_BODY = 64 * 1024
PAGE = 500
POLL_SECONDS = 0.25
#: the largest position a store can hold (a signed 64-bit integer in SQLite and PostgreSQL)
MAX_POSITION = 2**63 - 1


class ErrorBody(BaseModel):
    """The body of every error answer: one message naming the problem."""

    error: str


ERROR_TEXT = {
    400: "Malformed JSON", 401: "No or unknown bearer token", 403: "The token's role or scope",
    404: "Unknown tournament", 409: "Refused by the rules", 413: "Body too large",
    422: "Does not fit the schema", 503: "Store unavailable",
}  # fmt: skip


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The documented error answers of a route (so /openapi.json states the real shape)."""
    return {code: {"model": ErrorBody, "description": ERROR_TEXT[code]} for code in codes}


READ_ERRORS = errors(401, 403, 404, 409, 422, 503)


def command_schema() -> tuple[dict[str, Any], dict[str, Any]]:
    """The command body's JSON Schema and the models it refers to, for the OpenAPI components.

    A ``#/$defs/...`` reference inside a path item resolves against the document root,
    where there is no ``$defs``: no client (schemathesis included) could read the body.
    """
    body = COMMAND_ADAPTER.json_schema(ref_template="#/components/schemas/{model}")
    return body, body.pop("$defs", {})


def principal(request: Request, authorization: Annotated[str | None, Header()] = None) -> Principal:
    """The caller, from the bearer token (401 when missing or unknown)."""
    scheme, _, secret = (authorization or "").partition(" ")
    store = request.app.state.store
    entry = store.token(token_hash(secret.strip())) if scheme.lower() == "bearer" else None
    if entry is None:
        raise HTTPException(401, "a valid bearer token is required",
                            headers={"WWW-Authenticate": "Bearer"})  # fmt: skip
    return Principal(entry)


Caller = Annotated[Principal, Depends(principal)]
AsOf = Annotated[str | None, Query(description="seq or UTC time (ISO 8601)")]


def create_app(handler: Handler) -> FastAPI:
    """The application over one handler (and so one store)."""
    app = FastAPI(title="tledger", version="1", summary="Event-sourced tournament ledger")
    app.state.store = handler.store
    locks: defaultdict[str, threading.RLock] = defaultdict(threading.RLock)
    store = handler.store
    command_body, command_defs = command_schema()

    def openapi() -> dict[str, Any]:
        """FastAPI's document plus the command models that POST /commands refers to."""
        if app.openapi_schema is None:
            document = FastAPI.openapi(app)
            document.setdefault("components", {}).setdefault("schemas", {}).update(command_defs)
        return app.openapi_schema or {}

    app.openapi = openapi  # type: ignore[method-assign]

    @contextmanager
    def tournament_lock(tournament: str) -> Iterator[None]:
        with locks[tournament]:
            yield

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code,
                            headers=exc.headers)  # fmt: skip

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        return JSONResponse({"error": f"{where}: {err['msg']}"}, status_code=422)

    @app.exception_handler(CommandError)
    async def command_error(request: Request, exc: CommandError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=exc.http_status)

    @app.exception_handler(LedgerError)
    async def ledger_error(request: Request, exc: LedgerError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=503)

    @app.exception_handler(Forbidden)
    async def forbidden(request: Request, exc: Forbidden) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=403)

    @app.exception_handler(ProjectionError)
    @app.exception_handler(ReplayError)
    async def refused(request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=409)

    @app.post(
        "/commands",
        responses=errors(400, 401, 403, 404, 409, 413, 422, 503),
        openapi_extra={"requestBody": {"required": True, "content": {
            "application/json": {"schema": command_body}}}},
    )  # fmt: skip
    async def post_command(request: Request, caller: Caller) -> dict[str, Any]:
        body = await request.body()
        if len(body) > MAX_BODY:
            raise HTTPException(413, f"the body is larger than {MAX_BODY} bytes")
        try:
            data = orjson.loads(body)
        except orjson.JSONDecodeError as exc:
            raise HTTPException(400, f"malformed JSON: {exc}") from None
        command = parse_command(data)
        caller.check(command)
        acted = command.model_copy(update={"actor": caller.actor})
        outcome = await asyncio.to_thread(locked_handle, acted)
        return {"seq": outcome.seq, "position": outcome.position,
                "events": [r.as_json() for r in outcome.recorded]}  # fmt: skip

    def locked_handle(command: Any) -> Any:
        with tournament_lock(command.tournament):
            return handler.handle(command)

    def read(
        tournament: str, caller: Principal, as_of: str | None,
        view: Callable[[TournamentState], dict[str, Any]],
    ) -> dict[str, Any]:  # fmt: skip
        """A read model of the tournament now (the cached fold) or as known at ``as_of``."""
        if not caller.may_read(tournament):
            raise Forbidden(f"this token reads only tournament {caller.token.tournament!r}")
        if as_of is None:
            with tournament_lock(tournament):
                state = handler.state(tournament)
                if not state.exists:
                    raise UnknownTournament(tournament)
                return view(state)
        state, _ = rebuild(store, tournament, as_of)
        if not state.exists:
            raise UnknownTournament(tournament)
        return view(state)

    @app.get("/tournaments/{tournament}/status", responses=READ_ERRORS)
    def get_status(tournament: str, caller: Caller, as_of: AsOf = None) -> dict[str, Any]:
        return read(tournament, caller, as_of, lambda s: views.status_view(s))

    @app.get("/tournaments/{tournament}/standings", responses=READ_ERRORS)
    def get_standings(tournament: str, caller: Caller, as_of: AsOf = None) -> dict[str, Any]:
        names = store.players(tournament)
        return read(tournament, caller, as_of, lambda s: views.standings_view(s, names))

    @app.get("/tournaments/{tournament}/pairings", responses=READ_ERRORS)
    def get_pairings(
        tournament: str, caller: Caller, as_of: AsOf = None,
        round: Annotated[int | None, Query(ge=1)] = None,
    ) -> dict[str, Any]:  # fmt: skip
        def view(state: TournamentState) -> dict[str, Any]:
            if round is not None and state.round(round) is None:
                raise WrongPhase(f"round {round} is not paired")
            return views.pairings_view(state, round)

        return read(tournament, caller, as_of, view)

    @app.get("/tournaments/{tournament}/bracket", responses=READ_ERRORS)
    def get_bracket(tournament: str, caller: Caller, as_of: AsOf = None) -> dict[str, Any]:
        return read(tournament, caller, as_of, lambda s: views.bracket_view(s))

    @app.get("/tournaments/{tournament}/log", responses=READ_ERRORS)
    def get_log(tournament: str, caller: Caller, as_of: AsOf = None) -> dict[str, Any]:
        if not caller.may_read(tournament):
            raise Forbidden(f"this token reads only tournament {caller.token.tournament!r}")
        events = store.load(tournament)
        if not events:
            raise UnknownTournament(tournament)
        return views.log_view(tournament, prefix(events, as_of))

    def page(after: int, limit: int, tournament: str | None) -> tuple[list[dict[str, Any]], int]:
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
        if caller.token.tournament is not None:
            if tournament not in (None, caller.token.tournament):
                raise Forbidden(f"this token reads only tournament {caller.token.tournament!r}")
            return caller.token.tournament
        return tournament

    @app.get("/events", responses=errors(401, 403, 422, 503))
    def get_events(
        caller: Caller,
        after: Annotated[int, Query(ge=0, le=MAX_POSITION)] = 0,
        limit: Annotated[int, Query(ge=1, le=1000)] = 100,
        tournament: str | None = None,
    ) -> dict[str, Any]:
        found, cursor = page(after, limit, stream_scope(caller, tournament))
        return {"events": found, "last": cursor}

    @app.get("/events/stream", responses=errors(401, 403, 422))
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

        async def events() -> AsyncIterator[bytes]:
            cursor = start
            yield b": tledger event stream\n\n"
            while not await request.is_disconnected():
                try:
                    found, cursor = await asyncio.to_thread(page, cursor, PAGE, scope)
                except LedgerError as exc:  # a damaged store: say so, never serve past it
                    yield b"event: error\ndata: " + orjson.dumps({"error": str(exc)}) + b"\n\n"
                    return
                for e in found:
                    yield f"id: {e['position']}\ndata: ".encode() + orjson.dumps(e) + b"\n\n"
                if not found:
                    await asyncio.sleep(POLL_SECONDS)

        return StreamingResponse(events(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache"})  # fmt: skip

    @app.get("/schema/events.json")
    def get_event_schema() -> Response:
        return Response(orjson.dumps(event_schema()), media_type="application/json")

    @app.get("/healthz")
    def healthz() -> dict[str, Any]:
        return {"ok": True}

    return app
