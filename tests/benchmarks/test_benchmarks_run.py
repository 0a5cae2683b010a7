"""Every benchmark runs: each ``bench_*.py`` at its small size (``--small``), in a process
of its own as ``make bench`` runs it at full size, so that none breaks unnoticed between
two full runs. A benchmark prints its figure and, from the same run, the baseline the
figure is read against; both lines must be there. A smoke run's numbers mean nothing
and are not checked. With ``TLEDGER_TEST_POSTGRES`` set, the benchmarks that measure
PostgreSQL too run on it; the proxy benchmark needs it and nginx, and is skipped with
the reason without them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.nginx import missing as nginx_missing

BENCHMARKS = Path(__file__).resolve().parent
#: benchmarks that run Debian's nginx in front of serve processes on PostgreSQL
NEEDS_NGINX = frozenset({"bench_proxy.py"})
NUMBER = r"[\d.]+"
#: per benchmark, the line of its figure and the line of its baseline (patterns)
PRINTS = {
    "bench_cli_startup.py": (
        rf"^tledger status \(27 events\) +median {NUMBER} s",
        rf"^baseline: python -c pass +median {NUMBER} s",
    ),
    "bench_commands.py": (
        rf"^sqlite: ratio {NUMBER}x",
        rf"^sqlite: +\d+ events: {NUMBER} ms per command",
    ),
    "bench_http_load.py": (
        rf"^sqlite: organizers, one tournament: \d+ commands/s = {NUMBER}x the raw commit rate",
        r"^raw single-row INSERT\+COMMIT: \d+ rows/s",
    ),
    "bench_pairing.py": (
        rf"players, \d+ rounds: max {NUMBER} s",
        rf"players, baseline: standings alone max {NUMBER} s",
    ),
    "bench_proxy.py": (
        rf"^standings through nginx, two processes/one: {NUMBER}x",
        r"^healthz through nginx, one process, \d+ clients: [1-9]\d* answered",
    ),
    "bench_public_page.py": (
        r"^public page \(gzip\), \d+ clients: [1-9]\d* answered",
        r"^healthz, \d+ clients: [1-9]\d* answered",
    ),
    "bench_push.py": (
        r"^follow \((SQLite|PostgreSQL) mirror\): .*, [1-9]\d* of \d+ arrived",
        rf"^(raw batch insert of the same bytes into PostgreSQL: {NUMBER} s|push to a "
        r"PostgreSQL mirror: skipped \(TLEDGER_TEST_POSTGRES is not set\))",
    ),
    "bench_read_load.py": (
        r"^standings, \d+ clients: [1-9]\d* answered",
        r"^healthz, \d+ clients: [1-9]\d* answered",
    ),
    "bench_replay.py": (
        rf"replay: load\+parse\+fold {NUMBER} s",
        rf"unchecked load\+parse\+fold \(plain sqlite3, loads, fold\) {NUMBER} s",
    ),
    "bench_scoped_streams.py": (
        r"^commands, \d+ streams: [1-9]\d* answered",
        r"^commands, no stream: [1-9]\d* answered",
    ),
    "bench_standings.py": (
        rf"fold \+ standings {NUMBER} s",
        rf"^baseline: parse stored bytes \(\d+ events\): {NUMBER} s",
    ),
    "bench_stream_fanout.py": (
        r"^delivery, send to arrival: [1-9]\d* of \d+ arrived",
        r"^commands, no subscriber: [1-9]\d* answered",
    ),
}


def test_every_benchmark_is_smoke_run() -> None:
    assert sorted(p.name for p in BENCHMARKS.glob("bench_*.py")) == sorted(PRINTS)


@pytest.mark.parametrize("name", sorted(PRINTS))
def test_the_benchmark_runs_small_and_prints_its_figure_and_its_baseline(name: str) -> None:
    if name in NEEDS_NGINX and (reason := nginx_missing()) is not None:
        pytest.skip(reason)
    done = subprocess.run([sys.executable, str(BENCHMARKS / name), "--small"],
                          capture_output=True, text=True, timeout=180)  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    figure, baseline = PRINTS[name]
    assert re.search(figure, done.stdout, re.M), done.stdout
    assert re.search(baseline, done.stdout, re.M), done.stdout
