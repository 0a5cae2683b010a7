"""The projector's clock page (``/t/{t}/clock``) in headless Chromium against a real
``tledger serve``: a big countdown from the round's end, the round's name, the tables
on extra time with their own ends, counting down live in the browser, German and
English, no horizontal scrolling at 360 px, nothing fetched from elsewhere, and the
page updating itself when a judge extends another table, and a projector whose own
clock is wrong counting down by the server's (its ``Date`` header).

Screenshots (tests/artifacts/): clock-projector (1280 x 720), clock-phone (360 px, in
German), public-clock (the public page's clock line and the tables' extensions).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import expect

from commands.handler import Handler
from commands.models import parse_command
from ledger.url import open_store
from tests.browser.conftest import no_horizontal_scroll, screenshot
from tests.browser.test_public_page import UPDATE_MS, Requests
from tests.e2e.test_http import served
from tests.public_event import NAMES

COUNTDOWN = re.compile(r"^(1:1\d|\d{1,2}):\d\d:\d\d$|^\d{1,2}:\d\d$")


def run(handler: Handler, t: str, *commands: dict[str, Any]) -> None:
    for command in commands:
        handler.handle(parse_command({"tournament": t, **command}))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Handler]]:
    """ "armada": 16 players, round 1 started now (135 minutes); table 3 extended by 10
    minutes, table 6 by a deck check of 5 minutes (+3); the server and its handler."""
    store = f"sqlite:///{tmp_path_factory.mktemp('clock') / 'clock.sqlite3'}"
    handler = Handler(open_store(store))
    run(handler, "armada", {"type": "create_tournament", "name": "Armada Regionals Köln",
                            "ruleset": "armada-2.0", "options": {"seed": 3}},
        *({"type": "register_player", "player": f"p{i + 1}", "name": NAMES[i]} for i in range(16)),
        {"type": "pair_round", "seed": 5}, {"type": "start_round"})  # fmt: skip
    tables = {m.table: m.players for m in handler.folds.state("armada").rounds[0].matches}
    run(handler, "armada",
        {"type": "grant_time_extension", "round": 1, "players": list(tables[3]), "minutes": 10},
        {"type": "record_deck_check", "player": tables[6][0], "round": 1,
         "timing": "before_game_1", "outcome": "legal", "minutes": 5})  # fmt: skip
    with served(store) as base:
        yield base, handler


def test_the_projector_shows_a_big_countdown_and_the_tables_on_extra_time(
    page: Any, server: tuple[str, Handler]
) -> None:
    base, _ = server
    page.set_viewport_size({"width": 1280, "height": 720})  # a projector's 720p
    requests = Requests(page)
    page.goto(f"{base}/t/armada/clock?lang=en")
    assert page.locator("h1.round").inner_text() == "Round 1 of 3"
    big = page.locator(".main .countdown")
    expect(big).to_have_text(COUNTDOWN)
    first = big.inner_text()
    assert first.startswith(("2:14:", "2:15:")), first  # 135 minutes from the start
    expect(big).not_to_have_text(first, timeout=3000)  # it counts down by itself
    size = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('.main .countdown')).fontSize)"
    )
    assert size >= 150, "readable from the back of a hall"
    cards = page.locator("ol.xt li")
    expect(cards).to_have_count(2)
    assert cards.nth(0).inner_text().startswith("Table 6")  # +8 minutes ends first
    assert "+8 min" in cards.nth(0).inner_text() and "+10 min" in cards.nth(1).inner_text()
    assert page.locator("text=Tables with extra time").is_visible()
    assert no_horizontal_scroll(page)
    assert requests.all_local()
    screenshot(page, "clock-projector")


@pytest.mark.parametrize(
    ("path", "countdown", "words", "name"),
    [("clock?lang=de", ".main .countdown", ["Runde 1 von 3", "Tische mit Zeitverlängerung"],
      "clock-phone"),
     ("?lang=en", ".roundclock .countdown", ["Round ends", "+10 min · ends", "+8 min · ends"],
      "public-clock")],
)  # fmt: skip
def test_the_clock_fits_a_phone_on_the_projector_page_and_the_public_page(
    phone: Any, server: tuple[str, Handler], path: str, countdown: str, words: list[str],
    name: str,
) -> None:  # fmt: skip
    base, _ = server
    phone.goto(f"{base}/t/armada{'/' if path.startswith('clock') else ''}{path}")
    expect(phone.locator(countdown)).to_have_text(COUNTDOWN)
    for text in words:
        assert phone.get_by_text(text).first.is_visible(), text
    assert no_horizontal_scroll(phone)
    screenshot(phone, name)


def test_a_projector_whose_clock_is_two_hours_fast_counts_down_by_the_servers_clock(
    page: Any, server: tuple[str, Handler]
) -> None:
    base, _ = server
    page.clock.set_fixed_time(datetime.now(UTC) + timedelta(hours=2))
    page.goto(f"{base}/t/armada/clock?lang=en")
    big = page.locator(".main .countdown")
    expect(big).to_have_text(re.compile(r"^2:1\d:\d\d$"))  # not "Time!": its Date header
    expect(page.locator("ol.xt li .countdown").first).to_have_text(re.compile(r"^2:2\d:\d\d$"))


def test_the_projector_updates_itself_when_a_table_is_extended(
    page: Any, server: tuple[str, Handler]
) -> None:
    base, handler = server
    page.goto(f"{base}/t/armada/clock?lang=en")
    expect(page.locator("ol.xt li")).to_have_count(2)
    players = next(
        m.players for m in handler.folds.state("armada").rounds[0].matches if m.table == 1
    )
    run(handler, "armada", {"type": "grant_time_extension", "round": 1, "players": list(players),
                            "minutes": 20})  # fmt: skip
    expect(page.locator("ol.xt li")).to_have_count(3, timeout=UPDATE_MS)
    assert page.locator("ol.xt li").nth(2).inner_text().startswith("Table 1")
