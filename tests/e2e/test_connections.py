"""Connections that hold the server, against a real ``tledger serve`` on SQLite: headers
that never end and bodies that trickle are cut at their deadlines; past the caps the
process derives from its limit on open files, streams and connections are answered 503
while ``/healthz`` keeps answering; a shortage of descriptors is logged once a second."""

from __future__ import annotations

import logging
import selectors
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from commands.web.connections import Gate
from commands.web.descriptors import SHORTAGE, ShortageLog, TooFewDescriptors, caps_for
from tests.e2e.test_http import PLAYERS, setup, token
from tests.e2e.test_limits import Server, serving

#: what a probe may take: a load balancer's health check must not wait on an attacker
PROBE_SECONDS = 0.1


@pytest.fixture
def sqlite(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'connections.sqlite3'}"


def address(server: Server) -> tuple[str, int]:
    url = urlsplit(server.base)
    assert url.hostname is not None and url.port is not None
    return url.hostname, url.port


def connect(server: Server, first: bytes = b"") -> socket.socket:
    """A connection that sends ``first`` (nothing, part of a request) and then stalls."""
    conn = socket.create_connection(address(server), timeout=10)
    if first:
        conn.sendall(first)
    return conn


def answer(conn: socket.socket) -> bytes:
    """What the server sends until it closes (or 10 s pass)."""
    got = b""
    while chunk := conn.recv(65536):
        got += chunk
    return got


def status_of(conn: socket.socket) -> tuple[int, bytes]:
    """The status of the answer on a connection, and its head (the stream's answer never
    ends: only its head is read)."""
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = conn.recv(4096)
        assert chunk, f"closed after {head!r}"
        head += chunk
    return int(head.split(b" ", 2)[1]), head.partition(b"\r\n\r\n")[0].lower()


def probe(server: Server) -> tuple[int, float]:
    """``GET /healthz`` on a new connection: its status and how long the answer took."""
    started = time.monotonic()
    with connect(server, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") as c:
        status, _ = status_of(c)
    return status, time.monotonic() - started


def warmed(server: Server) -> Server:
    """The server once its first answer is out (its routes are made on the first request,
    which takes longer than a probe may)."""
    probe(server)
    return server


def assert_healthz_answers(server: Server, times: int = 5) -> None:
    probes = [probe(server) for _ in range(times)]
    assert all(status == 200 for status, _ in probes), probes
    assert max(took for _, took in probes) < PROBE_SECONDS, probes


def closed_within(conns: list[socket.socket], seconds: float) -> int:
    """How many of the connections the server closes (or resets) within ``seconds``;
    what it sends on them before is read and dropped."""
    deadline, closed = time.monotonic() + seconds, 0
    with selectors.DefaultSelector() as watching:
        for conn in conns:
            watching.register(conn, selectors.EVENT_READ)
        while closed < len(conns) and time.monotonic() < deadline:
            for key, _ in watching.select(0.1):
                ready = key.fileobj
                assert isinstance(ready, socket.socket)
                try:
                    gone = ready.recv(4096) == b""
                except ConnectionResetError:
                    gone = True
                if gone:
                    watching.unregister(ready)
                    closed += 1
    return closed


@contextmanager
def many(count: int, server: Server, first: bytes = b"") -> Iterator[list[socket.socket]]:
    with ExitStack() as stack:
        yield [stack.enter_context(connect(server, first)) for _ in range(count)]


PARTIAL_HEADERS = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: "


def partial_body(secret: str) -> bytes:
    """A command's headers and the first byte of the 1,000 they announce. It asks for a
    ``100 Continue``, which the server sends when the application begins to read the
    body: then the connection is at work."""
    return (b"POST /commands HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Authorization: Bearer " + secret.encode() + b"\r\nExpect: 100-continue\r\n"
            b"Content-Length: 1000\r\n\r\n{")  # fmt: skip


def at_work(conns: list[socket.socket]) -> None:
    """Wait for the server to read each connection's request (its ``100 Continue``)."""
    for conn in conns:
        status, _ = status_of(conn)
        assert status == 100


def test_connections_that_never_finish_their_headers_are_closed_at_the_header_timeout(
    sqlite: str, tmp_path: Path
) -> None:
    with serving(sqlite, tmp_path, "--header-timeout", "2") as server:
        warmed(server)
        with many(300, server, PARTIAL_HEADERS) as stalled, many(100, server) as silent:
            probe(server)  # in the listening queue behind the 400: when they are all in
            assert_healthz_answers(server)
            started = time.monotonic()
            assert closed_within(stalled + silent, 10) == 400
            assert time.monotonic() - started < 4, "closed at the header timeout of 2 s"
            assert_healthz_answers(server)


def test_a_body_that_trickles_is_cut_at_the_body_timeout(sqlite: str, tmp_path: Path) -> None:
    with serving(sqlite, tmp_path, "--body-timeout", "1") as server:
        warmed(server)
        conn = connect(server, partial_body(token(sqlite, "--role", "organizer")))
        at_work([conn])
        started, cut = time.monotonic(), False
        while not cut and time.monotonic() - started < 10:
            try:
                conn.sendall(b" ")  # a byte every 0.1 s: 990 bytes would take 99 s
                cut = closed_within([conn], 0.1) == 1
            except (BrokenPipeError, ConnectionResetError):
                cut = True
        assert cut and time.monotonic() - started < 3, "cut at the body timeout of 1 s"
        assert_healthz_answers(server)


def live(t: str) -> bytes:
    return f"GET /t/{t}/live HTTP/1.1\r\nHost: x\r\n\r\n".encode()


def test_past_the_caps_from_the_descriptor_limit_streams_and_connections_get_503(
    sqlite: str, tmp_path: Path
) -> None:
    caps = caps_for(256)
    with serving(sqlite, tmp_path, "--body-timeout", "2", descriptors=(256, 256)) as server:
        warmed(server)
        t, organizer = setup(sqlite, server.base, PLAYERS[:4])
        secret = str(organizer.client.headers["Authorization"]).split()[1]
        with many(caps.streams + 10, server, live(t)) as streams:
            answers = sorted(status_of(c) for c in streams)
            assert [status for status, _ in answers] == [200] * caps.streams + [503] * 10
            assert all(b"\r\nretry-after: 10" in head for _, head in answers[caps.streams :])
            spare = caps.connections - caps.streams
            with many(300, server) as idle:  # more than the descriptors left: the oldest go
                assert closed_within(idle, 5) >= 300 - spare
                assert_healthz_answers(server)
            with many(spare, server, partial_body(secret)) as slow:
                at_work(slow)  # and so is every connection now
                with connect(server) as refused:
                    reply = answer(refused)
                assert reply.startswith(b"HTTP/1.1 503 ") and b"\r\nretry-after: 5\r\n" in reply
                assert reply.endswith(f"the server has {caps.connections} connections open, "
                                      "its most: try again in a moment\"}".encode())  # fmt: skip
                assert closed_within(slow, 5) == spare, "cut at the body timeout of 2 s"
                assert_healthz_answers(server)
    written = server.log.read_bytes()
    assert len(written) < 64 * 1024 and b"Traceback" not in written, written[:2000]


def test_serve_raises_its_soft_limit_to_the_hard_one_and_says_what_it_keeps_open(
    sqlite: str, tmp_path: Path
) -> None:
    with serving(sqlite, tmp_path, descriptors=(256, 1024)) as server:
        stdout, lines = server.proc.stdout, []
        assert stdout is not None

        def read() -> None:  # the lines up to it (the address and the time zone come first)
            for _ in range(8):
                lines.append(stdout.readline())
                if lines[-1].startswith(b"at most"):
                    return

        reading = threading.Thread(target=read, daemon=True)
        reading.start()
        reading.join(10)  # a serve that prints no such line does not hang the test
        said = next((x.decode().strip() for x in lines if x.startswith(b"at most")), "")
    assert said == "at most 832 connections and 749 event streams (limit on open files 1024)"


class Waiting:
    """A connection as the gate sees it: ``unread``, the bytes of a request not read yet."""

    def __init__(self, gate: Gate, unread: int = 0) -> None:
        self.gate, self.unread, self.evicted = gate, unread, False

    def quiet(self) -> bool:
        return self.unread == 0

    def evict(self) -> None:
        self.evicted = True
        self.gate.leave(self)  # type: ignore[arg-type]


def test_past_the_cap_a_connection_takes_the_place_of_the_longest_waiting_quiet_one() -> None:
    gate = Gate(connections=3, lingering=1)
    first, second, third = Waiting(gate), Waiting(gate, unread=120), Waiting(gate)
    for conn in (first, second, third):
        assert gate.admit(conn)  # type: ignore[arg-type]
        gate.wait(conn, True)  # type: ignore[arg-type]
    assert gate.admit(Waiting(gate)) and first.evicted  # type: ignore[arg-type]
    assert gate.admit(Waiting(gate)) and third.evicted and not second.evicted  # type: ignore[arg-type]
    gate.wait(second, False)  # type: ignore[arg-type]  # its request is read: at work
    assert not gate.admit(Waiting(gate)), "the newest are not waiting"  # type: ignore[arg-type]


def test_the_caps_leave_room_for_the_store_and_the_pages() -> None:
    assert caps_for(256) == caps_for(256, 10_000, 10_000)
    assert (caps_for(256).connections, caps_for(256).streams) == (160, 144)
    assert (caps_for(1024).connections, caps_for(1024).streams) == (832, 749)
    assert caps_for(1_048_576).accept_batch == 1024
    assert (caps_for(1024, 100, 500).connections, caps_for(1024, 100, 500).streams) == (100, 90)
    with pytest.raises(TooFewDescriptors, match="raise it to at least 112"):
        caps_for(100)


def shortage(at: float) -> logging.LogRecord:
    error = OSError(24, "Too many open files")
    return logging.LogRecord("asyncio", logging.ERROR, __file__, 1,
                             f"{SHORTAGE}\nsocket: <fd=6>", (),
                             (OSError, error, None))  # fmt: skip


def test_a_shortage_of_descriptors_is_logged_once_a_second_with_the_count_held_back() -> None:
    now = [100.0]
    log = ShortageLog(clock=lambda: now[0])
    passed = []
    for _ in range(3):
        for _ in range(2048):  # a tight accept loop's worth
            record = shortage(now[0])
            if log.filter(record):
                passed.append(record.getMessage())
        now[0] += 1.0
    assert passed == [
        f"{SHORTAGE}: [Errno 24] Too many open files",
        f"{SHORTAGE}: [Errno 24] Too many open files (2047 more since the last line)",
        f"{SHORTAGE}: [Errno 24] Too many open files (2047 more since the last line)",
    ]
    other = logging.LogRecord("asyncio", logging.ERROR, __file__, 1, "other", (), None)
    assert log.filter(other)
