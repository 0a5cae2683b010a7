"""A match slip's report page on a 360 px phone, against a real ``tledger serve``: a
player opens the address of the code on their half of the slip, enters the result and
submits; the opponent opens the code on their own half and confirms in one tap; the
page shows the result confirmed, and never scrolls sideways. Screenshots go to
tests/artifacts/.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest

from commands.handler import Handler
from commands.models import parse_command
from commands.slipcodes import issue_codes
from ledger.url import open_store
from tests.browser.conftest import no_horizontal_scroll, screenshot
from tests.e2e.test_http import served

NOW = datetime(2026, 11, 28, 10, 0, tzinfo=UTC)
PLAYERS = {"p1": "Anneliese Müller-Lüdenscheidt", "p2": "Ben Okafor", "p3": "Chiara Rossi",
           "p4": "Dmitri Volkov"}  # fmt: skip


@dataclass
class Served:
    base: str
    codes: dict[str, str]
    handler: Handler
    tournament: str


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Handler, str]]:
    """A served SQLite store, one for the module's tests: a handler on it and the server's
    base URL."""
    url = f"sqlite:///{tmp_path_factory.mktemp('slips') / 'slips.sqlite3'}"
    with served(url) as base:
        yield Handler(open_store(url)), base


@pytest.fixture
def slips(server: tuple[Handler, str]) -> Served:
    """A swu-1.4 event of its own on the served store, round 1 started and slips issued."""
    handler, base = server
    t = f"b-{uuid.uuid4().hex[:8]}"
    commands: list[dict[str, Any]] = [
        {"type": "create_tournament", "name": "Store Showdown Hamburg", "ruleset": "swu-1.4"},
        *({"type": "register_player", "player": p, "name": n} for p, n in PLAYERS.items()),
        {"type": "pair_round", "pairings": [["p1", "p2"], ["p3", "p4"]]},
        {"type": "start_round"},
    ]
    for command in commands:
        handler.handle(parse_command({"tournament": t, **command}))
    codes = issue_codes(handler.store, handler.folds.state(t), 1, now=NOW)
    return Served(base, codes, handler, t)


def choose(page: Any, group: str, text: str) -> None:
    """Tap the big button that shows ``text`` in the radio group whose own legend is
    ``group``."""
    page.locator(f"xpath=//fieldset[legend[normalize-space()='{group}']]"
                 f"/div/label[normalize-space()='{text}']").click()  # fmt: skip


def submit(page: Any, button: str) -> None:
    with page.expect_navigation():
        page.get_by_role("button", name=button).click()


def scores(page: Any, where: str) -> list[tuple[str, str]]:
    """The (name, number) rows of a result shown in ``where``."""
    names = page.locator(f"{where} .row span").all_inner_texts()
    numbers = page.locator(f"{where} .row b").all_inner_texts()
    return list(zip(names, numbers, strict=True))


def state_text(page: Any) -> str:
    return str(page.locator("#state").inner_text()).strip()


def test_a_player_reports_through_their_code_and_the_opponent_confirms_through_theirs(
    phone: Any, slips: Served
) -> None:
    base, codes = slips.base, slips.codes
    phone.goto(f"{base}/s/{codes['p1']}")
    assert "Store Showdown Hamburg" in phone.inner_text("header")
    assert "Round 1 · Table 1" in phone.inner_text("header")
    assert phone.inner_text(".holder") == f"Your code, {PLAYERS['p1']}"
    assert state_text(phone) == "No result yet"
    assert phone.get_by_text("I am", exact=True).count() == 0, "the code says who reports"
    choose(phone, "Games won: Anneliese Müller-Lüdenscheidt", "2")
    choose(phone, "Games won: Ben Okafor", "1")
    assert no_horizontal_scroll(phone)
    screenshot(phone, "slip-report-form")
    submit(phone, "Submit result")
    assert state_text(phone) == "Thanks — waiting for Ben Okafor to confirm"
    assert scores(phone, ".reports") == [(PLAYERS["p1"], "2"), (PLAYERS["p2"], "1")]
    assert "Ben Okafor confirms with the code on their own half of the slip." in phone.inner_text(
        "body")  # fmt: skip
    assert phone.locator("form.confirm").count() == 0, "Ada's code never confirms as Ben"
    assert no_horizontal_scroll(phone)
    screenshot(phone, "slip-report-waiting")

    phone.goto(f"{base}/s/{codes['p2'].lower().replace('-', '')}")  # as typed
    assert phone.inner_text(".holder") == "Your code, Ben Okafor"
    assert state_text(phone) == f"{PLAYERS['p1']} reported: confirm if it is right"
    assert no_horizontal_scroll(phone)
    screenshot(phone, "slip-report-confirm")
    submit(phone, "I am Ben Okafor: confirm")
    assert state_text(phone) == "Thanks — the result is confirmed"
    assert "This result is confirmed; ask a judge to correct it." in phone.inner_text("body")
    assert scores(phone, ".result") == [(PLAYERS["p1"], "2"), (PLAYERS["p2"], "1")]
    assert phone.locator("form#report").count() == 0
    assert no_horizontal_scroll(phone)
    screenshot(phone, "slip-report-confirmed")
    rnd = slips.handler.folds.state(slips.tournament).round(1)
    assert rnd is not None
    match = rnd.match_of("p1", "p2")
    assert match is not None and match.status == "confirmed"
    assert match.result is not None and match.result.games == (2, 1)
    assert [r.actor.id for r in match.reports] == ["p1", "p2"]


def test_the_page_speaks_german_and_still_fits_the_phone(phone: Any, slips: Served) -> None:
    phone.goto(f"{slips.base}/s/{slips.codes['p3']}?lang=de")
    assert "Runde 1 · Tisch 2" in phone.inner_text("header")
    assert phone.inner_text(".holder") == "Dein Code, Chiara Rossi"
    assert state_text(phone) == "Noch kein Ergebnis"
    choose(phone, "Gewonnene Spiele: Chiara Rossi", "1")
    choose(phone, "Gewonnene Spiele: Dmitri Volkov", "1")
    choose(phone, "Unentschiedene Spiele", "1")
    assert no_horizontal_scroll(phone)
    screenshot(phone, "slip-report-de")
    submit(phone, "Ergebnis senden")
    assert state_text(phone) == "Danke – wartet auf die Bestätigung von Dmitri Volkov"


def test_a_mistyped_code_shows_the_code_field_on_a_phone(phone: Any, slips: Served) -> None:
    response = phone.goto(f"{slips.base}/s/WRNG-C0DE")
    assert response.status == 404
    assert "No match has this code." in phone.inner_text("h1")
    assert no_horizontal_scroll(phone)
