"""Who chooses initiative in Chromium, as players and judges see it: the wall printout of
an X-Wing round with squad lists (A4, still two sheets, no sideways scrolling) and the
public page on a 360 px phone; a screenshot each under tests/artifacts/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import no_horizontal_scroll, screenshot
from tests.browser.test_printouts import pdf_pages, show, visible
from tests.e2e.test_http import served
from tests.printing import Event, T
from tests.unit.test_initiative import squad, tables_of


def squads(store: str = "") -> Event:
    """16 players in round 1: every table's points differ but the first (a tie) and the
    last (one list missing)."""
    event = Event("xwing-2.0", players=16, name="Squadron Cup", store=store)
    event.pair()
    tables = tables_of(event)
    for number, players in enumerate(tables):
        for seat, player in enumerate(players):
            missing = number == len(tables) - 1 and seat == 1
            if not missing:
                points = 100 if number == 0 else 90 + (number + seat * 3) % 11
                event.do(type="submit_list", player=player, list=squad(points))
    return event


@pytest.fixture(scope="module")
def event() -> Event:
    return squads()


def test_the_printout_shows_who_chooses_on_screen_and_in_print(page: Any, event: Event) -> None:
    show(page, event.pairings())
    assert page.locator("#by-table th", has_text="Initiative").is_visible()
    assert visible(page, "tie: decide at random who chooses")
    assert page.locator("#by-table td.init strong").count() == 6
    assert visible(page, '(xwing-2.0 "Spielvorbereitung" step 4)')
    assert no_horizontal_scroll(page)
    screenshot(page, "print-pairings-initiative")
    show(page, event.pairings("de"), media="print")
    assert len(pdf_pages(page)) == 2
    screenshot(page, "print-pairings-initiative-de")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store = f"sqlite:///{tmp_path_factory.mktemp('initiative') / Path('squads.sqlite3')}"
    squads(store)
    with served(store) as base:
        yield base


def test_the_phone_shows_who_chooses_and_never_the_points(phone: Any, server: str) -> None:
    phone.goto(f"{server}/t/{T}?lang=en")
    cards = phone.locator("li.match")
    assert cards.count() == 8
    assert cards.nth(0).locator(".init").inner_text() == (
        "Tie: decide at random who chooses initiative"
    )
    assert cards.nth(1).locator(".init").inner_text().endswith(" chooses initiative")
    assert cards.nth(7).locator(".init").count() == 0
    assert "pts" not in phone.locator("#pairings").inner_text()
    assert no_horizontal_scroll(phone)
    screenshot(phone, "public-phone-initiative")
