"""Names, never ids: every console page of every golden log shows each player and team by
name where a name belongs (every ``<bdi>`` and every isolated name in a title, option or
sentence), and "(erased)" only for a player whose registry entry was erased. An id may
stand beside a name (muted, for the desk to type), never in its place.

The pages are walked from the application's own routes, so a page added later is
checked without this file naming it; a route's path parameters are filled from the
log (each player, each printout), the correction and impact pages get a confirmed
match and the last change, and the audit page shows the tournament as known at every
seventh seq (rounds under way, a cut not yet made).
"""

from __future__ import annotations

import html
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from commands.handler import Handler
from commands.pages.printouts import KINDS
from commands.tokens import create_token
from commands.web import create_app
from ledger.url import open_store
from projections.state import TournamentState
from tests.console.conftest import NOW
from tests.console.test_every_route import console_routes

LOGS = Path(__file__).resolve().parents[1] / "fixtures" / "logs"
GOLDEN = sorted(LOGS.glob("format-*/*.sqlite3"))
#: a name as a page prints it: in a <bdi> element, or between FSI and PDI
NAMED = re.compile(r"<bdi>(.*?)</bdi>|\u2068(.*?)\u2069", re.S)
ERASED = "(erased)"


def named(page: str) -> Iterator[str]:
    """Every name the page prints, unescaped."""
    for element, isolated in NAMED.findall(page):
        yield html.unescape(element or isolated)


def urls(t: str, state: TournamentState) -> Iterator[str]:
    """Every console page of tournament ``t`` that answers GET, with its parameters."""
    confirmed = next(((r.number, m.players) for r in state.rounds for m in r.matches
                      if m.status == "confirmed" and len(m.players) == 2), None)  # fmt: skip
    for path in console_routes("GET"):
        url = path.replace("{tournament}", t)
        if "{action}" in url:  # the confirmation pages of drop, disqualify and reinstate
            yield from (
                url.replace("{player}", p).replace("{action}", a)
                for p in state.players
                for a in ("drop", "disqualify", "reinstate")
            )
        elif "{player}" in url:
            yield from (url.replace("{player}", p) for p in state.players)
        elif "{kind}" in url:
            yield from (url.replace("{kind}", k) for k in KINDS)
        elif "{" in url:
            continue  # the exports: files, not pages
        elif url.endswith("/results/correct"):
            if confirmed is not None:
                (a, b) = confirmed[1]
                yield f"{url}?round={confirmed[0]}&a={a}&b={b}"
        elif url.endswith("/results/impact"):
            yield f"{url}?a={state.seq - 1}&b={state.seq}"
        else:
            yield url
            if url.endswith("/judge"):
                yield f"{url}?all=1"
            if url.endswith("/audit"):  # the tournament as known halfway, its tables playing
                yield from (f"{url}?as_of={n}" for n in range(5, state.seq, 7))


@pytest.mark.parametrize("golden", GOLDEN, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_console_page_of_a_golden_log_names_its_players(golden: Path, tmp_path: Path) -> None:
    shutil.copy(golden, tmp_path / "store.sqlite3")
    store = open_store(f"sqlite:///{tmp_path / 'store.sqlite3'}", create=False)
    handler = Handler(store)
    (t,) = store.tournaments()
    state = handler.folds.state(t)
    ids = {*state.players, *(p for members in state.teams.values() for p in members)}
    erased = ids - set(store.players(t))
    with TestClient(create_app(handler), follow_redirects=False) as console:
        secret = create_token(store, "organizer", None, None, label="desk", now=NOW)
        console.post("/console/login", data={"token": secret, "next": "/console"})
        pages = list(urls(t, state))
        assert len(pages) > 20, pages
        for url in pages:
            page = console.get(url)
            if page.status_code == 303 and ("/print/" in url or url.count("/") == 6):
                # a printout the log lacks, an action refused to this player now
                assert "error=" in page.headers["location"], url
                continue
            assert page.status_code == 200, (url, page.status_code, page.text[-300:])
            for name in named(page.text):
                assert name not in ids, f"{url}: the id {name!r} stands where a name belongs"
                assert name != ERASED or erased, f"{url}: {ERASED} for a player not erased"
