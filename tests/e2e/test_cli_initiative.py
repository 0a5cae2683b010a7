"""Who chooses initiative end to end, on SQLite and PostgreSQL: squad lists
submitted with ``tledger list submit``, then ``pairings --json`` names who chooses
(never the points), ``tledger print`` shows the organizer the points too, and the
public page over HTTP shows only who chooses."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.test_cli import cli
from tests.e2e.test_http import served
from tests.stores import KINDS, fresh_postgres_database, store_url

NAMES = {"p1": "Ada", "p2": "Bail", "p3": "Cassian", "p4": "Dana"}


@pytest.fixture(params=KINDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield store_url("sqlite", tmp_path, "initiative.sqlite3")
    else:
        with fresh_postgres_database(store_url("postgres", tmp_path)) as own:
            yield own


def squad(points: int) -> dict[str, Any]:
    return {"faction": "Scum and Villainy", "points": points,
            "pilots": [{"pilot": "Boba Fett", "ship": "Firespray", "points": points}],
            "obstacles": ["Asteroid 1", "Asteroid 2", "Debris 1"]}  # fmt: skip


def apply(url: str, *commands: dict[str, Any]) -> None:
    lines = "\n".join(json.dumps({"tournament": "t", **c}) for c in commands)
    done = cli("apply", "-", "--store", url, stdin=lines)
    assert done.exit_code == 0, done.stderr


def test_lists_decide_who_chooses_on_paper_and_on_the_public_page(url: str, tmp_path: Path) -> None:
    apply(url, {"type": "create_tournament", "name": "Squads", "ruleset": "xwing-2.0",
                "options": {"rounds": 1}},
          *({"type": "register_player", "player": p, "name": n} for p, n in NAMES.items()),
          {"type": "pair_round", "pairings": [["p1", "p2"], ["p3", "p4"]]})  # fmt: skip
    for player, points in (("p1", 100), ("p2", 94), ("p3", 99), ("p4", 99)):
        path = tmp_path / f"{player}.json"
        path.write_text(json.dumps(squad(points)))
        done = cli("list", "submit", "t", player, str(path), "--store", url)
        assert done.exit_code == 0, done.stderr

    shown = json.loads(cli("pairings", "t", "--json", "--store", url).stdout)["pairings"]
    assert shown == [{"table": 1, "players": ["p1", "p2"], "chooses_initiative": "p2"},
                     {"table": 2, "players": ["p3", "p4"], "initiative_tie": True}]  # fmt: skip

    printed = cli("print", "t", "pairings", "--lang", "de", "--store", url)
    assert printed.exit_code == 0, printed.stderr
    assert "<strong><bdi>Bail</bdi></strong> bestimmt" in printed.stdout
    assert "94 Pkt." in printed.stdout and "Gleichstand: auslosen, wer bestimmt" in printed.stdout

    with served(url) as base:
        page = httpx.get(f"{base}/t/t?lang=en", timeout=10).text
        api = httpx.get(f"{base}/t/t/content?lang=de", timeout=10).text
    tables, german = pairings_section(page), pairings_section(api)
    assert "Table 1 Ada p1 vs Bail p2 Bail chooses initiative" in tables
    assert "Table 2 Cassian p3 vs Dana p4 Tie: decide at random who chooses initiative" in tables
    assert "Bail bestimmt die Initiative" in german
    assert not re.search(r"\b(94|99|100)\b", tables + german)  # the points stay secret


def pairings_section(html: str) -> str:
    """The words of the page's pairings section, tags removed."""
    found = re.search(r'<section id="pairings">(.*?)</section>', html, flags=re.S)
    assert found is not None
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())
