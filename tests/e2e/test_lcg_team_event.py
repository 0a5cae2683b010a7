"""An LCG 2 vs 2 team event end to end (lcg-2.1d "Team-Turniere"): eight teams register
with their names and members, play three Swiss rounds from a JSON Lines script through
``tledger apply``, end with two teams level at the top, play their final match, and
finish; standings, pairings, printouts, verify, replay and export/import read it back."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from commands.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "examples" / "lcg_teams8.jsonl"
T = "teams8"


def cli(*args: str, stdin: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), input=stdin)


def read(store: str, *args: str) -> Any:
    result = cli(*args, "--json", "--store", store)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture
def store(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path}/teams.sqlite3"
    applied = cli("apply", str(SCRIPT), "--store", url)
    assert applied.exit_code == 0, applied.output
    return url


def test_scripted_team_event_ends_with_the_final_match_lcg_2_1d_team_turniere(store: str) -> None:
    rows = read(store, "standings", T)["standings"]
    assert [(r["rank"], r["player"], r["points"]) for r in rows[:3]] == [
        (1, "C", 14), (2, "A", 14), (3, "E", 13)]  # fmt: skip
    assert rows[0]["name"] == "Imperial Guard (Eli, Fay)"
    assert rows[1]["name"] == "Rebel Cell (Ada, Ben)"
    # a drawn game gives each team 2 points: E won one game and drew one against F (5:2)
    assert {r["player"]: r["points"] for r in rows}["F"] == 10
    status = read(store, "status", T)
    assert (status["stage"], status["champion"], status["options"]) == (
        "finished", "C", {"rounds": 3, "team": True, "round_minutes": 90})  # fmt: skip


def test_the_final_match_is_paired_as_elimination_between_the_level_teams(store: str) -> None:
    final = read(store, "pairings", T, "--round", "4")
    assert final["stage"] == "elimination"
    assert final["pairings"] == [{"table": 1, "players": ["A", "C"]}]
    swiss = read(store, "pairings", T, "--round", "3")
    assert swiss["stage"] == "swiss" and len(swiss["pairings"]) == 4


def test_a_refused_line_names_the_rule_and_appends_nothing(store: str) -> None:
    before = read(store, "status", T)["seq"]
    line = json.dumps({"type": "make_cut", "tournament": T})
    result = cli("apply", "-", "--store", store, stdin=line + "\n")
    assert result.exit_code == 1
    assert read(store, "status", T)["seq"] == before


def test_make_cut_in_a_team_event_is_refused_eine_finalrunde_gibt_es_nicht(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/cut.sqlite3"
    lines = SCRIPT.read_text().splitlines()[:25]  # through round 3's results
    lines.append(json.dumps({"type": "make_cut", "tournament": T}))
    result = cli("apply", "-", "--store", url, stdin="\n".join(lines) + "\n")
    assert result.exit_code == 1
    assert "Eine Finalrunde gibt es im Team-Turnier nicht" in result.output


def test_verify_and_replay_read_the_team_event(store: str) -> None:
    verified = read(store, "verify", T)
    assert verified["ok"] and [p["kind"] for p in verified["pairings"]][-1] == "auto"
    before_final = read(store, "replay", T, "--until", "29")
    assert before_final["status"]["stage"] == "swiss"
    assert before_final["standings"]["standings"][0]["name"].endswith("(Ada, Ben)")


def test_export_and_import_keep_the_team_event_and_its_names(store: str, tmp_path: Path) -> None:
    exported = tmp_path / "teams.jsonl"
    assert cli("export", T, "-o", str(exported), "--store", store).exit_code == 0
    other = f"sqlite:///{tmp_path}/other.sqlite3"
    imported = cli("import", str(exported), "--store", other)
    assert imported.exit_code == 0, imported.output
    assert read(other, "standings", T) == read(store, "standings", T)
    assert read(other, "verify", T)["ok"]


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_a_results_export_comes_back_by_team_with_its_final_match(store: str, fmt: str) -> None:
    """``export --format csv|json`` names each team with its members, and read back it
    registers the teams (``register_team``) and pairs the final match itself (its cut
    of two comes with ``pair_round``: ``make_cut`` is refused, "Eine Finalrunde gibt es
    im Team-Turnier nicht"); a forgotten member stays forgotten."""
    from commands.text.results_import import commands_of
    from commands.text.results_parse import read_csv, read_json
    from tests.e2e.test_results_export import rebuilt

    assert cli("forget", T, "a2", "--store", store).exit_code == 0
    data = cli("export", T, "--format", fmt, "--store", store).stdout_bytes
    assert b"Rebel Cell (Ada, (erased))" in data and b"Imperial Guard (Eli, Fay)" in data
    results = (read_csv if fmt == "csv" else read_json)(data)
    assert {t.team: (t.name, [m.player for m in t.members]) for t in results.teams}["C"] == (
        "Imperial Guard", ["c1", "c2"])  # fmt: skip
    kinds = [c["type"] for c in commands_of(results, "again")]
    assert kinds.count("register_team") == 8 and "register_player" not in kinds
    assert "make_cut" not in kinds and [r.stage for r in results.rounds][-1] == "elimination"
    standings, unlike = rebuilt(results, "again")  # unlike: the final paired otherwise
    assert unlike == [] and standings["standings"] == read(store, "standings", T)["standings"]
    assert standings["standings"][0]["name"] == "Imperial Guard (Eli, Fay)"


def test_forgetting_a_member_erases_only_that_persons_name(store: str) -> None:
    assert cli("forget", T, "a1", "--store", store).exit_code == 0
    names = {r["player"]: r["name"] for r in read(store, "standings", T)["standings"]}
    assert names["A"] == "Rebel Cell ((erased), Ben)"
    assert names["C"] == "Imperial Guard (Eli, Fay)"


def test_printouts_show_teams_with_both_names(store: str) -> None:
    standings = cli("print", T, "standings", "--store", store)
    assert standings.exit_code == 0 and "Rebel Cell (Ada, Ben)" in standings.stdout
    slips = cli("print", T, "slips", "--round", "3", "--store", store)
    assert slips.exit_code == 0
    assert "Jedi Order (Ina, Jon)" in slips.stdout and "Rebel Cell (Ada, Ben)" in slips.stdout


def test_a_teams_four_decks_are_published_by_team_after_the_event(store: str) -> None:
    """ "Anmeldung": A registered with its four decks, B submitted them later (one of
    B's decks breaks a deck rule, which is reported, not refused)."""
    lists = {e["player"]: e for e in read(store, "lists", T)["lists"]}
    assert sorted(lists) == ["A", "B"]
    assert lists["A"]["name"] == "Rebel Cell (Ada, Ben)"
    assert sorted(lists["A"]["list"]["members"]) == ["a1", "a2"]
    assert set(lists["B"]["list"]["members"]["b2"]) == {"light", "dark"}


def test_teams_register_and_read_by_team_over_http(tmp_path: Path) -> None:
    """The HTTP API takes ``register_team`` like any command and names the team with
    both members in its reads (lcg-2.1d Team-Turniere)."""
    from tests.e2e.test_http import Api, served, token

    url = f"sqlite:///{tmp_path}/http.sqlite3"
    with served(url) as base:
        api = Api(base, token(url, "--role", "organizer"))
        created = api.post("h1", type="create_tournament", name="Teams", ruleset="lcg-2.1d",
                           options={"team": True})  # fmt: skip
        assert created.status_code == 200, created.text
        for tid, names in (("rebels", ("Ada", "Ben")), ("empire", ("Cid", "Dex"))):
            members = [{"player": f"{tid}{i}", "name": n} for i, n in enumerate(names, 1)]
            answer = api.post("h1", type="register_team", team=tid, name=tid.title(),
                              members=members)  # fmt: skip
            assert answer.status_code == 200, answer.text
            assert "Ada" not in answer.text and "Cid" not in answer.text
        refused = api.post("h1", type="register_player", player="p9", name="Solo")
        assert refused.status_code == 409 and "register_team" in refused.text
        rows = api.get("/tournaments/h1/standings").json()["standings"]
        assert sorted(r["name"] for r in rows) == ["Empire (Cid, Dex)", "Rebels (Ada, Ben)"]


def test_a_team_event_finished_without_a_final_match_names_the_team_with_the_most_points(
    tmp_path: Path,
) -> None:
    """lcg-2.1d Team-Turniere: "Am Ende der Runden nach dem Schweizer System wird das Team
    mit den meisten Punkten zum Turniersieger erklärt": the golden team event (format-5)
    ended with one team alone on top, so it has no final match, and status names that
    team as the champion; the same log before its finish names none."""
    golden = Path(__file__).resolve().parents[1] / "fixtures" / "logs" / "format-5"
    store = tmp_path / "teams.sqlite3"
    shutil.copyfile(golden / "lcg-2.1d-teams.sqlite3", store)
    status = read(f"sqlite:///{store}", "status", "lcg-2.1d-teams")
    standings = read(f"sqlite:///{store}", "standings", "lcg-2.1d-teams")["standings"]
    assert status["stage"] == "finished" and status["cut_size"] == 0
    assert status["champion"] == standings[0]["player"]
    log = read(f"sqlite:///{store}", "log", "lcg-2.1d-teams")["events"]
    finish = next(e["seq"] for e in log if e["type"] == "tournament_finished")
    before = cli("status", "lcg-2.1d-teams", "--json", "--as-of", str(finish - 1),
                 "--store", f"sqlite:///{store}")  # fmt: skip
    assert "champion" not in json.loads(before.stdout)
