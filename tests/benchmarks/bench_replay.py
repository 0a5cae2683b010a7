"""Replay the 2,048-player, 11-round benchmark event from SQLite (target: under 1 s).

Appends the event (as in ``bench_standings.py``) to a fresh SQLite store, then
times a cold replay as an auditor runs it: load and parse every event, fold,
and rebuild standings and pairings. In the same run it times reading the same
rows with the plain ``sqlite3`` module, so the ratio is the measure of what
the ledger adds. Prints the figures; not a timed test.
"""

from __future__ import annotations

import sqlite3
import sys
import tempfile
import time
from pathlib import Path

from commands.views import pairings_view
from ledger.chain import GENESIS, seal, verify_stored
from ledger.url import open_store
from projections.standings import standings
from replay.rebuild import gc_paused, rebuild

sys.path.insert(0, str(Path(__file__).parent))
from bench_standings import PLAYERS, ROUNDS, build


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "replay.sqlite3"
        store = open_store(f"sqlite:///{path}")
        events = seal(build(PLAYERS, ROUNDS), GENESIS)
        started = time.perf_counter()
        store.append("big", events, expected_version=0)
        print(f"appended {len(events)} events in {time.perf_counter() - started:.2f} s")
        for attempt in range(3):
            started = time.perf_counter()
            with sqlite3.connect(path) as con:
                rows = con.execute("SELECT originator_version, state FROM stored_events "
                                   "ORDER BY originator_version").fetchall()  # fmt: skip
            raw = time.perf_counter() - started

            started = time.perf_counter()
            fresh = open_store(f"sqlite:///{path}")
            state, loaded = rebuild(fresh, "big")
            folded = time.perf_counter() - started
            with gc_paused():
                rows_out = standings(state)
                view = pairings_view(state)
            total = time.perf_counter() - started
            print(f"run {attempt + 1}: plain sqlite3 read {len(rows)} rows {raw:.3f} s; replay: "
                  f"load+parse+fold {folded:.3f} s, +standings and pairings {total:.3f} s "
                  f"({len(rows_out)} players, {len(view['pairings'])} tables); "
                  f"ratio {total / raw:.1f}x")  # fmt: skip
        started = time.perf_counter()
        verify_stored("big", fresh.load_raw("big"))
        print(f"verify chain of {len(loaded)} events: {time.perf_counter() - started:.3f} s")


if __name__ == "__main__":
    main()
