"""Keyboard entry that forgives, in Chromium against a real ``tledger serve``: a typed
line the console refuses comes back with the table number selected and the result kept,
the error beside the field, so the next number typed replaces the wrong one ("1", not
"81") and Enter sends the corrected line. Screenshot: tests/artifacts/console-entry-error.png.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser import console_steps as step
from tests.browser.conftest import screenshot
from tests.e2e.test_http import served, token

NAMES = ["Ada Lovelace", "Bo Katan", "Cassian Andor", "Din Djarin"]


@pytest.fixture(scope="module")
def venue(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    store = f"sqlite:///{tmp_path_factory.mktemp('entry') / 'entry.sqlite3'}"
    secret = token(store, "--role", "organizer")
    with served(store) as base:
        yield base, secret


def test_a_refused_line_is_corrected_by_typing_the_right_table_over_the_wrong_one(
    page: Any, venue: tuple[str, str]
) -> None:
    base, secret = venue
    step.sign_in(page, base, secret)
    step.create_event(page, "entry4", "Entry Cup", tier="casual")
    step.register(page, NAMES)
    step.pair_round(page, 1)
    step.start_round(page, 1)
    step.tab(page, "Results")
    table = page.get_by_label("Table", exact=True)
    expect(table).to_be_focused()
    page.keyboard.type("8")
    page.keyboard.press("Tab")
    page.keyboard.type("2-0")
    page.keyboard.press("Enter")
    expect(page.locator("#entry-error")).to_contain_text("round 1 has no table 8")
    expect(page.locator(".flash.error")).to_have_count(0)
    expect(table).to_be_focused()
    expect(page.get_by_label("Result", exact=True)).to_have_value("2-0")
    screenshot(page, "console-entry-error")
    page.keyboard.type("1")
    expect(table).to_have_value("1")
    page.keyboard.press("Enter")
    step.flash_ok(page, "table 1: 2-0")
