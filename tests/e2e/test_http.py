"""The HTTP API against a real server (a subprocess on 127.0.0.1), on SQLite and PostgreSQL:
the role matrix, the resumable stream, concurrent reporters, idempotent retries."""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import httpx
import pytest

from commands.handler import Handler
from commands.models import parse_command
from commands.tokens import create_token
from ledger.url import open_store
from tests.stores import KINDS, store_url

TLEDGER = str(Path(sys.executable).with_name("tledger"))
PLAYERS = [f"p{i:02d}" for i in range(1, 65)]


@pytest.fixture(params=KINDS, scope="module")
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A SQLite or PostgreSQL store for the module's tests; each test makes a tournament of
    its own there (``setup``)."""
    return store_url(request.param, tmp_path_factory.mktemp("http"), "http.sqlite3")


def start_server(store: str, *options: str, log: int | IO[bytes] = subprocess.DEVNULL,
                 ) -> tuple[subprocess.Popen[bytes], str]:  # fmt: skip
    """``tledger serve --port 0`` and its base URL, read from the line it prints: the socket
    listens before that line, so a request may follow at once, and no port is guessed, so
    servers started side by side (tests in parallel) never take the same one. The access
    log goes to ``log``."""
    proc = subprocess.Popen([TLEDGER, "serve", "--port", "0", "--store", store, *options],
                            stdout=subprocess.PIPE, stderr=log)  # fmt: skip
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], 20)
    found = re.search(r"http://[^ ]+", proc.stdout.readline().decode() if ready else "")
    if found is None:
        proc.kill()
        raise RuntimeError("the server did not start")
    return proc, found.group(0)


@contextmanager
def served(store: str, *options: str) -> Iterator[str]:
    """A ``tledger serve`` process on ``store`` (with ``serve`` options) for the block; its
    base URL."""
    proc, base = start_server(store, *options)
    try:
        yield base
    finally:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="module")
def server(store: str) -> Iterator[str]:
    """One server on the module's store for its tests."""
    with served(store) as base:
        yield base


def token(store: str, *args: str) -> str:
    """A token made in-process (`tledger token create` itself is tested once below)."""
    options = dict(zip(args[::2], args[1::2], strict=True))
    return create_token(open_store(store), options["--role"], options.get("--tournament"),
                        options.get("--player"))  # fmt: skip


class Api:
    def __init__(self, base: str, secret: str | None) -> None:
        headers = {"Authorization": f"Bearer {secret}"} if secret else {}
        self.client = httpx.Client(base_url=base, headers=headers, timeout=30)

    def post(self, t: str, **command: Any) -> httpx.Response:
        return self.client.post("/commands", json={"tournament": t, **command})

    def get(self, path: str, **params: Any) -> httpx.Response:
        return self.client.get(path, params=params)


def setup(store: str, base: str, players: list[str] = PLAYERS) -> tuple[str, Api]:
    """A tournament with round 1 paired in order and started (set up in-process, fast)."""
    t = f"h-{uuid.uuid4().hex[:10]}"
    handler = Handler(open_store(store))
    tables = [players[i : i + 2] for i in range(0, len(players), 2)]
    commands: list[dict[str, Any]] = [
        {"type": "create_tournament", "name": "HTTP", "ruleset": "swu-1.4"},
        *({"type": "register_player", "player": p} for p in players),
        {"type": "pair_round", "pairings": tables},
        {"type": "start_round"},
    ]
    for command in commands:
        handler.handle(parse_command({"tournament": t, **command}))
    return t, Api(base, token(store, "--role", "organizer"))


def seq(api: Api, t: str) -> int:
    return int(api.get(f"/tournaments/{t}/status").json()["seq"])


def test_role_matrix_and_nothing_appended_on_refusal(store: str, server: str) -> None:
    t, org = setup(store, server, PLAYERS[:8])
    as_role = {role: Api(server, token(store, "--role", role, "--tournament", t))
               for role in ("organizer", "judge", "scorekeeper", "reader")}  # fmt: skip
    p1 = Api(server, token(store, "--role", "player", "--tournament", t, "--player", "p01"))
    elsewhere = Api(server, token(store, "--role", "judge", "--tournament", "other"))
    result = {"games": [2, 1], "draws": 0}
    before = seq(org, t)
    refused = [
        (Api(server, None).post(t, type="start_round"), 401),
        (Api(server, "tl_wrong").get(f"/tournaments/{t}/status"), 401),
        (as_role["reader"].post(t, type="register_player", player="x"), 403),
        (as_role["judge"].post(t, type="register_player", player="x"), 403),
        (as_role["scorekeeper"].post(t, type="correct_result", round=1, players=["p01", "p02"],
                                     result=result), 403),
        (p1.post(t, type="report_result", round=1, players=["p03", "p04"], result=result), 403),
        (elsewhere.post(t, type="report_result", round=1, players=["p03", "p04"],
                        result=result), 403),
        (as_role["organizer"].post("new", type="create_tournament", name="x", ruleset="swu-1.4"),
         403),
        (elsewhere.get(f"/tournaments/{t}/standings"), 403),
        (p1.post(t, type="report_result", round=1, players=["p01", "p02"], result=result,
                 actor={"role": "judge", "id": "j"}), 403),
        (org.post("nope", type="start_round"), 404),
        (org.post(t, type="start_round"), 409),
        (org.client.post("/commands", content=b"{oops"), 400),
        (org.post(t, type="register_player", player="x", colour="red"), 422),
        (org.client.post("/commands", content=b"x" * 70_000), 413),
    ]  # fmt: skip
    for response, status in refused:
        assert response.status_code == status, response.text
        assert "error" in response.json()
    assert seq(org, t) == before
    allowed = [
        p1.post(t, type="report_result", round=1, players=["p01", "p02"], result=result),
        as_role["scorekeeper"].post(t, type="report_result", round=1, players=["p03", "p04"],
                                    result=result),
        as_role["judge"].post(t, type="report_result", round=1, players=["p05", "p06"],
                              result=result),
        as_role["organizer"].post(t, type="report_result", round=1, players=["p07", "p08"],
                                  result=result),
        as_role["judge"].post(t, type="correct_result", round=1, players=["p05", "p06"],
                              result={"games": [0, 2], "draws": 0}, reason="slip"),
        as_role["reader"].get(f"/tournaments/{t}/standings"),
        as_role["reader"].get(f"/tournaments/{t}/pairings", round=1),
        as_role["reader"].get(f"/tournaments/{t}/log", as_of=3),
    ]  # fmt: skip
    assert [r.status_code for r in allowed] == [200] * len(allowed), [r.text for r in allowed]
    events = as_role["reader"].get(f"/tournaments/{t}/log").json()["events"]
    reported = [e for e in events if e["type"] == "result_reported"]
    assert reported[0]["actor"] == {"role": "player", "id": "p01"}
    assert as_role["reader"].get("/events", tournament="other").status_code == 403


def test_a_repeated_command_id_returns_the_first_outcome(store: str, server: str) -> None:
    t, org = setup(store, server, PLAYERS[:4])
    body = {"type": "report_result", "round": 1, "players": ["p01", "p02"],
            "result": {"games": [2, 0], "draws": 0}, "command_id": "slip-17"}  # fmt: skip
    first, again = org.post(t, **body), org.post(t, **body)
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert seq(org, t) == first.json()["seq"]
    other = org.post(t, **{**body, "players": ["p03", "p04"]})
    assert other.status_code == 409 and "command_id 'slip-17'" in other.json()["error"]
    assert seq(org, t) == first.json()["seq"]


def test_concurrent_reporters_lose_nothing(store: str, server: str) -> None:
    t, org = setup(store, server)
    # four scorekeepers: one token's burst is below 32 commands (commands/api/limits.py)
    scorers = [token(store, "--role", "scorekeeper", "--tournament", t) for _ in range(4)]
    tables = [PLAYERS[i : i + 2] for i in range(0, len(PLAYERS), 2)]
    codes: list[int] = []

    def report(pair: list[str]) -> None:
        api = Api(server, scorers[PLAYERS.index(pair[0]) // 2 % 4])
        codes.append(api.post(t, type="report_result", round=1, players=pair,
                              result={"games": [2, 1], "draws": 0}).status_code)  # fmt: skip

    threads = [threading.Thread(target=report, args=(pair,)) for pair in tables]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert codes == [200] * len(tables)
    status = org.get(f"/tournaments/{t}/status").json()
    assert status["round_state"] == "complete"
    assert status["seq"] == 1 + len(PLAYERS) + 2 + len(tables)


def read_stream(
    base: str, secret: str, t: str, last: str | None, want: int
) -> list[dict[str, Any]]:
    """Read ``want`` events from the SSE stream, then drop the connection."""
    headers = {"Authorization": f"Bearer {secret}"}
    if last is not None:
        headers["Last-Event-ID"] = last
    got: list[dict[str, Any]] = []
    with httpx.stream("GET", f"{base}/events/stream", params={"tournament": t},
                      headers=headers, timeout=30) as response:  # fmt: skip
        assert response.status_code == 200
        for line in response.iter_lines():
            if line.startswith("data: "):
                got.append(json.loads(line[6:]))
                if len(got) == want:
                    break
    return got


def test_the_stream_resumes_after_a_dropped_connection(store: str, server: str) -> None:
    t, org = setup(store, server, PLAYERS[:8])
    reader = token(store, "--role", "reader", "--tournament", t)
    first = read_stream(server, reader, t, None, 5)
    for pair in (["p01", "p02"], ["p03", "p04"], ["p05", "p06"]):
        org.post(t, type="report_result", round=1, players=pair,
                 result={"games": [2, 0], "draws": 0})  # fmt: skip
    total = seq(org, t)
    rest = read_stream(server, reader, t, str(first[-1]["position"]), total - 5)
    seqs = [e["seq"] for e in first + rest]
    assert seqs == list(range(1, total + 1))  # no gap, no duplicate
    positions = [e["position"] for e in first + rest]
    assert positions == sorted(set(positions))
    cursor = org.get("/events", after=0, limit=3, tournament=t).json()
    assert [e["seq"] for e in cursor["events"]] == [1, 2, 3]
    more = org.get("/events", after=cursor["last"], limit=1000, tournament=t).json()
    assert [e["seq"] for e in more["events"]] == list(range(4, total + 1))


def test_two_servers_on_one_postgres_database_stay_consistent() -> None:
    url = os.environ.get("TLEDGER_TEST_POSTGRES")
    if not url:
        pytest.skip("TLEDGER_TEST_POSTGRES is not set (CI sets it to the local PostgreSQL)")
    (one, base1), (two, base2) = start_server(url), start_server(url)
    try:
        t, _ = setup(url, base1)
        scorer = token(url, "--role", "scorekeeper", "--tournament", t)
        tables = [PLAYERS[i : i + 2] for i in range(0, len(PLAYERS), 2)]
        codes: list[int] = []

        def report(i: int, pair: list[str]) -> None:
            api = Api(base1 if i % 2 else base2, scorer)
            codes.append(api.post(t, type="report_result", round=1, players=pair,
                                  result={"games": [2, 0], "draws": 0}).status_code)  # fmt: skip

        threads = [threading.Thread(target=report, args=(i, p)) for i, p in enumerate(tables)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert codes == [200] * len(tables)
        for base in (base1, base2):
            status = Api(base, scorer).get(f"/tournaments/{t}/status").json()
            assert status["round_state"] == "complete"
            assert status["seq"] == 1 + len(PLAYERS) + 2 + len(tables)
    finally:
        for proc in (one, two):
            proc.kill()
            proc.wait()


def test_event_schema_and_openapi_are_served(store: str, server: str) -> None:
    schema = httpx.get(f"{server}/schema/events.json").json()
    assert "result_corrected" in json.dumps(schema)
    assert "/commands" in httpx.get(f"{server}/openapi.json").json()["paths"]


def test_token_create_prints_the_token_alone_on_its_last_line(store: str) -> None:
    done = subprocess.run([TLEDGER, "token", "create", "--role", "reader", "--store", store],
                          capture_output=True, text=True, check=True)  # fmt: skip
    secret = done.stdout.strip().splitlines()[-1]
    assert secret.startswith("tl_") and len(done.stdout.strip().splitlines()) == 1
    bad = subprocess.run([TLEDGER, "token", "create", "--role", "player", "--store", store],
                         capture_output=True, text=True)  # fmt: skip
    assert bad.returncode == 2 and "names its player" in bad.stderr
