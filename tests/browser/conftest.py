"""Headless Chromium for the browser tests: Debian's ``chromium`` driven by Playwright
pointed at the system browser (never a browser downloaded at run time).

Without the browser the tests skip with a reason, unless ``TLEDGER_TEST_BROWSER=1``
(``.ci/run`` sets it after installing ``chromium`` with apt): then a missing browser
fails, so CI never passes by skipping. Screenshots go to ``tests/artifacts/``
(git-ignored), one file per page, for a person to look at.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
CHROMIUM = next((p for p in map(shutil.which, ("chromium", "chromium-browser")) if p), None)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One browser per test module: Playwright's sync API keeps an event loop running in
    the main thread while it is open, and a browser kept for the whole session would
    break every later test that runs ``asyncio.run``."""
    if CHROMIUM is None:
        if os.environ.get("TLEDGER_TEST_BROWSER") == "1":
            pytest.fail("TLEDGER_TEST_BROWSER=1 but Debian's chromium is not installed "
                        "(apt-get install chromium)")  # fmt: skip
        pytest.skip("Debian's chromium is not installed (apt-get install chromium); "
                    ".ci/run installs it and sets TLEDGER_TEST_BROWSER=1")  # fmt: skip
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A desktop-sized page (A4 printouts are checked at this width)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context.new_page()
    context.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A 360 px wide phone (the public page and the slip's report page)."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2,
                                  is_mobile=True, has_touch=True)  # fmt: skip
    yield context.new_page()
    context.close()


def screenshot(page: Any, name: str) -> Path:
    """Save a full-page screenshot under tests/artifacts/ and return its path."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def no_horizontal_scroll(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))
