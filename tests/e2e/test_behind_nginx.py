"""Deployed as docs/DEPLOY.md deploys it: two ``tledger serve`` processes on one PostgreSQL
database behind Debian's nginx with the site the repository ships
(``deploy/nginx/tledger.conf``, rendered with the test's ports by ``tests.nginx``), a
hosted mirror of a venue.

The venue runs a live 64-player event on its own SQLite store (``tledger apply`` and
the command handler, as its laptop does) and ``tledger push --follow`` sends each append
through the proxy with a venue token the mirror's operator created. Meanwhile each
process in turn is killed (SIGKILL) and started again: the public page and the
standings answer every time, from whichever process is up, and a follower of the event
stream, cut off with its process, resumes from its last position with no event missing
and none twice. At the end the mirror's log is the venue's, byte for byte
(``tledger verify --against`` through the proxy agrees). Bodies are bounded at the
proxy and by ``serve`` behind it, a push batch as large as ``serve`` takes passes the
proxy, and with the site's TLS lines the console sees the https origin its forms come
from. Skipped with the reason when nginx or ``TLEDGER_TEST_POSTGRES`` is missing (CI
has both); each module run takes a database of its own.
"""

from __future__ import annotations

import inspect
import os
import ssl
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

from commands.api.limits import Settings
from commands.cli.serve import serve
from commands.tokens import create_token
from ledger.url import open_store
from tests.e2e.proxied import (
    PATIENCE,
    PLAYERS,
    Follower,
    Mirror,
    Reads,
    Venue,
    bearer,
    stored,  # fmt: skip
)
from tests.nginx import TLEDGER, Nginx, Serve, missing, nginx, processes, self_signed
from tests.stores import fresh_postgres_database

ROUNDS = 3


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


def restart(process: Serve, reads: Reads, work: Any) -> tuple[float, float]:
    """Kill ``process`` and do ``work`` at the venue while it is down (its pushes go
    through the proxy to the other process), then start it again and wait until the
    proxy sends it requests; the interval it was down."""
    process.kill()
    down = time.monotonic()
    seen = len(reads.answers)
    work()
    while len(reads.answers) < seen + 10:  # reads during the outage
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


@contextmanager
def pushing(venue: Venue, base: str, secret: str, log: Path) -> Iterator[None]:
    """``tledger push --follow`` from the venue to the mirror through the proxy, its lines
    in ``log``, stopped when the block ends."""
    with log.open("wb") as out:
        pusher = subprocess.Popen([TLEDGER, "push", venue.t, "--to", base, "--token", secret,
                                   "--store", venue.url, "--follow"],
                                  stdout=out, stderr=subprocess.STDOUT)  # fmt: skip
    try:
        yield
    finally:
        pusher.terminate()
        pusher.wait(timeout=10)
    assert pusher.returncode == -15, log.read_text()  # followed until stopped, never failed


def test_a_venue_pushes_a_live_event_read_through_the_proxy_while_each_process_restarts(
    deployment: Deployment, tmp_path: Path
) -> None:
    t = f"n-{uuid.uuid4().hex[:10]}"
    base = deployment.proxy.base
    venue = Venue(tmp_path, t)
    reader = deployment.token("reader", t)
    mirror = Mirror(base, reader, t)
    reads, follower = Reads(base, reader, t), Follower(base, reader, t)
    threads = [threading.Thread(target=reads.run), threading.Thread(target=follower.run)]
    with pushing(venue, base, deployment.token("venue"), tmp_path / "push.log"):
        mirror.wait_for(venue.head())  # the first push claims the id and sends the setup
        for thread in threads:
            thread.start()
        try:
            assert follower.opened.wait(PATIENCE)
            outages = []
            for number in range(1, ROUNDS + 1):
                venue.send(type="pair_round", seed=number)
                venue.send(type="start_round")
                if number <= len(deployment.processes):  # each process once, mid-round
                    venue.report_round(number, slice(0, 16))
                    mirror.wait_for(venue.head())
                    process = deployment.processes[number - 1]
                    work = lambda n=number: venue.report_round(n, slice(16, 24))  # noqa: E731
                    outages.append(restart(process, reads, work))
                    venue.report_round(number, slice(24, None))
                else:
                    venue.report_round(number, slice(None))
            follower.until = venue.head()
            mirror.wait_for(venue.head())
            threads[1].join(PATIENCE)
        finally:
            reads.stop.set()
            follower.until = follower.until or 0
            for thread in threads:
                thread.join(PATIENCE)
    pushed = (tmp_path / "push.log").read_text()
    print(f"{len(reads.answers)} reads, {pushed.count('pushed ')} batches pushed, the stream "
          f"opened {follower.connects} times")  # fmt: skip
    # every read answered, also while a process was down
    assert reads.answers and {status for _, _, status in reads.answers} == {200}
    for down, up in outages:
        assert len(reads.between(down, up)) >= 10
    # the mirror holds the venue's log byte for byte, and says so through the proxy
    assert stored(deployment.store, t) == stored(venue.url, t)
    verified = subprocess.run([TLEDGER, "verify", t, "--against", base, "--token", reader,
                               "--store", venue.url], capture_output=True, text=True,
                              timeout=PATIENCE)  # fmt: skip
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert f"the mirror holds the venue's log up to seq {venue.head()}" in verified.stdout
    # the stream: every event of the tournament once, in order, across reconnections
    positions = events_of(mirror)
    assert follower.positions == positions, "the stream missed or repeated an event"
    assert follower.seqs == list(range(1, venue.head() + 1))
    assert follower.connects >= 2, "the stream was never cut off by a restart"
    # both processes, asked directly, serve what the proxy serves
    standings = mirror.get(f"/tournaments/{t}/standings")
    assert len(standings["standings"]) == len(PLAYERS)
    for process in deployment.processes:
        direct = httpx.get(f"http://127.0.0.1:{process.port}/tournaments/{t}/standings",
                           headers=bearer(reader), timeout=30)  # fmt: skip
        assert direct.json() == standings
    page = httpx.get(f"{base}/t/{t}", timeout=30)
    assert page.status_code == 200 and "Player p64" in page.text
    assert live_head(f"{base}/t/{t}/live") == venue.head()


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


def events_of(mirror: Mirror) -> list[int]:
    """The tournament's positions on the mirror, page by page (GET /events)."""
    positions: list[int] = []
    while True:
        page = mirror.get(f"/events?tournament={mirror.t}&after="
                          f"{positions[-1] if positions else 0}&limit=1000")  # fmt: skip
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


def test_a_push_batch_as_large_as_serve_takes_passes_the_proxy(deployment: Deployment) -> None:
    """The site's push location takes what ``serve --max-push-body`` takes (16 MiB by
    default): a body of 15 MiB reaches ``serve`` (which reads it and finds no JSON), one
    past 16 MiB is refused; nothing is appended either way."""
    t = f"n-{uuid.uuid4().hex[:10]}"
    url = f"{deployment.proxy.base}/tournaments/{t}/push"
    headers = {**bearer(deployment.token("venue")), "Content-Type": "application/json"}
    answer = httpx.post(url, content=b"a" * (15 * 1024 * 1024), headers=headers, timeout=60)
    assert answer.status_code == 400 and "malformed JSON" in answer.json()["error"]
    answer = httpx.post(url, content=b"a" * (16 * 1024 * 1024 + 1), headers=headers, timeout=60)
    assert answer.status_code == 413
    assert stored(deployment.store, t) == []


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
    push = site.split("location ~ ^/tournaments/[^/]+/push$ {", 1)[1].split("}", 1)[0]
    largest = inspect.signature(serve).parameters["max_push_body"].default
    assert largest == Settings().max_push_body
    assert f"client_max_body_size {largest // 2**20}m;" in push
    assert "--max-push-body" in recipe
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
