"""A 24-player SWU day run as an organizer runs it, on ``tledger serve --venue`` at this
machine's own address on its network (skipped without one), in headless Chromium: the
event created from the console with its plan in view and the players pasted; round 1
paired, its slips printed with report codes whose addresses and QR codes carry the venue
address, started after the warning about the lists; one table reported from a 360 px
phone at the slip's address and confirmed from the opponent's phone with their own code,
the console then showing it; the other tables entered at the desk; round 2 paired, a
player dropped by mistake (the confirmation names the automatic result) and reinstated
before the start, back at their table with no result; the finish refused after the
Swiss rounds for want of the top 8 cut (swu-1.4 §4.5), the cut made and played to the
champion; then a damaged copy of the store on a second ``serve``, where the console,
the public page, the slip page and the projector's clock each show the integrity page
naming the seq.

Screenshots: tests/artifacts/venue-day-*.png (the organizer's pages at 1280 px, the players'
phones at 360 px, the slips and one slip on its own, each face of the damaged copy).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any, NamedTuple

import pytest
from playwright.sync_api import expect

from commands.cli.venue import venue_addresses
from tests.browser import console_steps as step
from tests.browser import venue_day_steps as day
from tests.browser.conftest import ARTIFACTS, no_horizontal_scroll
from tests.e2e.test_http import served, token
from tests.public_event import NAMES

T = "day24"
TITLE = "Store Showdown Köln"
PLAYERS = NAMES[:24]
#: the seq of round 1's pairing (a creation, 24 registrations, then the pairing)
DAMAGED = 26


class Venue(NamedTuple):
    base: str
    address: str
    store: str
    organizer: str


@pytest.fixture(scope="module")
def venue(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Venue]:
    """An empty store served with ``--venue --venue-address`` at this machine's first
    address on its network, and an organizer's token made beforehand."""
    addresses = venue_addresses()
    if not addresses:
        pytest.skip("this machine has no address on a network besides loopback")
    store = f"sqlite:///{tmp_path_factory.mktemp('day') / f'{uuid.uuid4().hex}.sqlite3'}"
    secret = token(store, "--role", "organizer")
    options = ("--venue", "--venue-address", addresses[0], "--tz", "Europe/Berlin")
    with served(store, *options) as base:
        yield Venue(base, addresses[0], store, secret)


def test_a_24_player_day_at_the_venue(page: Any, phone: Any, second_phone: Any, venue: Venue,
                                      tmp_path: Any) -> None:  # fmt: skip
    base = venue.base
    assert base.startswith(f"http://{venue.address}:"), "slips carry the venue address"
    asked: list[str] = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))

    step.sign_in(page, base, venue.organizer)
    step.create_event(page, T, TITLE, len(PLAYERS), "venue-day-new", rounds="2")
    step.register(page, PLAYERS)
    day.shot(page, "players")
    step.tab(page, "Overview")
    day.shot(page, "overview")

    step.pair_round(page, 1)
    slips = day.slips_with_codes(page, base)
    assert len(slips) == 12
    expect(page.locator(".org-warning")).to_contain_text("lists")
    day.shot(page, "round1-paired")
    step.start_round(page, 1)
    assert asked and "lists" in asked[-1], "starting without lists asks first"
    day.shot(page, "round1-started")

    first, second = slips[1]
    day.phone_reports(phone, first, second, (2, 1))
    day.phone_confirms(second_phone, second, first)
    step.tab(page, "Results")
    row = page.locator("ul.org-results li").filter(has_text=first.name)
    expect(row).to_contain_text(f"{first.name} v {second.name}")
    expect(row).to_contain_text("2-1")
    assert 1 not in step.waiting_tables(page)
    day.shot(page, "results-after-phone")
    step.enter_round(page, "2-0")
    expect(page.locator(".org-next")).to_contain_text("pair round 2")
    day.shot(page, "round1-entered")

    step.pair_round(page, 2)
    dropped = PLAYERS[5]
    table = day.table_of(page, dropped)
    card = page.locator("li.card").filter(has_text=f"Table {table}").filter(has_text=dropped)
    opponent = next(n for n in card.locator("strong").all_inner_texts() if n != dropped)
    day.shot(page, "round2-paired")
    day.mistaken_drop(page, dropped, opponent, table, 2)
    day.reinstate(page, dropped, table, 2, "dropped the wrong player")
    step.start_round(page, 2)
    step.enter_round(page, "2-0")

    day.finish_refused(page, 8, 2)
    step.make_cut(page, 8)
    day.shot(page, "cut")
    for number in (3, 4, 5):
        step.pair_round(page, number)
        step.start_round(page, number)
        step.enter_round(page, "2-0")
    step.tab(page, "Cut & finish")
    expect(page.locator(".org-champion")).to_be_visible()
    step.finish(page)
    day.shot(page, "finished")
    step.tab(page, "Overview")
    expect(page.locator("main")).not_to_contain_text("(erased)")
    day.shot(page, "overview-finished")
    phone.goto(f"{base}/t/{T}")
    expect(phone.locator("h1")).to_contain_text(TITLE)
    assert no_horizontal_scroll(phone)
    day.shot(phone, "public-finished")
    phone.screenshot(path=str(ARTIFACTS / "venue-day-public-finished-top.png"))

    copy = f"sqlite:///{tmp_path / 'copy.sqlite3'}"
    day.damaged_copy(venue.store, copy, T, DAMAGED)
    with served(copy) as damaged:
        day.integrity_everywhere(page, phone, damaged, venue.organizer, T, TITLE, first.code,
                                 DAMAGED)  # fmt: skip
