"""Results typed as people say them: ``report`` and ``correct`` take the same
flags, exactly one result shape per command, conflicting flags refused with exit 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_cli import cli


def event(tmp_path: Path, ruleset: str) -> str:
    """Four players, round 1 paired p1 v p2 and p3 v p4, started."""
    store = f"sqlite:///{tmp_path}/r.sqlite3"
    lines = [{"type": "create_tournament", "tournament": "t", "name": "T", "ruleset": ruleset}]
    lines += [{"type": "register_player", "tournament": "t", "player": f"p{i}"}
              for i in range(1, 5)]  # fmt: skip
    lines += [{"type": "pair_round", "tournament": "t", "pairings": [["p1", "p2"], ["p3", "p4"]]},
              {"type": "start_round", "tournament": "t"}]  # fmt: skip
    done = cli("apply", "-", "--store", store, stdin="\n".join(json.dumps(x) for x in lines))
    assert done.exit_code == 0, done.stderr
    return store


def reported(store: str, *flags: str, command: str = "report") -> Any:
    return cli(command, "t", "1", "p1", "p2", *flags, "--store", store, "--json")


def last_result(store: str) -> dict[str, Any]:
    events = json.loads(cli("log", "t", "--json", "--store", store).stdout)["events"]
    result: dict[str, Any] = events[-1]["result"]
    return result


def test_points_are_typed_as_people_say_them_xwing(tmp_path: Path) -> None:
    store = event(tmp_path, "xwing-2.0")
    assert reported(store, "--points", "100-40").exit_code == 0
    assert last_result(store) == {"points": [100, 40]}


def test_a_tie_on_points_names_its_winner_armada(tmp_path: Path) -> None:
    store = event(tmp_path, "armada-2.0")
    done = reported(store, "--points", "120-120", "--winner", "p2")
    assert done.exit_code == 0, done.stderr
    assert last_result(store) == {"points": [120, 120], "winner": "p2"}


def test_a_refused_result_names_the_clis_own_command_once(tmp_path: Path) -> None:
    store = event(tmp_path, "swu-1.4")
    done = reported(store, "--result", '{"no_such": 1}')
    assert done.exit_code == 2
    assert done.stderr == "error: report: result.no_such: unknown field\n"


@pytest.mark.parametrize(
    ("flags", "message"),
    [(["--id", "--games", "2-1"], "give exactly one of --games, --points, --id, --no-show or "
                                  "--result (given: --games and --id)"),
     ([], "(given: none)"),
     (["--draws", "1"], "--draws goes with --games W1-W2"),
     (["--id", "--winner", "p1"], "--winner and --decided-by go with --games or --points"),
     (["--points", "140:84"], "--points '140:84' must be two whole numbers like 2-1")],
)  # fmt: skip
def test_conflicting_or_incomplete_flags_are_refused_and_nothing_is_appended(
    tmp_path: Path, flags: list[str], message: str
) -> None:
    store = event(tmp_path, "swu-1.4")
    done = reported(store, *flags)
    assert done.exit_code == 2 and message in done.stderr
    assert done.stderr.count("report:") == 1
    assert json.loads(cli("status", "t", "--json", "--store", store).stdout)["seq"] == 7


def test_correct_takes_the_same_flags_as_report(tmp_path: Path) -> None:
    store = event(tmp_path, "swu-1.4")
    assert reported(store, "--games", "2-1").exit_code == 0
    done = reported(store, "--games", "1-2", command="correct")
    assert done.exit_code == 0, done.stderr
    assert last_result(store) == {"games": [1, 2], "draws": 0}


def test_a_no_show_is_typed_as_a_flag_in_every_ruleset(tmp_path: Path) -> None:
    for ruleset in ("swu-1.4", "xwing-2.0", "lcg-2.1d"):
        (tmp_path / ruleset).mkdir()
        store = event(tmp_path / ruleset, ruleset)
        done = reported(store, "--no-show", "p2")
        assert done.exit_code == 0, done.stderr
        assert last_result(store) == {"no_show": "p2"}


def test_lcg_games_are_typed_by_each_games_winner(tmp_path: Path) -> None:
    store = event(tmp_path, "lcg-2.1d")
    assert reported(store, "--games", "p1,draw").exit_code == 0
    assert last_result(store) == {"game_results": ["p1", "draw"]}
    refused = reported(store, "--games", "p1,,p2", command="correct")
    assert refused.exit_code == 2
    assert "must name each game's winner, like p1,draw" in refused.stderr


def test_a_no_show_beside_games_is_refused(tmp_path: Path) -> None:
    store = event(tmp_path, "swu-1.4")
    done = reported(store, "--no-show", "p2", "--games", "2-0")
    assert done.exit_code == 2 and "(given: --games and --no-show)" in done.stderr


def test_extend_grants_one_match_more_time(tmp_path: Path) -> None:
    store = event(tmp_path, "swu-1.4")
    done = cli("extend", "t", "1", "p1", "p2", "--minutes", "5", "--reason", "judge call",
               "--store", store)  # fmt: skip
    assert done.exit_code == 0, done.stderr
    events = json.loads(cli("log", "t", "--json", "--store", store).stdout)["events"]
    assert events[-1]["type"] == "time_extension_granted" and events[-1]["minutes"] == 5
    bad = cli("extend", "t", "1", "p1", "p3", "--minutes", "5", "--store", store)
    assert bad.exit_code != 0
    assert bad.stderr.endswith("\nerror: extend: round 1 has no match of p1 and p3\n")


def test_an_official_report_over_a_players_report_says_it_decides_a_dispute(
    tmp_path: Path,
) -> None:
    store = event(tmp_path, "swu-1.4")
    mine = reported(store, "--games", "2-0", "--actor", "player:p1")
    assert mine.exit_code == 0, mine.stderr
    done = cli("report", "t", "1", "p2", "p1", "--games", "2-1", "--store", store)
    assert done.exit_code == 0, done.stderr
    assert "decides the dispute with p1's report (seq 8): games (0, 2), draws 0" in done.stdout
