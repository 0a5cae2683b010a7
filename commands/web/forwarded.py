"""The scheme a request was made with, behind a TLS-terminating proxy.

nginx holds the certificate and speaks plain HTTP to ``tledger serve``, so every
request would look like ``http`` to the process: the console's forms would be refused
as coming from another origin (the browser's ``Origin`` says ``https``), its session
cookie would lack ``Secure``, and slips issued from the console would carry ``http``
addresses. From a proxy named with ``--trusted-proxy``, the scheme is taken from
``X-Forwarded-Proto`` instead (``commands.api.clients.forwarded_scheme``); from any
other peer the header is ignored, as ``X-Forwarded-For`` is.
"""

from __future__ import annotations

from collections.abc import Sequence

from starlette.types import ASGIApp, Receive, Scope, Send

from commands.api.clients import Network, forwarded_scheme

HEADER = b"x-forwarded-proto"


class ForwardedScheme:
    """ASGI middleware: the request's scheme from a trusted proxy's ``X-Forwarded-Proto``."""

    def __init__(self, app: ASGIApp, trusted: Sequence[Network]) -> None:
        self.app, self.trusted = app, tuple(trusted)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.trusted:
            client = scope.get("client")
            values = [v.decode("latin-1") for k, v in scope["headers"] if k == HEADER]
            scheme = forwarded_scheme(client[0] if client else "", values, self.trusted)
            if scheme is not None and scheme != scope.get("scheme"):
                scope = {**scope, "scheme": scheme}
        await self.app(scope, receive, send)
