"""Lists from the command line: a list submitted (JSON or SWU text), locked,
checked against what was presented, corrected by a judge with a reason, all shown by
``tledger log`` with actors and reasons; refusals are one line with nothing appended;
the published list's hash is recomputed from what ``tledger lists --json`` shows and
matches the event's."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from tests.e2e.test_cli import cli

TEXT = "Leader\n1 Darth Vader | Dark Lord of the Sith\nBase\n1 Energy Conversion Lab\nDeck\n" + (
    "".join(f"3 Card {i}\n" for i in range(17))
)
SHORT = {"leader": "Luke Skywalker | Faithful Friend", "base": "Echo Base",
         "deck": [{"card": "X-Wing", "count": 3}]}  # fmt: skip


def event_log(store: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = json.loads(cli("log", "t", "--json", "--store", store).stdout)[
        "events"
    ]
    return events


def setup(tmp_path: Path) -> str:
    store = f"sqlite:///{tmp_path}/l.sqlite3"
    lines = [{"type": "create_tournament", "tournament": "t", "name": "T", "ruleset": "swu-1.4",
              "options": {"rounds": 1, "cut": 0}}]  # fmt: skip
    lines += [{"type": "register_player", "tournament": "t", "player": f"p{i}", "name": f"P{i}"}
              for i in range(1, 3)]  # fmt: skip
    done = cli("apply", "-", "--store", store, stdin="\n".join(json.dumps(x) for x in lines))
    assert done.exit_code == 0, done.stderr
    return store


def test_submit_lock_correct_and_the_log_shows_every_step_with_actor_and_reason(
    tmp_path: Path,
) -> None:
    store = setup(tmp_path)
    (tmp_path / "vader.txt").write_text(TEXT)
    (tmp_path / "short.json").write_text(json.dumps(SHORT))
    done = cli("list", "submit", "t", "p1", str(tmp_path / "vader.txt"), "--store", store)
    assert done.exit_code == 0 and "list_submitted" in done.stdout, done.stderr
    done = cli("list", "submit", "t", "P2", str(tmp_path / "short.json"), "--actor", "player:p2",
               "--store", store)  # fmt: skip
    assert done.exit_code == 0, done.stderr
    assert "violates swu-1.4 §2.3.1.1: the draw deck has 3 cards" in done.stdout
    done = cli("lock-lists", "t", "--actor", "organizer:TO", "--store", store)
    assert done.exit_code == 0 and "lists_locked" in done.stdout, done.stderr
    before = len(event_log(store))
    refused = cli("list", "submit", "t", "p2", str(tmp_path / "vader.txt"), "--store", store)
    assert refused.exit_code == 1
    assert refused.stderr.strip().endswith(
        "lists are locked: a judge corrects a list with correct_list and a reason"
    )
    assert len(refused.stderr.strip().splitlines()[-1:]) == 1 and len(event_log(store)) == before
    for step in (["pair", "t", "--seed", "1"], ["start", "t"]):
        assert cli(*step, "--store", store).exit_code == 0
    checked = cli("deck-check", "t", "p2", "--round", "1", "--timing", "between_games",
                  "--outcome", "illegal", "--minutes", "4", "--presented",
                  str(tmp_path / "vader.txt"), "--actor", "judge:AK", "--store", store)  # fmt: skip
    assert checked.exit_code == 0, checked.stderr
    reason = "the list did not match the deck"
    done = cli("list", "correct", "t", "p2", str(tmp_path / "vader.txt"), "--reason", reason,
               "--actor", "judge:AK", "--store", store)  # fmt: skip
    assert done.exit_code == 0 and "list_corrected" in done.stdout, done.stderr

    steps = ("list_submitted", "lists_locked", "deck_check_recorded", "list_corrected")
    events = [e for e in event_log(store) if e["type"] in steps]
    assert [(e["type"], e["actor"]) for e in events] == [
        ("list_submitted", {"role": "organizer", "id": "local"}),
        ("list_submitted", {"role": "player", "id": "p2"}),
        ("lists_locked", {"role": "organizer", "id": "TO"}),
        ("deck_check_recorded", {"role": "judge", "id": "AK"}),
        ("list_corrected", {"role": "judge", "id": "AK"}),
    ]
    assert events[3]["compared_hash"] == events[1]["list_hash"]  # checked against the locked
    assert events[3]["difference_count"] > 0
    assert events[4]["previous_hash"] == events[1]["list_hash"]
    assert events[4]["list_hash"] != events[0]["list_hash"]  # the same list, salted anew
    # the table wraps its cells: read it as one line of words, without the borders
    table = " ".join(re.sub(r"[│┃]", " ", cli("log", "t", "--store", store).stdout).split())
    for said in ("list_submitted by organizer:local", "list_submitted by player:p2",
                 "lists_locked by organizer:TO", "deck_check_recorded by judge:AK",
                 "list_corrected by judge:AK",
                 "reason the list did not match the deck", "(swu-1.4 §2.3.1.1)"):  # fmt: skip
        assert said in table, said


def test_refusals_name_the_problem_and_append_nothing(tmp_path: Path) -> None:
    store = setup(tmp_path)
    before = len(event_log(store))
    (tmp_path / "bad.txt").write_text("Deck\nthree TIE Fighters\n")
    (tmp_path / "xwing.json").write_text('{"faction": "Rebel Alliance", "points": 100}')
    (tmp_path / "list.json").write_text(json.dumps(SHORT))
    cases = [
        (["list", "submit", "t", "p1", str(tmp_path / "bad.txt")], 2, "line 2: expected"),
        (["list", "submit", "t", "p1", str(tmp_path / "xwing.json")], 2,
         "not a swu-1.4 list: list.faction: unknown field"),
        (["list", "submit", "t", "p2", str(tmp_path / "list.json"), "--actor", "player:p1"], 1,
         "a player may submit only their own list"),
        (["list", "correct", "t", "p1", str(tmp_path / "list.json"), "--reason", "x"], 1,
         "lists are not locked yet"),
        (["list", "correct", "t", "p1", str(tmp_path / "list.json"), "--reason", "x",
          "--actor", "player:p1"], 1, "a player may not send correct_list"),
        (["lock-lists", "t", "--actor", "judge:AK"], 1, "a judge may not send lock_lists"),
        (["lists", "t"], 1, "lists: lists are shown after the event (swu-1.4 §7.1)"),
    ]  # fmt: skip
    for args, code, said in cases:
        done = cli(*args, "--store", store)
        assert done.exit_code == code, (args, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert said in lines[-1] and lines[-1].startswith("error: "), (args, done.stderr)
    assert len(event_log(store)) == before


def test_published_lists_carry_a_hash_anyone_recomputes(tmp_path: Path) -> None:
    store = setup(tmp_path)
    (tmp_path / "vader.txt").write_text(TEXT)
    (tmp_path / "short.json").write_text(json.dumps(SHORT))
    assert cli("list", "submit", "t", "p1", str(tmp_path / "vader.txt"), "--store",
               store).exit_code == 0  # fmt: skip
    assert cli("list", "submit", "t", "p2", str(tmp_path / "short.json"), "--store",
               store).exit_code == 0  # fmt: skip
    for args in (["pair", "t"], ["start", "t"]):
        assert cli(*args, "--store", store).exit_code == 0
    pairing = json.loads(cli("pairings", "t", "--json", "--store", store).stdout)["pairings"][0]
    a, b = pairing["players"]
    assert cli("report", "t", "1", a, b, "--games", "2-0", "--store", store).exit_code == 0
    assert cli("finish", "t", "--store", store).exit_code == 0

    published = json.loads(cli("lists", "t", "--json", "--store", store).stdout)
    assert published["scope"] == "event" and published["section"] == "swu-1.4 §7.1"
    by_seq = {e["seq"]: e for e in event_log(store)}
    assert [e["player"] for e in published["lists"]] == ["p1", "p2"]
    for entry in published["lists"]:
        canonical = json.dumps(entry["list"], sort_keys=True, separators=(",", ":"),
                               ensure_ascii=False).encode("utf-8")  # fmt: skip
        salted = hashlib.sha256(bytes.fromhex(entry["salt"]) + canonical).hexdigest()
        assert salted == entry["list_hash"] != hashlib.sha256(canonical).hexdigest()
        assert by_seq[entry["seq"]]["list_hash"] == entry["list_hash"]
        assert "list" not in by_seq[entry["seq"]]  # the event commits to it by hash only
    text = cli("lists", "t", "--store", store).stdout
    assert "P1 (p1), seq" in text and "1 Darth Vader | Dark Lord of the Sith" in text
    first = published["lists"][0]
    assert f"sha256 {first['list_hash']} salt {first['salt']}" in text


def test_officials_see_a_list_at_any_time_and_the_log_never_shows_a_card(tmp_path: Path) -> None:
    store = setup(tmp_path)
    (tmp_path / "short.json").write_text(json.dumps(SHORT))
    done = cli("list", "submit", "t", "p2", str(tmp_path / "short.json"), "--store", store)
    assert done.exit_code == 0, done.stderr
    seq = str(event_log(store)[-1]["seq"])
    for args in (["log", "t", "--json"], ["log", "t"], ["replay", "t", "--until", seq],
                 ["diff", "t", "1", seq], ["diff", "t", "1", seq, "--json"]):  # fmt: skip
        shown = cli(*args, "--store", store)
        assert shown.exit_code == 0, (args, shown.stderr)
        assert "X-Wing" not in shown.stdout and "Luke" not in shown.stdout, args
    [event] = [e for e in event_log(store) if e["type"] == "list_submitted"]
    assert event["violations"] == [{"rule": "deck_size", "section": "swu-1.4 §2.3.1.1",
                                    "count": 1}]  # fmt: skip

    shown = cli("list", "show", "t", "P2", "--actor", "judge:AK", "--json", "--store", store)
    assert shown.exit_code == 0, shown.stderr
    model = json.loads(shown.stdout)
    assert (model["player"], model["seq"], model["locked"]) == ("p2", event["seq"], False)
    assert model["list_hash"] == event["list_hash"] and model["list"]["deck"] == SHORT["deck"]
    assert "the draw deck has 3 cards" in model["violations"][0]["message"]
    text = cli("list", "show", "t", "p2", "--store", store).stdout
    assert "3 X-Wing" in text and "violates swu-1.4 §2.3.1.1: the draw deck has 3" in text
    cases = [
        (["list", "show", "t", "p2", "--actor", "player:p2"], 1,
         "list show: a player may not see a list before it is published"),
        (["list", "show", "t", "p1"], 1, "list show: p1 has no list"),
        (["list", "show", "t", "nobody"], 1, "nobody"),
    ]  # fmt: skip
    for args, code, said in cases:
        done = cli(*args, "--store", store)
        assert done.exit_code == code, (args, done.stderr)
        assert said in done.stderr.strip().splitlines()[-1], (args, done.stderr)


def test_a_damaged_stored_list_is_an_integrity_error_naming_the_seq(tmp_path: Path) -> None:
    import sqlite3

    store = setup(tmp_path)
    (tmp_path / "short.json").write_text(json.dumps(SHORT))
    assert cli("list", "submit", "t", "p2", str(tmp_path / "short.json"), "--store",
               store).exit_code == 0  # fmt: skip
    seq = event_log(store)[-1]["seq"]
    with sqlite3.connect(tmp_path / "l.sqlite3") as db:
        db.execute("UPDATE tledger_lists SET list = replace(list, 'X-Wing', 'A-Wing')")
    done = cli("list", "show", "t", "p2", "--store", store)
    assert done.exit_code == 3
    assert f"integrity: seq {seq}: the stored list does not hash to its list_hash" in done.stderr
