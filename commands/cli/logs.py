"""structlog, configured once by the entry point: one line per command on stderr.

Who reads the line decides its shape: a script or CI job (standard
error is not a terminal) gets JSON, as before; a person at a terminal already
sees the command's own output, so the log line would only be noise there and
is left out, unless they ask for it with ``tledger -v`` (or
``TLEDGER_VERBOSE=1``): then it is a short key=value line. ``tledger serve``'s
access log is the server's only output and is printed on a terminal too. Domain
code never logs. ``structlog.dev`` is avoided on purpose: it pulls in rich's traceback
machinery and slows every start; a quiet terminal does not import structlog.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, BinaryIO

import orjson

#: Set by the root ``-v/--verbose`` option (``commands.cli.main``) for this process.
_verbose = False


def set_verbose(verbose: bool) -> None:
    global _verbose
    _verbose = verbose


def stderr_is_tty() -> bool:
    return sys.stderr.isatty()


class Quiet:
    """The command log on a terminal without ``-v``: every line is dropped."""

    def info(self, event: str, **fields: Any) -> None:
        return None


def command_logger(tty: bool | None = None, verbose: bool | None = None) -> Any:
    """The logger for one command's line: JSON off a terminal; on one, nothing, or a
    key=value line with ``verbose``. ``tty`` and ``verbose`` default to standard
    error's and the root option's (given here, they let a test decide)."""
    tty = stderr_is_tty() if tty is None else tty
    verbose = _verbose if verbose is None else verbose
    if tty and not verbose:
        return Quiet()
    import structlog

    return configured(
        [structlog.processors.KeyValueRenderer(key_order=["event"], repr_native_str=False)]
        if tty
        else json_processors()
    )


def access_logger(tty: bool | None = None) -> Any:
    """``tledger serve``'s access log, one line per request: the server's only output, so
    it is printed on a terminal too (key=value, with the time), and JSON off one."""
    import structlog

    tty = stderr_is_tty() if tty is None else tty
    if not tty:
        return configured(json_processors())
    return configured([
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        structlog.processors.KeyValueRenderer(key_order=["event"]),
    ])  # fmt: skip


class AccessLines:
    """The access log off a terminal, made cheap for a server answering thousands of
    requests a second: each line is the JSON that ``json_processors`` renders (the
    fields, ``event``, ``level``, ``timestamp``), made with orjson, and the lines of
    one turn of the event loop reach ``out`` in one write at the end of that turn
    (outside a running loop, at once). No line waits longer than the turn it was
    logged in."""

    def __init__(self, out: BinaryIO) -> None:
        self.out = out
        self.pending: list[bytes] = []

    def __call__(self, fields: dict[str, Any]) -> None:
        stamp = datetime.now(UTC).isoformat().replace("+00:00", "Z")
        line = {**fields, "event": "request", "level": "info", "timestamp": stamp}
        if not self.pending:
            try:
                asyncio.get_running_loop().call_soon(self.flush)
            except RuntimeError:  # no loop: written now
                self.pending.append(orjson.dumps(line, option=orjson.OPT_APPEND_NEWLINE))
                self.flush()
                return
        self.pending.append(orjson.dumps(line, option=orjson.OPT_APPEND_NEWLINE))

    def flush(self) -> None:
        lines, self.pending = self.pending, []
        if lines:
            self.out.write(b"".join(lines))
            self.out.flush()


def access_emitter(tty: bool | None = None) -> Callable[[dict[str, Any]], None]:
    """What ``tledger serve`` hands each access-log line to: ``AccessLines`` on standard
    error off a terminal, ``access_logger``'s key=value line on one."""
    tty = stderr_is_tty() if tty is None else tty
    if not tty:
        return AccessLines(sys.stderr.buffer)
    log = access_logger(tty)
    return lambda line: log.info("request", **line)


def json_processors() -> list[Any]:
    import structlog

    return [
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        structlog.processors.JSONRenderer(),
    ]


def configured(processors: list[Any]) -> Any:
    import structlog

    structlog.configure(
        processors=processors,
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=True,
    )
    return structlog.get_logger("tledger")
