"""Guessing match slip codes: an address that keeps trying wrong codes is refused before
its next code is looked up, wrong codes of all addresses share one budget so that
rotating addresses gains nothing, a guesser never locks out a valid code from another
address, and ``X-Forwarded-For`` names the client only behind a proxy the organizer
trusts (``tledger serve --trusted-proxy``).

The limits run in process (FastAPI's TestClient, each request from the address it is
given, the clock moved by the test); the forwarded addresses against a real
``tledger serve``, as only a real server has a peer address.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from commands.api.guesses import Guesses
from commands.api.limits import Settings
from commands.web import create_app
from tests.e2e.test_http import TLEDGER, served
from tests.e2e.test_slip_report import WON, Event, make_event, post

WRONG = [f"{c * 4}-{c * 4}" for c in "ABCDEFGHJKMNPQRSTUVWXYZ"]


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def local(tmp_path: Path) -> Event:
    return make_event(f"sqlite:///{tmp_path / 'slips.sqlite3'}")


class Venue:
    """The application over an event, with the wrong-code limits of ``settings`` on a
    clock the test moves; ``at(address)`` is a browser at that address."""

    def __init__(self, event: Event, **settings: Any) -> None:
        limits = Settings(**settings)
        self.app, self.clock = create_app(event.handler, limits), Clock()
        self.app.state.slip_guesses = Guesses(limits, clock=self.clock)

    def at(self, address: str) -> TestClient:
        return TestClient(self.app, client=(address, 50000))


def statuses(http: TestClient, codes: list[str]) -> list[int]:
    return [http.get(f"/s/{code}").status_code for code in codes]


def test_an_address_that_keeps_guessing_is_refused_before_its_code_is_looked_up(
    local: Event,
) -> None:
    venue = Venue(local, slip_miss_burst=3, slip_misses_per_second=0.5)
    http = venue.at("10.0.0.66")
    assert statuses(http, ["AAAA-AAAA", "BBBB", "CCCC-CCCC"]) == [404] * 3
    blocked = http.get("/s/DDDD-DDDD")
    assert blocked.status_code == 429 and blocked.headers["Retry-After"] == "2"
    assert "Too many wrong codes" in blocked.text
    assert http.get(f"/s/{local.codes['p1']}").status_code == 429, "not even looked up"
    assert post(http, local.codes["p1"], **WON).status_code == 429
    assert local.reports() == []
    venue.clock.now += 2
    assert statuses(http, [local.codes["p1"]] * 2) == [200, 200], "a hit costs no try"


def test_a_guesser_never_locks_out_a_valid_code_from_another_address(local: Event) -> None:
    venue = Venue(local, slip_miss_burst=3, slip_all_miss_burst=3)
    assert statuses(venue.at("10.0.0.66"), WRONG[:5]) == [404] * 3 + [429] * 2
    player = venue.at("10.0.0.7")
    assert player.get(f"/s/{local.codes['p1']}").status_code == 200
    assert post(player, local.codes["p1"], **WON).status_code == 200
    assert [r["actor"]["id"] for r in local.reports()] == ["p1"]


def test_wrong_codes_from_many_addresses_share_one_budget(local: Event) -> None:
    venue = Venue(local, slip_all_miss_burst=5, slip_all_misses_per_second=0.5)
    guessers = [venue.at(f"198.51.100.{n}") for n in range(1, 9)]
    assert [statuses(g, WRONG[n : n + 1]) for n, g in enumerate(guessers)] == [[404]] * 8
    again = [statuses(g, WRONG[10 + n : 11 + n]) for n, g in enumerate(guessers)]
    assert again == [[429]] * 8, "each has its own tries left, but not the venue's"
    assert guessers[0].get(f"/s/{local.codes['p1']}").status_code == 429
    assert venue.at("198.51.100.99").get(f"/s/{local.codes['p1']}").status_code == 200, (
        "an address without a wrong code is always looked up")  # fmt: skip
    venue.clock.now += 2
    assert statuses(guessers[0], [local.codes["p1"]]) == [200]


def test_an_ipv6_network_counts_as_one_address(local: Event) -> None:
    venue = Venue(local, slip_miss_burst=3)
    hosts = [venue.at(f"2001:db8:5:7::{n:x}") for n in range(1, 5)]
    assert [statuses(h, WRONG[n : n + 1]) for n, h in enumerate(hosts)] == [
        [404], [404], [404], [429]]  # fmt: skip
    assert statuses(venue.at("2001:db8:5:8::1"), WRONG[9:10]) == [404], "another network"


def test_a_valid_code_s_own_use_is_bounded_per_code(local: Event) -> None:
    venue = Venue(local, rate_burst=3, rate_per_second=1)
    http = venue.at("10.0.0.7")
    code = local.codes["p1"]
    assert statuses(http, [code] * 3) == [200] * 3
    busy = http.get(f"/s/{code}")
    assert busy.status_code == 429 and "This code was used too often" in busy.text
    assert post(http, code, **WON).status_code == 429
    assert local.reports() == []
    assert http.get(f"/s/{local.codes['p2']}").status_code == 200, "another code is not slowed"


@pytest.fixture
def event(tmp_path: Path) -> Event:
    return make_event(f"sqlite:///{tmp_path / 'served.sqlite3'}")


def forwarded(base: str, hops: str, code: str) -> int:
    with httpx.Client(base_url=base, timeout=30) as http:
        return http.get(f"/s/{code}", headers={"X-Forwarded-For": hops}).status_code


def test_x_forwarded_for_from_an_untrusted_peer_picks_no_bucket(event: Event) -> None:
    with served(event.url) as base:
        answers = [forwarded(base, f"203.0.113.{n}", code) for n, code in enumerate(WRONG[:12])]
    assert answers == [404] * 10 + [429] * 2, "the peer counts, whatever the header says"


def test_behind_a_trusted_proxy_the_forwarded_client_counts(event: Event) -> None:
    with served(event.url, "--trusted-proxy", "127.0.0.0/8") as base:
        guesser = [forwarded(base, f"192.0.2.{n}, 203.0.113.9", c) for n, c in
                   enumerate(WRONG[:11])]  # fmt: skip
        assert guesser == [404] * 10 + [429], "his own header's hops left of the proxy's count not"
        assert forwarded(base, "203.0.113.20", event.codes["p1"]) == 200
        assert forwarded(base, "203.0.113.9", event.codes["p1"]) == 429


def test_serve_refuses_a_trusted_proxy_that_is_no_address(tmp_path: Path) -> None:
    refused = subprocess.run(
        [TLEDGER, "serve", "--port", "0", "--store", f"sqlite:///{tmp_path / 'x.sqlite3'}",
         "--trusted-proxy", "10.0.0.5", "--trusted-proxy", "venue-router"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert refused.returncode == 2
    assert refused.stderr.strip() == (
        "error: serve: --trusted-proxy 'venue-router' is not an address or a network "
        "(such as 10.0.0.5 or 10.0.0.0/24)")  # fmt: skip
