"""The web application: the HTTP API, the public and slip pages and the console, composed
into one ASGI application over one handler (``create_app``); and what the server around
it keeps within bounds: its connections (``connections``) and its file descriptors
(``descriptors``)."""

from commands.web.app import create_app

__all__ = ["create_app"]
