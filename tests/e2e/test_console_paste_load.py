"""A paste into the console against a real ``tledger serve`` process, while another
client keeps asking ``/healthz``: a reader's paste is refused before it is read and the
server answers everyone else within 100 ms throughout; an organizer's field of 6,000
players registers while the server keeps answering."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
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


#: a client of its own, in a process of its own (so that what the test itself does
#: never delays it): asks ``/healthz`` every 10 ms until its standard input closes, then
#: prints how often it asked and its slowest answer
POLLING = """
import select, sys, time
import httpx
client, slowest, asked = httpx.Client(base_url=sys.argv[1], timeout=30), 0.0, 0
while not select.select([sys.stdin], [], [], 0.01)[0]:
    start = time.monotonic()
    assert client.get("/healthz").status_code == 200
    slowest, asked = max(slowest, time.monotonic() - start), asked + 1
    if asked == 1:
        print("ready", flush=True)
print(asked, slowest, flush=True)
"""


@dataclass
class Polls:
    """How often ``/healthz`` was asked, and its slowest answer."""

    asked: int = 0
    slowest: float = 0.0


@contextmanager
def polled(base: str) -> Iterator[Polls]:
    """``/healthz`` asked from another process for the block (from its first answer on)."""
    polls = Polls()
    child = subprocess.Popen([sys.executable, "-c", POLLING, base], text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)  # fmt: skip
    assert child.stdout is not None and child.stdout.readline() == "ready\n"
    try:
        yield polls
    finally:
        said, _ = child.communicate("")
        asked, slowest = said.split()
        polls.asked, polls.slowest = int(asked), float(slowest)


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
    lines: list[str] = []
    total = 0
    while total < size:
        lines.append(f"Player Number {len(lines) + 1}")
        total += len(lines[-1]) + 1
    return "\n".join(lines)


def test_a_readers_256_kib_paste_is_refused_at_once_and_the_server_keeps_answering(
    tmp_path: Path,
) -> None:
    store, paste = event(tmp_path), {"list": lines_of_size(256 * 1024)}
    with served(store) as base:
        reader = signed_in(base, store, "reader")
        with polled(base) as polls:
            start = time.monotonic()
            answer = reader.post(f"/console/t/{T}/players/paste", data=paste)
            took = time.monotonic() - start
            time.sleep(0.1)  # /healthz asked after the answer too
    assert answer.status_code == 303
    assert "a reader may not send register_player" in unquote(answer.headers["location"])
    assert took < 1.0
    assert polls.asked > 3 and polls.slowest < PROMPT


def test_an_organizers_paste_of_6000_names_registers_them_while_the_server_keeps_answering(
    tmp_path: Path,
) -> None:
    store = event(tmp_path)
    names = "\n".join(f"Jürgen Müller-Lüdenscheidt {n}" for n in range(1, 6001))
    with served(store) as base:
        organizer = signed_in(base, store, "organizer")
        with polled(base) as polls:
            answer = organizer.post(f"/console/t/{T}/players/paste", data={"list": names})
    assert answer.status_code == 303
    assert "registered 6000 players" in unquote(answer.headers["location"])
    assert polls.asked > 3 and polls.slowest < SHARED
