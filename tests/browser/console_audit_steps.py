"""Browser steps of the judges' and auditors' console, for any end-to-end
test that runs an event through the console: each step does what a person does (opens a
page, types, clicks), asserts what the page then shows, and saves a screenshot under
tests/artifacts/ (``tests.browser.conftest.screenshot``).

``page`` is a Playwright page signed in to the console (``sign_in_console``) for the
console steps; the slip steps need no session (a slip's code is the credential).
"""

from __future__ import annotations

import re
from typing import Any

from tests.browser.conftest import no_horizontal_scroll, screenshot


def sign_in_console(page: Any, base: str, secret: str, name: str = "") -> None:
    """Sign in with a token (a judge's, an organizer's or an auditor's reader token)."""
    page.goto(f"{base}/console/login")
    page.get_by_label("Token").fill(secret)
    with page.expect_navigation():
        page.get_by_role("button", name="Sign in").click()
    assert "/console/login" not in page.url
    if name:
        screenshot(page, name)


def slip_report(page: Any, base: str, code: str, reporter: str, names: tuple[str, str],
                games: tuple[int, int]) -> None:  # fmt: skip
    """One player's report through the code on their own half of the slip, ``/s/{code}``:
    each player's games won (in the slip's player order)."""
    page.goto(f"{base}/s/{code}")
    assert page.locator(".holder").inner_text() == f"Your code, {reporter}"
    again = page.locator("details.again > summary")
    if again.count():
        again.click()  # the opponent already reported: "Something wrong? Report what you saw"
    form = page.locator("form#report")
    assert form.locator("xpath=.//fieldset[legend[normalize-space()='I am']]").count() == 0
    for name, won in zip(names, games, strict=True):
        form.locator(f"xpath=.//fieldset[legend[normalize-space()='Games won: {name}']]"
                     f"/div/label[normalize-space()='{won}']").click()  # fmt: skip
    with page.expect_navigation():
        form.get_by_role("button", name="Submit result").click()


def players_dispute_via_slips(page: Any, base: str, codes: tuple[str, str],
                              names: tuple[str, str], first: tuple[int, int],
                              second: tuple[int, int]) -> None:  # fmt: skip
    """Both players of a match report different results, each through the code on their
    own half of the slip (``codes`` and ``names`` in the slip's order): the first player
    ``first``, the second ``second`` (games in the slip's order); the slip page then
    says a judge will decide."""
    slip_report(page, base, codes[0], names[0], names, first)
    slip_report(page, base, codes[1], names[1], names, second)
    assert "a judge will decide" in page.locator("#state").inner_text()
    screenshot(page, "console-audit-slip-disputed")


def judge_sees_queue(page: Any, base: str, t: str, table: int, names: tuple[str, str],
                     shot: str = "console-judge-queue") -> Any:  # fmt: skip
    """The judges' queue: the table is disputed and both players' reports are shown."""
    page.goto(f"{base}/console/t/{t}/judge")
    card = page.locator(f"#table-{table}")
    assert "disputed" in card.locator("h2").inner_text()
    said = [t.replace("\u2068", "").replace("\u2069", "")
            for t in card.locator(".report .what").all_inner_texts()]  # fmt: skip
    assert [t.rpartition(", reported by ")[2] for t in said[:2]] == list(names), said
    assert all(t.startswith(f"{names[0]} ") and f" {names[1]}" in t for t in said[:2]), said
    screenshot(page, shot)
    return card


def judge_resolves_dispute(page: Any, base: str, t: str, table: int, names: tuple[str, str],
                           games: tuple[int, int]) -> None:  # fmt: skip
    """A judge settles a disputed table from the queue with ``games`` (in the table's
    player order): the queue then says so and the table has left it."""
    card = judge_sees_queue(page, base, t, table, names)
    card.get_by_label(f"Games {names[0]}").fill(str(games[0]))
    card.get_by_label(f"Games {names[1]}").fill(str(games[1]))
    page.once("dialog", lambda dialog: dialog.accept())  # "It decides the dispute."
    with page.expect_navigation():
        card.get_by_role("button", name="Settle the dispute").click()
    assert f"table {table}: judge's result recorded" in page.locator(".flash.ok").inner_text()
    assert page.locator(f"#table-{table}").count() == 0
    screenshot(page, "console-judge-settled")


def auditor_views_as_of(page: Any, base: str, t: str, seq: int, expect: tuple[str, ...] = ()
                        ) -> None:  # fmt: skip
    """The tournament as known at ``seq``, from the history page's link of that seq."""
    page.goto(f"{base}/console/t/{t}/history")
    with page.expect_navigation():
        page.locator(f"#seq-{seq} a").first.click()
    section = page.locator("#as-of")
    assert f"As of seq {seq}" in section.inner_text()
    for text in expect:
        assert text in section.inner_text(), text
    screenshot(page, "console-audit-as-of")


def auditor_diffs(page: Any, base: str, t: str, a: int | str, b: int | str,
                  expect: tuple[str, ...] = ()) -> None:  # fmt: skip
    """What changed from ``a`` to ``b`` (seqs or times), typed into the audit page."""
    page.goto(f"{base}/console/t/{t}/audit")
    page.get_by_label("From (seq or time)").fill(str(a))
    page.get_by_label("To (seq or time)").fill(str(b))
    with page.expect_navigation():
        page.get_by_role("button", name="Compare").click()
    shown = page.locator("#diff").inner_text()
    assert re.search(r"Seq \d+ → \d+", shown), shown
    for text in expect:
        assert text in shown, text
    screenshot(page, "console-audit-diff")


def auditor_verifies(page: Any, base: str, t: str, witnesses: str, ok: bool) -> str:
    """``verify`` with witness lines pasted; the verdict shown, returned as text."""
    page.goto(f"{base}/console/t/{t}/audit")
    page.get_by_label(re.compile("Witnesses")).fill(witnesses)
    with page.expect_navigation():
        page.get_by_role("button", name="Verify").click()
    shown = str(page.locator("#verify").inner_text())
    assert ("NOT verified" not in shown) == ok, shown
    screenshot(page, "console-audit-verify-ok" if ok else "console-audit-verify-contradicted")
    return shown


def queue_fits_a_phone(phone: Any, base: str, t: str) -> None:
    """The judges' queue at 360 px: no horizontal scrolling."""
    phone.goto(f"{base}/console/t/{t}/judge")
    assert no_horizontal_scroll(phone)
    screenshot(phone, "console-judge-queue-phone")
