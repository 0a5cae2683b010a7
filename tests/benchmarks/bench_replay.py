"""Replay the 2,048-player, 11-round benchmark event from SQLite (target: under 1 s).

Appends the event (as in ``bench_standings.py``) to a fresh SQLite store, then
times a cold replay as an auditor runs it: load and parse every event, fold,
and rebuild standings and pairings. In the same run it times reading the same
rows with the plain ``sqlite3`` module, so the ratio is the measure of what
the ledger adds.

``store.load`` checks every event's bytes, hash and link as it loads: every read
checks what it reads, so a damaged store is found at once. To price that check, each
run also times an unchecked baseline: the same stream's rows selected with plain
``sqlite3``, parsed with ``ledger.events.loads`` and folded with
``projections.state.fold`` under ``gc_paused`` (target: the checked load+parse+fold
within 1.3x of it). Prints the figures; not a timed test. ``--small``: the smaller
event of ``bench_standings.py --small``, one run.
"""

from __future__ import annotations

import sqlite3
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path

from commands.reads.views import json_of, pairings
from ledger.chain import GENESIS, seal, verify_stored
from ledger.events import loads
from ledger.eventsourced import stream_id
from ledger.store import Recorded
from ledger.url import open_store
from projections.standings import standings
from projections.state import TournamentState, fold
from replay.rebuild import gc_paused, rebuild

sys.path.insert(0, str(Path(__file__).parent))
from bench_standings import PLAYERS, ROUNDS, build
from sizes import SMALL

RUNS = 1 if SMALL else 5
CHECK_TARGET = 1.3
UNCHECKED_SQL = (
    "SELECT originator_version, rowid, state FROM stored_events "
    "WHERE originator_id = ? ORDER BY originator_version"
)


def unchecked_rebuild(path: Path, tournament: str) -> TournamentState:
    """The baseline: select, parse and fold the stream without checking bytes, hashes
    or links (what a rebuild cost before every read was checked)."""
    with gc_paused(), closing(sqlite3.connect(path)) as con:
        rows = con.execute(UNCHECKED_SQL, (stream_id(tournament).hex,)).fetchall()
        events = [Recorded(seq, position, loads(data)) for seq, position, data in rows]
        return fold(events)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "replay.sqlite3"
        store = open_store(f"sqlite:///{path}")
        events = seal(build(PLAYERS, ROUNDS), GENESIS)
        started = time.perf_counter()
        store.append("big", events, expected_version=0)
        print(f"appended {len(events)} events in {time.perf_counter() - started:.2f} s")
        checked_runs, unchecked_runs = [], []
        for attempt in range(RUNS):
            started = time.perf_counter()
            with sqlite3.connect(path) as con:
                rows = con.execute("SELECT originator_version, state FROM stored_events "
                                   "ORDER BY originator_version").fetchall()  # fmt: skip
            raw = time.perf_counter() - started

            fresh = open_store(f"sqlite:///{path}")  # opened outside the timing, like the
            started = time.perf_counter()  # baseline's connection
            state, loaded = rebuild(fresh, "big")
            folded = time.perf_counter() - started
            checked_runs.append(folded)
            with gc_paused():
                rows_out = standings(state)
                view = json_of(pairings(state))
            total = time.perf_counter() - started
            print(f"run {attempt + 1}: plain sqlite3 read {len(rows)} rows {raw:.3f} s; replay: "
                  f"load+parse+fold {folded:.3f} s, +standings and pairings {total:.3f} s "
                  f"({len(rows_out)} players, {len(view['pairings'])} tables); "
                  f"ratio {total / raw:.1f}x")  # fmt: skip
            started = time.perf_counter()
            baseline = unchecked_rebuild(path, "big")
            unchecked = time.perf_counter() - started
            unchecked_runs.append(unchecked)
            assert (baseline.seq, baseline.head) == (state.seq, state.head)
            del baseline
            print(f"       unchecked load+parse+fold (plain sqlite3, loads, fold) "
                  f"{unchecked:.3f} s; checked (store.load) {folded:.3f} s; "
                  f"ratio {folded / unchecked:.2f}x")  # fmt: skip
        ratio = min(checked_runs) / min(unchecked_runs)
        verdict = "within" if ratio <= CHECK_TARGET else "OVER"
        print(f"checking every event's bytes, hash and link while loading: best checked "
              f"{min(checked_runs):.3f} s / best unchecked {min(unchecked_runs):.3f} s = "
              f"{ratio:.2f}x ({verdict} the target of {CHECK_TARGET}x)")  # fmt: skip
        started = time.perf_counter()
        verify_stored("big", fresh.load_raw("big"))
        print(f"verify chain of {len(loaded)} events: {time.perf_counter() - started:.3f} s")


if __name__ == "__main__":
    main()
