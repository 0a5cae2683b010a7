"""The draft pods printout (swu-1.4 §2.3.2.1) in headless Chromium: each pod on
its own sheet with large seat numbers, names and the witness line; a screenshot under
tests/artifacts/."""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import no_horizontal_scroll, screenshot
from tests.browser.test_printouts import pdf_pages, show, visible
from tests.printing import Event


def draft(players: int = 13) -> Event:
    event = Event("swu-1.4", players, name="Draft Night", deck_format="draft")
    event.do(type="assign_pods", pod_size=8, seed=5)
    event.do(type="start_deck_building")
    return event


def test_the_pods_printout_shows_each_pod_with_large_seat_numbers(page: Any) -> None:
    event = draft()
    show(page, event.pods())
    assert visible(page, "Draft pods") and visible(page, "Pod 1") and visible(page, "Pod 2")
    assert page.locator("#pod-table-1 tbody tr").count() == 7
    assert page.locator("#pod-table-2 tbody tr").count() == 6
    assert visible(page, f"seq {event.state.seq} {event.state.head}")
    seat = page.locator("#pod-table-1 td.seat-no").first
    name = page.locator("#pod-table-1 td.player").first
    size = "parseFloat(getComputedStyle(e).fontSize)"
    assert seat.evaluate(f"e => {size}") > 1.5 * name.evaluate(f"e => {size}")
    assert seat.inner_text() == "1"
    assert page.locator("script").count() == 0  # the markup name stayed text
    assert no_horizontal_scroll(page)
    screenshot(page, "print-pods")
    show(page, event.pods(), media="print")
    assert len(pdf_pages(page)) == 2  # one sheet per pod


def test_the_pods_printout_in_german(page: Any) -> None:
    show(page, draft(6).pods(lang="de"))
    assert visible(page, "Draft-Gruppen") and visible(page, "Gruppe 1")
    assert visible(page, "Booster gehen nach links")
    screenshot(page, "print-pods-de")
