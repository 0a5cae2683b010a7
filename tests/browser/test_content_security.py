"""Every HTML face of tledger in Chromium under its one Content-Security-Policy
(``script-src 'self'; style-src 'self'``, commands/pages/policy.py), against a real
``tledger serve``: the public page and its projector clock, the slip report page, each
printout as the console serves it, and every page of the console. Each page must
answer with the policy and report no violation (the ``securitypolicyviolation``
event) and no console or script error; the countdowns must count, which proves the
pages' own scripts ran. A page that breaks the policy on purpose shows that a
violation is caught.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any, NamedTuple

import pytest
from playwright.sync_api import expect

from commands.handler import Handler
from commands.pages.policy import CONTENT_SECURITY_POLICY
from commands.slipcodes import issue_codes
from ledger.url import open_store
from tests.browser import console_audit_steps as audit
from tests.browser.conftest import Watched
from tests.e2e.test_http import served, token
from tests.public_event import NAMES, event_in_its_cut, run, running_event


class Venue(NamedTuple):
    """A served store with a Swiss event under way ("swiss"), one in its top cut
    ("finals"), a draft building its decks ("draft") and one only registered ("hand");
    the organizer's token and the two players' slip codes of a match of the Swiss event's
    round 2."""

    base: str
    organizer: str
    codes: tuple[str, str]
    players: tuple[str, str]
    first_round: tuple[str, str]


@pytest.fixture(scope="module")
def venue(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Venue]:
    store = f"sqlite:///{tmp_path_factory.mktemp('csp') / 'csp.sqlite3'}"
    handler = Handler(open_store(store))
    running_event(handler, "swiss", name="Policy Open", players=12)
    state = handler.folds.state("swiss")
    assert state.current is not None
    playing = [m.players for m in state.current.matches if m.status == "pending"]
    run(handler, "swiss", {"type": "grant_time_extension", "round": 2,
                           "players": list(playing[-1]), "minutes": 10})  # fmt: skip
    event_in_its_cut(handler, "finals")
    run(handler, "draft", {"type": "create_tournament", "name": "Draft Night",
                           "ruleset": "swu-1.4", "options": {"deck_format": "draft"}},
        *({"type": "register_player", "player": f"p{i + 1}", "name": NAMES[i]} for i in range(9)),
        {"type": "assign_pods", "pod_size": 8, "seed": 5},
        {"type": "start_deck_building", "minutes": 40})  # fmt: skip
    run(
        handler,
        "hand",
        {"type": "create_tournament", "name": "By Hand", "ruleset": "swu-1.4"},
        *({"type": "register_player", "player": f"p{i + 1}", "name": NAMES[i]} for i in range(6)),
    )
    codes = issue_codes(handler.store, handler.folds.state("swiss"), 2, now=datetime.now(UTC))
    players = playing[0]
    names = {p.player: p.name for p in handler.store.players("swiss").values()}
    secret = token(store, "--role", "organizer")
    with served(store) as base:
        yield Venue(base, secret, (codes[players[0]], codes[players[1]]),
                    (names[players[0]], names[players[1]]),
                    state.rounds[0].matches[0].players)  # fmt: skip


@pytest.fixture
def watched(browser: Any) -> Iterator[tuple[Any, Watched]]:
    """A page whose context reports every violation and error to the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    watching = Watched(context)
    yield context.new_page(), watching
    context.close()


def settled(page: Any) -> None:
    """The page's scripts have run: every countdown shows a time, and a frame has passed
    (violations are reported as tasks, after the element that caused them)."""
    counted = page.locator("[data-ends]")
    for i in range(counted.count()):
        expect(counted.nth(i)).not_to_be_empty()
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done)))")


def clean(watched: Watched, where: str, status: int = 200) -> None:
    """Nothing refused, nothing thrown, no console error (a page that answers 404 on
    purpose logs its own status as a resource that failed: that one is expected)."""
    errors = [e for e in watched.errors
              if status == 200 or "the server responded with a status of" not in e]  # fmt: skip
    assert not watched.refused and not errors, (where, watched.refused, errors)


def visit(page: Any, watched: Watched, url: str, status: int = 200) -> None:
    """Open ``url``: its status, the one policy, and a clean report once it has settled."""
    answer = page.goto(url)
    assert answer.status == status, url
    assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY, url
    settled(page)
    clean(watched, url, status)


def test_a_page_that_breaks_the_policy_is_caught(
    watched: tuple[Any, Watched], venue: Venue
) -> None:
    page, watching = watched
    broken = ('<!doctype html><style>p { color: red; }</style><p style="color: red">x</p>'
              "<script>document.title = 'ran';</script>")  # fmt: skip
    headers = {"Content-Type": "text/html", "Content-Security-Policy": CONTENT_SECURITY_POLICY}
    page.route(f"{venue.base}/broken", lambda route: route.fulfill(body=broken, headers=headers))
    page.goto(f"{venue.base}/broken")
    settled(page)
    assert page.title() == "", "the inline script did not run"
    refused = " ".join(watching.refused)
    assert "style-src" in refused and "script-src" in refused, watching.refused
    assert any("Content Security Policy" in e for e in watching.errors)


@pytest.mark.parametrize("path", [
    "/t/swiss", "/t/swiss?q=ada", "/t/swiss?lang=de", "/t/swiss/clock", "/t/finals",
    "/t/finals/clock?lang=de", "/t/hand", "/t/hand/clock"])  # fmt: skip
def test_the_public_page_and_the_projector_clock(
    watched: tuple[Any, Watched], venue: Venue, path: str
) -> None:
    page, watching = watched
    visit(page, watching, venue.base + path)
    if path.startswith("/t/swiss"):
        expect(page.locator("[data-ends]").first).to_have_text(re.compile(r"^\d+:\d\d"))
        expect(page.locator("#live-state")).not_to_be_empty()
        clean(watching, path)


def test_the_closed_public_page(watched: tuple[Any, Watched], venue: Venue) -> None:
    page, watching = watched
    visit(page, watching, f"{venue.base}/t/no-such-event", status=404)


def test_the_slip_report_page_as_players_report_and_dispute(
    watched: tuple[Any, Watched], venue: Venue
) -> None:
    page, watching = watched
    first, second = venue.codes
    visit(page, watching, f"{venue.base}/s/{first}")
    audit.slip_report(page, venue.base, first, venue.players[0], venue.players, (2, 0))
    expect(page.locator("#state")).to_contain_text("waiting")
    visit(page, watching, f"{venue.base}/s/{second}?lang=de")
    audit.slip_report(page, venue.base, second, venue.players[1], venue.players, (0, 2))
    expect(page.locator("#state")).to_contain_text("a judge will decide")
    clean(watching, "the slip after both reports")
    visit(page, watching, f"{venue.base}/s/WRNG-C0DE", status=404)


def test_every_printout_as_the_console_serves_it(
    watched: tuple[Any, Watched], venue: Venue
) -> None:
    page, watching = watched
    audit.sign_in_console(page, venue.base, venue.organizer)
    for path in ("swiss/print/pairings", "swiss/print/standings?lang=de", "swiss/print/slips",
                 "finals/print/bracket", "draft/print/pods",
                 "swiss/print/welcome?wifi=Guest"):  # fmt: skip
        visit(page, watching, f"{venue.base}/console/t/{path}")
        assert page.locator("link[rel=stylesheet]").count() == 4, path  # base, print, kind, paper
        shown = "getComputedStyle(document.querySelector('.letterhead')).display"
        assert page.evaluate(shown) == "flex", f"{path}: its stylesheets apply"
    visit(page, watching, f"{venue.base}/console/t/swiss/round")
    # the round's codes were issued already: printing again asks first, on its own page
    page.get_by_role("link", name=re.compile("Reprint slips with new codes")).click()
    page.get_by_label("print codes for this computer only").check()  # a loopback server
    with page.expect_popup() as opened:
        page.get_by_role("button", name=re.compile("slips with new codes$")).click()
    printed = opened.value
    printed.wait_for_load_state()
    expect(printed.locator("svg.qr").first).to_be_visible()
    settled(printed)
    clean(watching, "slips with report codes")


CONSOLE = [
    "",
    "/new",
    "/t/swiss",
    "/t/swiss/players",
    "/t/swiss/lists",
    "/t/swiss/round",
    "/t/swiss/results",
    "/t/swiss/results?table=2",
    "/t/swiss/results/impact?a=1&b=12",
    "/t/swiss/finals",
    "/t/swiss/judge",
    "/t/swiss/players/p1",
    "/t/swiss/history",
    "/t/swiss/audit?as_of=5&a=3&b=9&explain=p1",
    "/t/finals/finals",
    "/t/finals/round",
    "/t/draft",
    "/t/draft/round",
    "/t/hand",
    "/t/hand/round?manual=1&a1=p1&b1=p2",
]


def test_every_page_of_the_console(watched: tuple[Any, Watched], venue: Venue) -> None:
    page, watching = watched
    visit(page, watching, f"{venue.base}/console/login")
    audit.sign_in_console(page, venue.base, venue.organizer)
    for path in CONSOLE:
        visit(page, watching, f"{venue.base}/console{path}")
    a, b = venue.first_round
    visit(page, watching, f"{venue.base}/console/t/swiss/results/correct?round=1&a={a}&b={b}"
                          "&result=0-2")  # fmt: skip
    expect(page.locator(".org-timing")).to_be_visible()
    visit(page, watching, f"{venue.base}/console/t/swiss/round")
    expect(page.locator("#round-clock .countdown").first).to_contain_text("left")
    visit(page, watching, f"{venue.base}/console/t/swiss/results")
    expect(page.locator("#entry-table")).to_be_focused()
    page.keyboard.type("1")
    expect(page.locator("#entry-preview")).to_contain_text("Table 1:")
    visit(page, watching, f"{venue.base}/console/t/swiss/audit")
    page.get_by_label(re.compile("Witnesses")).fill("seq 1 " + "0" * 64)
    with page.expect_navigation():
        page.get_by_role("button", name="Verify").click()
    settled(page)
    clean(watching, "audit verify")
