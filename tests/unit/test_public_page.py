"""The public page's rendering (commands/pages/public.py): what it shows comes from the
read side's models, names are text and never markup, German labels, the language a
browser asks for, the search of the read layer, and the per-process switch cache."""

from __future__ import annotations

import re
import uuid

import pytest

from commands.api.public import Switches, etag_of, page_queries
from commands.api.public import models_of as public_models
from commands.handler import Handler
from commands.pages import public as pages
from commands.pages.assets import find
from commands.pages.public_labels import PUBLIC_LABELS, language, public_labels, round_name
from commands.reads.cache import Entry, ReadSide
from commands.reads.models import Status
from ledger.url import open_store
from projections.rulesets import ruleset
from tests.public_event import event_in_its_cut, run, running_event

T = "berlin"


@pytest.fixture
def side() -> ReadSide:
    handler = Handler(open_store(f"memory://{uuid.uuid4().hex}"))
    running_event(handler, T)
    return ReadSide(handler.folds)


def models_of(side: ReadSide, t: str = T, search: str | None = None) -> pages.PublicModels:
    return public_models(side, t, side.current(t, page_queries(search)), search)


def cards(html: str) -> list[str]:
    """The text of each pairing card, tags removed."""
    found = re.findall(r'<li class="match".*?</li>', html, flags=re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", card).split()) for card in found]


def test_the_page_shows_every_table_of_the_current_round_with_names_and_ids(
    side: ReadSide,
) -> None:
    models = models_of(side)
    html = pages.render_page(models, "en", '"etag"')
    shown = cards(html)
    assert len(shown) == len(models.pairings.pairings) == 20
    first = models.pairings.pairings[0]
    a, b = first.players
    names = models.pairings.names
    assert shown[0] == f"Table {first.table} {names[a]} {a} vs {names[b]} {b}"
    assert "Round 2 of 6" in html and "under way" in html


def test_standings_show_the_tiebreakers_as_the_ruleset_does(side: ReadSide) -> None:
    models = models_of(side)
    html = pages.render_content(models, "en")
    leader = models.standings.standings[0]
    for tiebreaker in ruleset("swu-1.4").tiebreakers:
        assert f">{tiebreaker.label}</th>" in html
        assert tiebreaker.show(leader.tiebreakers[tiebreaker.key]) in html
    assert f"<bdi>{leader.name}</bdi> <small>{leader.player}</small>" in html


def test_the_head_is_shown_as_a_witness_line(side: ReadSide) -> None:
    models = models_of(side)
    html = pages.render_content(models, "en")
    assert f"<code>seq {models.status.seq} {models.status.head}</code>" in html
    assert models.status.seq == models.standings.seq == models.pairings.seq


def test_a_name_that_holds_markup_is_text(side: ReadSide) -> None:
    handler = Handler(side.store, folds=side.folds)
    run(handler, "x", {"type": "create_tournament", "name": "<b>Cup</b>", "ruleset": "swu-1.4"},
        {"type": "register_player", "player": "p1", "name": "<script>alert(1)</script>"},
        {"type": "register_player", "player": "p2", "name": 'Eve "the" <img src=x>'},
        {"type": "pair_round", "seed": 1})  # fmt: skip
    html = pages.render_page(models_of(side, "x"), "en", None)
    assert "<script>alert" not in html and "<img src=x>" not in html and "<b>Cup" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;img src=x&gt;" in html and "&lt;b&gt;Cup&lt;/b&gt;" in html
    assert "<script>" not in html, "the page's scripts are files, none inline"


def test_the_german_page_says_it_in_german(side: ReadSide) -> None:
    html = pages.render_page(models_of(side), "de", None)
    for words in ("Wo spiele ich?", "Tisch", "gegen", "Rangliste", "Runde 2 von 6", "läuft",
                  "Schweizer System", 'lang="de"', "S-N-U"):  # fmt: skip
        assert words in html
    assert "Where do I play" not in html and "Standings" not in html


def test_every_label_has_both_languages() -> None:
    assert set(public_labels("de")) == set(public_labels("en")) == set(PUBLIC_LABELS)


def test_a_search_keeps_the_tables_where_a_name_or_id_holds_it_folded(side: ReadSide) -> None:
    models = models_of(side, search="ELAN")
    assert len(models.pairings.pairings) == 1
    assert "p2" in models.pairings.pairings[0].players  # Élan Müller
    by_id = models_of(side, search="p40")
    assert [t.players for t in by_id.pairings.pairings] == [
        t.players for t in models_of(side).pairings.pairings if "p40" in t.players]  # fmt: skip
    html = pages.render_page(models_of(side, search="nobody-like-this"), "en", None)
    assert cards(html) == []
    assert 'class="nobody">Nobody found for “<span class="q">nobody-like-this</span>”' in html


def test_each_card_carries_its_players_folded_for_the_script(side: ReadSide) -> None:
    html = pages.render_content(models_of(side, search="strasse"), "en")
    assert 'data-search="jurgen strasse p12"' in html


def test_the_bracket_shows_rounds_results_winners_and_seeds() -> None:
    handler = Handler(open_store(f"memory://{uuid.uuid4().hex}"))
    event_in_its_cut(handler, "cut")
    side = ReadSide(handler.folds)
    models = models_of(side, "cut")
    html = pages.render_content(models, "en")
    assert 'id="bracket"' in html and "semifinal" in html and "final" in html
    semis = models.bracket.rounds[0].matches
    for match in semis:
        assert match.winner is not None
        winner = models.bracket.names[match.winner]
        assert f'<div class="bp won"><span class="mark"><bdi>{winner}</bdi>' in html
    assert [s.seed for s in models.bracket.seeds] == [1, 2, 3, 4]
    german = pages.render_content(models, "de")
    assert "Halbfinale" in german and "Setzliste" in german


def test_a_swiss_event_has_no_bracket_section(side: ReadSide) -> None:
    assert 'id="bracket"' not in pages.render_content(models_of(side), "en")


def test_the_closed_page_says_so_in_both_languages() -> None:
    assert "This tournament has no public page." in pages.render_closed("en")
    assert "Dieses Turnier hat keine öffentliche Seite." in pages.render_closed("de")


def test_the_scripts_are_the_servers_files_and_their_data_are_attributes(side: ReadSide) -> None:
    html = pages.render_page(models_of(side), "en", '"tag"')
    scripts = re.findall(r'<script src="([^"]+)" defer></script>', html)
    assert scripts == ["/static/countdown.js", "/static/live.js"]
    assert html.count("<script") == 2 and "<style" not in html and " style=" not in html
    assert f'data-live="/t/{T}/live"' in html and 'data-poll="30"' in html
    assert 'data-etag="&#34;tag&#34;"' in html
    for name in scripts:
        found = find(name.removeprefix("/static/"))
        assert found is not None and T.encode() not in found.body
    assert not re.search(r"(src|href)=\"(https?:)?//", html), "nothing from elsewhere"


@pytest.mark.parametrize(("asked", "header", "lang"), [
    (None, None, "en"), ("de", "en", "de"), ("en", "de-DE", "en"), (None, "de-DE,de;q=0.9", "de"),
    (None, "fr-FR,fr;q=0.9,en;q=0.5,de;q=0.8", "de"), (None, "fr", "en"), (None, "de;q=x", "en"),
])  # fmt: skip
def test_the_language_is_the_asked_one_else_the_browsers_best(
    asked: str | None, header: str | None, lang: str
) -> None:
    assert language(asked, header) == lang


def test_german_names_the_plain_elimination_rounds() -> None:
    names = ("final", "semifinal", "round of 16", "lower round 2")
    assert [round_name(n, "de") for n in names] == [
        "Finale", "Halbfinale", "Runde der letzten 16", "lower round 2"]  # fmt: skip
    assert round_name("semifinal", "en") == "semifinal"


def test_the_etag_names_the_head_and_the_language(side: ReadSide) -> None:
    entries: list[Entry] = side.current(T, page_queries(None))
    status = entries[0].model
    assert isinstance(status, Status)
    en, de = etag_of(entries, "en", "page", None), etag_of(entries, "de", "page", None)
    assert en.startswith(f'"{status.head}-en-') and de.startswith(f'"{status.head}-de-')
    assert etag_of(entries, "en", "content", None) != en != etag_of(entries, "en", "page", "ada")


def test_a_switch_is_read_again_after_its_recheck_time() -> None:
    now = [100.0]
    switches = Switches(recheck=2.0, clock=lambda: now[0])
    assert switches.get("t1") is None
    switches.keep("t1", False, now[0])
    now[0] += 1.9
    assert switches.get("t1") is False
    now[0] += 0.1
    assert switches.get("t1") is None


def test_the_read_sides_pairings_json_is_unchanged_without_a_search(side: ReadSide) -> None:
    from commands.reads.cache import Query

    plain = side.get(T, Query("pairings"))
    assert plain.model == models_of(side).pairings
    assert b'"names"' not in plain.body and b"search" not in plain.body


def test_an_unknown_tournament_leaves_nothing_kept_in_the_process(side: ReadSide) -> None:
    from fastapi.testclient import TestClient

    from commands.web import create_app

    handler = Handler(side.store, folds=side.folds)
    app = create_app(handler)
    with TestClient(app) as http:
        for path in ("/t/nope", "/t/nope/content", "/t/nope/live"):
            answer = http.get(path)
            assert answer.status_code == 404 and "no public page" in answer.text
        assert http.get(f"/t/{T}").status_code == 200
    assert "nope" not in handler.folds._locks and "nope" not in app.state.hub.streams
    assert app.state.public.switches.get("nope") is None
    assert not app.state.read_side.holds("nope")


def test_a_bye_is_a_card_without_a_table(side: ReadSide) -> None:
    handler = Handler(side.store, folds=side.folds)
    run(handler, "odd", {"type": "create_tournament", "name": "Odd", "ruleset": "swu-1.4"},
        *({"type": "register_player", "player": p, "name": p.upper()} for p in ("a", "b", "c")),
        {"type": "pair_round", "pairings": [["a", "b"], ["c"]]})  # fmt: skip
    shown = cards(pages.render_content(models_of(side, "odd"), "en"))
    assert shown == ["Table 1 A a vs B b", "Bye C c"]
