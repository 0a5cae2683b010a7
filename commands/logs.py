"""structlog, configured once by the entry point: one line per command on stderr.

JSON when standard error is not a terminal (machines read it), key=value when
it is. Domain code never logs. ``structlog.dev`` is avoided on purpose: it pulls
in rich's traceback machinery and slows every start.
"""

from __future__ import annotations

import sys
from typing import Any


def command_logger() -> Any:
    import structlog

    renderer: Any = (
        structlog.processors.KeyValueRenderer(key_order=["event"])
        if sys.stderr.isatty()
        else structlog.processors.JSONRenderer()
    )
    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            renderer,
        ],
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=True,
    )
    return structlog.get_logger("tledger")
