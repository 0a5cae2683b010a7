"""The organizer's console driven as a person drives it: each step clicks and
types only, and saves a screenshot of the page it ends on (tests/artifacts/). Steps are
small named functions so that a test can put others between them (a player's dispute
from a slip page resolved in the judges' queue, an auditor's as-of view and diff)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import screenshot

#: a printed slip: its two players' own codes and their names, in the slip's order
Slip = tuple[tuple[str, str], tuple[str, str]]


def flash_ok(page: Any, text: str) -> None:
    """The last action's outcome line says ``text`` (and is no error)."""
    expect(page.locator(".flash.error")).to_have_count(0)
    expect(page.locator("p.flash.ok")).to_contain_text(text)


def tab(page: Any, label: str) -> None:
    page.locator("nav.tabs").get_by_role("link", name=label, exact=True).click()


def sign_in(page: Any, base: str, secret: str) -> None:
    page.goto(f"{base}/console")
    page.get_by_label("Token").fill(secret)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("h1")).to_have_text("Tournaments")


def create_event(page: Any, tournament: str, name: str, expected: int | None = None,
                 shot: str = "console-new", **options: str) -> None:  # fmt: skip
    """From the console's home: "New event", the ids and the options (by their field
    name); with ``expected`` players, the form first shows the plan for them."""
    page.get_by_role("link", name="New event").click()
    if expected is not None:
        page.get_by_label("Expected players").fill(str(expected))
        page.get_by_role("button", name="Show its options and plan").click()
        expect(page.locator(".org-expected-line")).to_contain_text(f"{expected} players:")
    page.get_by_label("Tournament id").fill(tournament)
    page.get_by_label("Name", exact=True).fill(name)
    for option, value in options.items():
        field = page.locator(f"[name='swu-1.4.{option}']")
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    screenshot(page, shot)
    page.get_by_role("button", name="Create the event").click()
    flash_ok(page, f"created {tournament}")


def register(page: Any, names: list[str]) -> None:
    """Paste one name per line and register them all."""
    tab(page, "Players")
    page.get_by_label(re.compile("One name per line")).fill("\n".join(names))
    page.get_by_role("button", name="Register all").click()
    flash_ok(page, f"registered {len(names)} players")
    screenshot(page, "console-players")


def pair_round(page: Any, number: int) -> None:
    tab(page, "Round")
    page.get_by_role("button", name=re.compile(f"^Pair round {number}")).click()
    flash_ok(page, "paired")
    expect(page.locator("h1")).to_contain_text(f"Round {number}")


def print_pairings(page: Any, name: str) -> None:
    """The pairings printout as its own page (the browser's print dialog prints it)."""
    href = page.get_by_role("link", name="Print pairings").get_attribute("href")
    back = page.url
    page.goto(href if href.startswith("http") else page.url.split("/console")[0] + href)
    expect(page.locator("h1").first).to_be_visible()
    screenshot(page, name)
    page.goto(back)


def print_slips(page: Any, name: str) -> tuple[dict[int, Slip], str]:
    """The slips printout with report codes (an organizer's button; it opens in a new
    tab): each table's two players' own codes and names as printed (in the slip's
    order, each code on its player's half), and the page's witness line. On a server
    reached at a loopback address the Round page asks first, and the box is ticked."""
    confirm = page.get_by_label("print codes for this computer only")
    if confirm.count():
        confirm.check()
    with page.expect_popup() as opened:
        page.get_by_role("button", name="Print slips with report codes").click()
    printed = opened.value
    printed.wait_for_load_state()
    slips: dict[int, Slip] = {}
    for slip in printed.locator("article.slip[data-table]:not([data-table=''])").all():
        names = slip.locator("td.player").evaluate_all(
            "cells => cells.map(c => c.firstChild.textContent.trim())"
        )
        codes = [c.strip() for c in slip.locator(".code-text").all_inner_texts()]
        holders = [h.strip() for h in slip.locator(".holder .name").all_inner_texts()]
        assert holders == names, "each code on its own player's half"
        slips[int(slip.get_attribute("data-table"))] = ((codes[0], codes[1]), (names[0], names[1]))
    witness = printed.locator(".witness-line").first.inner_text().strip()
    screenshot(printed, name)
    printed.close()
    return slips, witness


def start_round(page: Any, number: int) -> None:
    tab(page, "Round")
    page.get_by_role("button", name=f"Start round {number}").click()
    flash_ok(page, "round started")
    expect(page.get_by_text("Started at")).to_be_visible()


def enter_result(page: Any, table: int, result: str) -> None:
    """Keyboard only: the table number, the result, Enter; focus is back on the table."""
    table_field = page.get_by_label("Table", exact=True)
    expect(table_field).to_be_focused()
    page.keyboard.type(str(table))
    expect(page.locator("#entry-preview")).to_contain_text(f"Table {table}:")
    page.keyboard.press("Tab")
    page.keyboard.type(result)
    page.keyboard.press("Enter")
    flash_ok(page, f"table {table}: {result}")


def waiting_tables(page: Any) -> list[int]:
    texts = page.locator(".org-chips a").all_inner_texts()
    return [int(t.split("·")[0].split()[1]) for t in texts]


def enter_round(page: Any, result: str = "2-0") -> None:
    """Every table still waiting gets ``result``."""
    tab(page, "Results")
    for table in waiting_tables(page):
        enter_result(page, table, result)
    expect(page.locator(".org-chips")).to_have_count(0)


def correct(page: Any, round_number: int, table: int, result: str, expected: str,
            reason: str = "") -> str:  # fmt: skip
    """Open a played match's correction, read the timing shown before confirming, confirm
    with ``reason``; returns the timing sentence (the page then shows the impact)."""
    tab(page, "Results")
    section = page.locator("h2", has_text=re.compile(f"^Round {round_number} ")).locator(
        "xpath=following-sibling::ul[1]")  # fmt: skip
    row = section.locator("li").filter(has=page.locator(".org-table-no", has_text=re.compile(
        f"^{table}$")))  # fmt: skip
    row.get_by_role("link", name="correct").click()
    page.get_by_label("Corrected result").fill(result)
    page.get_by_role("button", name="Show what this does").click()
    timing = page.locator(".org-timing")
    expect(timing).to_contain_text(expected)
    if reason:
        page.locator(".org-preview-box").get_by_label(re.compile("^Reason")).fill(reason)
    said = str(timing.inner_text())
    page.get_by_role("button", name="Confirm the correction").click()
    flash_ok(page, "corrected")
    expect(page.locator("h1")).to_contain_text("Impact of the correction")
    return said


def drop(page: Any, name: str) -> None:
    """Drop asks first, on a page naming the result it records; confirmed there."""
    tab(page, "Players")
    row = page.locator("li.org-player").filter(has_text=name)
    row.get_by_role("link", name="Drop…").click()
    expect(page.locator(".org-changes")).to_contain_text(name)
    expect(page.locator(".org-changes")).to_contain_text("drops: not paired in any later round")
    screenshot(page, "console-drop-confirm")
    page.locator("form button.danger").click()
    flash_ok(page, "dropped")


def make_cut(page: Any, size: int) -> None:
    tab(page, "Cut & finish")
    page.get_by_role("button", name="Make the cut").click()
    flash_ok(page, "cut made")
    expect(page.locator("h1")).to_contain_text("cut")
    screenshot(page, f"console-cut-top{size}")


def finish(page: Any) -> None:
    tab(page, "Cut & finish")
    page.get_by_role("button", name="Finish the tournament").click()
    flash_ok(page, "tournament finished")
    expect(page.get_by_role("heading", name="Final standings")).to_be_visible()
