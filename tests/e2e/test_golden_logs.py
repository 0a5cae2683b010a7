"""Every log ever written verifies, folds and imports in this version, so no release
strands an event run with an earlier one.

``tests/fixtures/logs/<format>/`` holds, per ruleset, a SQLite store written by
the version of that format, its export and what it gave then (standings,
bracket, status, head). These files are never edited or regenerated: a format
change adds a folder (``write_golden.py``), and every folder must keep passing.
"""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from commands.reads.listviews import published_lists
from ledger.list_events import list_hash
from ledger.transfer import export_lines, import_lines
from ledger.url import open_store
from replay.rebuild import rebuild
from replay.verify import verify
from tests.e2e.test_cli import cli
from tests.plain_views import bracket_view, standings_view, status_view

LOGS = Path(__file__).resolve().parents[1] / "fixtures" / "logs"
GOLDEN = sorted(LOGS.glob("*/*.expected.json"))
IDS = [f"{p.parent.name}/{p.name.removesuffix('.expected.json')}" for p in GOLDEN]


def expected_of(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = orjson.loads(path.read_bytes())
    return data


def sibling(path: Path, suffix: str) -> Path:
    return path.with_name(path.name.removesuffix(".expected.json") + suffix)


@pytest.fixture(params=GOLDEN, ids=IDS)
def golden(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """(expected.json, URL of a copy of its store): opening a store may write to it."""
    path: Path = request.param
    copy = tmp_path / "golden.sqlite3"
    shutil.copyfile(sibling(path, ".sqlite3"), copy)
    yield path, f"sqlite:///{copy}"


TEAMS = "lcg-2.1d-teams"  # the LCG team event, from format 5 on


def is_teams(path: Path) -> bool:
    return path.name.startswith(f"{TEAMS}.")


def test_there_is_a_golden_log_of_every_ruleset_in_every_format() -> None:
    formats = sorted({p.parent.name for p in GOLDEN})
    assert {"format-1", "format-2", "format-3", "format-4", "format-5", "format-6"} <= set(formats)
    for fmt in formats:
        rulesets = sorted(p.name.removesuffix(".expected.json") for p in LOGS.glob(f"{fmt}/*.json"))
        teams = [TEAMS] if fmt >= "format-5" else []
        assert rulesets == ["armada-2.0", "lcg-2.1d", *teams, "swu-1.0", "swu-1.4", "xwing-2.0"]


def test_every_golden_log_covers_every_event_type_its_ruleset_allows(
    golden: tuple[Path, str],
) -> None:
    expected = expected_of(golden[0])
    assert len(expected["types"]) >= 14
    assert {"pairings_revised", "tournament_finished"} <= set(expected["types"])
    if not is_teams(golden[0]):  # a team event has no cut (lcg-2.1d Team-Turniere)
        assert "cut_made" in expected["types"]
    if golden[0].parent.name >= "format-3":  # the undo events came with format 3
        undo = {"player_reinstated", "tournament_reopened", "registration_withdrawn",
                "options_changed"}  # fmt: skip
        assert undo <= set(expected["types"])
    if golden[0].parent.name >= "format-4":  # the list events came with format 4
        assert {"list_submitted", "lists_locked", "list_corrected"} <= set(expected["types"])
    if golden[0].parent.name >= "format-5":  # limited events and teams came with format 5
        wanted = {"swu-1.4": {"pods_assigned", "deck_building_started"},
                  "swu-1.0": {"deck_building_started"}, TEAMS: {"team_registered"}}  # fmt: skip
        assert wanted.get(golden[0].name.removesuffix(".expected.json"), set()) <= set(
            expected["types"]
        )


def test_golden_log_verifies_with_the_cli(golden: tuple[Path, str]) -> None:
    done = cli("verify", "--all", "--json", "--store", golden[1])
    assert done.exit_code == 0, done.stdout + done.stderr
    report = orjson.loads(done.stdout.splitlines()[0])
    assert report["ok"] and report["head"] == expected_of(golden[0])["head"]


def test_golden_log_folds_to_the_recorded_standings_bracket_and_head(
    golden: tuple[Path, str],
) -> None:
    path, url = golden
    expected = expected_of(path)
    store = open_store(url)
    tournament = expected["tournament"]
    state, events = rebuild(store, tournament)
    assert (len(events), state.head) == (expected["events"], expected["head"])
    assert standings_view(state, store.players(tournament)) == expected["standings"]
    assert bracket_view(state) == expected["bracket"]
    status = status_view(state)
    assert {k: status[k] for k in expected["status"]} == expected["status"]
    report = verify(tournament, store.load_raw(tournament), events)
    assert report.ok, [p for p in report.pairings if not p.ok]
    if path.parent.name >= "format-4":  # the lists beside the events
        published = published_lists(state, {}, store.lists(tournament))
        assert published.scope == "event"
        assert len(published.lists) == (6 if is_teams(path) else 10)
        assert all(list_hash(e.list, e.salt or "") == e.list_hash == state.lists[e.player].hash
                   for e in published.lists)  # fmt: skip
        salted = path.parent.name >= "format-6"  # salted hashes came with format 6
        assert all((e.salt is not None) == salted for e in published.lists)


@pytest.mark.parametrize("target", ["memory", "sqlite"])
def test_golden_export_imports_to_the_same_head_and_standings(
    golden: tuple[Path, str], target: str, tmp_path: Path
) -> None:
    path, _ = golden
    expected = expected_of(path)
    url = f"memory://{uuid.uuid4().hex}" if target == "memory" else f"sqlite:///{tmp_path}/i.db"
    store = open_store(url)
    lines = sibling(path, ".export.jsonl").read_bytes().splitlines()
    assert import_lines(store, lines) == (expected["tournament"], expected["events"])
    state, _ = rebuild(store, expected["tournament"])
    assert state.head == expected["head"]
    names = store.players(expected["tournament"])
    assert standings_view(state, names) == expected["standings"]
    exported = [data for _, _, data in store.load_raw(expected["tournament"])]
    assert exported == lines[1:], "an import stores the exported bytes unchanged"
    if path.parent.name >= "format-4":  # the export carries the lists, the import keeps them
        listed = orjson.loads(lines[0])["lists"]
        events = {r.seq: r.event for r in store.load(expected["tournament"])}
        with_lists = [
            s for s, e in events.items() if e.type in ("list_submitted", "list_corrected")
        ]
        assert [e["seq"] for e in listed] == with_lists
        assert len(with_lists) >= (8 if is_teams(path) else 11)
        kept = store.lists(expected["tournament"])
        assert [(e.seq, e.list_hash, e.list, e.salt) for e in kept] == [
            (e["seq"], e["list_hash"], e["list"], e.get("salt", "")) for e in listed]  # fmt: skip
        salted = path.parent.name >= "format-6"  # salted hashes came with format 6
        assert all(("salt" in e) == salted for e in listed)
        assert export_lines(store, expected["tournament"])[0] == lines[0], "exported as it came"
