"""The application: errors as one-line JSON on the API and as pages on the faces people
read (``face_of`` decides by the route), the routers, limits, the access log, and an
OpenAPI document that says what integrators need (the bearer scheme, every answer).

Statuses: 200; 400 malformed JSON; 413 an oversized body; 422 a body that does
not fit the command schema; 401 no or bad token; 403 role or scope; 404 unknown
tournament; 409 a refused command; 429 a token over its command rate (with
``Retry-After``); 503 the store is unavailable or damaged (``integrity: seq N: ...``).
Nothing is appended on any error. Commands on one tournament are decided one at a
time in this process (the lock per tournament), and commands that arrive together are
committed together (commands/group_commit.py); other processes on the same PostgreSQL
database are kept consistent by the store's expected-version check.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, Literal

import orjson
from fastapi import FastAPI, HTTPException, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.telemetry import TelemetryConfig
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from commands.api import events, hub, mirror, public, reads, relay, slips, static, writes
from commands.api.access import AccessLog, Emit
from commands.api.limits import RoleLimiters, Settings
from commands.api.reads import event_name
from commands.console import routes as console
from commands.console.failures import failure_page as console_failure
from commands.console.session import PATH
from commands.errors import CommandError
from commands.handler import Handler
from commands.pages.failures import Failure, failure_page, kind_of
from commands.pages.policy import PAGE_HEADERS
from commands.pages.slip_report import language
from commands.pages.venue import UTC_VENUE, Venue
from commands.roles import Forbidden
from commands.web.forwarded import ForwardedScheme
from ledger.errors import ChainBroken, LedgerError, ListDamaged
from ledger.events import event_schema
from projections.errors import ProjectionError
from replay.errors import ReplayError

BEARER = {"type": "http", "scheme": "bearer",
          "description": "A token made by `tledger token create` (its role and scope)"}  # fmt: skip


class Health(BaseModel):
    """The process answers (a load balancer's probe; it touches no store)."""

    ok: bool


def telemetry(environ: Mapping[str, str]) -> TelemetryConfig:
    """FastAPI's OpenTelemetry spans, metrics and logs: left on when the process was started
    with OpenTelemetry configured (an ``OTEL_`` variable, as ``opentelemetry-instrument``
    and the SDK's exporters read), and off otherwise, where looking for a configured
    provider would cost every request for nothing."""
    if any(name.startswith("OTEL_") for name in environ):
        return {}
    return {"tracing": False, "metrics": False, "logs": False}


def create_app(
    handler: Handler, settings: Settings | None = None, access_log: Emit | None = None,
    venue: Venue | None = None,
) -> FastAPI:  # fmt: skip
    """The application over one handler (and so one store), within ``settings``;
    ``access_log`` receives one line per request when given (``tledger serve``); the
    ``venue``'s zone names every time a page shows, its address is what slips carry
    (``commands.pages.venue``; UTC and the request's own address without one)."""
    app = FastAPI(title="tledger", version="1", summary="Event-sourced tournament ledger",
                  lifespan=hub.lifespan, telemetry=telemetry(os.environ))  # fmt: skip
    app.state.handler = handler
    app.state.settings = settings = settings or Settings()
    app.state.venue = venue or UTC_VENUE
    app.state.hub = hub.Hub(handler.store, settings)  # the event streams' tail (hub.py)
    app.state.limiters = limiters = RoleLimiters(settings)  # a rate per role (limits.py)
    app.state.limiter = limiters.player  # shared by the slip codes' reports
    install_errors(app)
    for module in (writes, mirror, relay, reads, events, slips, public, static):
        app.include_router(module.router)
    app.router.routes.insert(0, writes.ROUTE)  # served ahead of its documented twin
    console.install(app)
    app.add_api_route("/schema/events.json", get_event_schema, methods=["GET"],
                      responses={200: {"description": "JSON Schema of every event",
                                       "content": {"application/json": {
                                           "schema": {"type": "object"}}}}})  # fmt: skip
    app.add_api_route("/healthz", healthz, methods=["GET"],
                      responses={200: {"model": Health, "description": "Up"}})  # fmt: skip
    if settings.trusted_proxies:  # the scheme behind a TLS proxy (commands/web/forwarded.py)
        app.add_middleware(ForwardedScheme, trusted=settings.trusted_proxies)
    if access_log is not None:
        app.add_middleware(AccessLog, emit=access_log)

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = document(app)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app


def document(app: FastAPI) -> dict[str, Any]:
    """FastAPI's document plus what it cannot infer: the command models that
    POST /commands refers to, the event models the stream's frames carry, and the
    bearer scheme on every operation that reads the token."""
    doc = FastAPI.openapi(app)
    components = doc.setdefault("components", {})
    components.setdefault("schemas", {}).update(writes.COMMAND_DEFS | events.stream_schemas())
    components["securitySchemes"] = {"bearerAuth": BEARER}
    for operations in doc["paths"].values():
        for operation in operations.values():
            secure(operation)
    return doc


def secure(operation: dict[str, Any]) -> None:
    """An operation that reads the ``Authorization`` header (the caller's principal,
    commands/api/deps.py) requires the bearer scheme, declared as such rather than
    as a bare header parameter."""
    parameters = operation.get("parameters", [])
    kept = [p for p in parameters
            if not (p["in"] == "header" and p["name"].lower() == "authorization")]  # fmt: skip
    if len(kept) == len(parameters):
        return
    operation["security"] = [{"bearerAuth": []}]
    if kept:
        operation["parameters"] = kept
    else:
        del operation["parameters"]


#: which face a request belongs to, by its route: the console, the players' pages (the
#: public page, the projector's clock, the slip page), or the JSON API (everything else)
Face = Literal["api", "console", "players"]


def face_of(path: str) -> Face:
    """The face of ``path``: decided by the route, never by what the client accepts."""
    if path == PATH or (path.startswith(f"{PATH}/") and not path.startswith(f"{PATH}/static/")):
        return "console"
    if path == "/s" or path.startswith(("/s/", "/t/")):
        return "players"
    return "api"


def projector(path: str) -> bool:
    """Whether ``path`` is the projector's clock (or the part of it its script fetches)."""
    parts = path.split("/")
    return len(parts) in (4, 5) and parts[1] == "t" and parts[3] == "clock" and (
        len(parts) == 4 or parts[4] == "content")  # fmt: skip


async def failed(request: Request, status: int, message: str, exc: Exception,
                 headers: Mapping[str, str] | None = None) -> Response:  # fmt: skip
    """The error's answer on the request's face: the API's one-line JSON (unchanged: the
    contract is public), or a page in the face's style and language with the same status;
    a damaged log's page names its seq and the event (its name while it can be read)."""
    face = face_of(request.url.path)
    if face == "api":
        return JSONResponse({"error": message}, status_code=status, headers=headers)
    damaged = exc if isinstance(exc, ChainBroken | ListDamaged) else None
    named = await event_name(request, damaged.tournament) if damaged else None
    failure = Failure(status, kind_of(status, damaged is not None), message.splitlines()[0],
                      damaged.tournament if damaged else None, damaged.seq if damaged else None,
                      (headers or {}).get("Retry-After"), named)  # fmt: skip
    if face == "console":
        return console_failure(request, failure, dict(headers or {}))
    lang = language(request.query_params.get("lang"), request.headers.get("accept-language"))
    return HTMLResponse(
        failure_page(failure, lang, projector(request.url.path)),
        status_code=status,
        headers={**PAGE_HEADERS, "Cache-Control": "no-store", **(headers or {})},
    )


def install_errors(app: FastAPI) -> None:
    """Every error answer of the API is ``{"error": "..."}`` with its documented status;
    on the console and the players' pages it is a page with the same status (``failed``)."""

    def answer(status: int) -> Any:
        async def handle(request: Request, exc: Exception) -> Response:
            return await failed(request, status, str(exc), exc)

        return handle

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        return await failed(request, exc.status_code, str(exc.detail), exc, exc.headers)

    @app.exception_handler(StarletteHTTPException)
    async def no_route(request: Request, exc: StarletteHTTPException) -> Response:
        """No route or method here: the API's answer stays FastAPI's own."""
        if face_of(request.url.path) == "api":
            return await http_exception_handler(request, exc)
        return await failed(request, exc.status_code, str(exc.detail), exc, exc.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> Response:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        return await failed(request, 422, f"{where}: {err['msg']}", exc)

    @app.exception_handler(CommandError)
    async def command_error(request: Request, exc: CommandError) -> Response:
        return await failed(request, exc.http_status, str(exc), exc)

    app.add_exception_handler(LedgerError, answer(503))
    app.add_exception_handler(Forbidden, answer(403))
    app.add_exception_handler(ProjectionError, answer(409))
    app.add_exception_handler(ReplayError, answer(409))


def get_event_schema() -> Response:
    """JSON Schema of every event (for integrations)."""
    return Response(orjson.dumps(event_schema()), media_type="application/json")


def healthz() -> Response:
    """Constant bytes: a probe (and the benchmarks' baseline) measures the server alone."""
    return Response(b'{"ok":true}', media_type="application/json")
