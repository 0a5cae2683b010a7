"""A venue laptop on ``tledger serve --venue --tz Europe/Berlin`` in headless Chromium,
reached at this machine's own address on its network (skipped without one): the Round
page names the address the slips carry, the slips printed from it carry that address and
a phone opens one through it, the welcome sheet for the door carries the public page's
QR code, and the public page names the venue's zone.

Screenshots (tests/artifacts/): venue-round (the Round page), venue-welcome (the sheet
for the door), venue-public-phone (the public page at 360 px).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from commands.cli.venue import venue_addresses
from commands.handler import Handler
from commands.models import parse_command
from commands.tokens import create_token
from ledger.url import open_store
from tests.browser.conftest import no_horizontal_scroll, screenshot
from tests.browser.console_audit_steps import sign_in_console
from tests.e2e.test_http import served
from tests.public_event import NAMES

T = "venue"


@pytest.fixture(scope="module")
def venue(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, str]]:
    """Eight players, round 1 paired and started; the server's venue address, an
    organizer's token and the store."""
    if not venue_addresses():
        pytest.skip("this machine has no address on a network besides loopback")
    store = f"sqlite:///{tmp_path_factory.mktemp('venue') / f'{uuid.uuid4().hex}.sqlite3'}"
    handler = Handler(open_store(store))
    commands = [{"type": "create_tournament", "name": "Store Showdown Köln",
                 "ruleset": "swu-1.4", "options": {"format": "bo3", "tier": "casual"}},
                *({"type": "register_player", "player": f"p{i + 1}", "name": NAMES[i]}
                  for i in range(8)),
                {"type": "pair_round", "seed": 3}, {"type": "start_round"}]  # fmt: skip
    for command in commands:
        handler.handle(parse_command({"tournament": T, **command}))
    secret = create_token(handler.store, "organizer", None, None, label="TO desk")
    with served(store, "--venue", "--tz", "Europe/Berlin") as base:
        yield base, secret, store


def test_slips_and_the_welcome_sheet_carry_the_venue_address(
    page: Any, phone: Any, venue: tuple[str, str, str]
) -> None:
    base, secret, _ = venue
    assert not base.startswith("http://127."), "the first line names the venue address"
    sign_in_console(page, base, secret)
    page.goto(f"{base}/console/t/{T}/round")
    expect(page.locator("#slip-address")).to_contain_text(f"Report codes will carry {base}/s/")
    assert page.get_by_label("print codes for this computer only").count() == 0
    expect(page.locator("#round-clock")).to_contain_text("CET")
    screenshot(page, "venue-round")
    with page.expect_popup() as opened:
        page.get_by_role("button", name="Print slips with report codes").click()
    slips = opened.value
    slips.wait_for_load_state()
    urls = slips.locator(".code .url").all_inner_texts()
    assert len(urls) == 8 and all(u.startswith(f"{base}/s/") for u in urls)
    report = phone.goto(urls[0])
    assert report is not None and report.status == 200, "a phone opens the slip's address"
    page.get_by_label("Wi-Fi").fill("Venue-Guest / meeple42")
    with page.expect_popup() as opened:
        page.get_by_role("button", name="Print welcome sheet").click()
    sheet = opened.value
    sheet.wait_for_load_state()
    expect(sheet.locator("#welcome-event")).to_have_text("Store Showdown Köln")
    expect(sheet.locator("#welcome-wifi")).to_contain_text("Venue-Guest / meeple42")
    expect(sheet.locator("#welcome-url")).to_have_text(f"{base}/t/{T}")
    box = sheet.locator("#welcome-qr svg.qr").bounding_box()
    assert box is not None and box["width"] > 300, "a QR code to scan from across a room"
    screenshot(sheet, "venue-welcome")


def test_the_public_page_shows_the_venues_time_named(
    phone: Any, venue: tuple[str, str, str]
) -> None:
    base, _, _ = venue
    phone.goto(f"{base}/t/{T}")
    expect(phone.locator("time").first).to_contain_text("CET")
    assert no_horizontal_scroll(phone)
    screenshot(phone, "venue-public-phone")


def test_on_loopback_the_round_page_asks_before_printing_codes(
    page: Any, venue: tuple[str, str, str]
) -> None:
    _, secret, store = venue
    with served(store) as base:
        sign_in_console(page, base, secret)
        page.goto(f"{base}/console/t/{T}/round")
        expect(page.locator("#slip-address")).to_contain_text("reaches only this computer")
        screenshot(page, "venue-loopback-round")
        reprint = page.get_by_role("link", name="Reprint slips with new codes…")
        if reprint.count():  # codes printed by an earlier test: the reprint asks first
            reprint.click()
        with page.expect_popup() as opened:
            page.get_by_label("print codes for this computer only").check()
            page.locator("#slips-with-codes button, form button.danger").first.click()
        slips = opened.value
        slips.wait_for_load_state()
        assert slips.locator(".code .url").first.inner_text().startswith(f"{base}/s/")
        # a browser that ignores "required" still gets no codes: the server refuses (409);
        # with codes printed, printing again goes through the reprint's confirmation
        page.goto(f"{base}/console/t/{T}/round")
        page.get_by_role("link", name="Reprint slips with new codes…").click()
        expect(page.locator("#slip-address")).to_contain_text("reaches only this computer")
        page.evaluate("document.querySelector('input[name=loopback]').required = false")
        with page.expect_popup() as opened:
            page.locator("form button.danger").click()
        refused = opened.value
        refused.wait_for_load_state()
        expect(refused.locator("#loopback-refusal")).to_contain_text("No codes printed")
        assert refused.locator(".code").count() == 0
        screenshot(refused, "venue-loopback-refused")
