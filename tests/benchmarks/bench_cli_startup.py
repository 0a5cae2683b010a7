"""How fast the CLI answers: ``tledger --help`` and a read command on a small store.

Targets (issue: the ledger foundation): about 0.3 s for ``--help`` and about
0.6 s for a read command on a small store, on this 2-core machine. Prints the
median and the slowest of several runs; not a timed test.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TLEDGER = str(Path(sys.executable).with_name("tledger"))
RUNS = 7


def timed(args: list[str]) -> list[float]:
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        subprocess.run([TLEDGER, *args], check=True, capture_output=True)
        times.append(time.perf_counter() - started)
    return times


def report(label: str, times: list[float]) -> None:
    print(f"{label:<42} median {statistics.median(times):.3f} s   max {max(times):.3f} s")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = f"sqlite:///{folder}/bench.sqlite3"
        subprocess.run([TLEDGER, "apply", str(ROOT / "examples" / "swiss8.jsonl"), "--store",
                        store], check=True, capture_output=True)  # fmt: skip
        report("tledger --help", timed(["--help"]))
        for command in ("status", "standings", "pairings"):
            report(f"tledger {command} (27 events)", timed([command, "swiss8", "--store", store]))
            report(f"tledger {command} --json (27 events)",
                   timed([command, "swiss8", "--json", "--store", store]))  # fmt: skip


if __name__ == "__main__":
    main()
