"""One access-log line per request: method, path, query keys, status and duration, so
an operator sees load and failures without reading bodies.

Only what cannot identify a person is logged: the path and the *names* of query
parameters (never their values, which a future search could fill with a name), never
a header (the bearer token is one) and never a body (player names are registered in
bodies). The middleware does not log by itself: it hands each line to a callable the
entry point passes in (``tledger serve`` renders it with structlog on stderr), so
the API stays free of logging configuration.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: receives one line's fields: method, path, query (parameter names), status, ms
Emit = Callable[[dict[str, Any]], None]


def query_keys(query_string: bytes) -> list[str]:
    """The names of the query parameters, in order, each once."""
    pairs = parse_qsl(query_string.decode("latin-1"), keep_blank_values=True)
    return list(dict.fromkeys(key for key, _ in pairs))


#: paths whose last part is a credential (a match slip's report code): logged as their
#: route, so that a code never lands in a log
SECRET_PATHS = ("/s/",)


def logged_path(path: str) -> str:
    """The path as logged: ``/s/K7QX-3MPA`` becomes ``/s/{code}``."""
    for prefix in SECRET_PATHS:
        if path.startswith(prefix):
            return prefix + "{code}"
    return path


class AccessLog:
    """Pure ASGI middleware (no buffering: an event stream passes through as it is
    sent; its line is written when it ends, with the stream's whole duration)."""

    def __init__(
        self, app: ASGIApp, emit: Emit, clock: Callable[[], float] = time.perf_counter
    ) -> None:
        self.app, self.emit, self.clock = app, emit, clock

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start, status = self.clock(), None

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception:
            status = status or 500  # the server's error answer follows outside
            raise
        finally:
            self.emit({
                "method": scope["method"], "path": logged_path(scope["path"]),
                "query": query_keys(scope.get("query_string", b"")), "status": status,
                "ms": round((self.clock() - start) * 1000, 1),
            })  # fmt: skip
