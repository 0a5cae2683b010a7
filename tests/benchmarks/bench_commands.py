"""Per-command cost at a log of ~3,000 and of ~12,000 events (target: within 1.3x).

A command's cost should not grow with the length of its tournament's log: the
handler keeps the folded state between commands, so each command should only
read the events after the cached seq, decide, seal onto the cached head and
append. This script measures that in process, on SQLite (and on PostgreSQL when
``TLEDGER_TEST_POSTGRES`` is set), in one run:

1. append the first ~3,000 events of the 2,048-player benchmark event
   (``bench_standings.build``: registrations, then round 1 paired, started and
   reported) directly to a fresh stream;
2. through a fresh ``Handler``: one command to fold the log (not timed), a
   warm-up, then ``COMMANDS`` timed commands;
3. append the benchmark event's next events to reach ~12,000 (rounds 1-9)
   and repeat 2 with another fresh handler.

The timed command is ``issue_penalty`` with a ``warning`` for round 1: valid at
any length, one small event, no effect on results, so it is a cheap command
whose cost is mostly the ledger's (load after the cached seq, decide, seal,
append: one commit each). It is not ``report_result``: a match can be reported
only once. Also printed: the cost of the read alone (``store.load`` of the one
newest event, as the handler reads its own last append before the next
command, with the garbage collector paused as the handler pauses it), the part
that must not scale with the log.
Prints the figures; not a timed test.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from commands.handler import Handler
from commands.models import parse_command
from ledger.chain import GENESIS, seal
from ledger.events import EventBase
from ledger.store import Recorded, Store
from ledger.url import open_store
from replay.rebuild import gc_paused

sys.path.insert(0, str(Path(__file__).parent))
from bench_standings import PLAYERS, ROUNDS, build
from sizes import SMALL

SHORT, LONG = (300, 1_200) if SMALL else (3_000, 12_000)
WARMUP, COMMANDS = (5, 20) if SMALL else (20, 200)
TARGET = 1.3


def warning(tournament: str, n: int) -> dict[str, Any]:
    return {"type": "issue_penalty", "tournament": tournament, "player": f"p{n % PLAYERS}",
            "round": 1, "penalty": "warning", "infraction": "slow play"}  # fmt: skip


def grow(store: Store, tournament: str, events: list[EventBase]) -> int:
    """Seal ``events`` onto the stream's head and append them; the new length."""
    loaded = store.load(tournament)
    head = loaded[-1].event.hash if loaded else GENESIS
    store.append(tournament, seal(events, head), expected_version=len(loaded))
    return len(loaded) + len(events)


def load_newest(store: Store, tournament: str, newest: Recorded) -> list[Recorded]:
    """Load only the newest event, checked against the hash before it."""
    return store.load(tournament, after=newest.seq - 1, head=newest.event.prev_hash)


def per_command(url: str, tournament: str) -> tuple[float, float, int]:
    """Seconds per command through a fresh, warmed-up handler; seconds per read of the
    newest event; and the log's length afterwards."""
    store = open_store(url)
    handler = Handler(store)
    for n in range(WARMUP):
        handler.handle(parse_command(warning(tournament, n)))
    started = time.perf_counter()
    for n in range(COMMANDS):
        outcome = handler.handle(parse_command(warning(tournament, n)))
    commands = (time.perf_counter() - started) / COMMANDS
    started = time.perf_counter()
    newest = outcome.recorded[-1]
    with gc_paused():  # as the handler reads
        for _ in range(COMMANDS):
            assert len(load_newest(store, tournament, newest)) == 1
    reads = (time.perf_counter() - started) / COMMANDS
    store.close()
    return commands, reads, outcome.seq


def bench(label: str, url: str, tournament: str) -> None:
    events = [e.model_copy(update={"tournament": tournament}) for e in build(PLAYERS, ROUNDS)]
    setup = open_store(url)
    length = grow(setup, tournament, events[:SHORT])
    small, small_read, length = per_command(url, tournament)
    print(f"{label}: {length:>6} events: {small * 1000:.2f} ms per command "
          f"(read of the newest event {small_read * 1000:.2f} ms)")  # fmt: skip
    used = length - SHORT
    grow(setup, tournament, events[SHORT : LONG - used])
    large, large_read, length = per_command(url, tournament)
    print(f"{label}: {length:>6} events: {large * 1000:.2f} ms per command "
          f"(read of the newest event {large_read * 1000:.2f} ms)")  # fmt: skip
    ratio = large / small
    verdict = "within" if ratio <= TARGET else "OVER"
    print(f"{label}: ratio {ratio:.2f}x ({verdict} the target of {TARGET}x; read alone "
          f"{large_read / small_read:.2f}x)")  # fmt: skip
    setup.close()


def main() -> None:
    print(f"issue_penalty (warning) through a warmed-up Handler, {COMMANDS} commands timed "
          f"after {WARMUP} warm-up ones; target: the ratio within {TARGET}x")  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        bench("sqlite", f"sqlite:///{Path(folder) / 'commands.sqlite3'}", "big")
    postgres = os.environ.get("TLEDGER_TEST_POSTGRES")
    if postgres:
        bench("postgresql", postgres, f"bench-{uuid.uuid4().hex[:12]}")
    else:
        print("postgresql: skipped (TLEDGER_TEST_POSTGRES is not set)")


if __name__ == "__main__":
    main()
