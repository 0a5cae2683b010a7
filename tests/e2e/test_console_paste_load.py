"""A paste into the console against a real ``tledger serve`` process, while another
client keeps asking ``/healthz``: a reader's paste is refused before it is read and the
server answers everyone else within 100 ms throughout; an organizer's field of 6,000
players registers while the server keeps answering."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import unquote

import httpx

from commands.handler import Handler
from commands.models import parse_command
from commands.tokens import create_token
from ledger.url import open_store
from tests.e2e.test_http import served
from tests.stores import store_url

T = "paste"
#: how long ``/healthz`` may take while a reader's paste is refused
PROMPT = 0.1
#: ... and while an organizer's paste is registered: the paste's work runs in a worker
#: thread and shares the processors with ``/healthz`` (on a busy test machine, with
#: everything else running too), but nothing waits for the whole paste
SHARED = 1.0


class Poller:
    """A client asking ``/healthz`` over and over; the slowest answer it saw."""

    def __init__(self, base: str) -> None:
        self.client = httpx.Client(base_url=base, timeout=30)
        self.slowest, self.asked = 0.0, 0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            start = time.monotonic()
            assert self.client.get("/healthz").status_code == 200
            self.slowest = max(self.slowest, time.monotonic() - start)
            self.asked += 1
            self.done.wait(0.01)


@contextmanager
def polled(base: str) -> Iterator[Poller]:
    """``/healthz`` asked from another thread for the block."""
    poller = Poller(base)
    thread = threading.Thread(target=poller.run, daemon=True)
    thread.start()
    try:
        yield poller
    finally:
        poller.done.set()
        thread.join()
        poller.client.close()


def signed_in(base: str, store: str, role: str) -> httpx.Client:
    """A browser signed in to the console with a new token of ``role``."""
    secret = create_token(open_store(store), role, T, None, label="desk")
    browser = httpx.Client(base_url=base, follow_redirects=False, timeout=60)
    answer = browser.post("/console/login", data={"token": secret, "next": "/console"})
    assert answer.status_code == 303 and answer.headers["location"] == "/console"
    return browser


def event(tmp_path: Path) -> str:
    store = store_url("sqlite", tmp_path, "paste.sqlite3")
    command = {"type": "create_tournament", "tournament": T, "name": "Big", "ruleset": "swu-1.4"}
    Handler(open_store(store)).handle(parse_command(command))
    return store


def lines_of_size(size: int) -> str:
    """``Player Number N`` lines, about ``size`` bytes of them."""
    lines, total = [], 0
    while total < size:
        lines.append(f"Player Number {len(lines) + 1}")
        total += len(lines[-1]) + 1
    return "\n".join(lines)


def test_a_readers_256_kib_paste_is_refused_at_once_and_the_server_keeps_answering(
    tmp_path: Path,
) -> None:
    store = event(tmp_path)
    with served(store) as base, polled(base) as poller:
        reader = signed_in(base, store, "reader")
        start = time.monotonic()
        answer = reader.post(f"/console/t/{T}/players/paste",
                             data={"list": lines_of_size(256 * 1024)})  # fmt: skip
        took = time.monotonic() - start
        time.sleep(0.1)  # /healthz asked after the answer too
    assert answer.status_code == 303
    assert "a reader may not send register_player" in unquote(answer.headers["location"])
    assert took < 1.0
    assert poller.asked > 3 and poller.slowest < PROMPT


def test_an_organizers_paste_of_6000_names_registers_them_while_the_server_keeps_answering(
    tmp_path: Path,
) -> None:
    store = event(tmp_path)
    names = "\n".join(f"Jürgen Müller-Lüdenscheidt {n}" for n in range(1, 6001))
    with served(store) as base, polled(base) as poller:
        organizer = signed_in(base, store, "organizer")
        answer = organizer.post(f"/console/t/{T}/players/paste", data={"list": names})
    assert answer.status_code == 303
    assert "registered 6000 players" in unquote(answer.headers["location"])
    assert poller.asked > 3 and poller.slowest < SHARED
