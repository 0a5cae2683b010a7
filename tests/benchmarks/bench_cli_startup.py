"""How fast the CLI answers: ``tledger --help`` and a read command on a small store.

Targets: about 0.3 s for ``--help`` and about 0.6 s for a read command on a small
store, on this 2-core machine (an organizer types many of them during an event).
Prints the median and the slowest of several runs, and in the same run the
baseline: the bare interpreter's start (``python -c pass``), which no command can beat.
Not a timed test. ``--small``: one run each, ``status`` only, no ``--json``.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sizes import SMALL

ROOT = Path(__file__).resolve().parents[2]
TLEDGER = str(Path(sys.executable).with_name("tledger"))
RUNS = 1 if SMALL else 7
COMMANDS = ("status",) if SMALL else ("status", "standings", "pairings")


def timed(args: list[str], program: str = TLEDGER) -> list[float]:
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        subprocess.run([program, *args], check=True, capture_output=True)
        times.append(time.perf_counter() - started)
    return times


def report(label: str, times: list[float]) -> None:
    print(f"{label:<42} median {statistics.median(times):.3f} s   max {max(times):.3f} s")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = f"sqlite:///{folder}/bench.sqlite3"
        subprocess.run([TLEDGER, "apply", str(ROOT / "examples" / "swiss8.jsonl"), "--store",
                        store], check=True, capture_output=True)  # fmt: skip
        report("baseline: python -c pass", timed(["-c", "pass"], sys.executable))
        report("tledger --help", timed(["--help"]))
        for command in COMMANDS:
            report(f"tledger {command} (27 events)", timed([command, "swiss8", "--store", store]))
            if not SMALL:
                report(f"tledger {command} --json (27 events)",
                       timed([command, "swiss8", "--json", "--store", store]))  # fmt: skip


if __name__ == "__main__":
    main()
