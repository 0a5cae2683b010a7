"""Deployed as docs/DEPLOY.md deploys it: two ``tledger serve`` processes on one PostgreSQL
database behind Debian's nginx with the site the repository ships
(``deploy/nginx/tledger.conf``, rendered with the test's ports by ``tests.nginx``).

A live 64-player event runs through the proxy while each process in turn is killed
(SIGKILL) and started again: the public page and the standings answer every time, from
whichever process is up, and a follower of the event stream, cut off with its process,
resumes from its last position with no event missing and none twice. Bodies are bounded
at the proxy and by ``serve`` behind it, and with the site's TLS lines the console sees
the https origin its forms come from. Skipped with the reason when nginx or
``TLEDGER_TEST_POSTGRES`` is missing (CI has both); each module run takes a database of
its own.
"""

from __future__ import annotations

import os
import ssl
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

from commands.tokens import create_token
from ledger.url import open_store
from tests.nginx import Nginx, Serve, missing, nginx, processes, self_signed
from tests.stores import fresh_postgres_database

PLAYERS = [f"p{i:02d}" for i in range(1, 65)]
ROUNDS = 3
#: answers a command is sent again for (same command_id): no process took it
RETRIED = frozenset({502, 503, 504})
#: seconds any one wait of this module may take before it fails
PATIENCE = 60.0


@dataclass
class Deployment:
    store: str
    proxy: Nginx
    processes: list[Serve]

    def token(self, role: str, tournament: str | None = None) -> str:
        opened = open_store(self.store)
        try:
            return create_token(opened, role, tournament, None)
        finally:
            opened.close()


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    reason = missing()
    if reason is not None:
        pytest.skip(reason)
    folder = tmp_path_factory.mktemp("deploy")
    with fresh_postgres_database(os.environ["TLEDGER_TEST_POSTGRES"]) as store:
        open_store(store).close()  # the tables, made once before two processes race to
        with (
            processes(store, 2, folder / "serve") as started,
            nginx([s.port for s in started], folder / "nginx") as proxy,
        ):
            yield Deployment(store, proxy, started)


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


class Organizer:
    """The organizer's device, sending the event's commands through the proxy. A command
    that no process took (nginx answered 502/503/504, or the connection failed) is sent
    again with the same command_id, which appends nothing twice.

    This is where the events of the test come from; a venue's ``tledger push --follow``
    into this deployment can take its place, and every check below holds as it is."""

    def __init__(self, base: str, secret: str, t: str) -> None:
        self.client = httpx.Client(base_url=base, headers=bearer(secret), timeout=30)
        self.t, self.position, self.retries = t, 0, 0

    def send(self, **command: Any) -> dict[str, Any]:
        body = {"tournament": self.t, "command_id": uuid.uuid4().hex, **command}
        deadline = time.monotonic() + PATIENCE
        while True:
            try:
                answer = self.client.post("/commands", json=body)
                if answer.status_code not in RETRIED:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, f"no process took {command['type']}"
            self.retries += 1
            time.sleep(0.1)
        assert answer.status_code == 200, answer.text
        outcome: dict[str, Any] = answer.json()
        self.position = max(self.position, outcome["position"])
        return outcome

    def get(self, path: str) -> Any:
        answer = self.client.get(path)
        assert answer.status_code == 200, answer.text
        return answer.json()

    def report_round(self, number: int, tables: slice) -> None:
        pairings = self.get(f"/tournaments/{self.t}/pairings")["pairings"]
        for i, table in enumerate(pairings[tables]):
            a, b = table["players"]
            games = [[2, 0], [2, 1], [1, 2], [0, 2]][i % 4]
            self.send(type="report_result", round=number, players=[a, b],
                      result={"games": games, "draws": 0})  # fmt: skip


@dataclass
class Reads:
    """Public page and standings through the proxy, one after the other until stopped:
    each answer's status, and when it came."""

    base: str
    secret: str
    t: str
    answers: list[tuple[float, str, int]] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        paths = [f"/t/{self.t}", f"/tournaments/{self.t}/standings"]
        with httpx.Client(base_url=self.base, headers=bearer(self.secret), timeout=30) as client:
            while not self.stop.is_set():
                for path in paths:
                    try:
                        status = client.get(path).status_code
                    except httpx.TransportError as exc:
                        status = -1
                        print(f"{path}: {exc!r}")
                    self.answers.append((time.monotonic(), path, status))
                time.sleep(0.02)

    def between(self, start: float, end: float) -> list[int]:
        return [status for at, _, status in self.answers if start <= at <= end]


@dataclass
class Follower:
    """A stream follower through the proxy: every frame's position and seq as received,
    and on any end of its stream (its process killed) a new request with
    ``Last-Event-ID``, as a browser's EventSource does."""

    base: str
    secret: str
    t: str
    positions: list[int] = field(default_factory=list)
    seqs: list[int] = field(default_factory=list)
    connects: int = 0
    until: int | None = None
    opened: threading.Event = field(default_factory=threading.Event)

    def done(self) -> bool:
        return self.until is not None and bool(self.positions) and self.positions[-1] >= self.until

    def run(self) -> None:
        deadline = time.monotonic() + 10 * PATIENCE
        while not self.done() and time.monotonic() < deadline:
            headers = bearer(self.secret)
            if self.positions:
                headers["Last-Event-ID"] = str(self.positions[-1])
            try:
                self.follow(headers)
            except httpx.HTTPError:
                time.sleep(0.1)  # cut off: resume from the last position

    def follow(self, headers: dict[str, str]) -> None:
        url = f"{self.base}/events/stream?tournament={self.t}"
        with httpx.stream("GET", url, headers=headers, timeout=30) as answer:
            if answer.status_code != 200:
                time.sleep(0.2)
                return
            self.connects += 1
            self.opened.set()
            frame: dict[str, str] = {}
            for line in answer.iter_lines():
                if line == "":
                    if "id" in frame:
                        self.positions.append(int(frame["id"]))
                        self.seqs.append(orjson.loads(frame["data"])["seq"])
                    frame = {}
                    if self.done():
                        return
                elif not line.startswith(":"):
                    name, _, value = line.partition(":")
                    frame[name] = value.removeprefix(" ")


def restart(process: Serve, reads: Reads, organizer: Organizer, work: Any) -> tuple[float, float]:
    """Kill ``process`` and do ``work`` through the proxy while it is down, then start it
    again and wait until the proxy sends it requests; the interval it was down."""
    process.kill()
    down = time.monotonic()
    seen = len(reads.answers)
    work()
    while len(reads.answers) < seen + 10:  # reads during the outage, not only commands
        assert time.monotonic() < down + PATIENCE, "no read answered while a process was down"
        time.sleep(0.05)
    up = time.monotonic()
    process.start()
    assert process.healthy()
    # back in the proxy's rotation (nginx tries it again after fail_timeout) before the
    # next process may go down, as docs/DEPLOY.md restarts them
    while process.proxied_since_start() == 0:
        assert time.monotonic() < up + PATIENCE, "nginx never sent to the restarted process"
        time.sleep(0.05)
    return down, up


def test_a_live_event_reads_on_through_the_proxy_while_each_process_restarts(
    deployment: Deployment,
) -> None:
    t = f"n-{uuid.uuid4().hex[:10]}"
    base = deployment.proxy.base
    organizer = Organizer(base, deployment.token("organizer"), t)
    organizer.send(type="create_tournament", name="Behind nginx", ruleset="swu-1.4")
    reader = deployment.token("reader", t)
    reads, follower = Reads(base, reader, t), Follower(base, reader, t)
    threads = [threading.Thread(target=reads.run), threading.Thread(target=follower.run)]
    for thread in threads:
        thread.start()
    try:
        assert follower.opened.wait(PATIENCE)
        for player in PLAYERS:
            organizer.send(type="register_player", player=player, name=f"Player {player}")
        outages = []
        for number in range(1, ROUNDS + 1):
            organizer.send(type="pair_round", seed=number)
            organizer.send(type="start_round")
            if number <= len(deployment.processes):  # each process once, mid-round
                organizer.report_round(number, slice(0, 16))
                process = deployment.processes[number - 1]
                work = lambda n=number: organizer.report_round(n, slice(16, 24))  # noqa: E731
                outages.append(restart(process, reads, organizer, work))
                organizer.report_round(number, slice(24, None))
            else:
                organizer.report_round(number, slice(None))
        follower.until = organizer.position
        for thread in threads[1:]:
            thread.join(PATIENCE)
    finally:
        reads.stop.set()
        follower.until = follower.until or 0
        for thread in threads:
            thread.join(PATIENCE)

    print(f"{len(reads.answers)} reads, {organizer.retries} commands sent again, the stream "
          f"opened {follower.connects} times")  # fmt: skip
    # every read answered, also while a process was down
    assert reads.answers and {status for _, _, status in reads.answers} == {200}
    for down, up in outages:
        assert len(reads.between(down, up)) >= 10
    # the stream: every event of the tournament once, in order, across reconnections
    stored = events_of(organizer, t)
    assert follower.positions == stored, "the stream missed or repeated an event"
    assert follower.seqs == list(range(1, len(stored) + 1))
    assert follower.connects >= 2, "the stream was never cut off by a restart"
    # both processes, asked directly, serve what the proxy serves
    standings = organizer.get(f"/tournaments/{t}/standings")
    assert len(standings["standings"]) == len(PLAYERS)
    for process in deployment.processes:
        direct = httpx.get(f"http://127.0.0.1:{process.port}/tournaments/{t}/standings",
                           headers=bearer(reader), timeout=30)  # fmt: skip
        assert direct.json() == standings
    page = httpx.get(f"{base}/t/{t}", timeout=30)
    assert page.status_code == 200 and "Player p64" in page.text
    assert live_head(f"{base}/t/{t}/live") == stored_seq(organizer, t)


def live_head(url: str) -> int:
    """The seq the public page's live stream names first, read through the proxy (it
    comes at once only if the proxy passes the stream on unbuffered)."""
    with httpx.stream("GET", url, timeout=30) as answer:
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/event-stream")
        for line in answer.iter_lines():
            if line.startswith("data:"):
                return int(orjson.loads(line.removeprefix("data:"))["seq"])
    raise AssertionError("the live stream ended without a frame")


def stored_seq(organizer: Organizer, t: str) -> int:
    return int(organizer.get(f"/tournaments/{t}/status")["seq"])


def events_of(organizer: Organizer, t: str) -> list[int]:
    """The tournament's stored positions, page by page (GET /events)."""
    positions: list[int] = []
    while True:
        page = organizer.get(f"/events?tournament={t}&after={positions[-1] if positions else 0}"
                             "&limit=1000")  # fmt: skip
        if not page["events"]:
            return positions
        positions += [e["position"] for e in page["events"]]


def test_bodies_are_bounded_at_the_proxy_and_by_serve_behind_it(deployment: Deployment) -> None:
    base = deployment.proxy.base
    headers = {**bearer(deployment.token("organizer")), "Content-Type": "application/json"}
    over_serve = b'{"tournament": "x", "type": "create_tournament", "name": "' + b"a" * 70_000
    answer = httpx.post(f"{base}/commands", content=over_serve + b'"}', headers=headers)
    assert answer.status_code == 413 and "larger than 65536 bytes" in answer.json()["error"]
    over_proxy = b"a" * (1024 * 1024 + 1)
    answer = httpx.post(f"{base}/commands", content=over_proxy, headers=headers)
    assert answer.status_code == 413


def test_the_shipped_site_unit_and_recipe_agree() -> None:
    """nginx appends the client's address to X-Forwarded-For and says the scheme; each
    process, as the unit file and the recipe start it, trusts 127.0.0.1, where nginx is
    and where the site's upstream lines point; the recipe shows the unit's lines."""
    root = Path(__file__).resolve().parents[2]
    site = (root / "deploy/nginx/tledger.conf").read_text()
    unit = (root / "deploy/systemd/tledger@.service").read_text()
    recipe = (root / "docs/DEPLOY.md").read_text()
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in site
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in site
    assert "    server 127.0.0.1:8001 " in site and "    server 127.0.0.1:8002 " in site
    start = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    assert "--host 127.0.0.1 --port %i --trusted-proxy 127.0.0.1" in start
    assert "--host 127.0.0.1 --port 8001 --store postgresql://... --trusted-proxy 127.0.0.1" in site
    shown = recipe.split("```ini\n", 1)[1].split("```", 1)[0].splitlines()
    assert shown and all(line in unit.splitlines() for line in shown), shown


def test_behind_tls_the_console_sees_its_https_origin(deployment: Deployment,
                                                       tmp_path: Path) -> None:  # fmt: skip
    """nginx ends TLS with the site's TLS lines uncommented; the processes trust it and
    take the scheme it forwards: a console sign-in sent from the https origin is taken
    and its cookie marked Secure. A process asked straight over plain HTTP refuses a
    form from an https origin of its own address, and takes one from the http origin."""
    tls = self_signed(tmp_path / "tls")
    form = {"token": deployment.token("organizer"), "next": "/console"}
    trusted = ssl.create_default_context(cafile=str(tls.cert))
    with nginx([s.port for s in deployment.processes], tmp_path / "nginx", tls) as proxy:
        answer = httpx.post(f"{proxy.base}/console/login", data=form, verify=trusted,
                            headers=same_origin(proxy.base))  # fmt: skip
    assert answer.status_code == 303, answer.text
    assert "secure" in answer.headers["set-cookie"].lower()
    assert answer.headers["strict-transport-security"].startswith("max-age=")
    process = f"127.0.0.1:{deployment.processes[0].port}"
    refused = httpx.post(f"http://{process}/console/login", data=form,
                         headers=same_origin(f"https://{process}"))  # fmt: skip
    assert refused.status_code == 403
    taken = httpx.post(f"http://{process}/console/login", data=form,
                       headers=same_origin(f"http://{process}"))  # fmt: skip
    assert taken.status_code == 303 and "secure" not in taken.headers["set-cookie"].lower()


def same_origin(origin: str) -> dict[str, str]:
    """What a browser sends with a form of a page of ``origin``."""
    return {"Origin": origin, "Sec-Fetch-Site": "same-origin"}
