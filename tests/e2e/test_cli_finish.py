"""``tledger finish`` as a real process: refused (one line, nothing appended) while the
top cut the event's options call for is not made, and accepted with ``--without-cut``
and a reason, which the finish records; a drop undone before its round started gives
the player back their table."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

TLEDGER = str(Path(sys.executable).with_name("tledger"))
WON = {"games": [2, 0], "draws": 0}


def tledger(store: str, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([TLEDGER, *args, "--store", store], input=stdin, capture_output=True,
                          text=True, check=False, timeout=120)  # fmt: skip


def applied(store: str, *commands: dict[str, Any]) -> None:
    lines = "\n".join(json.dumps({"tournament": "t", **c}) for c in commands)
    done = tledger(store, "apply", "-", stdin=lines)
    assert done.returncode == 0, done.stderr


def log(store: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = json.loads(tledger(store, "log", "t", "--json").stdout)["events"]
    return events


def test_finish_is_refused_before_the_cut_and_accepted_without_it_with_a_reason(
    tmp_path: Path,
) -> None:
    store = f"sqlite:///{tmp_path}/f.sqlite3"
    applied(store,
            {"type": "create_tournament", "name": "Cup", "ruleset": "swu-1.4",
             "options": {"rounds": 1, "cut": 2}},
            *({"type": "register_player", "player": p} for p in ("p1", "p2", "p3", "p4")),
            {"type": "pair_round", "pairings": [["p1", "p2"], ["p3", "p4"]]},
            {"type": "start_round"},
            *({"type": "report_result", "round": 1, "players": t, "result": WON}
              for t in (["p1", "p2"], ["p3", "p4"])))  # fmt: skip
    before = len(log(store))
    refused = tledger(store, "finish", "t")
    assert refused.returncode != 0 and refused.stdout == ""
    assert "Traceback" not in refused.stderr
    assert "this event calls for a top 2 cut (swu-1.4, 4 players) and it was not made" in (
        refused.stderr)  # fmt: skip
    assert len(log(store)) == before
    done = tledger(store, "finish", "t", "--without-cut", "the venue closed at 22:00")
    assert done.returncode == 0, done.stderr
    last = log(store)[-1]
    assert last["type"] == "tournament_finished"
    assert last["without_cut"] == "the venue closed at 22:00"
    again = tledger(store, "finish", "t", "--without-cut", "")
    assert again.returncode != 0 and len(log(store)) == before + 1


def test_a_drop_undone_before_the_round_starts_gives_the_player_back_their_table(
    tmp_path: Path,
) -> None:
    store = f"sqlite:///{tmp_path}/r.sqlite3"
    applied(store,
            {"type": "create_tournament", "name": "Cup", "ruleset": "swu-1.4"},
            *({"type": "register_player", "player": p} for p in ("p1", "p2", "p3", "p4")),
            {"type": "pair_round", "pairings": [["p1", "p2"], ["p3", "p4"]]})  # fmt: skip
    assert tledger(store, "drop", "t", "p1").returncode == 0
    assert [e["type"] for e in log(store)][-2:] == ["player_dropped", "result_reported"]
    done = tledger(store, "reinstate", "t", "p1", "--reason", "dropped the wrong player")
    assert done.returncode == 0, done.stderr
    withdrawn = log(store)[-1]
    assert withdrawn["type"] == "automatic_result_withdrawn"
    assert (withdrawn["round"], withdrawn["players"], withdrawn["player"]) == (
        1, ["p1", "p2"], "p1")  # fmt: skip
    status = json.loads(tledger(store, "status", "t", "--json").stdout)
    table = next(t for t in status["tables"] if "p1" in t["players"])
    assert table["state"] != "confirmed"
    assert tledger(store, "start", "t").returncode == 0
    reported = tledger(store, "report", "t", "1", "p1", "p2", "--games", "2-1")
    assert reported.returncode == 0, reported.stderr
