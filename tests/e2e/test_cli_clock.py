"""``tledger clock`` and the status's over-time flag end to end, with a frozen clock
(freezegun): the shell reads the time now and hands it in; the JSON of the contract
(``tledger clock T --json``) holds absolute UTC times only, so that any
client in any time zone shows the same end.

The store's drivers are imported lazily; psycopg's C module, imported while the
clock is frozen, would be built against freezegun's fake date classes (a
RuntimeWarning, "datetime.date size changed"), so it is imported here first; so are the
grids' read models, which pydantic cannot build on a fake ``datetime`` when the models
they share were built on the real one by a test run before these."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import psycopg  # noqa: F401  (imported before any clock is frozen: see below)
import pytest
from freezegun import freeze_time

import commands.cli.grids  # noqa: F401  (its models built before any clock is frozen)
from tests.e2e.test_cli import cli

START = "2026-11-21T09:00:00+00:00"


def table(number: int, players: list[str], ends_at: str, extension: int) -> dict[str, Any]:
    """One table of the clock's JSON, as the contract orders its keys."""
    return {"table": number, "players": players, "ends_at": ends_at,
            "extension_minutes": extension, "state": "playing"}  # fmt: skip


def apply(store: str, *lines: dict[str, Any]) -> None:
    done = cli("apply", "-", "--store", store, stdin="\n".join(json.dumps(x) for x in lines))
    assert done.exit_code == 0, done.stderr


@pytest.fixture
def store(tmp_path: Path) -> str:
    """swu-1.4 Bo3, five players, round 1 paired (p5 a bye) and started at 09:00 UTC."""
    url = f"sqlite:///{tmp_path}/clock.sqlite3"
    with freeze_time("2026-11-21T08:30:00Z"):
        apply(url, {"type": "create_tournament", "tournament": "t", "name": "T",
                    "ruleset": "swu-1.4"},
              *({"type": "register_player", "tournament": "t", "player": f"p{i}",
                 "name": f"Player {i}"} for i in range(1, 6)),
              {"type": "pair_round", "tournament": "t",
               "pairings": [["p1", "p2"], ["p3", "p4"], ["p5"]]})  # fmt: skip
    with freeze_time(START):
        apply(url, {"type": "start_round", "tournament": "t"})
    with freeze_time("2026-11-21T09:20:00Z"):
        apply(url, {"type": "record_deck_check", "tournament": "t", "player": "p2", "round": 1,
                    "timing": "between_games", "outcome": "legal", "minutes": 4})  # fmt: skip
    return url


def test_clock_json_has_the_contracts_shape_and_absolute_times(store: str) -> None:
    with freeze_time("2026-11-21T09:30:00Z"):
        done = cli("clock", "t", "--json", "--store", store)
    assert done.exit_code == 0, done.stderr
    assert json.loads(done.stdout) == {
        "round": 1, "started_at": "2026-11-21T09:00:00Z", "ends_at": "2026-11-21T09:55:00Z",
        "tables": [table(1, ["p1", "p2"], "2026-11-21T10:02:00Z", 7),
                   table(2, ["p3", "p4"], "2026-11-21T09:55:00Z", 0)],
        "stage": "swiss", "minutes": 55, "section": "swu-1.4 §4.3.1", "seq": 10,
    }  # fmt: skip


def test_the_json_does_not_change_with_the_time_now(store: str) -> None:
    outputs = set()
    for now in ("2026-11-21T09:01:00Z", "2026-11-21T11:00:00Z"):
        with freeze_time(now):
            outputs.add(cli("clock", "t", "--json", "--store", store).stdout)
    assert len(outputs) == 1


def test_clock_shows_the_time_left_per_table_as_minutes_and_seconds(store: str) -> None:
    with freeze_time("2026-11-21T09:30:15Z"):
        done = cli("clock", "t", "--store", store)
    assert done.exit_code == 0, done.stderr
    assert "Round 1 (swiss): 55 minutes (swu-1.4 §4.3.1)" in done.stdout
    assert "24:45 left" in done.stdout
    rows = [line for line in done.stdout.splitlines() if "(p" in line]
    assert "+7" in rows[0] and "31:45" in rows[0] and "Player 1 (p1) v Player 2 (p2)" in rows[0]
    assert "24:45" in rows[1] and "OVER TIME" not in done.stdout


def test_clock_marks_a_table_over_time_and_a_finished_one(store: str) -> None:
    with freeze_time("2026-11-21T09:50:00Z"):
        apply(store, {"type": "report_result", "tournament": "t", "round": 1,
                      "players": ["p1", "p2"],
                      "result": {"games": [2, 1], "draws": 0}})  # fmt: skip
    with freeze_time("2026-11-21T09:57:30Z"):
        done = cli("clock", "t", "--store", store)
    rows = [line for line in done.stdout.splitlines() if "(p" in line]
    assert "finished" in rows[0]
    assert "-02:30 OVER TIME" in rows[1]
    assert "time is up" in done.stdout


def test_status_flags_the_tables_still_playing_after_their_time(store: str) -> None:
    with freeze_time("2026-11-21T09:58:00Z"):
        data = json.loads(cli("status", "t", "--json", "--store", store).stdout)
        human = cli("status", "t", "--store", store).stdout
    assert data["tables"] == [
        {"table": 1, "players": ["p1", "p2"], "state": "missing"},
        {"table": 2, "players": ["p3", "p4"], "state": "missing", "over_time": True},
        {"table": None, "players": ["p5"], "state": "confirmed"},
    ]
    assert "missing, OVER TIME" in human and "1 table still playing" in human
    with freeze_time("2026-11-21T09:54:00Z"):
        data = json.loads(cli("status", "t", "--json", "--store", store).stdout)
    assert all("over_time" not in t for t in data["tables"])


def test_status_as_of_a_past_point_flags_nothing(store: str) -> None:
    with freeze_time("2026-11-21T12:00:00Z"):
        data = json.loads(cli("status", "t", "--json", "--as-of", "9", "--store", store).stdout)
    assert all("over_time" not in t for t in data["tables"])


def test_a_paired_round_not_started_says_so(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/paired.sqlite3"
    apply(url, {"type": "create_tournament", "tournament": "t", "name": "T",
                "ruleset": "xwing-2.0"},
          {"type": "register_player", "tournament": "t", "player": "p1"},
          {"type": "register_player", "tournament": "t", "player": "p2"},
          {"type": "pair_round", "tournament": "t", "pairings": [["p1", "p2"]]})  # fmt: skip
    done = cli("clock", "t", "--store", url)
    assert "Round 1 (swiss): 75 minutes" in done.stdout
    assert "round 1 is paired, not started" in done.stdout
    data = json.loads(cli("clock", "t", "--json", "--store", url).stdout)
    assert (data["started_at"], data["ends_at"], data["tables"][0]["ends_at"]) == (None, None, None)


def test_clock_before_any_round_and_of_an_unpaired_round(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/empty.sqlite3"
    apply(url, {"type": "create_tournament", "tournament": "t", "name": "T", "ruleset": "swu-1.4"})
    assert cli("clock", "t", "--store", url).stdout == "no round is paired yet\n"
    assert json.loads(cli("clock", "t", "--json", "--store", url).stdout)["round"] == 0
    done = cli("clock", "t", "--round", "2", "--store", url)
    assert (done.exit_code, done.stderr) == (1, "error: round 2 is not paired\n")
    unknown = cli("clock", "nope", "--store", url)
    assert unknown.exit_code == 1 and "Traceback" not in unknown.stderr
