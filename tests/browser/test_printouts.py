"""Every printout in headless Chromium: on a 1280 px screen and in print media, its
visible content, a screenshot each under tests/artifacts/, and Chromium's own print to
PDF to check that long pages paginate on the chosen paper (a test check, not a
product feature: ``tledger print`` writes HTML)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from commands.pages.assets import self_contained
from tests.browser.conftest import no_horizontal_scroll, screenshot
from tests.printing import Event, codes_for, swiss, with_bracket


@pytest.fixture(scope="module")
def swu() -> Event:
    return swiss("swu-1.4", players=8, played=1)


def show(page: Any, html: str, media: str = "screen") -> None:
    """The printout as ``tledger print`` writes it to a file (its CSS inline), opened
    with no server behind it."""
    page.emulate_media(media=media)
    page.set_content(self_contained(html), wait_until="load")


def pdf_pages(page: Any) -> list[tuple[float, float]]:
    """Chromium's print of the page (its CSS ``@page`` size): each page's width and height
    in points."""
    data = page.pdf(prefer_css_page_size=True, print_background=False)
    boxes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)
    return [(float(w), float(h)) for w, h in boxes]


def visible(page: Any, words: str) -> bool:
    return bool(page.get_by_text(words, exact=False).first.is_visible())


def test_pairings_on_screen_and_in_print(page: Any, swu: Event) -> None:
    show(page, swu.pairings())
    rnd = swu.state.current
    assert rnd is not None
    assert visible(page, "Pairings · Round 2") and visible(page, "Store Showdown")
    assert page.locator("#by-table tbody tr").count() == len(rnd.matches)
    assert page.locator("#by-name tbody tr").count() == 8
    assert visible(page, f"seq {swu.state.seq} {swu.state.head}")
    assert not page.locator(".running").first.is_visible()  # the sheet title: print only
    assert page.locator("script").count() == 0  # the markup name stayed text
    assert visible(page, "<script>alert(1)</script>")
    assert no_horizontal_scroll(page)
    screenshot(page, "print-pairings")
    show(page, swu.pairings(), media="print")
    assert page.locator(".running").first.is_visible()
    pages = pdf_pages(page)
    assert len(pages) == 2  # by table, then by name on a new sheet
    assert all(abs(w - 595) < 2 and abs(h - 842) < 2 for w, h in pages)  # A4


def test_512_player_pairings_paginate_in_table_order_with_a_header_on_each_sheet(
    page: Any,
) -> None:
    event = swiss("swu-1.4", players=512, played=0)
    show(page, event.pairings(), media="print")
    cells = page.locator("#by-table tbody td.table-no").all_inner_texts()
    assert cells == [str(n) for n in range(1, 257)]
    row = page.locator("#by-table tbody tr").first
    assert row.evaluate("r => getComputedStyle(r).breakInside") == "avoid"
    assert page.locator("#by-table thead").evaluate(
        "h => getComputedStyle(h).display") == "table-header-group"  # fmt: skip
    screenshot(page, "print-pairings-512")
    pages = pdf_pages(page)
    assert len(pages) > 10  # 256 tables and 512 names in wall-sized type
    letter = event.pairings(paper="letter")
    show(page, letter, media="print")
    assert all(abs(w - 612) < 2 and abs(h - 792) < 2 for w, h in pdf_pages(page))


def test_german_pairings(page: Any, swu: Event) -> None:
    show(page, swu.pairings("de"))
    for words in ("Paarungen · Runde 2", "Nach Tisch", "Nach Name", "Gegner",
                  "Protokollstand (für verify --witness)"):  # fmt: skip
        assert visible(page, words), words
    screenshot(page, "print-pairings-de")


def test_standings(page: Any, swu: Event) -> None:
    show(page, swu.standings())
    assert visible(page, "Standings · Round 2")
    headers = page.locator("#standings thead tr:not(.running) th").all_inner_texts()
    assert [h.upper() for h in headers[-3:]] == ["OMW%", "GW%", "OGW%"]
    assert page.locator("#standings tbody tr").count() == 8
    assert visible(page, "swu-1.4 §5.7.1.1")
    assert no_horizontal_scroll(page)
    screenshot(page, "print-standings")


def test_slips_with_codes_and_qr_codes(page: Any, swu: Event) -> None:
    codes = codes_for(swu)
    show(page, swu.slips(codes=codes))
    slips = page.locator("article.slip")
    assert slips.count() == 4
    first = slips.first
    assert first.get_by_text("Table").first.is_visible()
    assert first.locator(".sign").count() == 2
    halves = first.locator(".code")
    assert halves.count() == 2, "each player's own code, on their half"
    rnd = swu.state.current
    assert rnd is not None
    for half, player in zip(halves.all(), rnd.matches[0].players, strict=True):
        assert half.locator(".code-text").inner_text() == codes[player].code
        assert player in half.locator(".holder").inner_text()
        box = half.locator("svg.qr").bounding_box()
        assert box is not None and box["width"] >= 70 and abs(box["width"] - box["height"]) < 1
    top, bottom = (h.bounding_box() for h in halves.all())
    table = first.locator("table.result").bounding_box()
    assert top is not None and bottom is not None and table is not None
    assert top["y"] + top["height"] <= bottom["y"], "the first player's half above the other's"
    assert table["x"] + table["width"] <= top["x"], "beside the result, to be cut off"
    assert no_horizontal_scroll(page)
    screenshot(page, "print-slips")
    show(page, swu.slips(codes=codes), media="print")
    assert len(pdf_pages(page)) == 2  # three slips to an A4 sheet


def test_bracket(page: Any) -> None:
    event = with_bracket()
    show(page, event.bracket())
    assert visible(page, "Bracket · Round 4")
    assert page.locator("#seeds tbody tr").count() == 4
    assert page.locator(".round").count() == 2
    assert page.locator(".side.won").count() == 2
    assert visible(page, "to be played")
    assert no_horizontal_scroll(page)
    screenshot(page, "print-bracket")
