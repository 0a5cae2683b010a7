"""What a tired organizer and the players read, in Chromium against a real ``tledger
serve``: a round started an hour ago with one table on a judge's extension reads
"playing" at that table and "missing" in amber at the one over time; a refused entry's
error is said once, beside the field, the preview under the form not repeating it
until the table number is typed again; a damaged event's pages for players name the
event, and the projector's reads across the room.

Screenshots (tests/artifacts/): desk-results (the Results page: one table playing, one
missing and over time), desk-overview, desk-entry-refused (the error beside the field,
no preview), desk-entry-retyped (the preview of the table typed over it),
desk-projector-failure (1280 x 720), desk-public-failure (360 px).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import expect

from commands.handler import Handler
from commands.models import parse_command
from commands.tokens import create_token
from ledger.url import open_store
from tests.browser import console_steps as step
from tests.browser.conftest import no_horizontal_scroll, screenshot
from tests.e2e.test_damaged_store import flip
from tests.e2e.test_http import served
from tests.e2e.test_slip_report import make_event

T = "desk"
NAMES = {"p1": "Ada Lovelace", "p2": "Bo Katan", "p3": "Cassian Andor", "p4": "Din Djarin"}


@pytest.fixture(scope="module")
def venue(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, str]]:
    """The server's base URL, an organizer's token and a damaged event's id; beside it
    event ``desk``, whose round 1 started an hour ago (swu-1.4 §4.3.1: 55 minutes), its
    table 1 given 30 more minutes."""
    url = f"sqlite:///{tmp_path_factory.mktemp('desk') / 'desk.sqlite3'}"
    started = datetime.now(UTC) - timedelta(minutes=60)
    handler = Handler(open_store(url), clock=lambda: started)
    for command in (
        {"type": "create_tournament", "name": "Desk Night", "ruleset": "swu-1.4"},
        *({"type": "register_player", "player": p, "name": n} for p, n in NAMES.items()),
        {"type": "pair_round", "pairings": [["p1", "p2"], ["p3", "p4"]]},
        {"type": "start_round"},
        {"type": "grant_time_extension", "round": 1, "players": ["p1", "p2"], "minutes": 30},
    ):
        handler.handle(parse_command({"tournament": T, **command}))
    damaged = make_event(url)
    flip(url, damaged.id, 6)
    secret = create_token(open_store(url), "organizer", None, None)
    with served(url) as base:
        yield base, secret, damaged.id


def test_the_desk_reads_playing_and_missing_an_error_once_and_the_damage_by_name(
    page: Any, phone: Any, venue: tuple[str, str, str]
) -> None:
    base, secret, damaged = venue
    step.sign_in(page, base, secret)
    page.goto(f"{base}/console/t/{T}/results")
    playing, missing = page.locator(".chip.state-playing"), page.locator(".chip.state-missing")
    expect(playing).to_have_text("Table 1 · playing")
    expect(missing).to_have_text("Table 2 · missing · over time")
    calm, amber = (c.evaluate("e => getComputedStyle(e).color") for c in (playing, missing))
    assert calm != amber and amber == "rgb(138, 90, 0)", (calm, amber)
    screenshot(page, "desk-results")

    table = page.get_by_label("Table", exact=True)
    table.fill("8")
    page.get_by_label("Result", exact=True).fill("2-0")
    page.keyboard.press("Enter")
    expect(page.locator("#entry-error")).to_contain_text("round 1 has no table 8")
    expect(page.locator("#entry-preview")).to_have_text("")
    expect(page.get_by_text("No table 8 in this round")).to_have_count(0)
    screenshot(page, "desk-entry-refused")
    page.keyboard.type("1")
    expect(page.locator("#entry-preview")).to_have_text(
        "Table 1: \u2068Ada Lovelace\u2069 (p1) v \u2068Bo Katan\u2069 (p2) · playing"
    )
    page.keyboard.press("Backspace")
    page.keyboard.type("9")
    expect(page.locator("#entry-preview")).to_have_text("No table 9 in this round")
    screenshot(page, "desk-entry-retyped")

    page.goto(f"{base}/console/t/{T}")
    expect(page.locator("td.state-playing")).to_have_text("playing")
    expect(page.locator("td.state-missing")).to_have_text("missing")
    expect(page.locator(".org-next")).to_contain_text("1 playing, 1 missing, 0 disputed")
    screenshot(page, "desk-overview")

    page.set_viewport_size({"width": 1280, "height": 720})
    assert page.goto(f"{base}/t/{damaged}/clock").status == 503
    expect(page.locator(".event")).to_have_text("Slip Night")
    heading = page.locator("h1").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert heading >= 50, f"the projector's heading is {heading}px"
    assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")
    screenshot(page, "desk-projector-failure")

    assert phone.goto(f"{base}/t/{damaged}").status == 503
    expect(phone.locator(".event")).to_have_text("Slip Night")
    small = phone.locator("h1").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert small < 30 and no_horizontal_scroll(phone)
    screenshot(phone, "desk-public-failure")
