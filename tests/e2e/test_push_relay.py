"""Players report through the mirror: a report on the mirror's slip page (its code
checked there against the hashes the venue pushed) is held for the venue, which
decides it as that player's report when ``push`` pulls it; the player's page then says
it was received, or refused with the venue's reason. Real processes: a SQLite venue,
a ``tledger serve`` mirror on SQLite or PostgreSQL, ``tledger push`` of its own."""

from __future__ import annotations

import html
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager

import httpx

from ledger.url import open_store
from tests.e2e.mirroring import (
    TLEDGER,
    client,
    issue,
    mirror,
    new_id,
    printed,
    push,
    relay_line,
    results,
    run_event,
    stored,
    venue_token,
)
from tests.e2e.mirroring import mirror_url as mirror_url
from tests.e2e.mirroring import venue_url as venue_url
from tests.e2e.test_push import wait_for

WON = {"games_0": "2", "games_1": "1", "draws": "0"}
RECEIVED = "Received by the venue"
WAITING = "Sent — waiting for the venue to receive it"


@contextmanager
def following(venue: str, t: str, base: str, secret: str) -> Iterator[subprocess.Popen[str]]:
    """``tledger push T --follow`` in a process of its own, killed at the end."""
    follower = subprocess.Popen(
        [TLEDGER, "push", t, "--to", base, "--token", secret, "--store", venue, "--follow"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        yield follower
    finally:
        follower.kill()
        follower.communicate()


def page_says(http: httpx.Client, code: str, text: str) -> bool:
    return relay_line(http.get(f"/s/{code}").text) == text


def test_a_report_on_the_mirror_lands_at_the_venue_and_the_page_says_received(
    venue_url: str, mirror_url: str
) -> None:
    t = new_id()
    run_event(venue_url, t)
    secret = venue_token(mirror_url)
    with mirror(mirror_url) as base, following(venue_url, t, base, secret):
        codes = printed(venue_url, t, base)
        api = client(base, secret)
        http = httpx.Client(base_url=base, timeout=30)
        wait_for(lambda: http.get(f"/s/{codes['p5']}").status_code == 200)
        held = http.post(f"/s/{codes['p5']}", data={**WON, "nonce": "a1b2c3d4e5f6"})
        assert held.status_code == 200, held.text
        assert relay_line(held.text) in (WAITING, RECEIVED)
        wait_for(lambda: page_says(http, codes["p5"], RECEIVED))
        reports = results(venue_url, t)
        assert [r["actor"] for r in reports[2:]] == [{"role": "player", "id": "p5"}]
        assert reports[-1]["command_id"].startswith("relay-")
        seq = open_store(venue_url).head(t)[0]
        wait_for(lambda: api.get(f"/tournaments/{t}/head").json().get("seq") == seq)
        assert stored(mirror_url, t) == stored(venue_url, t)  # the mirror appended nothing
        waiting = http.get(f"/s/{codes['p6']}")
        assert "I am <bdi>Player 6</bdi>: confirm" in waiting.text
        http.post(f"/s/{codes['p6']}", data={**WON, "nonce": "0a0b0c0d0e0f"})
        wait_for(lambda: page_says(http, codes["p6"], RECEIVED))
        assert [r["actor"]["id"] for r in results(venue_url, t)[2:]] == ["p5", "p6"]
        assert api.get(f"/tournaments/{t}/relayed?status=pending").json() == []
        applied = api.get(f"/tournaments/{t}/relayed").json()
        assert [r["status"] for r in applied] == ["applied", "applied"]
        assert applied[0]["command"]["actor"] == {"role": "player", "id": "p5"}


def test_a_report_the_venue_refuses_shows_its_reason(venue_url: str, mirror_url: str) -> None:
    t = new_id()
    run_event(venue_url, t)  # tables 1 and 2 are reported by the organizer: confirmed
    codes = issue(venue_url, t)
    secret = venue_token(mirror_url)
    with mirror(mirror_url) as base:
        assert push(venue_url, t, base, secret).returncode == 0
        http = httpx.Client(base_url=base, timeout=30)
        held = http.post(f"/s/{codes['p1']}", data={"games_0": "0", "games_1": "2", "draws": "0"})
        assert relay_line(held.text) == WAITING
        before = len(stored(venue_url, t))
        done = push(venue_url, t, base, secret)
        assert done.returncode == 0, done.stderr
        assert "relayed report relay-" in done.stdout
        assert "of p1 (round 1): refused: " in done.stdout
        assert len(stored(venue_url, t)) == before
        line = relay_line(http.get(f"/s/{codes['p1']}").text)
        reason = client(base, secret).get(f"/tournaments/{t}/relayed").json()[0]["reason"]
        assert reason and f"refused: {reason}" in done.stdout
        assert html.unescape(line or "") == f"The venue refused your report: {reason}"


def test_reports_during_an_outage_wait_and_land_in_order(venue_url: str, mirror_url: str) -> None:
    t = new_id()
    run_event(venue_url, t)
    codes = issue(venue_url, t)
    secret = venue_token(mirror_url)
    with mirror(mirror_url) as base:
        with following(venue_url, t, base, secret):
            http = httpx.Client(base_url=base, timeout=30)
            wait_for(lambda: http.get(f"/s/{codes['p8']}").status_code == 200)
        # the venue is offline: the reports wait on the mirror
        for player in ("p5", "p7", "p6", "p8"):
            held = http.post(f"/s/{codes[player]}", data=WON)
            assert relay_line(held.text) == WAITING, held.text
        api = client(base, secret)
        pending = api.get(f"/tournaments/{t}/relayed?status=pending").json()
        assert [r["command"]["actor"]["id"] for r in pending] == ["p5", "p7", "p6", "p8"]
        assert len(results(venue_url, t)) == 2
        with following(venue_url, t, base, secret):
            wait_for(lambda: all(page_says(http, codes[p], RECEIVED) for p in codes
                                 if p in ("p5", "p6", "p7", "p8")))  # fmt: skip
            seq = open_store(venue_url).head(t)[0]
            wait_for(lambda: api.get(f"/tournaments/{t}/head").json().get("seq") == seq)
        assert [r["actor"]["id"] for r in results(venue_url, t)[2:]] == ["p5", "p7", "p6", "p8"]
        tables = api.get(f"/tournaments/{t}/status").json()["tables"]
        assert [table["state"] for table in tables] == ["confirmed"] * 4
        assert stored(mirror_url, t) == stored(venue_url, t)
