"""Headless Chromium for the browser tests: Debian's ``chromium`` driven by Playwright
pointed at the system browser (never a browser downloaded at run time).

Without the browser the tests skip with a reason, unless ``TLEDGER_TEST_BROWSER=1``
(``.ci/run`` sets it after installing ``chromium`` with apt): then a missing browser
fails, so CI never passes by skipping. Screenshots go to ``tests/artifacts/``
(git-ignored), one file per page, for a person to look at.

Every page a test opens with the ``page`` and ``phone`` fixtures is watched: a test
fails when the Content-Security-Policy refused anything on it (an inline script or
style) or a script of it threw.
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
    """One Chromium per test module: Playwright's sync API keeps an event loop running
    in the thread while it is open, so a session-wide browser would make every later
    test's ``asyncio.run`` fail ("cannot be called from a running event loop")."""
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


#: each violation of the policy, as the page reports it to the test's binding
LISTEN = """document.addEventListener("securitypolicyviolation", (e) => window.tledgerRefused(
  `${location.pathname}: ${e.violatedDirective} ${e.blockedURI} line ${e.lineNumber}`));"""


class Watched:
    """What the pages of a browser context report: each Content-Security-Policy
    violation (the ``securitypolicyviolation`` event), console error and uncaught
    script error, with the page's address."""

    def __init__(self, context: Any) -> None:
        self.refused: list[str] = []
        self.errors: list[str] = []
        context.expose_function("tledgerRefused", lambda text: self.refused.append(text))
        context.add_init_script(LISTEN)
        context.on("page", self.follow)

    def follow(self, page: Any) -> None:
        def console(message: Any) -> None:
            if message.type == "error":
                self.errors.append(f"{page.url}: {message.text}")

        page.on("console", console)
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: {error}"))

    def check(self) -> None:
        """No violation and no console or script error, but for a resource that did not
        load (a stream a test cut off, a page that answers 404 on purpose: the test's
        own business)."""
        errors = [e for e in self.errors if "Failed to load resource" not in e]
        assert not self.refused and not errors, [*self.refused, *errors]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Keep each phase's report on the test, so that a page fixture can tell whether the
    test failed and save what its pages showed then."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


def shoot_on_failure(request: pytest.FixtureRequest, context: Any) -> None:
    """A failed test leaves a screenshot of each of its open pages, named after the test
    (``failed-<test>-<n>.png``): what the page showed when the step gave up. Its address
    and its text go to the test's output too, which a CI log shows without the files."""
    report = getattr(request.node, "report_call", None)
    if report is None or not report.failed:
        return
    for number, opened in enumerate(context.pages):
        try:
            screenshot(opened, f"failed-{request.node.name}-{number}")
            text = opened.locator("body").inner_text(timeout=5000)
            print(f"page {number} at {opened.url}:\n{text[:3000]}")
        except Exception as error:  # a page that is gone has nothing to show
            print(f"page {number}: nothing to show ({error})")


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A desktop-sized page (A4 printouts are checked at this width)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    watched = Watched(context)
    yield context.new_page()
    shoot_on_failure(request, context)
    context.close()
    watched.check()


def phone_page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A page on a 360 px wide phone of its own, watched as every page is."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2,
                                  is_mobile=True, has_touch=True)  # fmt: skip
    watched = Watched(context)
    yield context.new_page()
    shoot_on_failure(request, context)
    context.close()
    watched.check()


@pytest.fixture
def phone(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A 360 px wide phone (the public page and the slip's report page)."""
    yield from phone_page(browser, request)


@pytest.fixture
def second_phone(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """Another player's own phone: a second 360 px browser context."""
    yield from phone_page(browser, request)


def screenshot(page: Any, name: str) -> Path:
    """Save a full-page screenshot under tests/artifacts/ and return its path."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def no_horizontal_scroll(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))
