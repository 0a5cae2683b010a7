"""An 8-player SWU event run in the console from creation to the final standings by
clicking and typing only (no terminal at the venue), against a real ``tledger serve``:
registration by pasting, pairing, the pairings and slips printouts, results from the
keyboard, one correction in each timing situation of swu-1.4 §5.8, one drop, a dispute
between two players' reports from their slips settled by a judge in the queue, a top-4
cut, the bracket and the finish; then an auditor's as-of view, a diff and ``verify`` with
the witness line printed on the slips; and the results-entry and pairings pages on a
360 px phone without horizontal scrolling. Screenshots: tests/artifacts/console-*.png. The
tokens are made beforehand, as on the venue laptop (``tledger token create``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, NamedTuple

import pytest
from playwright.sync_api import expect

from tests.browser import console_audit_steps as audit
from tests.browser import console_steps as step
from tests.browser.conftest import no_horizontal_scroll, screenshot
from tests.e2e.test_http import served, token

NAMES = ["Ada Lovelace", "Bo Katan", "Cassian Andor", "Din Djarin", "Ezra Bridger",
         "Fennec Shand", "Grogu", "Hera Syndulla"]  # fmt: skip


class Venue(NamedTuple):
    """A served store and the tokens of the organizer, a floor judge and an auditor."""

    base: str
    organizer: str
    judge: str
    auditor: str


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Venue]:
    store = f"sqlite:///{tmp_path_factory.mktemp('console') / 'console.sqlite3'}"
    tokens = [token(store, "--role", role) for role in ("organizer", "judge", "reader")]
    with served(store) as base:
        yield Venue(base, *tokens)


def seq_in(text: str) -> int:
    found = re.search(r"seq (\d+)", text)
    assert found is not None, text
    return int(found.group(1))


def test_an_eight_player_swu_event_runs_from_creation_to_the_final_standings(
    page: Any, server: Venue
) -> None:
    base, secret = server.base, server.organizer
    step.sign_in(page, base, secret)
    step.create_event(page, "swu8", "Console Cup", tier="casual", cut="4")
    step.register(page, NAMES)

    step.pair_round(page, 1)
    screenshot(page, "console-round-paired")
    step.print_pairings(page, "console-print-pairings")
    step.start_round(page, 1)
    expect(page.locator("#round-clock .countdown").first).to_contain_text("left")
    screenshot(page, "console-round-started")
    step.tab(page, "Results")
    screenshot(page, "console-results")
    step.enter_round(page, "2-1")

    said = step.correct(page, 1, 1, "1-2", "round 2 is not paired yet")
    assert "corrected" in said
    screenshot(page, "console-impact-unpaired")

    step.pair_round(page, 2)
    said = step.correct(page, 1, 2, "0-2", "round 2 is paired but not started")
    screenshot(page, "console-impact-repaired")
    if "will be re-paired" in said:
        expect(page.get_by_role("heading", name="Re-paired tables")).to_be_visible()
        expect(page.locator(".org-moves").last).to_contain_text("Table")

    step.start_round(page, 2)
    slips, witness = step.print_slips(page, "console-print-slips")
    codes, players = slips[1]
    audit.players_dispute_via_slips(page, base, codes, players, (2, 0), (0, 2))
    audit.sign_in_console(page, base, server.judge)
    audit.judge_resolves_dispute(page, base, "swu8", 1, players, (2, 0))
    settled = seq_in(page.locator(".flash.ok").inner_text())
    audit.sign_in_console(page, base, secret)
    page.get_by_role("link", name="Console Cup").click()
    step.enter_round(page, "2-0")
    step.drop(page, NAMES[7])
    step.pair_round(page, 3)
    step.start_round(page, 3)
    said = step.correct(page, 2, 1, "2-1", "round 3 is under way: pairings stay")
    screenshot(page, "console-impact-started")
    step.enter_round(page, "2-0")

    step.make_cut(page, 4)
    said = step.correct(page, 3, 1, "1-1-1", "the cut stands", reason="slip misread")
    screenshot(page, "console-impact-after-cut")

    for number in (4, 5):
        step.pair_round(page, number)
        step.start_round(page, number)
        step.enter_round(page, "2-0")
    step.tab(page, "Cut & finish")
    expect(page.locator(".org-champion")).to_be_visible()
    step.finish(page)
    standings = page.locator("ol.org-standings:not(.org-cut) li")
    expect(standings).to_have_count(8)
    screenshot(page, "console-final-standings")
    step.tab(page, "Overview")
    expect(page.locator(".org-next")).to_contain_text("finished")
    screenshot(page, "console-overview")

    audit.sign_in_console(page, base, server.auditor)
    disputed = settled - 1  # the second player's report, which the judge's decision follows
    audit.auditor_views_as_of(page, base, "swu8", disputed, ("disputed", players[0]))
    audit.auditor_diffs(page, base, "swu8", disputed, settled, (players[0], "Standings moves"))
    shown = audit.auditor_verifies(page, base, "swu8", witness, ok=True)
    assert f"witness line 1 (seq {seq_in(witness)}): ok" in shown


def test_results_entry_and_pairings_fit_a_phone(phone: Any, server: Venue) -> None:
    base, secret = server.base, server.organizer
    step.sign_in(phone, base, secret)
    step.create_event(phone, "phone8", "Phone Cup", tier="casual")
    step.register(phone, NAMES)
    step.pair_round(phone, 1)
    assert no_horizontal_scroll(phone)
    screenshot(phone, "console-phone-round")
    step.start_round(phone, 1)
    step.tab(phone, "Results")
    assert no_horizontal_scroll(phone)
    step.enter_result(phone, 1, "2-0")
    assert no_horizontal_scroll(phone)
    screenshot(phone, "console-phone-results")
