"""The console isolates every name from the text around it: a name an older version took
with a right-to-left override left open turns no id, "v" or column on any page, and a
select's options, the page's title and a confirmation carry it isolated."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from commands.handler import Handler
from tests.public_event import registered_long_ago, run
from tests.unit.test_name_isolation import ESCAPED, SPOOF, outside_isolation

Signer = Callable[..., TestClient]
T = "x"
PAGES = ["/players", "/round", "/results", "/judge", "/players/p9", "/players/p9/drop", "/history",
         "/audit?explain=p9&as_of=9&a=5&b=9", "/lists", "/finals"]  # fmt: skip


@pytest.fixture
def disputed(handler: Handler) -> Handler:
    """Round 1 under way, p9 (named as an old log kept it) against p1, both reporting a win."""
    run(handler, T, {"type": "create_tournament", "name": "Cup", "ruleset": "swu-1.4"},
        {"type": "register_player", "player": "p1", "name": "Ben"})  # fmt: skip
    registered_long_ago(handler, T, "p9", SPOOF)
    run(handler, T, *({"type": "register_player", "player": p, "name": p.upper()}
                      for p in ("p2", "p3")))  # fmt: skip
    run(handler, T, {"type": "pair_round", "pairings": [["p1", "p9"], ["p2", "p3"]]},
        {"type": "start_round"})  # fmt: skip
    for who, games in (("p1", [2, 0]), ("p9", [0, 2])):
        run(handler, T, {"type": "report_result", "round": 1, "players": ["p1", "p9"],
                         "result": {"games": games, "draws": 0},
                         "actor": {"role": "player", "id": who}})  # fmt: skip
    return handler


@pytest.mark.parametrize("path", PAGES)
def test_no_console_page_lets_a_name_turn_the_text_around_it(
    sign_in: Signer, disputed: Handler, path: str
) -> None:
    page = sign_in().get(f"/console/t/{T}{path}")
    assert page.status_code == 200, page.text
    assert "&lt;b&gt;Evil" in page.text and "<b>Evil" not in page.text
    assert "\u202e" not in outside_isolation(page.text)


def test_the_name_is_a_bdi_in_elements_and_isolated_in_options_and_titles(
    sign_in: Signer, disputed: Handler
) -> None:
    console = sign_in()
    queue = console.get(f"/console/t/{T}/judge").text
    assert f'<bdi>Ben</bdi> <span class="muted">v</span> <bdi>{ESCAPED}</bdi>' in queue
    assert "reported by \u2068Ada &lt;b&gt;Evil&lt;/b&gt;\u2069" in queue
    assert '<option value="p9">\u2068Ada &lt;b&gt;Evil&lt;/b&gt;\u2069 (p9)</option>' in queue
    player = console.get(f"/console/t/{T}/players/p9").text
    assert "<title>\u2068Ada &lt;b&gt;Evil&lt;/b&gt;\u2069 ·" in player
    assert 'href="/console/t/x/players/p9/disqualify?from_page=player"' in player
    confirm = console.get(f"/console/t/{T}/players/p9/disqualify?from_page=player").text
    assert "<title>Disqualify \u2068Ada &lt;b&gt;Evil&lt;/b&gt;\u2069? ·" in confirm
