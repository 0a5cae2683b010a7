"""The welcome sheet for the venue's door: the event's name, the Wi-Fi hint, the public
page's address in large type and as a QR code, under the letterhead with the time
printed in the venue's zone (``commands.pages.printouts.welcome_page``)."""

from __future__ import annotations

import pytest

from commands.pages import printouts
from commands.pages.assets import self_contained
from commands.pages.paper import printout
from commands.pages.qr import qr_svg
from commands.pages.venue import Venue, zone_named
from commands.reads import paper
from tests.printing import PRINTED, Event, text

URL = "http://192.168.1.10:8000/t/t1"


@pytest.fixture(scope="module")
def event() -> Event:
    return Event("swu-1.4", players=4, name="Store <b>Showdown</b>")


def berlin(base_url: str | None = None) -> Venue:
    zone, name = zone_named("Europe/Berlin")
    return Venue(zone, name, base_url)


def test_the_sheet_shows_the_event_the_wifi_and_the_public_pages_qr_code(event: Event) -> None:
    html = printouts.welcome_page(paper.letterhead(event.state), URL, "Venue-Guest / meeple42",
                                  lang="en", printed_at=PRINTED, venue=berlin())  # fmt: skip
    words = text(html)
    assert "Store <b>Showdown</b>" in words, "the name is text, never markup"
    assert "<b>Showdown" not in html
    assert "Wi-Fi Venue-Guest / meeple42" in words
    assert qr_svg(URL) in html, "the QR code holds the public page's address"
    assert f'<span class="url" id="welcome-url">{URL}</span>' in html
    assert "printed 2026-05-02 16:30 CEST" in words, "the venue's clock, named"
    assert f"seq {event.state.seq} {event.state.head}" in words
    assert '<link rel="stylesheet" href="/static/print-welcome.css">' in html


def test_without_a_wifi_hint_the_sheet_leaves_the_line_out(event: Event) -> None:
    html = printouts.welcome_page(paper.letterhead(event.state), URL, "  ", lang="de",
                                  printed_at=PRINTED)  # fmt: skip
    assert 'id="welcome-wifi"' not in html and "WLAN" not in html
    assert "Scannen für Paarungen" in text(html), "German labels too"


def test_the_printout_puts_the_public_page_under_the_venues_base_url(event: Event) -> None:
    html = printout(event.handler.store, event.state, event.names, "welcome", None, "en", "a4",
                    "http://192.168.1.10:8000/", PRINTED, show_points=False,
                    venue=berlin(), wifi="Guest")  # fmt: skip
    assert qr_svg(URL) in html and URL in text(html)
    inline = self_contained(html)
    assert 'rel="stylesheet"' not in inline and ".welcome-qr svg.qr" in inline, "prints offline"


def test_the_sheet_needs_the_address_phones_reach(event: Event) -> None:
    with pytest.raises(ValueError, match="base URL"):
        printout(event.handler.store, event.state, event.names, "welcome", None, "en", "a4",
                 None, PRINTED, show_points=False)  # fmt: skip
