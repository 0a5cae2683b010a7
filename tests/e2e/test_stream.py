"""The event stream that fans out to every screen, against real servers: frames with ``id:``,
``event:`` and ``data:``, keep-alives, 400s for a cursor that is not a position, a cap
on open streams per token, no gap and no duplicate where catching up meets following
(also with appends racing it), a damaged event, SIGTERM with a connected client, and a
resume through two ``tledger serve`` processes on PostgreSQL. The switch and a reader
that falls behind are also driven in process, where a test decides when appends
happen (test_stream_catch_up.py).

Servers with their own settings run in a thread of the test process (uvicorn on the
app); ``tledger serve`` runs as a subprocess where the process itself is the subject.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from commands.api.limits import Settings
from commands.handler import Handler
from commands.web import create_app
from ledger.eventsourced import stream_id
from ledger.url import open_store
from tests.e2e.test_http import PLAYERS, Api, setup, start_server, token
from tests.stores import KINDS, store_url

Frame = dict[str, str]


@pytest.fixture(params=KINDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return store_url(request.param, tmp_path, "stream.sqlite3")


@contextmanager
def app_server(url: str, **settings: Any) -> Iterator[str]:
    """The API with these settings, served by uvicorn in a thread; its base URL."""
    app = create_app(Handler(open_store(url)), Settings(**settings))
    listening = socket.create_server(("127.0.0.1", 0))  # a free port, taken at once
    port = listening.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        app.state.hub.close_soon()
        server.should_exit = True
        thread.join(10)
        listening.close()


class Sse:
    """A stream as a client reads it: frames of ``field: value`` lines ending with a
    blank line (a comment line's field is ``:``)."""

    def __init__(self, response: httpx.Response) -> None:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("text/event-stream")
        self.lines = response.iter_lines()

    def frame(self) -> Frame:
        frame: Frame = {}
        for line in self.lines:
            if line == "":
                if frame:
                    return frame
                continue
            field, _, value = line.partition(":")
            frame[field or ":"] = value.removeprefix(" ")
        raise EOFError("the stream ended")

    def events(self, count: int) -> list[Frame]:
        """The next ``count`` event frames, comments skipped."""
        found: list[Frame] = []
        while len(found) < count:
            frame = self.frame()
            if "data" in frame:
                found.append(frame)
        return found


@contextmanager
def opened(base: str, secret: str, headers: dict[str, str] | None = None,
           **params: Any) -> Iterator[Sse]:  # fmt: skip
    """An open stream; dropped when the block ends."""
    every = {"Authorization": f"Bearer {secret}", **(headers or {})}
    with httpx.stream("GET", f"{base}/events/stream", params=params, headers=every,
                      timeout=httpx.Timeout(10, read=10)) as response:  # fmt: skip
        yield Sse(response)


def data(frames: list[Frame]) -> list[dict[str, Any]]:
    return [json.loads(f["data"]) for f in frames]


def report(api: Api, t: str, pair: list[str]) -> None:
    answer = api.post(t, type="report_result", round=1, players=pair,
                      result={"games": [2, 0], "draws": 0})  # fmt: skip
    assert answer.status_code == 200, answer.text


def test_frames_carry_the_position_the_event_type_and_the_json_of_get_events(url: str) -> None:
    with app_server(url) as base:
        t, org = setup(url, base, PLAYERS[:4])
        reader = token(url, "--role", "reader", "--tournament", t)
        listed = org.get("/events", tournament=t, limit=1000).json()["events"]
        with opened(base, reader) as sse:
            assert sse.frame() == {":": "tledger event stream"}
            caught_up = sse.events(len(listed))
            report(org, t, ["p01", "p02"])
            (live,) = sse.events(1)
        assert [f["id"] for f in caught_up] == [str(e["position"]) for e in listed]
        assert [f["event"] for f in caught_up] == [e["type"] for e in listed]
        assert data(caught_up) == listed
        assert live["event"] == "result_reported"
        assert json.loads(live["data"]) == org.get(
            "/events", tournament=t, after=listed[-1]["position"]).json()["events"][0]  # fmt: skip


def test_the_openapi_document_declares_each_frame_and_the_json_its_data_carries(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'doc.sqlite3'}"
    document = create_app(Handler(open_store(url))).openapi()
    answer = document["paths"]["/events/stream"]["get"]["responses"]["200"]["content"]
    assert list(answer) == ["text/event-stream"]
    frame = answer["text/event-stream"]["itemSchema"]
    assert "schema" not in answer["text/event-stream"], "not a plain string"
    assert set(frame["properties"]) == {"id", "event", "data"}
    data_schema = frame["properties"]["data"]
    assert data_schema["contentMediaType"] == "application/json"
    refs = [one["$ref"].rpartition("/")[2] for one in data_schema["contentSchema"]["oneOf"]]
    assert refs == ["StreamedEvent", "ErrorBody"]
    streamed = document["components"]["schemas"]["StreamedEvent"]
    assert {"tournament", "position", "seq", "type", "actor"} <= set(streamed["required"])
    assert streamed["properties"]["actor"]["$ref"].rpartition("/")[2] in document[
        "components"]["schemas"]  # fmt: skip
    with app_server(url) as base:
        t, org = setup(url, base, PLAYERS[:4])
        listed = org.get("/events", tournament=t, limit=1000).json()["events"]
    assert listed and all(set(streamed["required"]) <= set(event) for event in listed)


def test_an_idle_stream_gets_a_keep_alive_comment_every_heartbeat(tmp_path: Path) -> None:
    url = store_url("sqlite", tmp_path)
    with app_server(url, heartbeat_seconds=0.2) as base:
        t, _ = setup(url, base, PLAYERS[:2])
        with opened(base, token(url, "--role", "reader"), tournament=t) as sse:
            sse.events(5)  # created, two players, paired, started
            started = time.monotonic()
            assert [sse.frame(), sse.frame()] == [{":": "keep-alive"}] * 2
            assert 0.3 <= time.monotonic() - started < 2


@pytest.mark.parametrize(
    ("headers", "params", "named"),
    [
        ({"Last-Event-ID": "abc"}, {}, "Last-Event-ID"),
        ({"Last-Event-ID": "-1"}, {}, "Last-Event-ID"),
        ({"Last-Event-ID": "1.5"}, {}, "Last-Event-ID"),
        ({"Last-Event-ID": ""}, {}, "Last-Event-ID"),
        ({"Last-Event-ID": str(2**63)}, {}, "Last-Event-ID"),
        ({"Last-Event-ID": b"\xb2"}, {}, "Last-Event-ID"),  # a superscript two in Latin-1
        ({}, {"after": "x"}, "after"),
        ({}, {"after": "-3"}, "after"),
        ({}, {"after": "١٢"}, "after"),  # Arabic-Indic digits
        ({"Last-Event-ID": "3"}, {"after": "three"}, "after"),
    ],
)
def test_a_cursor_that_is_not_a_position_is_a_400_not_a_replay_from_the_start(
    tmp_path: Path, headers: dict[str, str | bytes], params: dict[str, str], named: str
) -> None:
    url = store_url("sqlite", tmp_path)
    with app_server(url) as base:
        secret = token(url, "--role", "reader")
        answer = httpx.get(f"{base}/events/stream", params=params, timeout=10,
                           headers={"Authorization": f"Bearer {secret}", **headers})  # fmt: skip
        assert answer.status_code == 400
        assert answer.json()["error"].startswith(f"{named} must be a position")


def test_last_event_id_wins_over_after_and_resumes_after_that_position(tmp_path: Path) -> None:
    url = store_url("sqlite", tmp_path)
    with app_server(url) as base:
        t, org = setup(url, base, PLAYERS[:2])
        positions = [e["position"] for e in org.get("/events", tournament=t).json()["events"]]
        secret = token(url, "--role", "reader")
        resume = {"Last-Event-ID": str(positions[2])}
        with opened(base, secret, resume, tournament=t, after=positions[0]) as sse:
            assert [int(f["id"]) for f in sse.events(2)] == positions[3:]
        with opened(base, secret, tournament=t, after=positions[0]) as sse:
            assert [int(f["id"]) for f in sse.events(4)] == positions[1:]


def test_a_token_opens_at_most_its_share_of_streams_and_a_closed_one_frees_its_slot(
    tmp_path: Path,
) -> None:
    url = store_url("sqlite", tmp_path)
    with app_server(url, streams_per_token=2) as base:
        secret, other = token(url, "--role", "reader"), token(url, "--role", "reader")
        third = {"Authorization": f"Bearer {secret}"}
        with opened(base, secret) as one, opened(base, secret):
            one.frame()
            refused = httpx.get(f"{base}/events/stream", headers=third, timeout=10)
            assert refused.status_code == 429 and refused.headers["Retry-After"] == "1"
            assert "2 event streams open" in refused.json()["error"]
            with opened(base, other) as elsewhere:  # another token has its own share
                elsewhere.frame()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:  # the server notices the closed connections
            with httpx.stream("GET", f"{base}/events/stream", headers=third, timeout=10) as again:
                if again.status_code == 200:
                    break
            time.sleep(0.05)
        assert again.status_code == 200


def test_streams_opened_while_appends_race_get_every_event_once_in_order(url: str) -> None:
    with app_server(url, streams_per_token=10) as base:
        before = open_store(url).head_position()  # a shared database holds other tests' events
        t, org = setup(url, base, PLAYERS[:2])
        total = 5 + 40
        secret = token(url, "--role", "reader")
        results: list[list[dict[str, Any]]] = []

        def follow_from_the_start(scoped: bool) -> None:
            params = {"tournament": t} if scoped else {"after": before}
            with opened(base, secret, **params) as sse:
                got: list[dict[str, Any]] = []
                while not got or got[-1]["seq"] < total:
                    got += [e for e in data(sse.events(1)) if e["tournament"] == t]
                results.append(got)

        readers = []
        for i in range(40):  # a stream joins after every append, catching up as it goes on
            assert org.post(t, type="register_player", player=f"x{i}").status_code == 200
            if i % 4 == 0:
                readers.append(threading.Thread(target=follow_from_the_start, args=(i % 8 == 0,)))
                readers[-1].start()
        for reader in readers:
            reader.join(30)
        assert len(results) == len(readers) == 10
        for got in results:
            assert [e["seq"] for e in got] == list(range(1, total + 1))
            assert [e["position"] for e in got] == sorted({e["position"] for e in got})


@pytest.mark.parametrize("scoped", [True, False])
def test_a_damaged_event_ends_the_stream_with_an_error_frame_naming_its_seq(
    tmp_path: Path, scoped: bool
) -> None:
    url = store_url("sqlite", tmp_path)
    t, _ = setup(url, "http://unused", PLAYERS[:4])
    where = "WHERE originator_id = ? AND originator_version = 4"
    with sqlite3.connect(url.removeprefix("sqlite:///")) as con:
        con.execute(f"UPDATE stored_events SET state = replace(state, '\"actor\":', "
                    f"'\"actoR\":') {where}", (stream_id(t).hex,))  # fmt: skip
    with (
        app_server(url) as base,
        opened(
            base, token(url, "--role", "reader"), **({"tournament": t} if scoped else {})
        ) as sse,
    ):
        (error,) = sse.events(1)  # the page that holds it is refused whole, as a load is
        assert error["event"] == "error"
        assert json.loads(error["data"])["error"].startswith(
            "integrity: seq 4: hash does not match")  # fmt: skip
        with pytest.raises(EOFError):
            sse.frame()


def test_sigterm_ends_open_streams_and_the_server_exits_within_two_seconds(
    url: str, tmp_path: Path
) -> None:
    log = (tmp_path / "serve.log").open("wb")
    proc, base = start_server(url, log=log)
    try:
        t, org = setup(url, base, PLAYERS[:2])
        with opened(base, token(url, "--role", "reader"), tournament=t) as sse:
            sse.events(5)
            report(org, t, ["p01", "p02"])
            sse.events(1)  # following live now
            proc.send_signal(signal.SIGTERM)
            signalled = time.monotonic()
            with pytest.raises(EOFError):
                sse.frame()  # the stream ends: its last chunk came, nothing is cut off
            proc.wait(timeout=5)
            assert time.monotonic() - signalled < 2
    finally:
        proc.kill()
        proc.wait()
        log.close()
    assert "Traceback" not in (tmp_path / "serve.log").read_text()


def test_a_stream_resumes_through_another_server_on_postgres_without_gap_or_duplicate() -> None:
    url = os.environ.get("TLEDGER_TEST_POSTGRES")
    if not url:
        pytest.skip("TLEDGER_TEST_POSTGRES is not set (CI sets it to the local PostgreSQL)")
    (one, base1), (two, base2) = start_server(url), start_server(url)
    try:
        t, org = setup(url, base1, PLAYERS[:8])
        reader = token(url, "--role", "reader", "--tournament", t)
        everyone = token(url, "--role", "reader")
        got: list[dict[str, Any]] = []
        with opened(base2, reader) as sse:
            got += data(sse.events(5))
        report(org, t, ["p01", "p02"])  # while nobody follows
        resume = {"Last-Event-ID": str(got[-1]["position"])}
        with opened(base2, reader, resume) as sse, opened(base2, everyone, resume) as unscoped:
            got += data(sse.events(6))  # the rest of round 1's start and the report
            report(org, t, ["p03", "p04"])  # appended through server one, live on two
            got += data(sse.events(1))
            mine: list[dict[str, Any]] = []
            while len(mine) < 7:  # other tests may write to the shared database meanwhile
                mine += [e for e in data(unscoped.events(1)) if e["tournament"] == t]
            assert mine == got[5:]
        report(org, t, ["p05", "p06"])
        with opened(base1, reader, {"Last-Event-ID": str(got[-1]["position"])}) as sse:
            got += data(sse.events(1))
        assert [e["seq"] for e in got] == list(range(1, 14))
        assert [e["position"] for e in got] == sorted({e["position"] for e in got})
    finally:
        for proc in (one, two):
            proc.kill()
            proc.wait()
