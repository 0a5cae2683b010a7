"""Every name on every page and printout is isolated from the text around it: a name that
leaves a right-to-left override open (registered before names had to close what they
open) turns nothing printed after it, neither its id nor the next column; in text that
can hold no element the name sits between FIRST STRONG ISOLATE and POP DIRECTIONAL
ISOLATE, its unclosed controls dropped."""

from __future__ import annotations

import re
import uuid

import pytest

from commands.handler import Handler
from commands.pages import public as pages
from commands.pages.isolation import bdi, isolated, said
from commands.reads.cache import ReadSide
from ledger.url import open_store
from tests.printing import Event, with_bracket
from tests.public_event import registered_long_ago, run
from tests.unit.test_public_page import models_of

#: a name as an older version took it: an override left open, and markup
SPOOF = "Ada\u202e <b>Evil</b>"
ESCAPED = "Ada\u202e &lt;b&gt;Evil&lt;/b&gt;"


def outside_isolation(html: str) -> str:
    """The page without its ``<bdi>`` elements and isolated runs, and without what the
    search script matches and never shows (``data-search``, names folded)."""
    return re.sub('<bdi>.*?</bdi>|\u2068.*?\u2069|data-search="[^"]*"', "", html, flags=re.S)


def test_a_name_in_an_element_is_escaped_in_a_bdi() -> None:
    assert bdi(SPOOF) == f"<bdi>{ESCAPED}</bdi>"


@pytest.mark.parametrize(
    ("name", "shown"),
    [("Ada", "\u2068Ada\u2069"), (SPOOF, "\u2068Ada <b>Evil</b>\u2069"),
     ("\u2067דוד\u2069", "\u2068\u2067דוד\u2069\u2069"), ("Ada\u2069", "\u2068Ada\u2069")],
)  # fmt: skip
def test_a_name_in_plain_text_is_isolated_and_loses_the_controls_it_does_not_close(
    name: str, shown: str
) -> None:
    assert isolated(name) == shown


def test_a_result_said_in_words_isolates_its_names() -> None:
    words = said({"points": [140, 84], "winner": "p9"}, {"p9": SPOOF})
    assert words == "140-84, won by \u2068Ada <b>Evil</b>\u2069"


def test_the_public_page_isolates_an_old_name_from_its_id_and_the_next_column() -> None:
    handler = Handler(open_store(f"memory://{uuid.uuid4().hex}"))
    run(handler, "x", {"type": "create_tournament", "name": "Cup", "ruleset": "swu-1.4"},
        {"type": "register_player", "player": "p1", "name": "Ben"})  # fmt: skip
    registered_long_ago(handler, "x", "p9", SPOOF)
    run(handler, "x", {"type": "pair_round", "seed": 1})
    html = pages.render_page(models_of(ReadSide(handler.folds), "x"), "en", None)
    assert html.count(f"<bdi>{ESCAPED}</bdi> <small>p9</small>") == 2  # pairings, standings
    assert "<bdi>Ben</bdi> <small>p1</small>" in html and "<b>Evil" not in html
    assert "\u202e" not in outside_isolation(html)


@pytest.fixture(scope="module")
def spoofed() -> Event:
    """Two Swiss rounds, a top 4, the semifinals played: p2's name as an old log kept it."""
    event = with_bracket()
    event.names["p2"] = SPOOF
    return event


@pytest.mark.parametrize("kind", ["pairings", "standings", "slips", "bracket"])
def test_every_printout_isolates_every_name(spoofed: Event, kind: str) -> None:
    page = getattr(spoofed, kind)()
    assert f"<bdi>{ESCAPED}</bdi>" in page and "<b>Evil" not in page
    assert "\u202e" not in outside_isolation(page)
    assert "<bdi>Store Showdown</bdi>" in page and "<title>\u2068Store Showdown\u2069" in page


def test_the_pods_printout_isolates_every_name() -> None:
    event = Event("swu-1.4", 8, deck_format="draft")
    event.do(type="assign_pods", pod_size=4, seed=3)
    event.names["p2"] = SPOOF
    page = event.pods()
    assert f"<bdi>{ESCAPED}</bdi> <span" in page
    assert "\u202e" not in outside_isolation(page)
