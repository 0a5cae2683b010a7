"""The organizer's event day, end to end from the CLI.

A 37-player SWU event (swu-1.4: 6 Swiss rounds and a top 8 by §4.5) run with each
mistake an organizer makes on the day (a player registered twice, the wrong format
announced, the wrong player dropped, a slip misread, a finish too early) and its undo,
and a 12-player X-Wing event whose points are typed by flag. ``status --json`` is read
through the rounds to see each table's state: missing, unconfirmed, disputed, confirmed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.e2e.test_cli import cli


class Event:
    """One tournament on one SQLite store, driven by the CLI as an organizer types it."""

    def __init__(self, tmp_path: Path, tournament: str) -> None:
        self.store = f"sqlite:///{tmp_path}/{tournament}.sqlite3"
        self.t = tournament

    def ok(self, *args: str) -> str:
        done = cli(*args, "--store", self.store)
        assert done.exit_code == 0, f"{args}: {done.stderr}"
        return str(done.stdout)

    def refused(self, *args: str) -> str:
        """The one-line error of a refused command; nothing is appended."""
        before = self.status()["seq"]
        done = cli(*args, "--store", self.store)
        assert done.exit_code != 0 and "Traceback" not in done.stderr
        assert self.status()["seq"] == before
        errors = [line for line in done.stderr.splitlines() if line.startswith("error: ")]
        assert len(errors) == 1, done.stderr
        return errors[0]

    def status(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.ok("status", self.t, "--json"))
        return data

    def states(self) -> dict[int | None, str]:
        return {t["table"]: t["state"] for t in self.status()["tables"]}

    def tables(self) -> list[list[str]]:
        return [t["players"] for t in self.status()["tables"] if len(t["players"]) == 2]

    def log(self) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = json.loads(self.ok("log", self.t, "--json"))["events"]
        return events

    def report_all(self, rnd: int, flags: list[str]) -> None:
        """The first player of each open table wins; reported by flags as typed. The
        tables' states are read once: a report changes only its own table."""
        for table in self.status()["tables"]:
            if len(table["players"]) == 2 and table["state"] != "confirmed":
                a, b = table["players"]
                self.ok("report", self.t, str(rnd), a, b, *flags)

    def table_of(self, player: str) -> int | None:
        return next(t["table"] for t in self.status()["tables"] if player in t["players"])


def test_a_37_player_swu_event_with_each_mistake_and_its_undo(tmp_path: Path) -> None:
    day = Event(tmp_path, "showdown")
    day.ok("new", "showdown", "--name", "Store Showdown", "--ruleset", "swu-1.4",
           "-o", "format=bo1")  # fmt: skip
    for i in range(1, 39):
        day.ok("register", "showdown", f"p{i}", "--name", f"Player {i}")
    # registered twice by mistake, and the wrong format announced: both undone before round 1
    day.ok("withdraw", "showdown", "p38", "--reason", "registered twice")
    day.ok("change-options", "showdown", "-o", "format=bo3", "--reason", "announced as Bo3")
    status = day.status()
    assert status["players"] == 37 and status["rounds_planned"] == 6
    assert status["options"]["format"] == "bo3"

    # round 1: what is outstanding, at a glance
    day.ok("pair", "showdown", "--seed", "1")
    day.ok("start", "showdown")
    states = day.states()
    assert sorted(states.values()).count("missing") == 18 and states[None] == "confirmed"
    (a, b), (c, d), *_ = day.tables()
    day.ok("report", "showdown", "1", a, b, "--games", "2-0", "--actor", f"player:{a}")
    assert day.states()[day.table_of(a)] == "unconfirmed"  # a self-report waits, visibly
    day.ok("report", "showdown", "1", c, d, "--games", "2-1", "--actor", f"player:{c}")
    day.ok("report", "showdown", "1", d, c, "--games", "2-0", "--actor", f"player:{d}")
    assert day.states()[day.table_of(c)] == "disputed"
    error = day.refused("pair", "showdown")
    assert f"table {day.table_of(a)} (unconfirmed)" in error
    assert f"table {day.table_of(c)} (disputed)" in error
    # an intentional draw beside a game score is refused, not silently recorded
    assert "give exactly one of" in day.refused("report", "showdown", "1", c, d, "--id",
                                                 "--games", "2-1")  # fmt: skip
    decided = day.ok("report", "showdown", "1", c, d, "--games", "2-1", "--actor", "judge:AB")
    assert f"decides the dispute with {d}'s report" in decided  # recorded in the decision
    assert f"{c}'s report" not in decided  # the decision agrees with it
    day.ok("report", "showdown", "1", b, a, "--games", "0-2", "--actor", f"player:{b}")
    day.report_all(1, ["--games", "2-0"])
    assert set(day.states().values()) == {"confirmed"}

    # round 2: the wrong player dropped mid-round, reinstated; the forfeit corrected
    day.ok("pair", "showdown", "--seed", "2")
    day.ok("start", "showdown")
    wrong, opponent = day.tables()[3]
    wrong_name = f"Player {wrong.removeprefix('p')}"  # the organizer types the name
    assert wrong in day.ok("players", "showdown", "--search", wrong_name)
    day.ok("drop", "showdown", wrong_name, "--reason", "asked to drop")
    assert day.status()["active_players"] == 36
    day.ok("reinstate", "showdown", wrong_name, "--reason", "dropped the wrong player")
    assert day.status()["active_players"] == 37
    day.ok("correct", "showdown", "2", wrong, opponent, "--games", "2-1", "--reason",
           "the match was played; the drop was a mistake")  # fmt: skip
    day.report_all(2, ["--games", "2-1"])
    for rnd in range(3, 7):
        day.ok("pair", "showdown", "--seed", str(rnd))
        day.ok("start", "showdown")
        day.report_all(rnd, ["--games", "2-0"])
    assert "all 6 Swiss rounds are paired" in day.refused("pair", "showdown")

    # the cut is a line: a correction between the cut and the first elimination pairing
    day.ok("cut", "showdown")
    seeds = json.loads(day.ok("bracket", "showdown", "--json"))
    round_6 = [t["players"] for t in json.loads(day.ok("pairings", "showdown", "--json",
                                                       "--round", "6"))["pairings"]]  # fmt: skip
    x, y = next(t for t in round_6 if len(t) == 2)
    assert "needs a reason" in day.refused("correct", "showdown", "6", x, y, "--games", "0-2")
    day.ok("correct", "showdown", "6", x, y, "--games", "0-2", "--reason", "slip reversed")
    assert json.loads(day.ok("bracket", "showdown", "--json")) == seeds  # the cut stands
    assert day.log()[-1]["timing"] == "after_cut"

    # the bracket: finish before the final is refused; a finish made in error is reopened
    for rnd, name in ((7, "quarterfinal"), (8, "semifinal")):
        day.ok("pair", "showdown")
        day.ok("start", "showdown")
        day.report_all(rnd, ["--games", "2-1"])
        assert name and day.status()["stage"] == "elimination"
    assert "no champion" in day.refused("finish", "showdown")
    day.ok("pair", "showdown")
    day.ok("start", "showdown")
    day.report_all(9, ["--games", "2-0"])
    champion = day.status()["champion"]
    assert champion in {p for t in day.tables() for p in t}
    day.ok("finish", "showdown")
    day.ok("reopen", "showdown", "--reason", "finished before the prizes were checked")
    assert day.status()["stage"] == "elimination"
    day.ok("finish", "showdown")
    assert day.status()["stage"] == "finished" and day.status()["champion"] == champion

    # every undo is in the log with its actor and reason
    undone = {
        e["type"]: e
        for e in day.log()
        if e["type"]
        in ("registration_withdrawn", "options_changed", "player_reinstated", "tournament_reopened")
    }
    assert len(undone) == 4
    assert all(e["actor"]["role"] == "organizer" and e["reason"] for e in undone.values())
    judged = [e for e in day.log() if e["actor"] == {"role": "judge", "id": "AB"}]
    assert len(judged) == 1 and len(judged[0]["disputed"]) == 1


def test_a_12_player_xwing_event_with_points_typed_by_flag(tmp_path: Path) -> None:
    day = Event(tmp_path, "xw")
    day.ok("new", "xw", "--name", "X-Wing Night", "--ruleset", "xwing-2.0")
    for i in range(1, 13):
        day.ok("register", "xw", f"p{i}", "--name", f"Pilot {i}")
    assert day.status()["rounds_planned"] == 4
    for rnd in range(1, 5):
        day.ok("pair", "xw", "--seed", str(rnd))
        day.ok("start", "xw")
        (a, b), (c, d), *rest = day.tables()
        day.ok("report", "xw", str(rnd), a, b, "--points", "100-40")
        day.ok("report", "xw", str(rnd), c, d, "--points", "60-60", "--winner", d,
               "--decided-by", "final_salvo")  # fmt: skip
        for e, f in rest:
            day.ok("report", "xw", str(rnd), e, f, "--points", "82-37")
        assert set(day.states().values()) == {"confirmed"}
    standings = json.loads(day.ok("standings", "xw", "--json"))["standings"]
    assert len(standings) == 12 and standings[0]["points"] == 4
    day.ok("finish", "xw")
    results = [e["result"] for e in day.log() if e["type"] == "result_reported"]
    assert {
        "points": [60, 60],
        "winner": results[1]["winner"],
        "decided_by": "final_salvo",
    } in results
