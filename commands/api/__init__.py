"""The HTTP API (design: Interfaces, HTTP contract), one router per resource.

``create_app`` composes the application: errors, authentication, the routers for
commands, tournament reads and the event stream, over one handler (one store).
"""

from commands.api.app import create_app

__all__ = ["create_app"]
