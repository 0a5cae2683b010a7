"""The printouts: pairings for the wall, standings, match slips and
the bracket, rendered from the read side (commands/reads/paper.py, commands/pages/printouts.py)."""

from __future__ import annotations

import re
from datetime import datetime

import pytest

from commands.errors import WrongPhase
from commands.pages import printouts
from commands.pages.assets import self_contained
from commands.pages.print_labels import LABELS, print_labels, round_title
from commands.pages.qr import qr_svg
from commands.reads import paper
from commands.reads.people import sort_key
from projections.rulesets import ruleset
from projections.rulesets.base import ResultForm
from tests.printing import PRINTED, Event, codes_for, rows, swiss, text, with_bracket

SCRIPT = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def swu() -> Event:
    return swiss("swu-1.4", players=8, played=1)


def witness(event: Event) -> str:
    return f"seq {event.state.seq} {event.state.head}"


# every page ------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["pairings", "standings", "slips"])
def test_every_page_shows_event_round_time_printed_and_the_witness_line(
    swu: Event, kind: str
) -> None:
    page = getattr(swu, kind)()
    words = text(page)
    assert "Store Showdown" in words and "Round 2" in words
    assert "printed 2026-05-02 14:30 UTC" in words
    assert witness(swu) in words and len(swu.state.head) == 64


def test_the_bracket_page_shows_the_witness_of_its_log_too() -> None:
    event = with_bracket()
    words = text(event.bracket())
    assert witness(event) in words and "Store Showdown" in words and "Round 4" in words


@pytest.mark.parametrize("kind", ["pairings", "standings", "slips"])
def test_a_name_that_is_markup_is_printed_as_text(swu: Event, kind: str) -> None:
    page = getattr(swu, kind)()
    assert SCRIPT not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert SCRIPT in text(page)


def test_the_paper_sets_the_page_size_and_an_unknown_paper_is_refused(swu: Event) -> None:
    assert '<link rel="stylesheet" href="/static/paper-a4.css">' in swu.standings()
    assert "size: A4;" in self_contained(swu.standings())
    assert "size: letter;" in self_contained(swu.standings(paper="letter"))
    with pytest.raises(ValueError, match="paper 'a3'"):
        swu.standings(paper="a3")


def test_the_time_printed_is_shown_in_utc_and_must_carry_its_zone() -> None:
    assert printouts.printed(datetime.fromisoformat("2026-05-02T16:30+02:00")) == (
        "2026-05-02 14:30 UTC"
    )
    with pytest.raises(ValueError, match="time zone"):
        printouts.printed(datetime(2026, 5, 2, 14, 30))


# pairings --------------------------------------------------------------------------


def test_pairings_by_table_list_every_table_with_both_names_and_ids(swu: Event) -> None:
    by_table = rows(swu.pairings(), "by-table")
    rnd = swu.state.current
    assert rnd is not None
    expected = [[str(m.table), f"{swu.names[m.players[0]]} {m.players[0]}", "–",
                 f"{swu.names[m.players[1]]} {m.players[1]}"] for m in rnd.matches]  # fmt: skip
    assert by_table == expected


def test_pairings_by_name_are_sorted_as_people_read_names(swu: Event) -> None:
    by_name = rows(swu.pairings(), "by-name")
    shown = [row[0] for row in by_name]
    ordered = sorted(swu.players, key=lambda p: sort_key(swu.names[p], p))
    assert shown == [f"{swu.names[p]} {p}" for p in ordered]
    assert shown.index("bail p3") < shown.index("Cassian p8") < shown.index("Élan p2")
    assert shown.index("Élan p2") < shown.index("Fay p7")  # É sorts with E
    tables = {
        s.player: s.table for s in paper.seats(paper.wall_pairings(swu.state, None, swu.names))
    }
    assert [row[1] for row in by_name] == [str(tables[p]) for p in ordered]


def test_a_bye_is_printed_as_a_bye_in_both_lists() -> None:
    event = swiss("swu-1.4", players=7, played=0)
    page = event.pairings()
    byes = [r for r in rows(page, "by-table") if r[-1] == "bye"]
    assert len(byes) == 1 and byes[0][0] == "–"
    assert sum(r[-1] == "bye" for r in rows(page, "by-name")) == 1


def test_a_512_player_page_prints_256_tables_in_table_order_without_cut_rows() -> None:
    event = swiss("swu-1.4", players=512, played=0)
    page = event.pairings()
    by_table = rows(page, "by-table")
    assert [r[0] for r in by_table] == [str(n) for n in range(1, 257)]
    assert len(rows(page, "by-name")) == 512
    inline = self_contained(page)
    assert "break-inside: avoid" in inline and "display: table-header-group" in inline
    assert page.count('<tr class="running">') == 2  # a title row repeated on each sheet


def test_earlier_rounds_print_and_a_round_never_paired_is_refused(swu: Event) -> None:
    assert "Round 1" in text(swu.pairings(round_number=1))
    with pytest.raises(WrongPhase, match="round 9 is not paired"):
        swu.pairings(round_number=9)
    with pytest.raises(WrongPhase, match="no round is paired yet"):
        Event("swu-1.4", 4).pairings()


def test_german_pairings_use_german_labels_only(swu: Event) -> None:
    words = text(swu.pairings("de"))
    for german in ("Paarungen", "Runde 2", "Tisch", "Nach Tisch", "Nach Name", "Gegner",
                   "gedruckt", "Protokollstand"):  # fmt: skip
        assert german in words
    for english in ("Pairings", "Round", "Table", "Opponent", "printed", "By name"):
        assert english not in words


def test_every_label_has_both_languages() -> None:
    assert set(print_labels("de")) == set(print_labels("en")) == set(LABELS)
    with pytest.raises(ValueError, match="fr"):
        print_labels("fr")


# standings -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset_id", "labels"),
    [("swu-1.4", ["OMW%", "GW%", "OGW%"]), ("swu-1.0", ["W/L", "Opp W/L", "Opp Opp W/L"]),
     ("xwing-2.0", ["MoV", "SoS"]), ("armada-2.0", ["MoV", "SoS"]),
     ("lcg-2.1d", ["SoS", "SoS2"])],
)  # fmt: skip
def test_standings_show_the_rulesets_tiebreakers_as_it_shows_them(
    ruleset_id: str, labels: list[str]
) -> None:
    event = swiss(ruleset_id, players=6, played=1)
    page = event.standings()
    header = re.findall(r'<th class="num" title="([^"]*)">([^<]*)</th>', page)
    tiebreakers = ruleset(ruleset_id).tiebreakers
    assert [label for _, label in header] == labels
    assert [section for section, _ in header] == [t.section for t in tiebreakers]
    table = rows(page, "standings")
    from commands.reads import views

    model = views.standings(event.state, event.names)
    assert len(table) == len(model.standings) == 6
    for row, standing in zip(table, model.standings, strict=True):
        assert row[0] == str(standing.rank)
        assert row[1].startswith(f"{standing.name} {standing.player}")
        assert row[4:] == [t.show(standing.tiebreakers[t.key]) for t in tiebreakers]
    words = text(page)
    assert all(t.section in words for t in tiebreakers)  # the legend cites each one


def test_swu_standings_print_percentages_and_xwing_numbers() -> None:
    swu = rows(swiss("swu-1.4", players=4, played=1).standings(), "standings")
    assert all(cell.endswith("%") for cell in swu[0][4:])
    xwing = rows(swiss("xwing-2.0", players=4, played=1).standings(), "standings")
    assert not any(cell.endswith("%") for cell in xwing[0][4:])


def test_a_dropped_player_is_marked_on_the_standings() -> None:
    event = swiss("swu-1.4", players=4, played=1)
    event.do(type="drop_player", player="p4")
    table = {r[1].split()[0]: r for r in rows(event.standings("de"), "standings")}
    assert table["Zeb"][1].endswith("ausgestiegen") and "ausgestiegen" not in table["Ada"][1]


# slips -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset_id", "options", "stage", "form"),
    [("swu-1.4", {}, "swiss", ResultForm("games", 3, draws=True, intentional_draw=True)),
     ("swu-1.4", {"format": "bo1"}, "swiss",
      ResultForm("games", 1, draws=True, intentional_draw=True)),
     ("swu-1.4", {}, "elimination", ResultForm("games", 3, draws=True, tie_winner=True)),
     ("swu-1.0", {"format": "bo1"}, "swiss", ResultForm("games", 1, draws=True)),
     ("swu-1.0", {"format": "bo1"}, "elimination",
      ResultForm("games", 3, draws=True, tie_winner=True)),
     ("xwing-2.0", {}, "swiss", ResultForm("points", tie_winner=True)),
     ("armada-2.0", {}, "swiss", ResultForm("points", tie_winner=True)),
     ("lcg-2.1d", {}, "swiss", ResultForm("game_winners", 2, draws=True)),
     ("lcg-2.1d", {}, "elimination", ResultForm("game_winners", 1))],
)  # fmt: skip
def test_each_ruleset_declares_the_result_form_of_its_slips(
    ruleset_id: str, options: dict[str, str], stage: str, form: ResultForm
) -> None:
    assert ruleset(ruleset_id, options).result_form(stage) == form  # type: ignore[arg-type]


def slip_rows(page: str) -> list[str]:
    return re.findall(r"<article class=\"slip keep[^\"]*\"[^>]*>(.*?)</article>", page, re.S)


def test_a_slip_per_match_with_both_names_ids_table_round_no_show_and_signatures(
    swu: Event,
) -> None:
    page = swu.slips()
    rnd = swu.state.current
    assert rnd is not None
    slips = slip_rows(page)
    assert len(slips) == len(rnd.matches) == 4
    for slip, match in zip(slips, rnd.matches, strict=True):
        words = text("<body>" + slip)
        assert f"Table {match.table}" in words and "Match slip · Round 2 · Store Showdown" in words
        for p in match.players:
            assert f"{swu.names[p]} {p}" in words
        assert slip.count('class="sign"') == 2  # a signature line per player
        assert "No-show" in words and "Signature" in words
        assert witness(swu) in words


def test_swu_slips_ask_for_game_wins_of_bo3_drawn_games_and_an_intentional_draw(
    swu: Event,
) -> None:
    words = text(swu.slips())
    assert "Games won (Bo3)" in words and "Drawn games" in words
    assert "Intentional draw" in words and "Winner if level" not in words


def test_bo1_slips_say_bo1() -> None:
    assert "Games won (Bo1)" in text(swiss("swu-1.4", 4, 0, format="bo1").slips())


@pytest.mark.parametrize("ruleset_id", ["xwing-2.0", "armada-2.0"])
def test_miniatures_slips_ask_for_victory_points_and_who_won_a_tie(ruleset_id: str) -> None:
    page = swiss(ruleset_id, 4, 0).slips()
    words = text(page)
    assert "Victory points" in words and "Winner if level" in words
    assert "Games won" not in words and "Drawn games" not in words
    assert page.count('class="box wide"') == 4  # a points box per player, two slips


def test_lcg_slips_ask_for_each_games_winner_or_a_draw() -> None:
    page = swiss("lcg-2.1d", 4, 0).slips("de")
    words = text(page)
    assert "Spiel 1: Sieger" in words and "Spiel 2: Sieger" in words and "Spiel 3" not in words
    assert words.count("Unentschieden") == 2  # a draw row per slip
    assert "Spielbericht" in words and "Unterschrift" in words and "Nicht erschienen" in words


def test_elimination_slips_fit_the_elimination_form() -> None:
    event = with_bracket()
    words = text(event.slips())
    assert "Winner if level" in words and "Intentional draw" not in words
    lcg = with_bracket("lcg-2.1d")
    lcg_words = text(lcg.slips())
    assert "Game 1: winner" in lcg_words and "Game 2" not in lcg_words and "Draw" not in lcg_words


def test_byes_get_no_slip() -> None:
    event = swiss("swu-1.4", players=5, played=0)
    assert len(slip_rows(event.slips())) == 2


def test_each_player_s_own_code_is_on_their_half_of_the_slip_with_a_qr_code_of_its_address(
    swu: Event,
) -> None:
    codes = codes_for(swu)
    page = swu.slips(codes=codes)
    slips = slip_rows(page)
    rnd = swu.state.current
    assert rnd is not None and len(slips) == len(rnd.matches) == 4
    for slip, match in zip(slips, rnd.matches, strict=True):
        halves = re.findall(r'<section class="code">(.*?)</section>', slip, re.S)
        assert len(halves) == 2, "one half per player, in the slip's order"
        for half, player in zip(halves, match.players, strict=True):
            code = codes[player]
            assert f'<div class="code-text">{code.code}</div>' in half
            assert f'<span class="id">{player}</span>' in half
            assert code.url in half and code.url.endswith(f"/s/{code.code}")
            assert half.count('<svg viewBox="0 0 ') == 1 and qr_svg(code.url) in half


def test_slips_without_codes_have_no_code_or_qr(swu: Event) -> None:
    page = swu.slips()
    assert "<svg" not in page and 'class="code-text"' not in page


def test_a_qr_code_is_a_full_qr_code_that_scales_to_its_box() -> None:
    svg = qr_svg("http://192.168.1.10:8000/s/K01-7Q")
    size = int(re.match(r'<svg viewBox="0 0 (\d+) \1"', svg).group(1))  # type: ignore[union-attr]
    assert size >= 21 + 2 * 2  # version 1 or larger (a Micro QR is at most 17 modules)
    assert "width=" not in svg.split(">", 1)[0] and not svg.startswith("<?xml")
    assert qr_svg("x") != qr_svg("y")


# bracket ---------------------------------------------------------------------------


def test_the_bracket_shows_seeds_round_names_winners_and_scores() -> None:
    event = with_bracket()
    page = event.bracket()
    cut = event.state.cut
    assert cut is not None
    seeds = rows(page, "seeds")
    assert [r[0] for r in seeds] == ["1", "2", "3", "4"]
    assert [r[1] for r in seeds] == [f"{event.names[p]} {p}" for p in cut.seeds]
    words = text(page)
    assert "Round 3 · semifinal" in words and "Round 4 · final" in words
    assert "to be played" in words  # the final is paired, not played
    assert page.count('class="side won"') == 2  # the semifinals' winners
    assert "single elimination" in words


def test_the_bracket_names_its_champion_once_the_final_is_played() -> None:
    event = with_bracket()
    rnd = event.state.current
    assert rnd is not None
    final = rnd.matches[0]
    event.win(*final.players, rnd.number, winner=min(final.players, key=Event.number))
    words = text(event.bracket("de"))
    champion = min(final.players, key=Event.number)
    assert f"Turniersieger: {event.names[champion]} {champion}" in words
    assert "Halbfinale" in words and "Finale" in words and "Setzliste" in words


def test_no_bracket_is_printed_before_the_cut(swu: Event) -> None:
    with pytest.raises(WrongPhase, match="no cut has been made"):
        swu.bracket()


@pytest.mark.parametrize(
    ("name", "german"),
    [("final", "Finale"), ("semifinal", "Halbfinale"), ("round of 16", "Runde der letzten 16"),
     ("upper semifinal (Siegergruppe) / lower round 1 (Verlierergruppe)",
      "obere Gruppe, Halbfinale (Siegergruppe) / untere Gruppe, Runde 1 (Verlierergruppe)"),
     ("grand final, deciding match", "Finale, Entscheidungsspiel"),
     ("something new", "something new")],
)  # fmt: skip
def test_round_names_read_in_german(name: str, german: str) -> None:
    assert round_title(name, "de") == german
    assert round_title(name, "en") == name


def test_the_letterhead_is_the_events_name_round_and_head(swu: Event) -> None:
    head = paper.letterhead(swu.state)
    assert (head.name, head.ruleset, head.round, head.stage) == (
        "Store Showdown", "swu-1.4", 2, "swiss")  # fmt: skip
    assert head.witness == witness(swu)
    assert PRINTED.tzinfo is not None


def test_the_pods_printout_lists_each_pod_in_seat_order_with_its_witness() -> None:
    """swu-1.4 §2.3.2.1: the pods as drawn, seat 1 first, in English and German."""
    event = Event("swu-1.4", 10, deck_format="draft")
    event.do(type="assign_pods", pod_size=5, seed=3)
    assigned = event.state.pods
    assert assigned is not None
    html = event.pods()
    for pod in assigned.pods:
        seats = enumerate(pod.players, start=1)
        assert rows(html, f"pod-table-{pod.pod}") == [[str(n), f"{event.names[p]} {p}"]
                                                      for n, p in seats]  # fmt: skip
    assert f"seq {event.state.seq} {event.state.head}" in html
    assert "(seq 12, seed 3)" in text(html)  # created, 10 registered, then the pods
    german = text(event.pods(lang="de"))
    assert "Gruppe 2" in german and "Platz" in german and "Pod" not in german


def test_the_pods_printout_before_any_assignment_says_so() -> None:
    page = text(Event("swu-1.4", 4, deck_format="draft").pods())
    assert "No pods assigned yet." in page
