"""The public page in headless Chromium against a real ``tledger serve``: a 40-player event
with round 2 under way on a 360 px phone and a 1280 px screen, "where do I play?" as a
player types, no horizontal scrolling, the page updating itself after a result is
reported, the fallback when the live stream fails, the bracket, the German page, a
name that holds markup and leaves a right-to-left override open shown as text that
turns nothing around it, and no request leaving 127.0.0.1 (the venue's network may
have no internet).

Screenshots (tests/artifacts/): public-phone, public-phone-search, public-desktop,
public-bracket, public-de.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from playwright.sync_api import expect

from commands.handler import Handler
from ledger.url import open_store
from tests.browser.conftest import no_horizontal_scroll, screenshot
from tests.e2e.test_http import served, token
from tests.public_event import event_in_its_cut, registered_long_ago, run, running_event

#: how long the page may take to show a new result (it waits up to 1.5 s on purpose)
UPDATE_MS = 15_000
#: a name an older version took: markup, and a right-to-left override it never closes
SPOOF = "Ada\u202e <b>Evil</b>"
#: the left edge of each character of an element's text, as the browser laid it out
LEFT_EDGES = """(element) => {
  const text = element.firstChild, range = document.createRange();
  return [...text.data].map((_, i) => {
    range.setStart(text, i); range.setEnd(text, i + 1);
    return range.getBoundingClientRect().left;
  });
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A served store with "berlin" (round 2 under way, three results in), "live" (the
    same, for the test that reports a result), "finals" (in its top cut) and "spoof"
    (round 1 paired, one name as an older version took it); the server's base URL and
    the store's URL."""
    store = f"sqlite:///{tmp_path_factory.mktemp('public') / 'public.sqlite3'}"
    handler = Handler(open_store(store))
    running_event(handler, "berlin")
    running_event(handler, "live", name="Live Update Cup")
    event_in_its_cut(handler, "finals")
    run(handler, "spoof", {"type": "create_tournament", "name": "Cup", "ruleset": "swu-1.4"},
        {"type": "register_player", "player": "p1", "name": "Ben"})  # fmt: skip
    registered_long_ago(handler, "spoof", "p9", SPOOF)
    run(handler, "spoof", {"type": "pair_round", "seed": 1})
    with served(store) as base:
        yield base, store


class Requests:
    """Every URL a page asked for, to check that none left the server."""

    def __init__(self, page: Any) -> None:
        self.urls: list[str] = []
        page.on("request", lambda request: self.urls.append(request.url))

    def all_local(self) -> bool:
        return bool(self.urls) and all(urlsplit(u).hostname == "127.0.0.1" for u in self.urls)


def visible_tables(page: Any) -> list[str]:
    return [str(t) for t in page.locator("li.match:visible").all_inner_texts()]


def test_the_phone_shows_the_round_and_finds_a_player_as_they_type(
    phone: Any, server: tuple[str, str]
) -> None:
    base, _ = server
    requests = Requests(phone)
    phone.goto(f"{base}/t/berlin")
    assert phone.locator("h1").inner_text() == "Store Showdown Berlin"
    assert phone.locator("h2").first.inner_text().startswith("Round 2 of 6")
    assert len(visible_tables(phone)) == 20
    assert phone.locator("table.standings thead").is_hidden(), "stacked rows on a phone"
    assert no_horizontal_scroll(phone)
    assert "seq " in phone.locator(".witness code").inner_text()
    expect(phone.locator("#live-state")).to_have_text("Updates itself")
    screenshot(phone, "public-phone")

    phone.locator("#q").press_sequentially("elan")  # "Élan Müller", accents ignored
    expect(phone.locator("li.match:visible")).to_have_count(1)
    found = visible_tables(phone)
    assert len(found) == 1 and "Élan Müller" in found[0]
    assert phone.locator(".player.hit").inner_text().startswith("Élan Müller")
    assert no_horizontal_scroll(phone)
    screenshot(phone, "public-phone-search")

    phone.locator("#q").fill("p40")  # a player number finds its table too
    expect(phone.locator("li.match:visible")).to_have_count(1)
    assert "Leia Organa" in visible_tables(phone)[0]
    phone.locator("#q").fill("nobody here")
    expect(phone.locator(".nobody")).to_be_visible()
    assert visible_tables(phone) == []
    phone.locator("#q").fill("")
    expect(phone.locator("li.match:visible")).to_have_count(20)
    assert requests.all_local(), [u for u in requests.urls if "127.0.0.1" not in u]


def test_a_searched_page_without_script_lists_only_the_tables_found(
    browser: Any, server: tuple[str, str]
) -> None:
    base, _ = server
    context = browser.new_context(viewport={"width": 360, "height": 740},
                                  java_script_enabled=False)  # fmt: skip
    page = context.new_page()
    page.goto(f"{base}/t/berlin")
    page.locator("#q").fill("jurgen strasse")
    page.locator("button[type=submit]").click()
    page.wait_for_url("**q=jurgen*")
    found = visible_tables(page)
    assert len(found) == 1 and "Jürgen Straße" in found[0]
    context.close()


def test_the_desktop_page_lays_the_tables_out_in_columns(
    page: Any, server: tuple[str, str]
) -> None:
    base, _ = server
    requests = Requests(page)
    page.goto(f"{base}/t/berlin")
    boxes = [page.locator("li.match").nth(i).bounding_box() for i in range(3)]
    assert len({round(b["y"]) for b in boxes}) == 1, "the first tables side by side"
    assert page.locator("table.standings thead").is_visible()
    assert no_horizontal_scroll(page)
    screenshot(page, "public-desktop")
    assert requests.all_local()


def test_the_page_updates_itself_when_a_result_is_reported(
    phone: Any, server: tuple[str, str]
) -> None:
    base, store = server
    requests = Requests(phone)
    phone.goto(f"{base}/t/live")
    expect(phone.locator("#live-state")).to_have_text("Updates itself")
    before = int(phone.locator("#view").get_attribute("data-seq"))
    secret = token(store, "--role", "organizer")
    organizer = httpx.Client(base_url=base, timeout=30,
                             headers={"Authorization": f"Bearer {secret}"})  # fmt: skip
    table = organizer.get("/tournaments/live/outstanding").json()["tables"][0]
    answer = organizer.post("/commands", json={
        "tournament": "live", "type": "report_result", "round": 2, "players": table["players"],
        "result": {"games": [2, 0], "draws": 0}})  # fmt: skip
    assert answer.status_code == 200
    expect(phone.locator("#view")).to_have_attribute("data-seq", str(before + 1),
                                                     timeout=UPDATE_MS)  # fmt: skip
    assert f"seq {before + 1} " in phone.locator(".witness code").inner_text()
    assert no_horizontal_scroll(phone)
    assert requests.all_local()


def test_without_its_live_stream_the_page_polls(phone: Any, server: tuple[str, str]) -> None:
    base, _ = server
    phone.route("**/live", lambda route: route.abort())
    phone.goto(f"{base}/t/berlin")
    expect(phone.locator("#live-state")).to_have_text("Updates every 30 seconds")


def test_the_bracket_shows_the_cut_on_a_phone(phone: Any, server: tuple[str, str]) -> None:
    base, _ = server
    requests = Requests(phone)
    phone.goto(f"{base}/t/finals")
    bracket = phone.locator("#bracket")
    assert bracket.locator("h3").first.inner_text().startswith("Semifinal")
    assert bracket.locator(".bp.won").count() == 2, "both semifinals decided"
    assert bracket.locator("ol.seeds li").count() == 4
    assert no_horizontal_scroll(phone)
    screenshot(phone, "public-bracket")
    assert requests.all_local()


def test_a_name_is_text_that_turns_neither_its_id_nor_the_next_column(
    phone: Any, server: tuple[str, str]
) -> None:
    base, _ = server
    phone.goto(f"{base}/t/spoof")
    card = phone.locator(".who .player", has_text="Evil")
    row = phone.locator("table.standings td.name", has_text="Evil")
    for shown in (card, row):
        assert "<b>Evil</b>" in shown.inner_text() and shown.locator("b").count() == 0
        edges = shown.locator("small").evaluate(LEFT_EDGES)
        assert shown.locator("small").inner_text() == "p9"
        assert edges == sorted(edges), "p9 reads left to right, not as 9p"
    assert phone.locator("h1").inner_text() == "Cup"


def test_a_german_browser_gets_the_german_page(browser: Any, server: tuple[str, str]) -> None:
    base, _ = server
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2,
                                  is_mobile=True, has_touch=True, locale="de-DE")  # fmt: skip
    page = context.new_page()
    requests = Requests(page)
    page.goto(f"{base}/t/berlin")
    assert page.locator("label[for=q]").inner_text() == "Wo spiele ich?"
    assert page.locator("h2").first.inner_text().startswith("Runde 2 von 6")
    assert "TISCH" in visible_tables(page)[0]  # shown in capitals
    assert no_horizontal_scroll(page)
    expect(page.locator("#live-state")).to_have_text("Aktualisiert sich selbst")
    screenshot(page, "public-de")
    assert requests.all_local()
    context.close()


def test_screenshots_were_saved() -> None:
    """Run last in this module: every screenshot named in the docstring exists."""
    artifacts = Path(__file__).resolve().parents[1] / "artifacts"
    for name in ("public-phone", "public-phone-search", "public-desktop", "public-bracket",
                 "public-de"):  # fmt: skip
        assert (artifacts / f"{name}.png").stat().st_size > 0
