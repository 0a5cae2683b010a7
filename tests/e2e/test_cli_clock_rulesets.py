"""The end of a round per ruleset and stage, end to end with a frozen clock
(freezegun): a 4-player event of each ruleset plays its Swiss rounds and a top-2 cut
through ``tledger apply`` while the clock is frozen at known times, and ``tledger clock
--json`` gives each round's end as the ruleset's round time after its start: swu-1.4
§4.2.1/§4.3.1 (Bo1 25, Bo3 55, Bo3 top cut 75), swu-1.0 §4.2.1/§4.3.1 (25, 55),
X-Wing "Zeitlimit" (75, final 120), Armada (135, final 180), lcg-2.1d "Zeitlimit" and
"Finalrunden" (70 as announced, the final match without a limit).

psycopg's C module is imported before any clock is frozen (see test_cli_clock)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg  # noqa: F401  (imported before any clock is frozen)
import pytest
from freezegun import freeze_time

from tests.e2e.test_cli import cli

START = datetime.fromisoformat("2026-11-21T09:00:00+00:00")
WINS = {"swu": {"games": [2, 0], "draws": 0}, "xwing-2.0": {"points": [100, 40]},
        "armada-2.0": {"points": [180, 30]}}  # fmt: skip
#: (ruleset, options, Swiss minutes, the final's minutes: None = no limit)
CASES = [
    ("swu-1.4", {"format": "bo3"}, 55, 75),
    ("swu-1.4", {"format": "bo1", "tier": "casual"}, 25, 25),
    ("swu-1.0", {"format": "bo3"}, 55, 55),
    ("swu-1.0", {"format": "bo1"}, 25, 55),  # its top cut is Bo3 (swu-1.0 §4.1.3)
    ("xwing-2.0", {}, 75, 120),
    ("armada-2.0", {}, 135, 180),
    ("lcg-2.1d", {}, 70, None),
]


def apply(store: str, *lines: dict[str, Any]) -> None:
    done = cli("apply", "-", "--store", store, stdin="\n".join(json.dumps(x) for x in lines))
    assert done.exit_code == 0, done.stderr


def clock(store: str) -> dict[str, Any]:
    done = cli("clock", "t", "--json", "--store", store)
    assert done.exit_code == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def won(ruleset: str, bo1: bool, a: str, stage: str) -> dict[str, Any]:
    if ruleset == "lcg-2.1d":
        return {"game_results": [a] if stage == "elimination" else [a, a]}
    if bo1 and not (ruleset == "swu-1.0" and stage == "elimination"):
        return {"games": [1, 0], "draws": 0}
    return WINS["swu" if ruleset.startswith("swu") else ruleset]


def play(store: str, ruleset: str, bo1: bool, at: datetime) -> dict[str, Any]:
    """Pair and start the next round at ``at``, read its clock, report every match."""
    with freeze_time(at):
        apply(store, {"type": "pair_round", "tournament": "t"},
              {"type": "start_round", "tournament": "t"})  # fmt: skip
        shown = clock(store)
        reports = [{"type": "report_result", "tournament": "t", "round": shown["round"],
                    "players": t["players"],
                    "result": won(ruleset, bo1, t["players"][0], shown["stage"])}
                   for t in shown["tables"] if len(t["players"]) == 2]  # fmt: skip
        apply(store, *reports)
    return shown


def iso(at: datetime) -> str:
    """The clock's JSON: ISO 8601 UTC with a ``Z``."""
    return at.isoformat().replace("+00:00", "Z")


def ends(at: datetime, minutes: int | None) -> str | None:
    return None if minutes is None else iso(at + timedelta(minutes=minutes))


@pytest.mark.parametrize(("ruleset", "options", "swiss", "final"), CASES,
                         ids=[f"{r}-{o.get('format', '')}" for r, o, _, _ in CASES])  # fmt: skip
def test_each_round_ends_its_rulesets_round_time_after_it_started(
    tmp_path: Path, ruleset: str, options: dict[str, Any], swiss: int, final: int | None
) -> None:
    store = f"sqlite:///{tmp_path}/clock.sqlite3"
    elimination = {"elimination": "single"} if ruleset != "lcg-2.1d" else {}
    with freeze_time(START - timedelta(hours=1)):
        apply(store, {"type": "create_tournament", "tournament": "t", "name": "T",
                      "ruleset": ruleset, "options": {**options, "rounds": 2, "cut": 2,
                                                      **elimination}},
              *({"type": "register_player", "tournament": "t", "player": f"p{i}",
                 "name": f"Player {i}"} for i in range(1, 5)))  # fmt: skip
    for number in (1, 2):
        at = START + timedelta(hours=3 * (number - 1))
        shown = play(store, ruleset, options.get("format") == "bo1", at)
        assert (shown["stage"], shown["minutes"]) == ("swiss", swiss)
        assert shown["started_at"] == iso(at) and shown["ends_at"] == ends(at, swiss)
        assert {t["ends_at"] for t in shown["tables"]} == {ends(at, swiss)}
    with freeze_time(START + timedelta(hours=6)):
        apply(store, {"type": "make_cut", "tournament": "t"})
    at = START + timedelta(hours=7)
    shown = play(store, ruleset, options.get("format") == "bo1", at)
    assert (shown["stage"], shown["minutes"]) == ("elimination", final)
    assert shown["ends_at"] == ends(at, final)
    assert [t["ends_at"] for t in shown["tables"]] == [ends(at, final)]
