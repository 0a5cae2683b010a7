"""The web application: the HTTP API, the public and slip pages and the console, composed
into one ASGI application over one handler (``create_app``)."""

from commands.web.app import create_app

__all__ = ["create_app"]
