"""Real X-Wing events (``../shared/data/xwing/``) exported as CSV and as the JSON results
document and read back through the contract's commands: the same standings.

The events are replayed as ``test_xwing_events`` replays them (manual pairings, late
registrations, drops, and players who miss rounds and rejoin), exported with
``tledger export --format csv|json``, parsed, turned into commands under another
tournament id in the same store and applied; ``standings --json`` of both must be
equal row for row, tiebreakers unrounded. The events chosen are the largest (119
players, 59 drops, returning players), the other two with returning players, and one
with many drops and no returns; every one of the 174 events was run once this way.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from commands.cli.main import app
from commands.text.results_data import Results
from commands.text.results_import import commands_of, standings_differences
from commands.text.results_parse import read_csv, read_json
from tests.regression.shared_data import DATA

XWING = DATA / "xwing"
CHOSEN = ("lf926", "lf732", "lf823", "lf528")
FILES = sorted(p for p in XWING.glob("*.json") if p.stem.split("-")[1] in CHOSEN) \
    if XWING.is_dir() else []  # fmt: skip
READERS: dict[str, Callable[[bytes], Results]] = {"csv": read_csv, "json": read_json}

if not FILES:
    pytest.skip(f"no X-Wing regression data at {XWING}", allow_module_level=True)

from tests.regression.test_xwing_events import commands, load, missed_and_returned  # noqa: E402


def cli(*args: str, stdin: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), input=stdin)


def apply(lines: list[dict[str, Any]], url: str) -> None:
    applied = cli("apply", "-", "--store", url, stdin="".join(json.dumps(c) + "\n" for c in lines))
    assert applied.exit_code == 0, [x for x in applied.stderr.splitlines() if "error" in x]


def standings(tournament: str, url: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = json.loads(
        cli("standings", tournament, "--json", "--store", url).stdout
    )["standings"]
    return rows


def test_the_chosen_events_are_here() -> None:
    assert sorted(p.stem.split("-")[1] for p in FILES) == sorted(CHOSEN)


@pytest.mark.parametrize("fmt", ["csv", "json"])
@pytest.mark.parametrize("path", FILES, ids=[p.stem.split("-")[1] for p in FILES])
def test_a_real_event_exports_and_parses_back_to_the_same_standings(path: Path, fmt: str) -> None:
    event = load(path)
    url = f"memory://{uuid.uuid4().hex}"
    compat = "listfortress" if missed_and_returned(event) else None
    apply(list(commands(event, "t", compat)), url)
    original = standings("t", url)
    exported = cli("export", "t", "--format", fmt, "--store", url)
    assert exported.exit_code == 0, exported.stderr
    results = READERS[fmt](exported.stdout_bytes)
    assert results.standings == original
    apply(commands_of(results, "again"), url)
    assert standings_differences(original, standings("again", url)) == []
