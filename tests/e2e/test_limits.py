"""Limits that protect writers, and what integrators expect, against a real
``tledger serve`` on SQLite: the body limit while reading, the command rate of player
and scorekeeper tokens, the access log, the printed address and the OpenAPI document."""

from __future__ import annotations

import asyncio
import json
import os
import re
import resource
import select
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import astuple, dataclass, fields
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest
from fastapi import HTTPException
from starlette.middleware.errors import ServerErrorMiddleware
from starlette.types import Receive, Scope, Send

from commands.api.access import AccessLog
from commands.api.limits import RateLimiter, RoleLimiters, Settings, limit_rate, retry_after
from commands.cli import serve
from commands.folds import FULL_CHECK_EVERY
from commands.handler import Handler
from commands.web import create_app
from commands.web.connections import Deadlines
from ledger.url import open_store
from tests.e2e.test_http import PLAYERS, TLEDGER, Api, setup, token

RESULT = {"games": [2, 1], "draws": 0}


@dataclass
class Server:
    proc: subprocess.Popen[bytes]
    base: str
    address_line: str
    log: Path

    def rss_kib(self) -> int:
        """The server's resident memory (VmRSS), in KiB."""
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        return int(re.search(r"^VmRSS:\s+(\d+) kB", status, re.M).group(1))  # type: ignore[union-attr]

    def log_lines(self) -> list[dict[str, object]]:
        return [json.loads(line) for line in self.log.read_text().splitlines()]


@contextmanager
def serving(
    store: str, tmp_path: Path, *options: str, descriptors: tuple[int, int] | None = None
) -> Iterator[Server]:
    """``tledger serve --port 0``: the address is read from the line it prints, and
    requests are sent right after it (the socket listens before the line). With
    ``descriptors``, the server's soft and hard limits on open files."""
    log = tmp_path / "serve.log"

    def limited() -> None:
        if descriptors is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, descriptors)

    with log.open("wb") as stderr:
        proc = subprocess.Popen([TLEDGER, "serve", "--port", "0", "--store", store, *options],
                                stdout=subprocess.PIPE, stderr=stderr,
                                preexec_fn=limited)  # fmt: skip
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 20)
        line = proc.stdout.readline().decode().strip() if ready else ""
        found = re.search(r"http://[^ ]+", line)
        assert found, f"no address printed: {line!r} {log.read_text()}"
        yield Server(proc, found.group(0), line, log)
    finally:
        proc.kill()
        proc.wait()


@pytest.fixture
def sqlite(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'limits.sqlite3'}"


def seq(api: Api, t: str) -> int:
    return int(api.get(f"/tournaments/{t}/status").json()["seq"])


def chunks(total: int, size: int = 64 * 1024) -> Iterator[bytes]:
    """A body of ``total`` bytes made on the fly (chunked, no Content-Length)."""
    chunk = b"x" * size
    for _ in range(total // size):
        yield chunk


def test_a_huge_body_is_refused_while_it_arrives_and_memory_stays_flat(
    sqlite: str, tmp_path: Path
) -> None:
    with serving(sqlite, tmp_path) as server:
        t, org = setup(sqlite, server.base, PLAYERS[:4])
        warm = org.client.post("/commands", content=b"x" * 70_000)
        assert warm.status_code == 413
        before = server.rss_kib()
        started = time.monotonic()
        refused = org.client.post("/commands", content=chunks(200 * 1024 * 1024))
        took = time.monotonic() - started
        grown = server.rss_kib() - before
        assert refused.status_code == 413
        assert refused.json() == {"error": "the body is larger than 65536 bytes"}
        assert grown < 20 * 1024, f"the server grew by {grown} KiB while refusing 200 MB"
        assert took < 10, "the body was refused as it arrived, not after it was read whole"
        assert seq(org, t) == 1 + 4 + 2
        assert org.post(t, type="report_result", round=1, players=["p01", "p02"],
                        result=RESULT).status_code == 200  # fmt: skip


@contextmanager
def posting(sqlite: str, tmp_path: Path, length: int) -> Iterator[socket.socket]:
    """A raw connection to ``serve --max-body 1000`` that has sent the head of an
    organizer's ``POST /commands`` declaring ``length`` bytes, and no body yet."""
    secret = token(sqlite, "--role", "organizer")
    with serving(sqlite, tmp_path, "--max-body", "1000") as server:
        url = urlsplit(server.base)
        with socket.create_connection((url.hostname, url.port), timeout=10) as conn:
            conn.sendall(b"POST /commands HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Authorization: Bearer " + secret.encode() + b"\r\n"
                         b"Content-Length: " + str(length).encode() + b"\r\n\r\n")  # fmt: skip
            yield conn


def test_a_declared_length_over_the_limit_is_refused_before_the_body_is_sent(
    sqlite: str, tmp_path: Path
) -> None:
    with posting(sqlite, tmp_path, 1001) as conn:
        answer = b"".join(iter(lambda: conn.recv(4096), b"")).decode()  # until it closes
    assert answer.startswith("HTTP/1.1 413 ") and "connection: close" in answer.lower()
    assert answer.endswith('{"error":"the body is larger than 1000 bytes"}')


def test_a_body_a_little_over_the_limit_is_read_before_the_413_so_no_reset_hides_it(
    sqlite: str, tmp_path: Path
) -> None:
    """A client (or a proxy passing a body on) still sending when the 413 is decided:
    the rest is read and dropped first, so the connection closes with nothing unread and
    the client reads the answer, not a reset (which a proxy turns into a 502)."""
    with posting(sqlite, tmp_path, 3000) as conn:
        conn.sendall(b"x" * 1500)
        for part in (1000, 500):  # the rest comes after the server decided
            time.sleep(0.3)
            conn.sendall(b"x" * part)  # a closed connection: reset, then a broken pipe
        answer = b"".join(iter(lambda: conn.recv(4096), b"")).decode()
    assert answer.startswith("HTTP/1.1 413 ")
    assert answer.endswith('{"error":"the body is larger than 1000 bytes"}')


def test_a_player_token_over_its_rate_gets_429_with_retry_after_and_appends_nothing(
    sqlite: str, tmp_path: Path
) -> None:
    with serving(sqlite, tmp_path, "--rate", "0.5", "--rate-burst", "2") as server:
        t, org = setup(sqlite, server.base, PLAYERS[:8])
        p01 = Api(server.base, token(sqlite, "--role", "player", "--tournament", t,
                                     "--player", "p01"))  # fmt: skip
        p03 = Api(server.base, token(sqlite, "--role", "player", "--tournament", t,
                                     "--player", "p03"))  # fmt: skip
        burst = [p01.client.post("/commands", content=b"{oops") for _ in range(2)]
        assert [r.status_code for r in burst] == [400, 400]
        before = seq(org, t)
        over = p01.post(t, type="report_result", round=1, players=["p01", "p02"], result=RESULT)
        assert over.status_code == 429, over.text
        assert "too many commands" in over.json()["error"]
        assert int(over.headers["Retry-After"]) >= 1
        assert seq(org, t) == before
        other = p03.post(t, type="report_result", round=1, players=["p03", "p04"], result=RESULT)
        assert other.status_code == 200, "each token has its own bucket"


def test_a_scorekeeper_is_limited_at_its_own_rate_and_an_organizer_is_not(
    sqlite: str, tmp_path: Path
) -> None:
    with serving(sqlite, tmp_path, "--scorekeeper-rate", "0.5", "--scorekeeper-burst", "3",
                 "--rate", "0.5", "--rate-burst", "1") as server:  # fmt: skip
        t, org = setup(sqlite, server.base, PLAYERS[:8])
        scorer = Api(server.base, token(sqlite, "--role", "scorekeeper", "--tournament", t))
        pairs = (["p01", "p02"], ["p03", "p04"], ["p05", "p06"], ["p07", "p08"])
        answers = [scorer.post(t, type="report_result", round=1, players=pair, result=RESULT)
                   for pair in pairs]  # fmt: skip
        assert [a.status_code for a in answers] == [200, 200, 200, 429]
        assert answers[3].json()["error"] == (
            "too many commands from this scorekeeper token: at most 0.5 per second after a "
            "burst of 3")  # fmt: skip
        assert [org.post(t, type="start_round").status_code for _ in range(30)] == [409] * 30
        assert org.post(t, type="report_result", round=1, players=["p07", "p08"],
                        result=RESULT).status_code == 200  # fmt: skip


def test_each_role_has_its_own_rate_and_the_desk_a_bigger_one_by_default() -> None:
    limiters = RoleLimiters(Settings(), clock=lambda: 100.0)
    player, desk = limiters.of("player"), limiters.of("scorekeeper")
    assert player is not None and desk is not None and player is limiters.player
    assert [player.take("a") is None for _ in range(21)] == [True] * 20 + [False]
    assert [desk.take("a") is None for _ in range(301)] == [True] * 300 + [False]
    assert limiters.of("judge") is None and limiters.of("organizer") is None
    with pytest.raises(HTTPException) as over:
        limit_rate(limiters, "a", "player")
    assert over.value.status_code == 429 and over.value.detail == (
        "too many commands from this player token: at most 2 per second after a burst of 20"
    )
    limit_rate(limiters, "a", "organizer")  # never limited


def test_the_bucket_refills_at_its_rate_up_to_its_burst() -> None:
    now = [100.0]
    limiter = RateLimiter(rate=2.0, burst=3, clock=lambda: now[0])
    assert [limiter.take("a") for _ in range(3)] == [None, None, None]
    assert limiter.take("a") == pytest.approx(0.5)
    now[0] += 0.5
    assert limiter.take("a") is None
    assert limiter.take("a") == pytest.approx(0.5)
    now[0] += 60
    assert [limiter.take("a") for _ in range(3)] == [None, None, None]
    assert limiter.take("a") is not None, "an idle token saves at most one burst"
    assert limiter.take("b") is None
    assert [retry_after(0.01), retry_after(1.0), retry_after(1.2)] == ["1", "1", "2"]


def test_one_access_log_line_per_request_without_token_or_name(sqlite: str, tmp_path: Path) -> None:
    with serving(sqlite, tmp_path) as server:
        t, org = setup(sqlite, server.base, PLAYERS[:4])
        secret = str(org.client.headers["Authorization"]).split()[1]
        assert org.post(t, type="register_player", player="p99",
                        name="Ada Lovelace").status_code == 200  # fmt: skip
        assert "Ada Lovelace" in org.get(f"/tournaments/{t}/standings").text
        org.get("/events", tournament="Ada Lovelace")
        httpx.get(f"{server.base}/healthz")
        time.sleep(0.2)
        lines = server.log_lines()
        text = server.log.read_text()
    assert [(x["method"], x["path"], x["query"], x["status"]) for x in lines] == [
        ("POST", "/commands", [], 200),
        ("GET", f"/tournaments/{t}/standings", [], 200),
        ("GET", "/events", ["tournament"], 200),
        ("GET", "/healthz", [], 200),
    ]
    assert all(isinstance(x["ms"], float) and x["ms"] >= 0 for x in lines)
    assert secret not in text and "Ada" not in text and "Lovelace" not in text


def test_a_request_that_fails_is_logged_as_500_with_its_duration() -> None:
    async def failing(scope: Scope, receive: Receive, send: Send) -> None:
        raise RuntimeError("boom")

    lines: list[dict[str, object]] = []
    ticks = iter([10.0, 10.25])
    app = ServerErrorMiddleware(AccessLog(failing, lines.append, clock=lambda: next(ticks)))

    async def call() -> httpx.Response:
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
            return await http.get("/tournaments/t1/log", params={"after_seq": "Ada", "limit": 2})

    assert asyncio.run(call()).status_code == 500
    assert lines == [{"method": "GET", "path": "/tournaments/t1/log",
                      "query": ["after_seq", "limit"], "status": 500, "ms": 250.0}]  # fmt: skip


def test_serve_prints_the_address_it_listens_on(sqlite: str, tmp_path: Path) -> None:
    with serving(sqlite, tmp_path) as server:
        printed = rf"tledger serving http://127\.0\.0\.1:\d+ \(store {re.escape(sqlite)}\)"
        assert re.fullmatch(printed, server.address_line)
        assert httpx.get(f"{server.base}/healthz").json() == {"ok": True}


def test_serve_masks_the_store_password_in_its_address_line(tmp_path: Path) -> None:
    url = os.environ.get("TLEDGER_TEST_POSTGRES")
    if not url:
        pytest.skip("TLEDGER_TEST_POSTGRES is not set (CI sets it to the local PostgreSQL)")
    parts = urlsplit(url)
    user, host = parts.username or "postgres", parts.netloc.rpartition("@")[2]
    with_password = urlunsplit(parts._replace(netloc=f"{user}:hunter2@{host}"))
    with serving(with_password, tmp_path) as server:
        assert f"(store {parts.scheme}://{user}:***@{host}" in server.address_line
        assert "hunter2" not in server.address_line


def test_serve_defaults_are_the_settings_defaults() -> None:
    defaults = {f.name: f.default for f in fields(Settings)}
    options = {"max_body": serve.MAX_BODY, "rate_per_second": serve.RATE,
               "rate_burst": serve.RATE_BURST,
               "scorekeeper_rate_per_second": serve.SCOREKEEPER_RATE,
               "scorekeeper_rate_burst": serve.SCOREKEEPER_BURST,
               "streams_per_token": serve.STREAMS_PER_TOKEN,
               "token_recheck_seconds": serve.TOKEN_RECHECK,
               "public_streams": serve.PUBLIC_STREAMS,
               "max_streams": serve.MAX_STREAMS}  # fmt: skip
    assert options == {name: defaults[name] for name in options}
    assert serve.FULL_CHECK_EVERY == FULL_CHECK_EVERY
    assert astuple(Deadlines()) == (serve.HEADER_TIMEOUT, serve.BODY_TIMEOUT)
    assert serve.MAX_CONNECTIONS is None


def test_openapi_declares_the_bearer_scheme_on_every_operation_that_needs_a_token() -> None:
    document = create_app(Handler(open_store("memory://"))).openapi()
    bearer = document["components"]["securitySchemes"]["bearerAuth"]
    assert (bearer["type"], bearer["scheme"]) == ("http", "bearer")
    operations = {(m, p): op for p, ops in document["paths"].items() for m, op in ops.items()}
    for (method, path), operation in operations.items():
        needs_token = "401" in operation["responses"]
        assert (operation.get("security") == [{"bearerAuth": []}]) == needs_token, (method, path)
        names = [p["name"].lower() for p in operation.get("parameters", [])]
        assert "authorization" not in names, (method, path)
    assert operations[("get", "/healthz")].get("security") is None
    stream = operations[("get", "/events/stream")]["responses"]["200"]["content"]
    assert list(stream) == ["text/event-stream"]
    too_many = operations[("post", "/commands")]["responses"]["429"]
    assert too_many["headers"]["Retry-After"]["schema"]["minimum"] == 1
