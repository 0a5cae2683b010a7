"""The limited and team formats run in the console by clicking and typing only (the
console does everything the CLI does, so an organizer never needs a terminal), against a
real ``tledger serve``: an SWU draft (swu-1.4 §2.3.2: pods assigned, deck building
started, round 1 paired) and an lcg-2.1d team event (four teams pasted, round 1 paired),
each page also on a 360 px phone without horizontal scrolling. Screenshots:
tests/artifacts/console-formats-*.png.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, NamedTuple

import pytest
from playwright.sync_api import expect

from tests.browser import console_steps as step
from tests.browser.conftest import no_horizontal_scroll, screenshot
from tests.e2e.test_http import served, token

NAMES = ["Ada Lovelace", "Bo Katan", "Cassian Andor", "Din Djarin", "Ezra Bridger",
         "Fennec Shand", "Grogu", "Hera Syndulla"]  # fmt: skip
TEAMS = ["Rebel Cell; Ada Lovelace; Ben Kenobi", "Rogue Pair; Cid Lerr; Dex Jettster",
         "Twin Suns; Eli Vanto; Fin Doran", "Outer Rim; Gia Rook; Hux Brendol"]  # fmt: skip


class Venue(NamedTuple):
    base: str
    organizer: str


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Venue]:
    store = f"sqlite:///{tmp_path_factory.mktemp('formats') / 'formats.sqlite3'}"
    secret = token(store, "--role", "organizer")
    with served(store) as base:
        yield Venue(base, secret)


def shots(page: Any, phone: Any, name: str) -> None:
    """The page as it is now at 1280 px, and the same address on the 360 px phone, which
    must not scroll sideways."""
    screenshot(page, f"console-formats-{name}")
    phone.goto(page.url.split("?")[0])
    screenshot(phone, f"console-formats-{name}-360")
    assert no_horizontal_scroll(phone), name


def test_a_draft_gets_its_pods_and_deck_building_before_round_1(
    page: Any, phone: Any, server: Venue
) -> None:
    step.sign_in(page, server.base, server.organizer)
    step.sign_in(phone, server.base, server.organizer)
    step.create_event(page, "draft8", "Draft Night", deck_format="draft")
    step.register(page, NAMES)
    step.tab(page, "Overview")
    expect(page.locator(".org-next")).to_contain_text("assign the draft pods")
    page.locator(".org-next a").click()
    page.get_by_role("button", name="Assign pods").click()
    step.flash_ok(page, "pods assigned")
    expect(page.locator(".org-pods .card")).to_have_count(1)
    expect(page.locator(".org-seats li")).to_have_count(8)
    shots(page, phone, "pods")
    href = page.get_by_role("link", name="Print pods").get_attribute("href")
    back = page.url
    page.goto(server.base + href)
    expect(page.get_by_text("Hera Syndulla").first).to_be_visible()
    screenshot(page, "console-formats-pods-print")
    page.goto(back)
    page.get_by_label("Minutes").fill("40")
    page.get_by_role("button", name="Start deck building").click()
    step.flash_ok(page, "deck building started")
    expect(page.locator("#deck-building .countdown")).to_have_text(re.compile(r"\d+:\d\d"))
    expect(page.locator("#deck-building")).to_contain_text("40 min")
    shots(page, phone, "deck-building")
    step.pair_round(page, 1)
    expect(page.locator(".org-cards .card")).to_have_count(4)
    shots(page, phone, "draft-round-1")


def test_an_lcg_team_event_registers_four_pasted_teams_and_pairs_round_1(
    page: Any, phone: Any, server: Venue
) -> None:
    step.sign_in(page, server.base, server.organizer)
    step.sign_in(phone, server.base, server.organizer)
    page.get_by_role("link", name="New event").click()
    page.get_by_label("Ruleset").select_option("lcg-2.1d")
    page.get_by_role("button", name="Show its options").click()
    page.get_by_label("Tournament id").fill("teams4")
    page.get_by_label("Name", exact=True).fill("Team Cup")
    page.locator("[name='lcg-2.1d.team']").select_option("true")
    page.locator("[name='lcg-2.1d.round_minutes']").fill("90")
    shots(page, phone, "new-team")
    page.get_by_role("button", name="Create the event").click()
    step.flash_ok(page, "created teams4")
    page.get_by_label(re.compile("One team a line")).fill("\n".join(TEAMS))
    page.get_by_role("button", name="Register all teams").click()
    step.flash_ok(page, "registered 4 teams")
    expect(page.locator(".org-player")).to_have_count(4)
    expect(page.locator(".org-list")).to_contain_text("Rebel Cell (Ada Lovelace, Ben Kenobi)")
    shots(page, phone, "teams")
    step.tab(page, "Lists")
    expect(page.get_by_text("The team's four decks")).to_be_visible()
    shots(page, phone, "team-lists")
    step.pair_round(page, 1)
    expect(page.locator(".org-cards .card")).to_have_count(2)
    expect(page.locator(".org-cards")).to_contain_text("Outer Rim")
    shots(page, phone, "team-round-1")
