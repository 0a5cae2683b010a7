"""The console at a venue: the Round page names the address the slips will carry,
codes for a loopback address are printed only once the organizer confirms, slips and the
welcome sheet carry the venue's address, and every time is shown in the venue's zone,
named, on the console, the public page and the projector's clock."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from commands.handler import Handler
from commands.pages.qr import qr_svg
from commands.pages.venue import Venue, zone_named
from commands.tokens import create_token
from commands.web import create_app
from ledger.store import TournamentSettings
from ledger.url import open_store
from tests.console.test_organizer import run_round_one

NOW = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)
VENUE = "http://192.168.1.10:8000"


def berlin(base_url: str | None = None) -> Venue:
    zone, name = zone_named("Europe/Berlin")
    return Venue(zone, name, base_url)


@pytest.fixture
def handler() -> Handler:
    return Handler(open_store(f"memory://{uuid.uuid4().hex}"))


def signed_in(handler: Handler, venue: Venue | None, base_url: str) -> Iterator[TestClient]:
    """An organizer's browser on a console served for ``venue``, reached at ``base_url``."""
    app = create_app(handler, venue=venue)
    with TestClient(app, base_url=base_url, follow_redirects=False) as http:
        secret = create_token(handler.store, "organizer", None, None, label="desk", now=NOW)
        assert http.post("/console/login", data={"token": secret}).status_code == 303
        run_round_one(http)
        yield http


@pytest.fixture
def at_the_venue(handler: Handler) -> Iterator[TestClient]:
    """``serve --venue --tz Europe/Berlin``: the laptop's browser on loopback, the slips
    for the venue's address."""
    yield from signed_in(handler, berlin(VENUE), "http://127.0.0.1:8111")


@pytest.fixture
def on_loopback(handler: Handler) -> Iterator[TestClient]:
    """``serve`` as it was: loopback only, no venue address."""
    yield from signed_in(handler, None, "http://127.0.0.1:8111")


def test_the_round_page_names_the_venue_address_the_slips_carry(at_the_venue: TestClient) -> None:
    page = at_the_venue.get("/console/t/t1/round").text
    assert f"Report codes will carry <code>{VENUE}/s/…</code>" in page
    assert 'name="loopback"' not in page and "reaches only this computer" not in page


def test_slips_carry_the_venue_address_not_the_browsers(at_the_venue: TestClient) -> None:
    slips = at_the_venue.post("/console/t/t1/print/slips", data={})
    assert slips.status_code == 200
    assert f"{VENUE}/s/" in slips.text and "127.0.0.1" not in slips.text


def test_codes_for_a_loopback_address_are_refused_until_the_organizer_confirms(
    on_loopback: TestClient, handler: Handler, monkeypatch: pytest.MonkeyPatch
) -> None:
    issued: list[object] = []
    put = handler.store.put_slip_codes
    monkeypatch.setattr(
        handler.store, "put_slip_codes", lambda rows: (issued.append(rows), put(rows))
    )
    page = on_loopback.get("/console/t/t1/round").text
    assert "Report codes will carry <code>http://127.0.0.1:8111/s/…</code>" in page
    assert "That address reaches only this computer" in page
    assert 'name="loopback" value="1" form="slips-with-codes" required>' in page
    refused = on_loopback.post("/console/t/t1/print/slips?round=1", data={})
    assert refused.status_code == 409
    assert ("No codes printed: http://127.0.0.1:8111 reaches only this computer, so a phone "
            "that scans a slip opens nothing.") in refused.text  # fmt: skip
    assert (
        "/s/" not in refused.text and 'action="/console/t/t1/print/slips?round=1"' in refused.text
    )
    assert issued == [], "nothing issued: the codes of slips printed before still work"
    confirmed = on_loopback.post("/console/t/t1/print/slips", data={"loopback": "1"})
    assert confirmed.status_code == 200 and "http://127.0.0.1:8111/s/" in confirmed.text
    assert len(issued) == 1


def test_the_welcome_sheet_carries_the_venues_public_page(at_the_venue: TestClient) -> None:
    page = at_the_venue.get("/console/t/t1/round").text
    assert 'action="/console/t/t1/print/welcome"' in page and 'name="wifi"' in page
    sheet = at_the_venue.get("/console/t/t1/print/welcome", params={"wifi": "Guest / 1234"})
    assert sheet.status_code == 200
    assert qr_svg(f"{VENUE}/t/t1") in sheet.text and f"{VENUE}/t/t1" in sheet.text
    assert "Store Showdown" in sheet.text and "Guest / 1234" in sheet.text
    assert "CET" in sheet.text or "CEST" in sheet.text, "printed in the venue's zone"
    assert at_the_venue.get("/console/t/t1/print/welcome?wifi=" + "x" * 201).status_code == 422


def test_times_are_shown_in_the_venues_zone_on_console_public_page_and_projector(
    at_the_venue: TestClient, handler: Handler
) -> None:
    state = handler.folds.state("t1")
    assert state.current is not None and state.current.started_at is not None
    ends = state.current.started_at + timedelta(minutes=55)
    local = ends.astimezone(berlin().zone)
    shown = f"{local:%H:%M} {local.tzname()}"
    assert local.tzname() in ("CET", "CEST")
    console = at_the_venue.get("/console/t/t1/round").text
    assert f"ends <strong>{shown}</strong>" in console and " UTC" not in console
    public = at_the_venue.get("/t/t1").text
    projector = at_the_venue.get("/t/t1/clock").text
    for html in (public, projector):
        assert f'<time datetime="{ends.isoformat()}">{shown}</time>' in html
        assert f'data-ends="{ends.isoformat()}"' in html, "countdowns still count to UTC"


def test_without_a_venue_the_console_shows_utc_and_names_it(on_loopback: TestClient) -> None:
    assert "UTC</strong>" in on_loopback.get("/console/t/t1/round").text
    assert "UTC</time>" in on_loopback.get("/t/t1").text


def test_the_round_page_says_when_the_welcome_sheets_page_is_off(
    at_the_venue: TestClient, handler: Handler
) -> None:
    assert 'id="public-off"' not in at_the_venue.get("/console/t/t1/round").text
    handler.store.put_tournament_settings(TournamentSettings("t1", public_page=False))
    page = at_the_venue.get("/console/t/t1/round").text
    assert 'id="public-off"' in page and "tledger public t1 --on" in page
