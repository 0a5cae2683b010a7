"""The console's destructive actions in Chromium against a real ``tledger serve``: each
asks first on a page naming what will change (a drop's automatic result, slips' new
codes for the round or one table, a finish without the cut the event is owed), its
button outlined in red apart from the next step's; a drop undone before the round
starts puts the player back at their table. Screenshots in tests/artifacts/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any, NamedTuple

import pytest
from playwright.sync_api import expect

from commands.handler import Handler
from commands.slipcodes import issue_codes
from ledger.url import open_store
from tests.browser.conftest import screenshot
from tests.browser.console_audit_steps import sign_in_console
from tests.e2e.test_http import served, token
from tests.public_event import NAMES, run

WON = {"games": [2, 0], "draws": 0}


class Venue(NamedTuple):
    base: str
    organizer: str
    opponent: str
    table: int


@pytest.fixture(scope="module")
def venue(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Venue]:
    """ "paired": twelve players, round 1 paired and not started, its slips printed with
    codes; "owed": a top 2 cut called for and not made after the one Swiss round."""
    store = f"sqlite:///{tmp_path_factory.mktemp('confirm') / 'confirm.sqlite3'}"
    handler = Handler(open_store(store))
    run(handler, "paired", {"type": "create_tournament", "name": "Confirm Cup",
                            "ruleset": "swu-1.4"},
        *({"type": "register_player", "player": f"p{i + 1}", "name": NAMES[i]} for i in range(12)),
        {"type": "pair_round", "seed": 3})  # fmt: skip
    state = handler.folds.state("paired")
    issue_codes(handler.store, state, 1, now=datetime.now(UTC))
    match = state.rounds[0].match_for("p1")
    assert match is not None and match.table is not None
    opponent = next(p for p in match.players if p != "p1")
    run(handler, "owed", {"type": "create_tournament", "name": "Owed Cup", "ruleset": "swu-1.4",
                          "options": {"rounds": 1, "cut": 2}},
        *({"type": "register_player", "player": f"p{i + 1}", "name": NAMES[i]} for i in range(4)),
        {"type": "pair_round", "pairings": [["p1", "p2"], ["p3", "p4"]]}, {"type": "start_round"},
        *({"type": "report_result", "round": 1, "players": t, "result": WON}
          for t in (["p1", "p2"], ["p3", "p4"])))  # fmt: skip
    names = {p.player: p.name or p.player for p in handler.store.players("paired").values()}
    secret = token(store, "--role", "organizer")
    with served(store) as base:
        yield Venue(base, secret, names[opponent], match.table)


def red_outline(page: Any, selector: str) -> bool:
    style = "el => [getComputedStyle(el).borderTopColor, getComputedStyle(el).borderTopWidth]"
    color, width = page.locator(selector).first.evaluate(style)
    return bool(color != "rgba(0, 0, 0, 0)" and width == "2px")


def test_a_drop_names_its_automatic_result_and_a_reinstatement_withdraws_it(
    page: Any, venue: Venue
) -> None:
    sign_in_console(page, venue.base, venue.organizer)
    page.goto(f"{venue.base}/console/t/paired/players")
    row = page.locator("li.org-player").filter(has_text=NAMES[0])
    assert red_outline(page, "a.danger-link")
    row.get_by_role("link", name="Drop…").click()
    said = page.locator(".org-changes")
    expect(said).to_contain_text(f"{venue.opponent}")
    expect(said).to_contain_text(f"2-0 win at table {venue.table} of round 1")
    expect(said).to_contain_text("withdraws this result")
    screenshot(page, "console-confirm-drop")
    page.locator("form button.danger").click()
    expect(page.locator(".flash.ok")).to_contain_text(re.compile(f"{NAMES[0]}.? dropped"))
    row = page.locator("li.org-player").filter(has_text=NAMES[0])
    row.get_by_role("link", name="Reinstate (drop in error)…").click()
    expect(page.locator(".org-changes")).to_contain_text(
        f"This withdraws the loss recorded at the drop at table {venue.table} of round 1"
    )
    screenshot(page, "console-confirm-reinstate")
    page.get_by_label("Reason").fill("dropped the wrong player")
    page.get_by_role("button", name="Reinstate").click()
    expect(page.locator(".flash.ok")).to_contain_text(re.compile(f"{NAMES[0]}.? reinstated"))
    page.goto(f"{venue.base}/console/t/paired/round")
    card = page.locator("li.card").filter(has_text=f"Table {venue.table}").first
    expect(card).not_to_contain_text("confirmed")


def test_reprinting_slips_and_one_table_say_what_stops_working(page: Any, venue: Venue) -> None:
    sign_in_console(page, venue.base, venue.organizer)
    page.goto(f"{venue.base}/console/t/paired/round")
    screenshot(page, "console-round-reprint-buttons")
    assert red_outline(page, "a.danger-link")
    page.get_by_role("link", name="Reprint slips with new codes…").click()
    expect(page.locator(".org-timing")).to_have_text(
        "New codes for all 6 tables of round 1; the slips already on the tables stop working."
    )
    screenshot(page, "console-confirm-reprint-round")
    page.goto(f"{venue.base}/console/t/paired/round")
    page.locator("li.card").nth(1).get_by_role("link", name="Reprint this slip…").click()
    expect(page.locator(".org-timing")).to_contain_text(
        "the slip already on table 2 stops working; the other 5 tables keep theirs."
    )
    screenshot(page, "console-confirm-reprint-table")
    expect(page.locator("#slip-address")).to_contain_text("reaches only this computer")
    with page.expect_popup() as opened:
        page.get_by_label("print codes for this computer only").check()  # a loopback server
        page.locator("form button.danger").click()
    printed = opened.value
    printed.wait_for_load_state()
    expect(printed.locator("svg.qr")).to_have_count(2)


def test_a_finish_owed_a_cut_asks_for_the_reason(page: Any, venue: Venue) -> None:
    sign_in_console(page, venue.base, venue.organizer)
    page.goto(f"{venue.base}/console/t/owed/finals")
    expect(page.get_by_role("button", name="Finish the tournament")).to_have_count(0)
    expect(page.locator(".org-confirm")).to_contain_text("No top 2 cut was made")
    assert red_outline(page, "button.danger")
    screenshot(page, "console-confirm-finish-without-cut")
    page.get_by_label("Why the event ends without its cut").fill("the venue closes at 22:00")
    page.get_by_role("button", name="Finish without the cut").click()
    expect(page.locator(".flash.ok")).to_contain_text("tournament finished")
