"""The venue a server runs for: times shown in its zone and named, unknown zones refused
in one line, loopback addresses told apart, and this machine's addresses on a network
found without asking the internet (``commands.pages.venue``, ``commands.cli.venue``)."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path

import pytest

from commands.cli.venue import PROBES, base_url_of, reachable, terminal_qr, venue_addresses
from commands.pages import venue as venues
from commands.pages.printouts import printed
from commands.pages.venue import UnknownZone, Venue, local_zone, loopback, zone_named

WINTER = datetime(2026, 11, 26, 13, 5, tzinfo=UTC)
SUMMER = datetime(2026, 7, 1, 12, 5, 30, tzinfo=UTC)


def berlin() -> Venue:
    zone, name = zone_named("Europe/Berlin")
    return Venue(zone, name)


def test_a_time_is_shown_in_the_venues_zone_and_names_it() -> None:
    venue = berlin()
    assert venue.time(WINTER) == "14:05 CET"
    assert venue.time(SUMMER, seconds=True) == "14:05:30 CEST"
    assert venue.moment(WINTER) == "2026-11-26 14:05 CET"
    assert printed(WINTER, venue) == "2026-11-26 14:05 CET", "printouts say it too"
    assert Venue().time(WINTER) == "13:05 UTC", "no venue given: UTC, named"


def test_a_zone_without_letters_of_its_own_is_named_by_its_iana_name() -> None:
    zone, name = zone_named("America/Sao_Paulo")  # its abbreviation is "-03"
    assert Venue(zone, name).time(WINTER) == "10:05 America/Sao_Paulo"


@pytest.mark.parametrize("name", ["Mars/Olympus", "", "../etc/passwd", "Europe/"])
def test_an_unknown_zone_is_one_line_naming_it(name: str) -> None:
    with pytest.raises(UnknownZone) as refused:
        zone_named(name)
    assert repr(name) in str(refused.value) and "\n" not in str(refused.value)


def test_a_time_without_its_zone_is_refused() -> None:
    with pytest.raises(ValueError, match="time zone"):
        berlin().time(datetime(2026, 11, 26, 13, 5))


def test_the_machines_zone_comes_from_tz_then_the_system(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", ":Europe/Lisbon")
    assert local_zone()[1] == "Europe/Lisbon"
    monkeypatch.setenv("TZ", "CET-1CEST")  # a POSIX rule, not an IANA name: the system's
    monkeypatch.setattr(venues, "LOCALTIME", venues.Path("/nonexistent/localtime"))
    monkeypatch.setattr(venues, "TIMEZONE", venues.Path("/nonexistent/timezone"))
    zone, name = local_zone()
    assert name and datetime.now(zone).utcoffset() is not None


def test_loopback_addresses_reach_this_machine_only() -> None:
    for url in ("http://127.0.0.1:8111", "http://localhost:8000", "http://[::1]:8000",
                "http://127.3.4.5", "http://app.localhost"):  # fmt: skip
        assert loopback(url), url
    for url in ("http://192.168.1.10:8000", "https://tables.example.org", "http://[fe80::1]",
                "http://testserver"):  # fmt: skip
        assert not loopback(url), url


def test_the_public_page_lies_under_the_base_url() -> None:
    assert Venue().public_url("t1", "http://192.168.1.10:8000/") == "http://192.168.1.10:8000/t/t1"


def test_phones_reach_private_addresses_first_and_never_loopback_or_link_local() -> None:
    found = reachable(["127.0.0.1", "93.184.216.34", "169.254.1.2", "0.0.0.0", "192.168.1.10",
                       "nonsense", "192.168.1.10", "10.0.0.7"])  # fmt: skip
    assert found == ["192.168.1.10", "10.0.0.7", "93.184.216.34"]


def test_the_venue_addresses_come_from_the_routes_and_the_host_name_without_a_packet() -> None:
    asked: list[str] = []

    def route(probe: str) -> str | None:
        asked.append(probe)
        return {"10.255.255.255": "10.1.2.3"}.get(probe)

    assert venue_addresses(route, lambda: ["127.0.1.1", "192.168.0.20"]) == [
        "10.1.2.3", "192.168.0.20"]  # fmt: skip
    assert asked == list(PROBES)
    assert venue_addresses(lambda _: None, lambda: ["127.0.1.1"]) == [], "none: said, not faked"


def test_a_base_url_brackets_an_ipv6_address() -> None:
    assert base_url_of("192.168.1.10", 8000) == "http://192.168.1.10:8000"
    assert base_url_of("fd00::5", 8000) == "http://[fd00::5]:8000"


def test_the_terminal_qr_code_is_drawn_in_block_characters() -> None:
    out = io.StringIO()
    terminal_qr("http://192.168.1.10:8000/t/t1", out)
    lines = out.getvalue().splitlines()
    assert len(lines) > 10 and all(set(line) <= set("█▀▄ ") for line in lines)
    assert max(len(line) for line in lines) <= 80, "fits a terminal window"


def test_the_demo_and_the_readme_start_the_console_on_the_venue_network() -> None:
    root = Path(__file__).resolve().parents[2]
    demo = (root / "examples" / "demo.py").read_text(encoding="utf-8")
    hint = demo[demo.index("The same event in a browser") :]
    assert "tledger serve --venue --store" in hint
    readme = (root / "README.md").read_text(encoding="utf-8")
    recipe = readme[readme.index("**The console.**") : readme.index("**The public page.**")]
    assert "tledger serve --venue" in recipe and "127.0.0.1" in recipe
