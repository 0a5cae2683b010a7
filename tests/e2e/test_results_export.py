"""``tledger export T --format csv|json``: the results of every golden log,
read back through the contract's commands, give the same standings."""

from __future__ import annotations

import csv
import io
import json
import shutil
import uuid
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from commands.cli.main import app
from commands.text.results_data import Results
from commands.text.results_import import commands_of, differences, standings_differences
from commands.text.results_parse import read_csv, read_json
from ledger.url import open_store
from replay.rebuild import rebuild

LOGS = Path(__file__).resolve().parents[1] / "fixtures" / "logs"
GOLDEN = sorted(LOGS.glob("*/*.expected.json"))
IDS = [f"{p.parent.name}/{p.name.removesuffix('.expected.json')}" for p in GOLDEN]
READERS = {"csv": read_csv, "json": read_json}


def cli(*args: str, stdin: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), input=stdin)


@pytest.fixture(params=GOLDEN, ids=IDS)
def golden(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[dict[str, Any], str]:
    """(expected.json, URL of a copy of its store): the golden files are never opened."""
    path: Path = request.param
    copy = tmp_path / "golden.sqlite3"
    shutil.copyfile(path.with_name(path.name.removesuffix(".expected.json") + ".sqlite3"), copy)
    return json.loads(path.read_text()), f"sqlite:///{copy}"


def team_event(expected: dict[str, Any]) -> bool:
    """An lcg-2.1d team event ("Team-Turniere"): teams of two, no cut unless the two best
    teams end level (the golden log's did not, which its status shows)."""
    return expected["status"]["options"].get("team") is True


def stages_of(expected: dict[str, Any]) -> set[str]:
    """Every golden singles log plays Swiss rounds and a cut of 4; the team log Swiss only."""
    if team_event(expected):
        assert expected["status"]["cut_size"] == 0
        return {"swiss"}
    return {"swiss", "elimination"}


def exported(tournament: str, url: str, fmt: str) -> bytes:
    result = cli("export", tournament, "--format", fmt, "--store", url)
    assert result.exit_code == 0, result.stderr
    data: bytes = result.stdout_bytes
    return data


def rebuilt(results: Results, tournament: str) -> tuple[dict[str, Any], list[str]]:
    """Apply the commands read back into a fresh store: (standings --json, what its own
    pairing of the bracket and cut made differently from the export)."""
    url = f"memory://{uuid.uuid4().hex}"
    lines = "".join(json.dumps(c) + "\n" for c in commands_of(results, tournament))
    applied = cli("apply", "-", "--store", url, stdin=lines)
    assert applied.exit_code == 0, [x for x in applied.stderr.splitlines() if "error" in x]
    shown = cli("standings", tournament, "--json", "--store", url)
    state, _ = rebuild(open_store(url), tournament)
    return json.loads(shown.stdout), differences(results, state)


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_every_golden_log_exports_and_parses_back_to_the_same_standings(
    golden: tuple[dict[str, Any], str], fmt: str
) -> None:
    expected, url = golden
    results = READERS[fmt](exported(expected["tournament"], url, fmt))
    assert results.standings == expected["standings"]["standings"]
    standings, unlike = rebuilt(results, "again")
    assert unlike == []
    assert standings_differences(results.standings, standings["standings"]) == []
    assert standings["standings"] == expected["standings"]["standings"]


def test_csv_has_a_byte_order_mark_and_three_sections_any_csv_reader_takes(
    golden: tuple[dict[str, Any], str],
) -> None:
    expected, url = golden
    data = exported(expected["tournament"], url, "csv")
    assert data.startswith(b"\xef\xbb\xbf")
    text = data.decode("utf-8-sig")
    blocks = text.split("\r\n\r\n")
    assert len(blocks) == 3
    standings = list(csv.DictReader(io.StringIO(blocks[0])))
    want = expected["standings"]["standings"]
    assert [r["player"] for r in standings] == [r["player"] for r in want]
    for row, exp in zip(standings, want, strict=True):
        assert row["name"] == exp["name"] and int(row["rank"]) == exp["rank"]
        for key, value in exp["tiebreakers"].items():
            assert float(row[key]) == value  # unrounded: the same float
    results = list(csv.DictReader(io.StringIO(blocks[1])))
    assert {r["stage"] for r in results} == stages_of(expected)
    assert any(r["state"] == "bye" and r["player_b"] == "" for r in results)
    event = dict(csv.reader(io.StringIO(blocks[2])))
    assert event["head"] == expected["head"]
    assert event["ruleset"] == expected["standings"]["ruleset"]
    if team_event(expected):  # no cut, and every team with both members
        assert event["cut_size"] == event["cut_seeds"] == ""
        assert all(r["name"] == f"{r['team_name']} ({r['member_1_name']}, {r['member_2_name']})"
                   and r["member_1"] and r["member_2"] for r in standings)  # fmt: skip
    else:
        assert len(json.loads(event["cut_seeds"])) == int(event["cut_size"]) == 4
        assert "team_name" not in standings[0]


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_names_are_exported_and_external_ids_are_not(
    golden: tuple[dict[str, Any], str], fmt: str
) -> None:
    expected, url = golden
    data = exported(expected["tournament"], url, fmt)
    assert b"Cassian" in data and b"UID-" not in data


def test_the_json_document_holds_rounds_byes_drops_penalties_and_the_head(
    golden: tuple[dict[str, Any], str],
) -> None:
    expected, url = golden
    doc = json.loads(exported(expected["tournament"], url, "json"))
    assert doc["format"] == "tledger-results/1"
    assert (doc["seq"], doc["head"], doc["ruleset"]) == (
        expected["events"], expected["head"], expected["standings"]["ruleset"])  # fmt: skip
    assert doc["standings"] == expected["standings"]["standings"]
    assert {r["stage"] for r in doc["rounds"]} == stages_of(expected)
    assert any(r["byes"] for r in doc["rounds"]) or doc["ruleset"] == "lcg-2.1d"
    drops = [c for c in doc["roster_changes"] if c["change"] in ("dropped", "disqualified")]
    assert drops and all(c["after_round"] >= 1 for c in drops)
    assert [p["penalty"] for p in doc["penalties"]][:1] == ["warning"]
    if team_event(expected):  # lcg-2.1d Team-Turniere: no Finalrunde, teams of two
        assert doc["cut"] is None and all(len(t["members"]) == 2 for t in doc["teams"])
        named = {t["team"]: f"{t['name']} ({', '.join(m['name'] for m in t['members'])})"
                 for t in doc["teams"]}  # fmt: skip
        assert named == {p["player"]: p["name"] for p in doc["players"]}
    else:
        assert len(doc["cut"]["seeds"]) == doc["cut"]["size"] == 4
        assert "teams" not in doc
    assert doc["champion"] == expected["status"].get("champion", doc["champion"])


def test_a_match_result_is_the_contracts_result_json_in_the_order_of_its_players(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 's.sqlite3'}"
    examples = Path(__file__).resolve().parents[2] / "examples" / "swiss8.jsonl"
    assert cli("apply", str(examples), "--store", url).exit_code == 0
    log = json.loads(cli("log", "swiss8", "--json", "--store", url).stdout)["events"]
    report = next(e for e in log if e["type"] == "result_reported")
    doc = json.loads(exported("swiss8", url, "json"))
    match = next(m for m in doc["rounds"][0]["matches"] if m["players"] == report["players"])
    assert match["result"] == report["result"] and match["state"] == "confirmed"


def test_an_unknown_format_is_an_input_error(tmp_path: Path) -> None:
    result = cli("export", "t", "--format", "xlsx", "--store", f"sqlite:///{tmp_path}/x.db")
    assert result.exit_code == 2 and "unknown format 'xlsx' (jsonl, csv, json)" in result.stderr


def test_a_results_export_writes_to_a_file(golden: tuple[dict[str, Any], str],
                                           tmp_path: Path) -> None:  # fmt: skip
    expected, url = golden
    target = tmp_path / "results.csv"
    result = cli("export", expected["tournament"], "--format", "csv", "-o", str(target),
                 "--store", url)  # fmt: skip
    assert result.exit_code == 0 and result.stdout == ""
    assert target.read_bytes() == exported(expected["tournament"], url, "csv")
