"""A registry entry is written with the event that registers the player, or not at all.

Names are personal data and live in a registry table outside the hashed log (so they
can be erased without breaking the chain), written in the same transaction as the
event that registers the player, or not at all: a refused, conflicting or crashed
command leaves no name behind.
These tests race real processes against one SQLite file and one PostgreSQL
database (``TLEDGER_TEST_POSTGRES``; skipped with the reason when unset), and kill
a registering process with SIGKILL, then compare the registry with the log.
"""

from __future__ import annotations

import multiprocessing
import random
import signal
import subprocess
import sys
import textwrap
import time
import traceback
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from commands.errors import DuplicatePlayer
from commands.handler import Handler
from commands.models import parse_command
from ledger.errors import ConcurrencyConflict
from ledger.store import Store
from ledger.url import open_store
from tests.stores import KINDS, store_url

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = [f"p{i}" for i in range(1, 101)]
WRITERS = ("A", "B", "C")
KILLS = 10
KILLED_AFTER = 20


@pytest.fixture(params=KINDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return store_url(request.param, tmp_path)


@pytest.fixture
def tid(url: str) -> str:
    """A fresh tournament per test run, so a shared database needs no cleaning."""
    tid = f"reg-{uuid.uuid4().hex[:12]}"
    command = {"type": "create_tournament", "tournament": tid, "name": "Race", "ruleset": "swu-1.4"}
    store = open_store(url)
    Handler(store).handle(parse_command(command))
    store.close()
    return tid


def registration(tid: str, player: str, name: str) -> dict[str, Any]:
    return {"type": "register_player", "tournament": tid, "player": player, "name": name}


def register_all(
    url: str, tid: str, writer: str, order: list[str], start: Any, results: Any
) -> None:
    """One racing process: register every player under this writer's names, in ``order``."""
    try:
        store = open_store(url)
        handler = Handler(store)
        outcomes: dict[str, str] = {}
        start.wait()
        for player in order:
            try:
                handler.handle(parse_command(registration(tid, player, f"{writer}-{player}")))
            except DuplicatePlayer:
                outcomes[player] = "refused"
            except ConcurrencyConflict:
                outcomes[player] = "gave up"
            else:
                outcomes[player] = "accepted"
        store.close()
        results.put((writer, outcomes))
    except BaseException:
        results.put((writer, traceback.format_exc()))


def race(url: str, tid: str) -> dict[str, dict[str, str]]:
    """Three spawned processes register the same players at once; their outcomes by writer."""
    ctx = multiprocessing.get_context("spawn")
    start, results = ctx.Barrier(len(WRITERS)), ctx.Queue()
    order = random.sample(PLAYERS, len(PLAYERS))  # one shuffled order: every player contested
    procs = [
        ctx.Process(target=register_all, args=(url, tid, w, order, start, results)) for w in WRITERS
    ]
    for p in procs:
        p.start()
    collected = dict(results.get(timeout=60) for _ in procs)
    for p in procs:
        p.join(timeout=10)
    failed = {w: out for w, out in collected.items() if isinstance(out, str)}
    assert not failed, f"a writer process failed: {failed}"
    return collected


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    store = open_store(url)
    yield store
    store.close()


def registered_players(store: Store, tid: str) -> Counter[str]:
    """How many player_registered events each player has in the log."""
    events = [r.event for r in store.load(tid)]
    return Counter(e.player for e in events if e.type == "player_registered")  # type: ignore[union-attr]


def test_racing_registrations_leave_exactly_the_accepted_name(
    url: str, tid: str, store: Store
) -> None:
    outcomes = race(url, tid)
    winners = {p: [w for w in WRITERS if outcomes[w][p] == "accepted"] for p in PLAYERS}
    not_once = {p: ws for p, ws in winners.items() if len(ws) != 1}
    assert not not_once, f"{len(not_once)} of 100 players not accepted exactly once: {not_once}"

    events = registered_players(store, tid)
    assert events == Counter(PLAYERS), f"player_registered events per player: {events}"

    registry = store.players(tid)
    names = {p: registry[p].name if p in registry else None for p in PLAYERS}
    wrong = {p: names[p] for p in PLAYERS if names[p] != f"{winners[p][0]}-{p}"}
    examples = ", ".join(f"{p}: {n!r} (accepted {winners[p][0]}-{p})" for p, n in
                         list(wrong.items())[:3])  # fmt: skip
    assert not wrong, f"{len(wrong)} of 100 players show a refused command's name ({examples})"


def registering_script(url: str, tid: str, prefix: str) -> str:
    return textwrap.dedent(
        f"""
        from commands.handler import Handler
        from commands.models import parse_command
        from ledger.url import open_store
        handler = Handler(open_store({url!r}))
        i = 0
        while True:
            i += 1
            handler.handle(parse_command({{"type": "register_player", "tournament": {tid!r},
                                           "player": f"{prefix}{{i}}", "name": "Name {{i}}"}}))
        """
    )


def kill_while_registering(url: str, store: Store, tid: str, prefix: str) -> None:
    """Start a registering process, let it register some players, then SIGKILL it."""
    proc = subprocess.Popen([sys.executable, "-c", registering_script(url, tid, prefix)], cwd=ROOT)
    try:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and proc.poll() is None:
            if sum(n for p, n in registered_players(store, tid).items()
                   if p.startswith(prefix)) >= KILLED_AFTER:  # fmt: skip
                break
            time.sleep(0.02)
        time.sleep(random.uniform(0, 0.03))
        assert proc.poll() is None, "the registering process ended before it was killed"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()


def test_a_process_killed_while_registering_leaves_no_orphan_name(
    url: str, tid: str, store: Store
) -> None:
    for kill in range(KILLS):
        kill_while_registering(url, store, tid, f"k{kill}-")
    loaded = store.load(tid)
    assert [r.seq for r in loaded] == list(range(1, len(loaded) + 1))
    registered = set(registered_players(store, tid))
    assert len(registered) >= KILLS * KILLED_AFTER
    registry = store.players(tid)
    orphans = sorted(set(registry) - registered)
    assert not orphans, (
        f"{len(orphans)} of {len(registry)} registry entries have no player_registered event "
        f"after {KILLS} kills: {orphans}"
    )
