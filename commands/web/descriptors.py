"""The process's file descriptors: every open connection holds one, and a server that
runs out of them can accept nobody, ``/healthz`` included, until some close.

So ``tledger serve`` raises its soft limit to the hard one at start, and derives from
it how many connections and event streams it keeps open (``caps_for``), leaving room
for the store's files and sockets and for connections accepted before they are
counted. When descriptors still run short, asyncio logs each failed accept; at most
one such line a second reaches standard error (``ShortageLog``).
"""

from __future__ import annotations

import logging
import math
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass

#: descriptors kept for everything that is not a client's connection: the store (a
#: SQLite file with its journal and shared memory, or a pool of PostgreSQL sockets and
#: the listener), the event loop's own, standard streams and files read while serving
#: (measured: 10 on SQLite while serving pages and streams)
RESERVE = 64
#: connections taken from the listening queue at once are bounded by the accept batch:
#: a small share of the descriptors, within these bounds
MIN_BATCH, MAX_BATCH = 8, 1024
#: batches accepted before the first of them is counted (asyncio counts a connection
#: two loop turns after accepting it), plus the connections closing and refused
IN_FLIGHT_BATCHES = 4
#: the least number of connections worth serving
MIN_CONNECTIONS = 16
#: connections kept for pages, commands and probes when the streams are at their cap:
#: a tenth of them, at least this many
MIN_SPARE = 8


#: the soft limit sought where the hard one is unlimited (macOS)
UNLIMITED_TARGET = 65536


def raise_limit() -> int:
    """Raise the soft limit on open files to the hard one (a shell's ``ulimit -n`` is
    often far below it); the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = UNLIMITED_TARGET if hard == resource.RLIM_INFINITY else hard
    if soft == resource.RLIM_INFINITY or soft >= target:
        return UNLIMITED_TARGET if soft == resource.RLIM_INFINITY else soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ValueError, OSError):
        return soft
    return target


@dataclass(frozen=True)
class Caps:
    """What one server keeps open: ``connections`` (past it a new one is answered 503,
    after an idle one was closed to make room if any was), ``streams`` (event streams,
    past it 503 with ``Retry-After``), and ``accept_batch`` (connections taken from
    the listening queue at once, and refusals waiting for their client to hang up)."""

    descriptors: int
    connections: int
    streams: int
    accept_batch: int


class TooFewDescriptors(ValueError):
    """The descriptor limit leaves no room to serve."""


def caps_for(descriptors: int, connections: int | None = None,
             streams: int | None = None) -> Caps:  # fmt: skip
    """The caps under a descriptor limit, each at most what was asked for: connections
    below the limit by the reserve and the connections in flight, streams below the
    connections by a spare tenth."""
    batch = min(MAX_BATCH, max(MIN_BATCH, descriptors // 32))
    most = descriptors - RESERVE - IN_FLIGHT_BATCHES * batch
    if most < MIN_CONNECTIONS:
        needed = MIN_CONNECTIONS + RESERVE + IN_FLIGHT_BATCHES * MIN_BATCH
        raise TooFewDescriptors(
            f"the limit on open files is {descriptors}: raise it to at least {needed} "
            "(ulimit -n, or LimitNOFILE= in a systemd unit)"
        )
    kept = min(connections or most, most)
    spare = max(MIN_SPARE, kept // 10)
    return Caps(descriptors, kept, max(1, min(streams or kept, kept - spare)), batch)


#: the start of asyncio's message when ``accept()`` fails for want of descriptors
#: (EMFILE, ENFILE) or memory (ENOBUFS, ENOMEM)
SHORTAGE = "socket.accept() out of system resource"


class ShortageLog(logging.Filter):
    """Lets through at most one record of a failed accept per ``every`` seconds, as
    one line that counts the ones held back since the last.

    Python 3.11's accept loop logs every failed ``accept()`` with its traceback, and
    tries again as many times as the listening queue is long, every second: 114 MB of
    standard error in 12 s when descriptors ran out. One line a second says the same.
    """

    def __init__(self, every: float = 1.0, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.every, self.clock = every, clock
        self.last = -math.inf
        self.held = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith(SHORTAGE):
            return True
        now = self.clock()
        if now - self.last < self.every:
            self.held += 1
            return False
        cause = record.exc_info[1] if record.exc_info else None
        more = f" ({self.held} more since the last line)" if self.held else ""
        record.msg, record.args = f"{SHORTAGE}: {cause}{more}", ()
        record.exc_info = record.exc_text = None
        self.last, self.held = now, 0
        return True

    @classmethod
    def install(cls) -> None:
        """Filter asyncio's log, where the event loop reports a failed accept."""
        logging.getLogger("asyncio").addFilter(cls())
