"""What the push tests share: a venue's SQLite store with a tournament of its own, a
``tledger serve`` mirror (SQLite, or PostgreSQL when ``TLEDGER_TEST_POSTGRES`` is set),
venue tokens, and ``tledger push`` in a process of its own."""

from __future__ import annotations

import socket
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from commands.handler import Handler
from commands.models import parse_command
from commands.tokens import create_token
from ledger.url import open_store
from tests.e2e.test_http import TLEDGER, start_server
from tests.stores import KINDS, store_url

NAMES = {f"p{i}": f"Player {i}" for i in range(1, 9)}
CLOCK = datetime(2026, 11, 28, 10, 0, tzinfo=UTC)


@pytest.fixture(params=KINDS)
def mirror_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The mirror's store: a SQLite file, or the shared PostgreSQL (each test pushes
    tournaments of its own)."""
    return store_url(request.param, tmp_path, "mirror.sqlite3")


@pytest.fixture
def venue_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'venue.sqlite3'}"


def new_id() -> str:
    return f"m-{uuid.uuid4().hex[:10]}"


def run_event(url: str, t: str, players: dict[str, str] = NAMES, results: int = 2,
              name: str = "Mirrored") -> Handler:  # fmt: skip
    """Created, players registered with names, round 1 paired in order and started, the
    first ``results`` tables reported. A fixed clock: two venues running the same commands
    store the same bytes."""
    handler = Handler(open_store(url), clock=lambda: CLOCK, seeds=lambda: 7)
    ids = list(players)
    tables = [ids[i : i + 2] for i in range(0, len(ids), 2)]
    commands: list[dict[str, Any]] = [
        {"type": "create_tournament", "name": name, "ruleset": "swu-1.4"},
        *({"type": "register_player", "player": p, "name": n} for p, n in players.items()),
        {"type": "pair_round", "pairings": tables},
        {"type": "start_round"},
        *({"type": "report_result", "round": 1, "players": pair,
           "result": {"games": [2, 0], "draws": 0}} for pair in tables[:results]),
    ]  # fmt: skip
    for command in commands:
        handler.handle(parse_command({"tournament": t, **command}))
    return handler


def drop(handler: Handler, t: str, player: str) -> None:
    handler.handle(parse_command({"tournament": t, "type": "drop_player", "player": player}))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def mirror(url: str, *options: str) -> Iterator[str]:
    """A ``tledger serve`` mirror on ``url``; its base URL."""
    proc, base = start_server(url, "--token-recheck", "0", *options)
    try:
        yield base
    finally:
        proc.kill()
        proc.wait()


def venue_token(url: str) -> str:
    return create_token(open_store(url), "venue", None, None)


def client(base: str, secret: str) -> httpx.Client:
    return httpx.Client(base_url=base, headers={"Authorization": f"Bearer {secret}"}, timeout=30)


def tledger(*args: str) -> subprocess.CompletedProcess[str]:
    """``tledger`` in a process of its own."""
    return subprocess.run([TLEDGER, *args], capture_output=True, text=True, timeout=120)


def push(venue: str, t: str, base: str, secret: str, *options: str
         ) -> subprocess.CompletedProcess[str]:  # fmt: skip
    return tledger("push", t, "--to", base, "--token", secret, "--store", venue, *options)


def stored(url: str, t: str) -> list[bytes]:
    """The tournament's stored bytes, in seq order."""
    return [data for _, _, data in open_store(url).load_raw(t)]


def issue(url: str, t: str, round_number: int = 1) -> dict[str, str]:
    """Each player's slip code of the round, issued at the venue (``print slips``)."""
    from commands.folds import Folds
    from commands.slipcodes import issue_codes

    store = open_store(url)
    state = Folds(store).state(t)
    return issue_codes(store, state, round_number, now=CLOCK)


def relay_line(page: str) -> str | None:
    """The text of the slip page's relay box (where a report to the venue stands)."""
    marker = 'id="relay">'
    if marker not in page:
        return None
    start = page.index(marker) + len(marker)
    return " ".join(page[start : page.index("</div>", start)].split())


def results(url: str, t: str) -> list[dict[str, Any]]:
    """The venue's result reports, in the order they were appended."""
    return [r.as_json() for r in open_store(url).load(t) if r.event.type == "result_reported"]


def printed(url: str, t: str, base: str) -> dict[str, str]:
    """Round 1's slips printed with the mirror's address (``print T slips --base-url``):
    each player's code, read off the printout, which links it to the mirror's page."""
    import re

    done = tledger("print", t, "slips", "--round", "1", "--base-url", base, "--store", url)
    assert done.returncode == 0, done.stderr
    codes = re.findall(r'<div class="code-text">([A-Z0-9-]+)</div>', done.stdout)
    assert all(f"{base}/s/{code}" in done.stdout for code in codes)
    holders = [p for table in (["p1", "p2"], ["p3", "p4"], ["p5", "p6"], ["p7", "p8"])
               for p in table]  # fmt: skip
    return dict(zip(holders, codes, strict=True))
