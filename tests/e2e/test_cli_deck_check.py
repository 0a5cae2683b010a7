"""Deck checks against the locked list from the command line: ``tledger
deck-check --presented FILE`` shows the official every difference with card names, the
log shows the check without a card, ``list show`` shows the comparison later, and an
export carries the presented list to the importing store."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.test_cli import cli
from tests.e2e.test_cli_lists import TEXT, event_log, setup

#: TEXT (3 of Card 0..16) with Card 0 twice and Card 16 gone, and a sideboard card
PRESENTED = TEXT.replace("3 Card 0\n", "2 Card 0\n").replace("3 Card 16\n", "") + (
    "Sideboard\n1 Vader's Lightsaber\n"
)


def checked_store(tmp_path: Path) -> str:
    store = setup(tmp_path)
    (tmp_path / "vader.txt").write_text(TEXT)
    (tmp_path / "presented.txt").write_text(PRESENTED)
    assert cli("list", "submit", "t", "p1", str(tmp_path / "vader.txt"), "--store",
               store).exit_code == 0  # fmt: skip
    for args in (["lock-lists", "t"], ["pair", "t"], ["start", "t"]):
        assert cli(*args, "--store", store).exit_code == 0, args
    return store


def test_a_deck_check_with_what_was_presented_shows_the_differences_to_the_official(
    tmp_path: Path,
) -> None:
    store = checked_store(tmp_path)
    presented = str(tmp_path / "presented.txt")
    done = cli("deck-check", "t", "P1", "--round", "1", "--timing", "between_games",
               "--outcome", "legal", "--minutes", "4", "--presented", presented,
               "--actor", "judge:AK", "--store", store)  # fmt: skip
    assert done.exit_code == 0, done.stderr
    assert "deck_check_recorded" in done.stdout
    assert "compared with the list of seq 4: 3 differences" in done.stdout
    for said in ("deck: Card 0: count, listed 3, presented 2",
                 "deck: Card 16: missing, listed 3, presented 0",
                 "sideboard: Vader's Lightsaber: extra, listed 0, presented 1"):  # fmt: skip
        assert said in done.stdout, said

    [event] = [e for e in event_log(store) if e["type"] == "deck_check_recorded"]
    assert event["actor"] == {"role": "judge", "id": "AK"} and event["difference_count"] == 3
    assert event["differences"] == [
        {"zone": "deck", "kind": "count", "count": 1},
        {"zone": "deck", "kind": "missing", "count": 1},
        {"zone": "sideboard", "kind": "extra", "count": 1},
    ]
    for args in (["log", "t", "--json"], ["log", "t"]):
        shown = cli(*args, "--store", store).stdout
        assert "Card" not in shown and "Lightsaber" not in shown and "Vader" not in shown
    assert not [e for e in event_log(store) if e["type"] == "penalty_issued"]

    shown = json.loads(cli("list", "show", "t", "p1", "--actor", "judge:AK", "--json",
                           "--store", store).stdout)  # fmt: skip
    [comparison] = shown["deck_checks"]
    assert comparison["seq"] == event["seq"] and comparison["compared_seq"] == 4
    assert comparison["presented_hash"] == event["presented_hash"]
    assert comparison["differences"][2] == {"zone": "sideboard", "kind": "extra",
                                            "entry": "Vader's Lightsaber", "listed": 0,
                                            "presented": 1}  # fmt: skip
    text = cli("list", "show", "t", "p1", "--actor", "judge:AK", "--store", store).stdout
    assert f"deck check at seq {event['seq']} (round 1, between_games, outcome legal)" in text
    assert "deck: Card 16: missing, listed 3, presented 0" in text

    exported = tmp_path / "t.jsonl"
    assert cli("export", "t", "-o", str(exported), "--store", store).exit_code == 0
    target = f"sqlite:///{tmp_path}/copy.sqlite3"
    assert cli("import", str(exported), "--store", target).exit_code == 0
    again = cli("list", "show", "t", "p1", "--json", "--store", target).stdout
    assert json.loads(again)["deck_checks"] == shown["deck_checks"]


def test_a_deck_check_that_finds_nothing_says_so_and_one_without_a_list_notes_it(
    tmp_path: Path,
) -> None:
    store = checked_store(tmp_path)
    args = ["--round", "1", "--timing", "after_match", "--outcome", "legal", "--store", store]
    done = cli("deck-check", "t", "p1", "--presented", str(tmp_path / "vader.txt"), *args)
    assert done.exit_code == 0, done.stderr
    assert "compared with the list of seq 4: no differences" in done.stdout
    done = cli("deck-check", "t", "p2", "--presented", str(tmp_path / "vader.txt"), *args)
    assert done.exit_code == 0, done.stderr
    assert "no locked list to compare" in done.stdout
    checks = [e for e in event_log(store) if e["type"] == "deck_check_recorded"]
    assert [(e.get("difference_count"), e.get("note")) for e in checks] == [
        (0, None), (None, "no locked list to compare")]  # fmt: skip


def test_a_presented_file_that_is_not_a_list_is_refused_and_nothing_appended(
    tmp_path: Path,
) -> None:
    store = checked_store(tmp_path)
    before = len(event_log(store))
    (tmp_path / "bad.txt").write_text("Deck\nthree TIE Fighters\n")
    (tmp_path / "bad.json").write_text('{"faction": "Rebel Alliance"}')
    args = ["--round", "1", "--timing", "after_match", "--outcome", "legal", "--store", store]
    cases = (
        ("bad.txt", 2, "line 2: expected"),
        ("bad.json", 2, "not a swu-1.4 list: list.faction: unknown field"),
    )
    for name, code, said in cases:
        done = cli("deck-check", "t", "p1", "--presented", str(tmp_path / name), *args)
        assert done.exit_code == code, done.stderr
        last = done.stderr.strip().splitlines()[-1]
        assert last.startswith("error: ") and said in last, done.stderr
    assert len(event_log(store)) == before
