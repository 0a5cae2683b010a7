"""``tledger clock T --watch``, a real process: drawn again every second until Ctrl-C
(exit 0), showing an event appended meanwhile; ``--json`` prints a line only when the
clock changes; ``--count`` stops it by itself."""

from __future__ import annotations

import json
import select
import signal
import subprocess
from pathlib import Path
from typing import IO

import pytest

from tests.e2e.test_cli import SWISS8, TLEDGER, cli

#: seconds to wait for a line the process must print (a bound, not a measurement)
PATIENCE = 30


@pytest.fixture
def store(tmp_path: Path) -> str:
    """swiss8 with round 3 started again: a round whose tables are still playing."""
    url = f"sqlite:///{tmp_path}/watch.sqlite3"
    lines = [line for line in SWISS8.read_text().splitlines() if line.strip()]
    first_result = next(i for i, line in enumerate(lines)
                        if '"round": 3' in line and "report_result" in line)  # fmt: skip
    playing = "\n".join(lines[:first_result])
    done = cli("apply", "-", "--store", url, stdin=playing + "\n")
    assert done.exit_code == 0, done.stderr
    return url


def watching(store: str, *flags: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([TLEDGER, "clock", "swiss8", "--watch", *flags, "--store", store],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip


def line_with(out: IO[bytes], text: str) -> str:
    """The next line of the process's output that holds ``text`` (it must come)."""
    while True:
        ready, _, _ = select.select([out], [], [], PATIENCE)
        assert ready, f"no line with {text!r}"
        line = out.readline().decode()
        assert line, f"the output ended before a line with {text!r}"
        if text in line:
            return line


def extend(store: str) -> None:
    done = cli("apply", "-", "--store", store, stdin=json.dumps({
        "type": "grant_time_extension", "tournament": "swiss8", "round": 3, "players": ["p1", "p6"],
        "minutes": 5, "reason": "judge call"}) + "\n")  # fmt: skip
    assert done.exit_code == 0, done.stderr


def test_watch_redraws_shows_a_new_event_and_ends_on_ctrl_c_with_exit_0(store: str) -> None:
    proc = watching(store)
    assert proc.stdout is not None
    try:
        assert "Round 3 (swiss)" in line_with(proc.stdout, "Round 3")
        assert "Ada (p1) v Fennec (p6)" in line_with(proc.stdout, "(p1)")
        extend(store)
        while "+5" not in line_with(proc.stdout, "(p1)"):
            pass  # the frames drawn before the extension was read
        proc.send_signal(signal.SIGINT)
        assert proc.wait(PATIENCE) == 0
        assert proc.stderr is not None and b"Traceback" not in proc.stderr.read()
    finally:
        proc.kill()
        proc.wait()


def test_watch_json_prints_a_line_only_when_the_clock_changes(store: str) -> None:
    proc = watching(store, "--json")
    assert proc.stdout is not None
    try:
        first = json.loads(line_with(proc.stdout, '"round"'))
        assert first["seq"] == 23 and first["tables"][0]["extension_minutes"] == 0
        extend(store)
        second = json.loads(line_with(proc.stdout, '"round"'))
        assert second["seq"] == 24 and second["tables"][0]["extension_minutes"] == 5
        proc.send_signal(signal.SIGINT)
        assert proc.wait(PATIENCE) == 0
    finally:
        proc.kill()
        proc.wait()


def test_count_stops_the_watch_by_itself(store: str) -> None:
    done = subprocess.run([TLEDGER, "clock", "swiss8", "--watch", "--count", "2", "--json",
                           "--store", store], capture_output=True, timeout=PATIENCE)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 1  # the same clock twice: one line
    drawn = subprocess.run([TLEDGER, "clock", "swiss8", "--watch", "--count", "2",
                            "--store", store], capture_output=True, timeout=PATIENCE)  # fmt: skip
    assert drawn.returncode == 0 and drawn.stdout.decode().count("Round 3 (swiss)") == 2


def test_count_without_watch_is_an_input_error(store: str) -> None:
    done = cli("clock", "swiss8", "--count", "2", "--store", store)
    assert done.exit_code == 2 and done.stderr == "error: clock: --count goes with --watch\n"
