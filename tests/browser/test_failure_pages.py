"""A damaged copy of a store in headless Chromium against a real ``tledger serve``: the
console, the public page, the projector's clock and the slip page each show their own
integrity page naming the damaged seq (no line of JSON on a white page), under the
pages' one policy; the console's home marks the event and its history still reads the
log up to the damage.

Screenshots (tests/artifacts/): failure-console (the console's integrity page),
failure-console-home (the mark), failure-history, failure-audit (Verify on it),
failure-public (360 px), failure-slip (360 px, in German), failure-projector (1280 x 720).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from commands.tokens import create_token
from ledger.url import open_store
from tests.browser.conftest import no_horizontal_scroll, screenshot
from tests.browser.console_steps import sign_in
from tests.e2e.test_damaged_store import flip
from tests.e2e.test_http import served
from tests.e2e.test_slip_report import Event, make_event

DAMAGED = 6


@pytest.fixture(scope="module")
def damaged(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Event, str]]:
    """The server's base URL, its event (damaged at seq 6 of 7) and an organizer's token."""
    url = f"sqlite:///{tmp_path_factory.mktemp('damaged') / 'copy.sqlite3'}"
    event = make_event(url)
    flip(url, event.id, DAMAGED)
    secret = create_token(open_store(url), "organizer", None, None)
    with served(url) as base:
        yield base, event, secret


def test_the_console_shows_the_damage_and_the_way_out(
    page: Any, damaged: tuple[str, Event, str]
) -> None:
    base, event, secret = damaged
    sign_in(page, base, secret)
    mark = page.locator(".damaged-mark")
    expect(mark).to_have_text(f"damaged at seq {DAMAGED}")
    screenshot(page, "failure-console-home")
    page.get_by_role("link", name="Slip Night").click()
    expect(page.locator("h1")).to_have_text("The log of this event is damaged")
    expect(page.locator(".damage")).to_contain_text(f"Damaged at seq {DAMAGED}")
    expect(page.locator("main")).to_contain_text(f"tledger replay {event.id} --until 5")
    screenshot(page, "failure-console")
    page.get_by_role("navigation").get_by_role("link", name="History").click()
    expect(page.locator(".damaged-row")).to_contain_text("hash does not match")
    screenshot(page, "failure-history")
    page.goto(f"{base}/console/t/{event.id}")
    page.get_by_role("link", name="Verify").first.click()
    page.get_by_role("button", name="Verify").click()
    expect(page.locator(".verified")).to_contain_text(f"Chain broken at seq {DAMAGED}")
    screenshot(page, "failure-audit")


def test_the_public_page_and_the_slip_page_show_a_players_page(
    phone: Any, damaged: tuple[str, Event, str]
) -> None:
    base, event, _ = damaged
    answer = phone.goto(f"{base}/t/{event.id}")
    assert answer.status == 503
    expect(phone.locator("h1")).to_have_text("The results record of this event is damaged")
    expect(phone.locator(".seq")).to_have_text(f"Damaged at seq {DAMAGED}")
    assert no_horizontal_scroll(phone)
    screenshot(phone, "failure-public")
    phone.goto(f"{base}/s/{event.codes['p1']}?lang=de")
    expect(phone.locator(".seq")).to_have_text(f"Beschädigt bei Seq {DAMAGED}")
    assert no_horizontal_scroll(phone)
    screenshot(phone, "failure-slip")


def test_the_projector_shows_the_damage_across_the_room(
    page: Any, damaged: tuple[str, Event, str]
) -> None:
    base, event, _ = damaged
    page.set_viewport_size({"width": 1280, "height": 720})
    assert page.goto(f"{base}/t/{event.id}/clock").status == 503
    expect(page.locator(".seq")).to_have_text(f"Damaged at seq {DAMAGED}")
    screenshot(page, "failure-projector")
