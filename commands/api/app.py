"""The application: errors as one-line JSON, the routers, the command schema in OpenAPI.

Statuses: 200; 400 malformed JSON; 413 an oversized body; 422 a body that does
not fit the command schema; 401 no or bad token; 403 role or scope; 404 unknown
tournament; 409 a refused command; 503 the store is unavailable or damaged
(``integrity: seq N: ...``). Nothing is appended on any error. Commands on one
tournament are handled one at a time in this process (the handler's lock per
tournament); other processes on the same PostgreSQL database are kept consistent
by the store's expected-version check.
"""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response

from commands.api import events, reads, writes
from commands.auth import Forbidden
from commands.errors import CommandError
from commands.handler import Handler
from ledger.errors import LedgerError
from ledger.events import event_schema
from projections.errors import ProjectionError
from replay.errors import ReplayError


def create_app(handler: Handler) -> FastAPI:
    """The application over one handler (and so one store)."""
    app = FastAPI(title="tledger", version="1", summary="Event-sourced tournament ledger")
    app.state.handler = handler
    install_errors(app)
    for module in (writes, reads, events):
        app.include_router(module.router)
    app.add_api_route("/schema/events.json", get_event_schema, methods=["GET"])
    app.add_api_route("/healthz", healthz, methods=["GET"])

    def openapi() -> dict[str, Any]:
        """FastAPI's document plus the command models that POST /commands refers to."""
        if app.openapi_schema is None:
            document = FastAPI.openapi(app)
            schemas = document.setdefault("components", {}).setdefault("schemas", {})
            schemas.update(writes.COMMAND_DEFS)
        return app.openapi_schema or {}

    app.openapi = openapi  # type: ignore[method-assign]
    return app


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


def healthz() -> dict[str, Any]:
    return {"ok": True}
