"""Readable at 80 columns, the terminal of a venue laptop: ``log`` filters, names in
``diff`` and ``explain``, the seeds after ``cut``, the bracket's round names and champion,
``status`` without ``None``, ``register --csv``, and the command log on stderr (JSON off a
terminal, quiet on one unless ``-v``)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from itertools import count
from pathlib import Path
from typing import Any

import pytest

from commands.cli import grids, logs
from commands.handler import Handler
from ledger.url import open_store
from tests.e2e.test_cli import SWISS8, cli
from tests.stores import KINDS, store_url
from tests.unit.test_bracket import Event, T

NAMES = ["Ahsoka", "Bo-Katan", "Cad Bane", "Dedra", "Élan", "Fennec", "Grogu", "Hera",
         "Iden", "Jyn", "Kanan", "Lando", "Mon Mothma", "Nala Se", "Omega", "Padmé"]  # fmt: skip


@pytest.fixture(autouse=True)
def eighty_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a file or a pipe gets (``grids.console``: 80 columns off a terminal)."""
    monkeypatch.setattr(grids.console, "_width", 80)


@pytest.fixture
def swiss8(tmp_path: Path) -> str:
    store = f"sqlite:///{tmp_path}/swiss8.sqlite3"
    assert cli("apply", str(SWISS8), "--store", store).exit_code == 0
    return store


def within_80_columns(text: str) -> str:
    assert text.strip(), "no output"
    assert max(len(line) for line in text.splitlines()) <= 80, text
    return text


def logged(store: str, *flags: str) -> list[dict[str, Any]]:
    done = cli("log", "swiss8", "--json", *flags, "--store", store)
    assert done.exit_code == 0, done.stderr
    events: list[dict[str, Any]] = json.loads(done.stdout)["events"]
    return events


# log --type --player --round ----------------------------------------------------------


def test_log_keeps_the_types_asked_for_comma_separated_or_repeated(swiss8: str) -> None:
    both = logged(swiss8, "--type", "round_started,cut_made", "--type", "tournament_created")
    assert [e["type"] for e in both] == ["tournament_created", *["round_started"] * 3]


def test_log_keeps_a_rounds_events(swiss8: str) -> None:
    second = logged(swiss8, "--round", "2")
    assert [e["type"] for e in second] == ["round_paired", "round_started",
                                           *["result_reported"] * 4]  # fmt: skip
    assert {e["round"] for e in second} == {2}


def test_log_keeps_the_events_naming_a_player_pairings_included(swiss8: str) -> None:
    found = logged(swiss8, "--player", "p3")
    assert [e["type"] for e in found] == ["player_registered", "round_paired", "result_reported",
                                          "round_paired", "result_reported", "round_paired",
                                          "result_reported"]  # fmt: skip


def test_log_filters_combine(swiss8: str) -> None:
    found = logged(swiss8, "--type", "result_reported", "--player", "p3", "--round", "2")
    assert [(e["seq"], e["players"]) for e in found] == [(18, ["p1", "p3"])]


def test_an_unfiltered_log_is_exactly_the_contracts_json(swiss8: str) -> None:
    stored = open_store(swiss8).load("swiss8")
    done = cli("log", "swiss8", "--json", "--store", swiss8)
    assert json.loads(done.stdout) == {"tournament": "swiss8",
                                       "events": [r.as_json() for r in stored]}  # fmt: skip


def test_an_unknown_type_is_one_line_listing_the_types_exit_2(swiss8: str) -> None:
    done = cli("log", "swiss8", "--type", "result_reported,results", "--store", swiss8)
    assert done.exit_code == 2 and done.stdout == ""
    assert done.stderr.startswith("error: log: unknown event type 'results' (types: ")
    assert "result_corrected" in done.stderr and done.stderr.count("\n") == 1


def test_a_filtered_log_fits_80_columns(swiss8: str) -> None:
    done = cli("log", "swiss8", "--player", "p3", "--round", "2", "--store", swiss8)
    assert done.exit_code == 0
    within_80_columns(done.stdout)


# names in diff and explain ------------------------------------------------------------


def corrected(store: str) -> str:
    fix = ('{"type":"correct_result","tournament":"swiss8","round":3,"players":["p1","p6"],'
           '"result":{"games":[2,1],"draws":0},"reason":"slip"}\n')  # fmt: skip
    assert cli("apply", "-", "--store", store, stdin=fix).exit_code == 0
    return store


def test_diff_shows_names_and_its_json_gains_only_names(swiss8: str) -> None:
    from replay.diff import diff

    store = corrected(swiss8)
    shown = cli("diff", "swiss8", "27", "28", "--store", store).stdout
    assert "corrected round 3 Ada (p1) v Fennec (p6): 1-2 -> 2-1 (slip)" in shown
    assert "Ada (p1)" in shown.split("Standings moves")[1]
    within_80_columns(shown)
    view = json.loads(cli("diff", "swiss8", "27", "28", "--json", "--store", store).stdout)
    before = json.loads(json.dumps(diff(open_store(store).load("swiss8"), 27, 28)))
    assert view == {**before, "names": {"p1": "Ada", "p3": "Cassian", "p6": "Fennec"}}


def test_explain_shows_names_and_its_json_gains_only_names(swiss8: str) -> None:
    shown = cli("explain", "swiss8", "p6", "--store", swiss8).stdout
    assert shown.startswith("Fennec (p6) in swiss8 (swu-1.4)")
    assert "Ezra (p5)" in shown and "Grogu (p7)" in shown
    within_80_columns(shown)
    view = json.loads(cli("explain", "swiss8", "p6", "--json", "--store", swiss8).stdout)
    assert view["names"] == {"p1": "Ada", "p5": "Ezra", "p6": "Fennec", "p7": "Grogu"}
    assert [o["player"] for o in view["opponents"]] == ["p5", "p7", "p1"]


def test_an_erased_player_shows_as_erased_in_explain(swiss8: str) -> None:
    assert cli("forget", "swiss8", "p5", "--store", swiss8).exit_code == 0
    view = json.loads(cli("explain", "swiss8", "p6", "--json", "--store", swiss8).stdout)
    assert view["names"]["p5"] == "(erased)"


# cut, bracket, status ------------------------------------------------------------------


class Named(Event):
    """``tests.unit.test_bracket.Event`` with names, on a memory store the CLI can open."""

    def __init__(self, ruleset: str = "swu-1.4", players: int = 16, **options: Any) -> None:
        seeds = count(1)
        self.url = f"memory://{uuid.uuid4().hex}"
        self.handler = Handler(open_store(self.url),
                               clock=lambda: datetime(2026, 5, 1, tzinfo=UTC),
                               seeds=lambda: next(seeds))  # fmt: skip
        self.ruleset = ruleset
        self.do(type="create_tournament", name="Cut", ruleset=ruleset, options=options)
        self.players = [f"p{i:02d}" for i in range(1, players + 1)]
        for p, name in zip(self.players, NAMES, strict=False):
            self.do(type="register_player", player=p, name=name)

    def run(self, *args: str) -> Any:
        return cli(*args, T, "--store", self.url)

    def name(self, player: str) -> str:
        return NAMES[self.players.index(player)]


def cut_by_cli(size: int, ruleset: str = "swu-1.4", **options: Any) -> tuple[Named, str]:
    event = Named(ruleset, players=16, rounds=2, **options)
    event.swiss_in_order(2)
    done = cli("cut", T, "--size", str(size), "--store", event.url)
    assert done.exit_code == 0, done.stderr
    return event, done.stdout


def test_cut_prints_the_seeds_one_per_line() -> None:
    event, shown = cut_by_cli(8)
    seeds = event.seeds()
    lines = within_80_columns(shown).splitlines()
    assert lines[0] == f"cut_made (seq {event.state.seq})"
    assert lines[1] == "Seeds (single elimination, top 8):"
    assert lines[2:] == [f"{n:>4}  {event.name(p)} ({p})" for n, p in enumerate(seeds, start=1)]


def test_cut_prints_who_plays_off_for_a_seed_swu10_4_1_2() -> None:
    event = Named("swu-1.0", players=12, rounds=1)
    event.swiss_in_order(1)
    shown = cli("cut", T, "--size", "4", "--store", event.url).stdout
    cut_made = event.state.cut
    assert cut_made is not None and len(cut_made.playoff) == 2
    for a, b in cut_made.playoff:
        line = f"{event.name(a)} ({a}) or {event.name(b)} ({b}) (playoff)"
        assert any(x.endswith(line) for x in shown.splitlines()), shown


def test_cut_json_stays_the_commands_outcome() -> None:
    event = Named(players=8, rounds=2)
    event.swiss_in_order(2)
    done = cli("cut", T, "--size", "4", "--json", "--store", event.url)
    assert set(json.loads(done.stdout)) == {"seq", "position", "events"}


def headings(shown: str) -> list[str]:
    return [line for line in shown.splitlines() if line.startswith("Round ")]


def test_a_top_8_bracket_shows_quarterfinals_semifinals_final_and_the_champion() -> None:
    event, _ = cut_by_cli(8)
    event.play_out()
    shown = within_80_columns(event.run("bracket").stdout)
    assert headings(shown) == ["Round 3: quarterfinal", "Round 4: semifinal", "Round 5: final"]
    seeds = event.seeds()
    champion = min(seeds)  # the lower player number always wins
    assert f"* ({seeds.index(champion) + 1}) {event.name(champion)} ({champion})" in shown
    assert f"(8) {event.name(seeds[7])} ({seeds[7]})" in shown
    assert "2-0" in shown
    assert shown.rstrip().endswith(f"Champion: {event.name(champion)} ({champion})")
    status = within_80_columns(event.run("status").stdout)
    assert f"champion       │ {event.name(champion)} ({champion})" in status
    assert "None" not in status


def test_a_top_4_bracket_shows_semifinals_and_final() -> None:
    event, _ = cut_by_cli(4)
    event.play_out()
    assert headings(event.run("bracket").stdout) == ["Round 3: semifinal", "Round 4: final"]


def test_a_double_elimination_bracket_names_upper_and_lower_rounds_and_the_grand_final() -> None:
    event, _ = cut_by_cli(4, elimination="double")
    event.play_out()
    shown = within_80_columns(event.run("bracket").stdout)
    assert headings(shown)[:2] == ["Round 3: upper semifinal",
                                   "Round 4: upper final / lower round 1"]  # fmt: skip
    assert "Round 6: grand final" in shown.splitlines()
    assert "Match" in shown and "lower round 1" in shown  # a mixed round names each match
    assert "Champion: " in shown


def test_a_bracket_before_its_first_round_shows_the_seeds() -> None:
    event, _ = cut_by_cli(4)
    shown = event.run("bracket").stdout
    assert shown.startswith("no elimination round yet\nSeeds (single elimination, top 4):")


def test_status_never_prints_none_before_round_1(tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path}/new.sqlite3"
    assert cli("new", "t9", "--name", "Fresh", "--store", store).exit_code == 0
    shown = within_80_columns(cli("status", "t9", "--store", store).stdout)
    assert "None" not in shown and "round state    │ -" in shown
    assert "champion" not in shown


# register --csv ---------------------------------------------------------------------------


@pytest.fixture
def fresh(tmp_path: Path) -> str:
    store = f"sqlite:///{tmp_path}/csv.sqlite3"
    assert cli("new", "t1", "--name", "Spreadsheet", "--store", store).exit_code == 0
    return store


def seq_of(store: str) -> int:
    return int(json.loads(cli("status", "t1", "--json", "--store", store).stdout)["seq"])


def test_register_csv_comma_separated_registers_every_row(fresh: str, tmp_path: Path) -> None:
    sheet = tmp_path / "players.csv"
    sheet.write_text("player,name,external_id\np1,Ada,UID-1\np2,Bail,\np3,Cassian,UID-3\n")
    done = cli("register", "t1", "--csv", str(sheet), "--store", fresh)
    assert done.exit_code == 0, done.stderr
    assert done.stdout == "registered 3 players\n"
    entries = open_store(fresh).players("t1")
    assert {p: (e.name, e.external_id) for p, e in entries.items()} == {
        "p1": ("Ada", "UID-1"), "p2": ("Bail", None), "p3": ("Cassian", "UID-3")}  # fmt: skip
    assert seq_of(fresh) == 4


def test_register_csv_accepts_a_shared_name_with_a_warning(fresh: str) -> None:
    sheet = "player,name\np1,Ada\np2,Élan\np3,ada\n"
    done = cli("register", "t1", "--csv", "-", "--actor", "organizer:KB", "--store", fresh,
               stdin=sheet)  # fmt: skip
    assert done.exit_code == 0, done.stderr
    assert "warning: 'Ada' is the name of p1, p3" in done.stderr
    events = json.loads(cli("log", "t1", "--json", "--store", fresh).stdout)["events"]
    assert events[-1]["actor"] == {"role": "organizer", "id": "KB"}


def test_register_csv_reads_a_german_excel_export_from_stdin(fresh: str) -> None:
    sheet = "\ufeffID;Name\r\np1;Jürgen Müller\r\np2;Zoë Ærø\r\n"
    done = cli("register", "t1", "--csv", "-", "--json", "--store", fresh, stdin=sheet)
    assert done.exit_code == 0, done.stderr
    assert [e["player"] for e in json.loads(done.stdout)["events"]] == ["p1", "p2"]
    standings = json.loads(cli("standings", "t1", "--json", "--store", fresh).stdout)
    assert {r["player"]: r["name"] for r in standings["standings"]} == {
        "p1": "Jürgen Müller", "p2": "Zoë Ærø"}  # fmt: skip


@pytest.mark.parametrize(
    ("sheet", "code", "message"),
    [("player,name\np1,Ada\np2,Bail\np1,Again\n", 2,
      "error: register: row 4: player 'p1' appears twice (first in row 2)"),
     ("player,name\np1,Ada\n,Nobody\n", 2, "error: register: row 3: blank player id"),
     ("player,name\np1,Ada\np0,Old\n", 1,
      "error: register: row 3: player 'p0' is registered already"),
     (f"player,name\np1,Ada\np2,{'x' * 140_000}\n", 2,
      "error: register: row 3: a cell is longer than 131,072 characters")],
)  # fmt: skip
def test_a_bad_row_registers_nobody(fresh: str, sheet: str, code: int, message: str) -> None:
    assert cli("register", "t1", "p0", "--store", fresh).exit_code == 0
    done = cli("register", "t1", "--csv", "-", "--store", fresh, stdin=sheet)
    assert done.exit_code == code
    assert [x for x in done.stderr.splitlines() if x.startswith("error:")] == [message]
    assert seq_of(fresh) == 2 and set(open_store(fresh).players("t1")) == {"p0"}


@pytest.mark.parametrize("kind", KINDS)
def test_register_csv_is_all_or_nothing_on_every_store(kind: str, tmp_path: Path) -> None:
    store, t = store_url(kind, tmp_path, "kinds.sqlite3"), f"csv-{uuid.uuid4().hex[:8]}"
    assert cli("new", t, "--name", "Kinds", "--store", store).exit_code == 0
    bad = cli("register", t, "--csv", "-", "--store", store, stdin="id,name\nq1,A\nq1,B\n")
    assert bad.exit_code == 2 and open_store(store).players(t) == {}
    good = cli("register", t, "--csv", "-", "--store", store, stdin="id,name\nq1,A\nq2,B\n")
    assert good.exit_code == 0, good.stderr
    assert {p: e.name for p, e in open_store(store).players(t).items()} == {"q1": "A", "q2": "B"}
    assert [r.seq for r in open_store(store).load(t)] == [1, 2, 3]


def test_register_takes_a_player_or_a_csv_not_both(fresh: str) -> None:
    both = cli("register", "t1", "p1", "--csv", "-", "--store", fresh, stdin="player\np2\n")
    assert both.exit_code == 2 and "not both" in both.stderr
    neither = cli("register", "t1", "--store", fresh)
    assert neither.exit_code == 2 and "give a PLAYER id, or --csv FILE" in neither.stderr
    assert seq_of(fresh) == 1


# the command log on stderr -------------------------------------------------------------------


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(logs, "stderr_is_tty", lambda: True)
    yield


def test_off_a_terminal_the_command_log_is_json(fresh: str) -> None:
    done = cli("register", "t1", "p1", "--store", fresh)
    line = json.loads(done.stderr.splitlines()[-1])
    assert (line["command"], line["seq"], line["outcome"]) == ("register_player", 2, "appended")


def test_on_a_terminal_the_command_log_is_quiet(fresh: str, terminal: None) -> None:
    done = cli("register", "t1", "p1", "--store", fresh)
    assert done.exit_code == 0 and done.stderr == ""
    assert done.stdout == "player_registered (seq 2)\n"


def test_on_a_terminal_verbose_prints_one_key_value_line(fresh: str, terminal: None) -> None:
    done = cli("-v", "register", "t1", "p1", "--store", fresh)
    assert done.stderr == ("event=command tournament=t1 command=register_player seq=2 "
                           "outcome=appended\n")  # fmt: skip
    csv = cli("--verbose", "register", "t1", "--csv", "-", "--store", fresh, stdin="id\np2\np3\n")
    assert "command=register_player count=2 seq=4 outcome=appended" in csv.stderr


def test_the_verbose_flag_also_comes_from_the_environment(
    fresh: str, terminal: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TLEDGER_VERBOSE", "1")
    done = cli("register", "t1", "p1", "--store", fresh)
    assert "outcome=appended" in done.stderr


def test_the_logger_is_chosen_by_terminal_and_verbosity(capsys: pytest.CaptureFixture[str]) -> None:
    logs.command_logger(tty=True, verbose=False).info("command", tournament="t")
    assert capsys.readouterr().err == ""
    logs.command_logger(tty=True, verbose=True).info("command", tournament="t")
    assert capsys.readouterr().err == "event=command tournament=t\n"
    logs.command_logger(tty=False, verbose=False).info("command", tournament="t")
    line = json.loads(capsys.readouterr().err)
    assert (line["event"], line["tournament"], line["level"]) == ("command", "t", "info")


def test_the_servers_access_log_shows_on_a_terminal_too(capsys: pytest.CaptureFixture[str]) -> None:
    logs.access_logger(tty=True).info("request", status=200)
    assert capsys.readouterr().err.startswith("event='request' status=200 level='info' ")
    logs.access_logger(tty=False).info("request", status=200)
    assert json.loads(capsys.readouterr().err)["status"] == 200
