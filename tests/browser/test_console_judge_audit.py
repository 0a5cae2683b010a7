"""The judges' and auditors' console in headless Chromium: two players
dispute a result from their slips, a judge settles it from the queue, an auditor sees
the tournament as it was, a diff, and verify with a good and a contradicted witness;
the queue fits a 360 px phone. The event is set up through the Python API, not the
console (the organizer's pages have their own test)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from commands.handler import Handler
from commands.slipcodes import issue_codes
from commands.tokens import create_token
from ledger.url import open_store
from tests.browser.console_audit_steps import (
    auditor_diffs,
    auditor_verifies,
    auditor_views_as_of,
    judge_resolves_dispute,
    players_dispute_via_slips,
    queue_fits_a_phone,
    sign_in_console,
)
from tests.console.judge_event import NAMES, round_one
from tests.e2e.test_http import served

NOW = datetime(2026, 11, 28, 10, 0, tzinfo=UTC)


@dataclass
class Event:
    base: str
    t: str
    handler: Handler
    codes: dict[str, str]


@pytest.fixture
def event(tmp_path: Path) -> Iterator[Event]:
    """An 8-player SWU event, round 1 started, slips issued; served by ``tledger serve``."""
    url = f"sqlite:///{tmp_path / 'judge.sqlite3'}"
    handler = Handler(open_store(url))
    t = f"j-{uuid.uuid4().hex[:8]}"
    round_one(handler, t)
    codes = issue_codes(handler.store, handler.folds.state(t), 1, now=NOW)
    with served(url) as base:
        yield Event(base, t, handler, codes)


def test_a_dispute_is_settled_by_a_judge_and_audited(page: Any, phone: Any, event: Event) -> None:
    base, t, store = event.base, event.t, event.handler.store
    names = (NAMES["p1"], NAMES["p2"])
    codes = (event.codes["p1"], event.codes["p2"])
    players_dispute_via_slips(page, base, codes, names, (2, 0), (0, 2))
    disputed_at = len(store.load(t))

    judge = create_token(store, "judge", t, None, label="Floor judge", now=NOW)
    sign_in_console(page, base, judge)
    judge_resolves_dispute(page, base, t, 1, names, (2, 1))
    settled_at = len(store.load(t))
    sign_in_console(phone, base, judge)
    queue_fits_a_phone(phone, base, t)

    auditor = create_token(store, "reader", t, None, label="Auditor", now=NOW)
    sign_in_console(page, base, auditor)
    auditor_views_as_of(page, base, t, disputed_at, ("disputed", NAMES["p1"]))
    auditor_diffs(page, base, t, disputed_at, settled_at, (NAMES["p1"], "Standings moves"))
    page.goto(f"{base}/console/t/{t}/judge")
    assert page.get_by_role("button", name="Settle the dispute").count() == 0  # a reader

    events = store.load(t)
    good = f"seq 3 {events[2].event.hash}"
    shown = auditor_verifies(page, base, t, good, ok=True)
    assert "witness line 1 (seq 3): ok" in shown
    wrong = f"seq 3 {events[3].event.hash}"
    shown = auditor_verifies(page, base, t, f"{good}\n{wrong}", ok=False)
    assert "witness line 2 (seq 3): CONTRADICTED" in shown
