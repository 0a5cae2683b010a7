"""An 8-player SWU event run in the console from creation to the final standings by
clicking and typing only (issue 17), against a real ``tledger serve``: registration by
pasting, pairing, the pairings printout, results from the keyboard, one correction in
each timing situation of swu-1.4 §5.8, one drop, a top-4 cut, the bracket and the
finish; and the results-entry and pairings pages on a 360 px phone without horizontal
scrolling. Screenshots: tests/artifacts/console-*.png.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser import console_steps as step
from tests.browser.conftest import no_horizontal_scroll, screenshot
from tests.e2e.test_http import served, token

NAMES = ["Ada Lovelace", "Bo Katan", "Cassian Andor", "Din Djarin", "Ezra Bridger",
         "Fennec Shand", "Grogu", "Hera Syndulla"]  # fmt: skip


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A served empty store and an organizer's token for every tournament."""
    store = f"sqlite:///{tmp_path_factory.mktemp('console') / 'console.sqlite3'}"
    secret = token(store, "--role", "organizer")
    with served(store) as base:
        yield base, secret


def test_an_eight_player_swu_event_runs_from_creation_to_the_final_standings(
    page: Any, server: tuple[str, str]
) -> None:
    base, secret = server
    step.sign_in(page, base, secret)
    step.create_event(page, "swu8", "Console Cup", tier="casual", cut="4")
    step.register(page, NAMES)

    step.pair_round(page, 1)
    screenshot(page, "console-round-paired")
    step.print_pairings(page, "console-print-pairings")
    step.start_round(page, 1)
    step.tab(page, "Results")
    screenshot(page, "console-results")
    step.enter_round(page, "2-1")

    said = step.correct(page, 1, 1, "1-2", "round 2 is not paired yet")
    assert "corrected" in said
    screenshot(page, "console-impact-unpaired")

    step.pair_round(page, 2)
    said = step.correct(page, 1, 2, "0-2", "round 2 is paired but not started")
    screenshot(page, "console-impact-repaired")
    if "will be re-paired" in said:
        expect(page.get_by_role("heading", name="Re-paired tables")).to_be_visible()
        expect(page.locator(".org-moves").last).to_contain_text("Table")

    step.start_round(page, 2)
    step.enter_round(page, "2-0")
    step.drop(page, NAMES[7])
    step.pair_round(page, 3)
    step.start_round(page, 3)
    said = step.correct(page, 2, 1, "2-1", "round 3 is under way: pairings stay")
    screenshot(page, "console-impact-started")
    step.enter_round(page, "2-0")

    step.make_cut(page, 4)
    said = step.correct(page, 3, 1, "1-1-1", "the cut stands", reason="slip misread")
    screenshot(page, "console-impact-after-cut")

    for number in (4, 5):
        step.pair_round(page, number)
        step.start_round(page, number)
        step.enter_round(page, "2-0")
    step.tab(page, "Cut & finish")
    expect(page.locator(".org-champion")).to_be_visible()
    step.finish(page)
    standings = page.locator("ol.org-standings li")
    expect(standings).to_have_count(8)
    screenshot(page, "console-final-standings")
    step.tab(page, "Overview")
    expect(page.locator(".org-next")).to_contain_text("finished")
    screenshot(page, "console-overview")


def test_results_entry_and_pairings_fit_a_phone(phone: Any, server: tuple[str, str]) -> None:
    base, secret = server
    step.sign_in(phone, base, secret)
    step.create_event(phone, "phone8", "Phone Cup", tier="casual")
    step.register(phone, NAMES)
    step.pair_round(phone, 1)
    assert no_horizontal_scroll(phone)
    screenshot(phone, "console-phone-round")
    step.start_round(phone, 1)
    step.tab(phone, "Results")
    assert no_horizontal_scroll(phone)
    step.enter_result(phone, 1, "2-0")
    assert no_horizontal_scroll(phone)
    screenshot(phone, "console-phone-results")
