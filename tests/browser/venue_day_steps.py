"""Browser steps of a day at a venue, on top of the console's own steps
(``tests.browser.console_steps``): the plan on the new-event form, slips printed with
codes and read back (each code's address and QR code), a player's report and the
opponent's confirmation from phones at the slip's address, a mistaken drop undone
before the round starts, the finish refused before the cut, and a damaged copy of the
store on every HTML face. Each step clicks and types as a person does and saves a
screenshot ``venue-day-*.png`` under tests/artifacts/ for a person to look at.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any, NamedTuple

from playwright.sync_api import expect

from commands.pages.qr import qr_svg
from tests.browser.conftest import ARTIFACTS, no_horizontal_scroll, screenshot
from tests.browser.console_steps import flash_ok, tab
from tests.e2e.test_damaged_store import flip


class Code(NamedTuple):
    """One player's half of a printed slip: the name printed, the code, its address."""

    name: str
    code: str
    url: str


def shot(page: Any, name: str) -> None:
    screenshot(page, f"venue-day-{name}")


def slips_with_codes(page: Any, venue: str) -> dict[int, tuple[Code, Code]]:
    """Print slips with report codes from the Round page (a new tab): no loopback box to
    tick at a venue; every code's printed address and QR code carry ``venue``. Each
    table's two codes in the slip's order."""
    expect(page.locator("#slip-address")).to_contain_text(f"Report codes will carry {venue}/s/")
    assert page.get_by_label("print codes for this computer only").count() == 0
    with page.expect_popup() as opened:
        page.get_by_role("button", name="Print slips with report codes").click()
    printed = opened.value
    printed.wait_for_load_state()
    slips: dict[int, tuple[Code, Code]] = {}
    for slip in printed.locator("article.slip[data-table]:not([data-table=''])").all():
        codes = []
        for half in slip.locator("section.code").all():
            url = half.locator(".url").inner_text().strip()
            assert url.startswith(f"{venue}/s/"), url
            drawn = half.locator("svg.qr path").first.get_attribute("d")
            assert drawn is not None and f'd="{drawn}"' in qr_svg(url), "the QR holds the url"
            holder = half.locator(".holder .name").inner_text().strip()
            codes.append(Code(holder, half.locator(".code-text").inner_text().strip(), url))
        slips[int(slip.get_attribute("data-table"))] = (codes[0], codes[1])
    shot(printed, "slips")
    table_1 = printed.locator("article.slip[data-table='1']")
    table_1.screenshot(path=str(ARTIFACTS / "venue-day-slip-1.png"))
    printed.close()
    return slips


def choose(phone: Any, group: str, text: str) -> None:
    phone.locator(f"xpath=//fieldset[legend[normalize-space()='{group}']]"
                  f"/div/label[normalize-space()='{text}']").click()  # fmt: skip


def state_of(phone: Any) -> str:
    return str(phone.locator("#state").inner_text()).strip()


def phone_reports(phone: Any, mine: Code, theirs: Code, games: tuple[int, int]) -> None:
    """A player scans their half of the slip: the page at the printed address, the games
    each won (``games`` in the slip's order), Submit; it then waits for the opponent."""
    phone.goto(mine.url)
    expect(phone.locator(".holder")).to_have_text(f"Your code, {mine.name}")
    choose(phone, f"Games won: {mine.name}", str(games[0]))
    choose(phone, f"Games won: {theirs.name}", str(games[1]))
    assert no_horizontal_scroll(phone)
    shot(phone, "phone-report")
    with phone.expect_navigation():
        phone.get_by_role("button", name="Submit result").click()
    assert state_of(phone) == f"Thanks — waiting for {theirs.name} to confirm"
    shot(phone, "phone-waiting")


def phone_confirms(phone: Any, mine: Code, reporter: Code) -> None:
    """The opponent scans their own half: the report to confirm, one tap."""
    phone.goto(mine.url)
    assert state_of(phone) == f"{reporter.name} reported: confirm if it is right"
    assert no_horizontal_scroll(phone)
    shot(phone, "phone-confirm")
    with phone.expect_navigation():
        phone.get_by_role("button", name=f"I am {mine.name}: confirm").click()
    assert state_of(phone) == "Thanks — the result is confirmed"
    shot(phone, "phone-confirmed")


def table_of(page: Any, name: str) -> int:
    """The table the Round page's cards seat ``name`` at."""
    tab(page, "Round")
    card = page.locator("li.card").filter(has_text=name).first
    found = re.search(r"Table (\d+)", card.locator(".org-table-no").inner_text())
    assert found is not None, f"{name} has no table"
    return int(found.group(1))


def mistaken_drop(page: Any, name: str, opponent: str, table: int, round_number: int) -> None:
    """Drop ``name`` from the players page: the confirmation names the automatic result
    (the opponent's 2-0 win at the table) and that a reinstatement before the start
    withdraws it."""
    tab(page, "Players")
    page.locator("li.org-player").filter(has_text=name).get_by_role("link", name="Drop…").click()
    said = page.locator(".org-changes")
    expect(said).to_contain_text(f"{opponent}")
    expect(said).to_contain_text(f"2-0 win at table {table} of round {round_number}")
    shot(page, "drop-confirm")
    button = page.locator("form button.danger")
    expect(button).to_have_text(re.compile(f"Drop .?{re.escape(name)}.? and record the loss at "
                                           f"table {table}$"))  # fmt: skip
    button.click()
    flash_ok(page, "dropped")
    expect(page.locator("p.flash.ok")).to_contain_text(name)
    shot(page, "dropped")


def reinstate(page: Any, name: str, table: int, round_number: int, reason: str) -> None:
    """Reinstate ``name`` (drop in error) before the round starts: the page says the
    automatic result is withdrawn; afterwards the Round page seats them at ``table``
    again with no result."""
    row = page.locator("li.org-player").filter(has_text=name)
    row.get_by_role("link", name="Reinstate (drop in error)…").click()
    expect(page.locator(".org-changes")).to_contain_text(
        f"This withdraws the loss recorded at the drop at table {table} of round {round_number}"
    )
    shot(page, "reinstate-confirm")
    page.get_by_label("Reason").fill(reason)
    named = re.compile(f"^Reinstate .?{re.escape(name)}.? at table {table}$")
    page.get_by_role("button", name=named).click()
    flash_ok(page, "reinstated")
    expect(page.locator("p.flash.ok")).to_contain_text(name)
    tab(page, "Round")
    card = page.locator("li.card").filter(has_text=f"Table {table}").filter(has_text=name)
    expect(card).to_have_count(1)
    expect(card.locator(".org-table-no")).to_contain_text("not started")
    expect(card).not_to_contain_text("2-0")
    shot(page, "reinstated-round")


def finish_refused(page: Any, cut: int, rounds: int) -> None:
    """After the Swiss rounds the Cut & finish page offers no plain Finish: its
    confirmation names the cut that was not made."""
    tab(page, "Cut & finish")
    expect(page.get_by_role("button", name="Finish the tournament")).to_have_count(0)
    expect(page.locator(".org-confirm")).to_contain_text(f"No top {cut} cut was made")
    expect(page.locator(".org-confirm")).to_contain_text(f"after round {rounds}")
    shot(page, "finish-refused")


def damaged_copy(store: str, copy: str, tournament: str, seq: int) -> None:
    """A copy of the SQLite store (through SQLite's backup, so nothing in its journal is
    lost) with one byte of one event of ``tournament`` changed behind the ledger's back."""
    with (sqlite3.connect(store.removeprefix("sqlite:///")) as source,
          sqlite3.connect(copy.removeprefix("sqlite:///")) as target):  # fmt: skip
        source.backup(target)
    flip(copy, tournament, seq)


def integrity_everywhere(page: Any, phone: Any, base: str, secret: str, tournament: str,
                         title: str, code: str, seq: int) -> None:  # fmt: skip
    """On a damaged copy, each HTML face shows its readable integrity page naming the
    seq: the console (and its home marks the event), the public page and the slip page
    on a phone, the projector's clock."""
    page.goto(f"{base}/console/login")
    page.get_by_label("Token").fill(secret)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".damaged-mark")).to_have_text(f"damaged at seq {seq}")
    shot(page, "damaged-console-home")
    page.get_by_role("link", name=title).click()
    expect(page.locator("h1")).to_have_text("The log of this event is damaged")
    expect(page.locator("header.bar")).to_contain_text(title)
    expect(page.locator(".damage")).to_contain_text(f"Damaged at seq {seq}")
    expect(page.locator("main")).to_contain_text(f"tledger replay {tournament} --until {seq - 1}")
    shot(page, "damaged-console")
    for path, name in ((f"/t/{tournament}", "public"), (f"/s/{code}", "slip")):
        answer = phone.goto(f"{base}{path}")
        assert answer.status == 503, path
        expect(phone.locator(".seq")).to_have_text(f"Damaged at seq {seq}")
        assert no_horizontal_scroll(phone)
        shot(phone, f"damaged-{name}")
    page.set_viewport_size({"width": 1280, "height": 720})
    assert page.goto(f"{base}/t/{tournament}/clock").status == 503
    expect(page.locator(".seq")).to_have_text(f"Damaged at seq {seq}")
    shot(page, "damaged-projector")
