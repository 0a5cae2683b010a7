"""The server's connections: deadlines for a request's headers and body, and a cap on
how many are open at once.

uvicorn closes a connection idle between requests (``timeout_keep_alive``) but waits
forever for headers that never end, or a body that trickles in a byte at a time:
1,100 such connections held every descriptor of a process and ``/healthz`` timed out
until they closed. Its ``limit_concurrency`` does not help: it counts a connection
only once a request on it is complete, so those never reach it.

So each connection here (uvicorn's HTTP/1.1 protocol, ``Bounded``: on httptools' C
parser when it is installed, else on h11) is in one of three phases, read from the
state of the client's side after every step:

- waiting for a request's headers: they must be complete within ``header`` seconds
  of the connection opening or of the previous answer ending, else the connection is
  closed. A connection in this phase holds no work and may be closed at any time;
- receiving the body: all of it must arrive within ``body`` seconds of the headers,
  else the connection is closed (the application sees the client leave);
- the application at work (and an event stream for as long as it is open): no
  deadline.

At most ``Caps.connections`` are open (the ``Gate``). A new connection past the cap
takes the place of the one that has waited longest for its request with nothing unread
(a connection whose request came but is not read yet is left alone: closing it would
reset it); when there is none, the new one is answered 503 with ``Retry-After`` at once
and closed (``Refused``).

Headers (the request line included) longer than ``MAX_HEAD`` bytes are answered 400
and the connection closed, on either parser (h11 bounds them so by itself; httptools
does not, so ``Parsed`` counts them).
"""

from __future__ import annotations

import asyncio
import fcntl
import socket
import struct
import termios
from dataclasses import dataclass
from itertools import islice
from typing import Any, ClassVar, Literal, cast

import h11
import orjson
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # httptools is not installed: h11 alone
    HttpToolsProtocol = None  # type: ignore[assignment, misc]

#: seconds, the ``serve`` options' defaults
HEADER_TIMEOUT = 10.0
BODY_TIMEOUT = 30.0
#: the listening queue's length (uvicorn's default): connections past the accept batch
#: wait there, costing no descriptor
LISTEN_BACKLOG = 2048
#: seconds a refused client has to read its 503 and hang up before it is cut off
LINGER_SECONDS = 2.0
#: what a refused client is told to wait, in seconds
RETRY_SECONDS = 5
#: waiting connections looked at for one to close, the longest waiting first
SCAN = 16
#: bytes of a request's line and headers, at most (h11's own bound)
MAX_HEAD = 16 * 1024

Phase = Literal["request", "body", "app"]


@dataclass(frozen=True)
class Deadlines:
    """Seconds for a request's headers to arrive, and for its body after them."""

    header: float = HEADER_TIMEOUT
    body: float = BODY_TIMEOUT


class Gate:
    """The open connections of one server, those waiting for a request in the order
    they began to wait, and the refused ones not yet closed."""

    def __init__(self, connections: int, lingering: int) -> None:
        self.cap, self.linger_cap = connections, lingering
        self.admitted: set[Bounded] = set()
        self.waiting: dict[Bounded, None] = {}  # insertion order: the longest waiting first
        self.lingering = 0

    def admit(self, protocol: Bounded) -> bool:
        """Count a new connection in; at the cap, close the one that has waited longest
        for a request with nothing unread to make room, or say no when there is none."""
        if len(self.admitted) >= self.cap:
            idle = next((w for w in islice(self.waiting, SCAN) if w.quiet()), None)
            if idle is None:
                return False
            idle.evict()
        self.admitted.add(protocol)
        return True

    def wait(self, protocol: Bounded, waiting: bool) -> None:
        self.waiting.pop(protocol, None)
        if waiting:
            self.waiting[protocol] = None

    def leave(self, protocol: Bounded) -> None:
        self.admitted.discard(protocol)
        self.waiting.pop(protocol, None)


def refusal(cap: int) -> bytes:
    """The whole 503 answer to a connection past the cap, made before any request on it
    is read (so it names no request and closes the connection)."""
    body = orjson.dumps({"error": f"the server has {cap} connections open, its most: "
                                  "try again in a moment"})  # fmt: skip
    head = (f"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nretry-after: {RETRY_SECONDS}\r\n"
            "connection: close\r\n\r\n")  # fmt: skip
    return head.encode() + body


class Refused(asyncio.Protocol):
    """A refused connection: its 503 is written and its side closed; what the client
    still sends is read and dropped (closing with unread bytes would reset the
    connection before the client read its answer) until it hangs up, for at most
    ``LINGER_SECONDS``. Past ``Gate.linger_cap`` of them, a refused connection is
    reset at once."""

    def __init__(self, gate: Gate, transport: asyncio.Transport) -> None:
        self.gate = gate
        transport.set_protocol(self)
        if gate.lingering >= gate.linger_cap:
            transport.abort()
            self.timer: asyncio.TimerHandle | None = None
            return
        gate.lingering += 1
        transport.write(refusal(gate.cap))
        if transport.can_write_eof():
            transport.write_eof()
        self.timer = asyncio.get_running_loop().call_later(LINGER_SECONDS, transport.abort)

    def data_received(self, data: bytes) -> None:
        return None

    def eof_received(self) -> bool:
        return False  # the client hung up: close

    def connection_lost(self, exc: Exception | None) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.gate.lingering -= 1


class Bounded:
    """The deadlines of each phase and a place under the gate's cap, over one of
    uvicorn's HTTP/1.1 protocols (``OnH11``, ``Parsed``; a subclass per server sets
    ``gate`` and ``deadlines``)."""

    gate: ClassVar[Gate]
    deadlines: ClassVar[Deadlines]
    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.phase: Phase | None = None
        self.deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:
        if not self.gate.admit(self):
            Refused(self.gate, transport)
            return
        super().connection_made(transport)  # type: ignore[misc]
        self.track()

    def connection_lost(self, exc: Exception | None) -> None:
        self.gate.leave(self)
        self.expect(None)
        super().connection_lost(exc)  # type: ignore[misc]

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        self.track()

    def current(self) -> Phase:
        """The phase the client's side of the connection is in."""
        raise NotImplementedError

    def track(self) -> None:
        """Enter the phase the client's side of the connection is in, with its deadline."""
        if self.transport.is_closing():
            return
        phase = self.current()
        if phase == self.phase:
            return
        self.phase = phase
        self.gate.wait(self, phase == "request")
        due = {"request": self.deadlines.header, "body": self.deadlines.body}
        self.expect(due.get(phase))

    def expect(self, seconds: float | None) -> None:
        """Close the connection unless its phase ends within ``seconds`` (None: no
        deadline)."""
        if self.deadline is not None:
            self.deadline.cancel()
        self.deadline = None if seconds is None else self.loop.call_later(seconds, self.evict)

    def quiet(self) -> bool:
        """Nothing the client sent waits unread in the kernel (FIONREAD)."""
        sock = self.transport.get_extra_info("socket")
        if sock is None or self.transport.is_closing():
            return True
        unread = fcntl.ioctl(sock.fileno(), termios.FIONREAD, b"\0\0\0\0")
        return bool(struct.unpack("i", unread)[0] == 0)

    def evict(self) -> None:
        """Close the connection: past its deadline, or to make room for a new one."""
        self.gate.leave(self)
        if not self.transport.is_closing():
            self.transport.close()


class OnH11(Bounded, H11Protocol):  # type: ignore[misc]
    """On h11 (pure Python): the phase is h11's state of the client's side."""

    def handle_events(self) -> None:
        super().handle_events()
        self.track()

    def current(self) -> Phase:
        their = self.conn.their_state
        return "request" if their is h11.IDLE else "body" if their is h11.SEND_BODY else "app"


class HeadTooLong(ValueError):
    """A request's line and headers are longer than ``MAX_HEAD``."""


#: what a request's parser has seen of it: nothing yet (or the previous request ended),
#: part of its line and headers, its body, or all of it
Seen = Literal["idle", "head", "body", "done"]


class Parsed(Bounded, HttpToolsProtocol):  # type: ignore[misc]
    """On httptools (llhttp, in C): the phase follows the parser's callbacks; an
    application at work on an answer holds the connection in ``app`` (no deadline)
    unless the request's body is still coming."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seen: Seen = "idle"
        self.head = 0

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self.track()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.seen, self.head = "head", 0

    def on_url(self, url: bytes) -> None:
        self.counted(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self.counted(len(name) + len(value) + 4)
        super().on_header(name, value)

    def counted(self, size: int) -> None:
        """Refuse a request whose line and headers pass ``MAX_HEAD`` bytes: the parser
        stops at the error and uvicorn answers 400 and closes, as for a malformed one."""
        self.head += size
        if self.head > MAX_HEAD:
            raise HeadTooLong(f"a request's line and headers past {MAX_HEAD} bytes")

    def on_headers_complete(self) -> None:
        self.seen = "body"
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self.seen = "done"
        super().on_message_complete()

    def on_response_complete(self) -> None:
        if self.seen == "done" and not self.pipeline:
            self.seen = "idle"
        super().on_response_complete()

    def current(self) -> Phase:
        if self.seen == "body":
            return "body"
        if self.cycle is not None and not self.cycle.response_complete:
            return "app"
        return "request" if self.seen in ("idle", "head") else "app"


def bounded(connections: int, lingering: int, deadlines: Deadlines) -> type[asyncio.Protocol]:
    """The protocol class of one server: its own gate, these deadlines."""
    base = OnH11 if HttpToolsProtocol is None else Parsed
    protocol: type[Bounded] = type("ServerProtocol", (base,), {})
    protocol.gate, protocol.deadlines = Gate(connections, lingering), deadlines
    return cast("type[asyncio.Protocol]", protocol)


class Server(uvicorn.Server):
    """uvicorn's server with a listening queue longer than its accept batch.

    asyncio accepts as many connections in one go as the listening queue is long
    (``Config.backlog``), before counting any; a short batch keeps that overshoot
    within the descriptors set aside for it, and the long queue then lets a burst of
    clients wait there, at no descriptor's cost, instead of being turned away by the
    kernel."""

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        for sock in sockets or ():
            sock.listen(LISTEN_BACKLOG)
