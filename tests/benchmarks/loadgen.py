"""An HTTP/1.1 keep-alive load generator and a Server-Sent Events client on raw asyncio
sockets, for the HTTP benchmarks (the server they drive: ``served.py``).

Why raw sockets: on this 2-core machine the client shares the CPU with the server. A
thread and an httpx client per connection cost more per request than a cached read costs
the server, and a thousand of them cannot even be held open; one asyncio stream per
connection and a minimal parser keep the client's share small. Each phase prints the
client's own CPU next to the server's, so a reader can tell which side was the bottleneck.
Only 127.0.0.1; every loop is bounded in count and time.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

import orjson
from served import HOST, Meter, Server

REQUEST_TIMEOUT = 60.0
READ_SIZE = 65536
#: what a connection can fail with; each is recorded, never raised out of a phase
FAILURES = (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError)
Streams = tuple[list["Subscriber"], list[asyncio.Task[None]]]
Delays = tuple[list[float], list[float]]
Paced = tuple["Phase", list["Sent"]]


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank percentile (``q`` in 0..100); inf counts as a value that never came."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(len(ordered) * q / 100 + 0.5) - 1))]


def ms(seconds: float) -> str:
    return "never" if seconds == float("inf") else f"{seconds * 1000:.1f} ms"


# -- HTTP/1.1 --------------------------------------------------------------------------


@dataclass(frozen=True)
class Response:
    status: int
    headers: dict[str, str]  # names in lower case
    body: bytes


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    status = int(head[0].split(" ", 2)[1])
    pairs = (line.split(":", 1) for line in head[1:] if ":" in line)
    return status, {name.strip().lower(): value.strip() for name, value in pairs}


async def read_chunk(reader: asyncio.StreamReader) -> bytes:
    """One chunk of a chunked body; b"" at its end (after the trailers)."""
    size = int((await reader.readuntil(b"\r\n")).split(b";", 1)[0], 16)
    if size == 0:
        while await reader.readuntil(b"\r\n") != b"\r\n":
            pass
        return b""
    data = await reader.readexactly(size + 2)
    return data[:-2]


async def read_body(reader: asyncio.StreamReader, status: int, headers: dict[str, str]) -> bytes:
    if status in (204, 304) or 100 <= status < 200:
        return b""
    if headers.get("transfer-encoding", "").lower() == "chunked":
        parts = []
        while chunk := await read_chunk(reader):
            parts.append(chunk)
        return b"".join(parts)
    if "content-length" in headers:
        return await reader.readexactly(int(headers["content-length"]))
    return await reader.read()  # the body ends when the server closes the connection


def request_bytes(method: str, path: str, port: int, headers: Mapping[str, str],
                  body: bytes | None) -> bytes:  # fmt: skip
    lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{port}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    if body is not None:
        lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + (body or b"")


class Connection:
    """One keep-alive connection, opened on first use and again after the server closes it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def request(self, method: str, path: str, headers: Mapping[str, str] | None = None,
                      body: bytes | None = None) -> Response:  # fmt: skip
        if self._streams is None:
            self._streams = await asyncio.open_connection(HOST, self.port, limit=1 << 20)
        reader, writer = self._streams
        try:
            writer.write(request_bytes(method, path, self.port, headers or {}, body))
            status, got = await read_head(reader)
            data = await read_body(reader, status, got)
        except BaseException:
            await self.close()
            raise
        if got.get("connection", "").lower() == "close":
            await self.close()
        return Response(status, got, data)

    async def close(self) -> None:
        if self._streams is not None:
            writer = self._streams[1]
            self._streams = None
            writer.close()
            with suppress(OSError):
                await writer.wait_closed()


# -- load phases -----------------------------------------------------------------------


@dataclass
class Phase:
    """Every request of one phase: latency, status, body bytes, and a few error texts."""

    name: str
    ok: frozenset[int] = frozenset({200})
    latencies: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    body_bytes: int = 0
    meter: Meter | None = None

    def record(self, latency: float, response: Response | None, error: str = "") -> None:
        self.latencies.append(latency)
        self.statuses[response.status if response else 0] += 1
        self.body_bytes += len(response.body) if response else 0
        if response is not None and response.status not in self.ok:
            error = f"{response.status} {response.body[:200]!r}"
        if error and len(self.errors) < 5:
            self.errors.append(error)

    @property
    def good(self) -> int:
        return sum(n for code, n in self.statuses.items() if code in self.ok)

    @property
    def rate(self) -> float:
        return self.good / self.meter.wall if self.meter and self.meter.wall else 0.0

    def summary(self) -> str:
        wall = self.meter.wall if self.meter else 0.0
        size = self.body_bytes / (len(self.latencies) or 1) / 1024
        codes = ", ".join(f"{code}: {n}" for code, n in sorted(self.statuses.items()))
        late = self.latencies
        text = (f"{self.name}: {self.good} answered in {wall:.2f} s = {self.rate:.1f}/s; latency "
                f"p50 {ms(percentile(late, 50))}, p99 {ms(percentile(late, 99))}, max "
                f"{ms(max(late, default=0))}; {size:.1f} KiB each (statuses {codes})")  # fmt: skip
        return text + (f"; {self.meter.shares()}" if self.meter else "")


async def timed(phase: Phase, call: Awaitable[Response]) -> Response | None:
    started = time.perf_counter()
    try:
        response = await asyncio.wait_for(call, REQUEST_TIMEOUT)
    except (*FAILURES, TimeoutError) as exc:
        phase.record(time.perf_counter() - started, None, f"{type(exc).__name__}: {exc}")
        return None
    phase.record(time.perf_counter() - started, response)
    return response


async def hammer(server: Server, phase: Phase, path: str, headers: Sequence[Mapping[str, str]],
                 seconds: float, max_per_client: int) -> Phase:  # fmt: skip
    """One closed-loop client per entry of ``headers`` (its own keep-alive connection and
    token), each sending GET ``path`` back to back for ``seconds``."""
    deadline = time.perf_counter() + seconds

    async def client(own: Mapping[str, str]) -> None:
        connection = Connection(server.port)
        try:
            for _ in range(max_per_client):
                if time.perf_counter() >= deadline:
                    return
                await timed(phase, connection.request("GET", path, own))
        finally:
            await connection.close()

    phase.meter = Meter(server.pid).start()
    await asyncio.gather(*(client(h) for h in headers))
    phase.meter.stop()
    return phase


@dataclass
class Sent:
    """One paced command: when it left, when its answer came, and the event's position."""

    sent: float
    answered: float = 0.0
    position: int | None = None


async def paced_commands(server: Server, phase: Phase, headers: Mapping[str, str],
                         bodies: Sequence[dict[str, Any]], rate: float) -> list[Sent]:  # fmt: skip
    """POST /commands at a steady ``rate`` (open loop: a slow answer does not delay the next
    command, which takes another keep-alive connection); latency from send to answer."""
    idle: list[Connection] = []
    out: list[Sent] = []

    async def one(body: dict[str, Any]) -> None:
        connection = idle.pop() if idle else Connection(server.port)
        entry = Sent(time.perf_counter())
        out.append(entry)
        call = connection.request("POST", "/commands", headers, orjson.dumps(body))
        response = await timed(phase, call)
        entry.answered = time.perf_counter()
        if response is not None and response.status == 200:
            entry.position = int(orjson.loads(response.body)["position"])
        idle.append(connection)

    phase.meter = Meter(server.pid).start()
    started, tasks = time.perf_counter(), []
    for i, body in enumerate(bodies):
        await asyncio.sleep(max(0.0, started + i / rate - time.perf_counter()))
        tasks.append(asyncio.create_task(one(body)))
    await asyncio.gather(*tasks)
    phase.meter.stop()
    for connection in idle:
        await connection.close()
    return out


async def command_phase(server: Server, name: str, headers: Mapping[str, str],
                        bodies: Sequence[dict[str, Any]], rate: float) -> Paced:  # fmt: skip
    """``paced_commands`` as a named phase, printed with its first errors."""
    phase = Phase(name)
    sent = await paced_commands(server, phase, headers, bodies, rate)
    print(phase.summary(), flush=True)
    for error in phase.errors:
        print(f"  {error}")
    return phase, sent


async def get(server: Server, path: str, headers: Mapping[str, str]) -> Response:
    """One GET on a connection of its own; a RuntimeError unless it answers 200."""
    connection = Connection(server.port)
    try:
        response = await connection.request("GET", path, headers)
    finally:
        await connection.close()
    if response.status != 200:
        raise RuntimeError(f"GET {path}: {response.status} {response.body[:300]!r}")
    return response


async def get_json(server: Server, path: str, headers: Mapping[str, str]) -> Any:
    return orjson.loads((await get(server, path, headers)).body)


async def repeat_until(check: Callable[[], bool], seconds: float, step: float = 0.05) -> bool:
    """Wait until ``check()`` holds, at most ``seconds``; whether it held."""
    deadline = time.perf_counter() + seconds
    while not check():
        if time.perf_counter() >= deadline:
            return False
        await asyncio.sleep(step)
    return True


# -- Server-Sent Events ----------------------------------------------------------------


@dataclass
class Subscriber:
    """One ``/events/stream`` connection: when each event id arrived, and how it went."""

    headers: dict[str, str]
    status: int = 0
    connected: float | None = None
    arrived: dict[int, float] = field(default_factory=dict)  # id -> arrival, in order
    duplicates: int = 0
    types: Counter[str] = field(default_factory=Counter)
    comments: int = 0
    ended: str | None = None  # why the stream ended, once it has

    async def run(self, port: int, path: str) -> None:
        """Follow the stream until cancelled or closed; every failure is kept in ``ended``."""
        try:
            reader, writer = await asyncio.open_connection(HOST, port, limit=1 << 20)
        except OSError as exc:
            self.ended = f"connect: {exc}"
            return
        try:
            headers = {**self.headers, "Accept": "text/event-stream"}
            writer.write(request_bytes("GET", path, port, headers, None))
            self.status, head = await read_head(reader)
            if self.status != 200:
                body = await read_body(reader, self.status, head)
                self.ended = f"{self.status} {body[:200]!r}"
                return
            self.connected = time.perf_counter()
            await self.follow(reader, head.get("transfer-encoding", "").lower() == "chunked")
        except FAILURES as exc:
            self.ended = f"{type(exc).__name__}: {exc}"
        finally:
            writer.close()

    async def follow(self, reader: asyncio.StreamReader, chunked: bool) -> None:
        buffer = b""
        while data := await (read_chunk(reader) if chunked else reader.read(READ_SIZE)):
            *frames, buffer = (buffer + data).replace(b"\r\n", b"\n").split(b"\n\n")
            now = time.perf_counter()
            for frame in frames:
                self.frame(frame, now)
        self.ended = "closed by the server"

    def frame(self, frame: bytes, now: float) -> None:
        fields = dict(line.partition(b":")[::2] for line in frame.split(b"\n")
                      if line and not line.startswith(b":"))  # fmt: skip
        if not fields:
            self.comments += 1
            return
        if b"data" in fields:
            self.types[fields.get(b"event", b"message").strip().decode()] += 1
        if b"id" in fields:
            position = int(fields[b"id"])
            if position in self.arrived:
                self.duplicates += 1
            else:
                self.arrived[position] = now


async def open_streams(port: int, path: str, headers: Sequence[dict[str, str]],
                       batch: int, seconds: float) -> Streams:  # fmt: skip
    """One subscriber per entry of ``headers``, opened ``batch`` at a time, each batch given
    until it is connected (or refused) before the next; at most ``seconds`` in all."""
    subscribers = [Subscriber(h) for h in headers]
    tasks: list[asyncio.Task[None]] = []
    deadline = time.perf_counter() + seconds
    for start in range(0, len(subscribers), batch):
        group = subscribers[start : start + batch]
        tasks += [asyncio.create_task(s.run(port, path)) for s in group]
        settled = lambda group=group: all(s.connected or s.ended for s in group)  # noqa: E731
        if not await repeat_until(settled, deadline - time.perf_counter()):
            break
    return subscribers, tasks


async def close_streams(tasks: Sequence[asyncio.Task[None]]) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def delays(subscribers: Sequence[Subscriber], sent: Sequence[Sent]) -> Delays:
    """From each accepted command's send to its event's arrival at each subscriber (inf when
    it never came), and per event the delay until the last subscriber had it."""
    each: list[float] = []
    to_all: list[float] = []
    for command in sent:
        if command.position is None:
            continue
        got = [s.arrived.get(command.position, float("inf")) - command.sent for s in subscribers]
        each += got
        to_all.append(max(got, default=float("inf")))
    return each, to_all
