"""The application: errors as one-line JSON, the routers, limits, the access log, and an
OpenAPI document that says what integrators need (the bearer scheme, every answer).

Statuses: 200; 400 malformed JSON; 413 an oversized body; 422 a body that does
not fit the command schema; 401 no or bad token; 403 role or scope; 404 unknown
tournament; 409 a refused command; 429 a token over its command rate (with
``Retry-After``); 503 the store is unavailable or damaged (``integrity: seq N: ...``).
Nothing is appended on any error. Commands on one tournament are handled one at a
time in this process (the handler's lock per tournament); other processes on the
same PostgreSQL database are kept consistent by the store's expected-version check.
"""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel

from commands.api import events, hub, mirror, public, reads, slips, static, writes
from commands.api.access import AccessLog, Emit
from commands.api.limits import RateLimiter, Settings
from commands.console import routes as console
from commands.errors import CommandError
from commands.handler import Handler
from commands.roles import Forbidden
from ledger.errors import LedgerError
from ledger.events import event_schema
from projections.errors import ProjectionError
from replay.errors import ReplayError

BEARER = {"type": "http", "scheme": "bearer",
          "description": "A token made by `tledger token create` (its role and scope)"}  # fmt: skip


class Health(BaseModel):
    """The process answers (a load balancer's probe; it touches no store)."""

    ok: bool


def create_app(
    handler: Handler, settings: Settings | None = None, access_log: Emit | None = None
) -> FastAPI:
    """The application over one handler (and so one store), within ``settings``;
    ``access_log`` receives one line per request when given (``tledger serve``)."""
    app = FastAPI(title="tledger", version="1", summary="Event-sourced tournament ledger",
                  lifespan=hub.lifespan)  # fmt: skip
    app.state.handler = handler
    app.state.settings = settings = settings or Settings()
    app.state.hub = hub.Hub(handler.store, settings)  # the event streams' tail (hub.py)
    app.state.limiter = RateLimiter(settings.rate_per_second, settings.rate_burst)
    install_errors(app)
    for module in (writes, mirror, reads, events, slips, public, static):
        app.include_router(module.router)
    console.install(app)
    app.add_api_route("/schema/events.json", get_event_schema, methods=["GET"],
                      responses={200: {"description": "JSON Schema of every event",
                                       "content": {"application/json": {
                                           "schema": {"type": "object"}}}}})  # fmt: skip
    app.add_api_route("/healthz", healthz, methods=["GET"],
                      responses={200: {"model": Health, "description": "Up"}})  # fmt: skip
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


def install_errors(app: FastAPI) -> None:
    """Every error answer is ``{"error": "..."}`` with its documented status."""

    def answer(status: int) -> Any:
        async def handle(request: Request, exc: Exception) -> JSONResponse:
            return JSONResponse({"error": str(exc)}, status_code=status)

        return handle

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
