"""Who chooses initiative by list points: the rule per ruleset (X-Wing
"Spielvorbereitung" step 4, Armada step 3), the pairings read model, the printout
and the public page; pairings without lists keep their JSON byte for byte."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from commands.pages import public as pages
from commands.reads import paper, views
from commands.reads.cache import Query, ReadSide
from commands.reads.models import Pairings
from projections.rulesets import RULESETS, ruleset
from projections.rulesets.initiative import ARMADA, XWING, Initiative
from tests.printing import Event, T, rows, text
from tests.unit.test_public_page import cards, models_of

# the rule --------------------------------------------------------------------------


@pytest.mark.parametrize("rule", [XWING, ARMADA])
def test_fewer_points_chooses_whichever_seat_they_sit_in(rule: Any) -> None:
    assert rule.decide(("a", "b"), {"a": 98, "b": 100}) == Initiative("a", (98, 100))
    assert rule.decide(("a", "b"), {"a": 400, "b": 392}) == Initiative("b", (400, 392))


@pytest.mark.parametrize("rule", [XWING, ARMADA])
def test_equal_points_name_nobody_the_table_decides_at_random(rule: Any) -> None:
    found = rule.decide(("a", "b"), {"a": 100, "b": 100})
    assert found is not None and found.tie and found.chooses is None


@pytest.mark.parametrize("rule", [XWING, ARMADA])
def test_a_missing_list_or_a_bye_says_nothing(rule: Any) -> None:
    assert rule.decide(("a", "b"), {"a": 98}) is None
    assert rule.decide(("a", "b"), {}) is None
    assert rule.decide(("a",), {"a": 98}) is None


def test_xwing_and_armada_declare_the_rule_with_its_section_and_the_others_none() -> None:
    assert ruleset("xwing-2.0").initiative == XWING
    assert XWING.section == 'xwing-2.0 "Spielvorbereitung" step 4'
    assert XWING.counted == "squad_points"
    assert ruleset("armada-2.0").initiative == ARMADA
    assert ARMADA.section == 'armada-2.0 "Spielvorbereitung" step 3'
    assert ARMADA.counted == "fleet_points"
    others = sorted(r for r in RULESETS if ruleset(r).initiative is None)
    assert others == ["lcg-2.1d", "swu-1.0", "swu-1.4"]


# the read model --------------------------------------------------------------------


def squad(points: int) -> dict[str, Any]:
    return {"faction": "Rebel Alliance", "points": points,
            "pilots": [{"pilot": "Luke Skywalker", "ship": "T-65 X-wing", "points": points}],
            "obstacles": ["Asteroid 1", "Asteroid 2", "Debris 1"]}  # fmt: skip


def fleet(points: int) -> dict[str, Any]:
    return {"faction": "Galactic Empire", "points": points, "squadron_points": 0,
            "commander": "Grand Moff Tarkin",
            "objectives": {"assault": "Most Wanted", "defense": "Hyperspace Assault",
                           "navigation": "Solar Corona"},
            "ships": [{"ship": "Victory II", "points": points}]}  # fmt: skip


LISTS = {"xwing-2.0": squad, "armada-2.0": fleet}


def tables_of(event: Event) -> list[tuple[str, ...]]:
    current = event.state.current
    assert current is not None
    return [m.players for m in current.matches]


def with_lists(ruleset_id: str = "xwing-2.0") -> Event:
    """8 players paired in round 1; table 1 ties, at table 2 the first player has fewer
    points, at table 3 the second, and at table 4 one player has no list."""
    event = Event(ruleset_id, players=8)
    event.pair()
    build = LISTS[ruleset_id]
    base = 87 if ruleset_id == "xwing-2.0" else 373
    (a1, b1), (a2, b2), (a3, b3), (a4, _) = tables_of(event)
    for player, points in ((a1, base + 6), (b1, base + 6), (a2, base), (b2, base + 6),
                           (a3, base + 6), (b3, base + 2), (a4, base)):  # fmt: skip
        event.do(type="submit_list", player=player, list=build(points))
    return event


def pairings_of(event: Event, **kw: Any) -> Pairings:
    return views.pairings(event.state, None, event.names, lists=event.handler.store.lists(T), **kw)


@pytest.mark.parametrize("ruleset_id", ["xwing-2.0", "armada-2.0"])
def test_the_pairings_say_who_chooses_at_each_table(ruleset_id: str) -> None:
    event = with_lists(ruleset_id)
    tables = tables_of(event)
    found = [(t.chooses_initiative, t.initiative_tie) for t in pairings_of(event).pairings]
    assert found == [(None, True), (tables[1][0], None), (tables[2][1], None), (None, None)]


def test_the_json_gains_who_chooses_and_never_the_points() -> None:
    event = with_lists()
    (a1, b1), (a2, b2), (a3, b3), (a4, b4) = tables_of(event)
    shown = views.json_of(pairings_of(event, show_points=True))["pairings"]
    assert shown == [
        {"table": 1, "players": [a1, b1], "initiative_tie": True},
        {"table": 2, "players": [a2, b2], "chooses_initiative": a2},
        {"table": 3, "players": [a3, b3], "chooses_initiative": b3},
        {"table": 4, "players": [a4, b4]},
    ]


def test_points_are_read_only_for_the_organizers_printout() -> None:
    event = with_lists()
    a2, b2 = tables_of(event)[1]
    assert [t.list_points for t in pairings_of(event).pairings] == [{}, {}, {}, {}]
    wall = paper.wall_pairings(event.state, None, event.names, event.handler.store.lists(T))
    assert wall.pairings[1].list_points == {a2: 87, b2: 93}
    assert wall.pairings[3].list_points == {}  # a list is missing: nothing to show


def test_the_read_side_says_who_chooses_and_holds_no_points() -> None:
    event = with_lists()
    model = ReadSide(event.handler.folds).get(T, Query("pairings")).model
    assert isinstance(model, Pairings)
    assert [t.chooses_initiative for t in model.pairings][1:3] == [
        tables_of(event)[1][0], tables_of(event)[2][1]]  # fmt: skip
    assert all(t.list_points == {} for t in model.pairings)


def test_a_correction_after_locking_is_the_list_in_force() -> None:
    event = with_lists()
    b1 = tables_of(event)[0][1]
    event.do(type="lock_lists")
    event.do(type="correct_list", player=b1, list=squad(90), reason="miscounted",
             actor={"role": "judge", "id": "AK"})  # fmt: skip
    assert pairings_of(event).pairings[0].chooses_initiative == b1


def test_swu_and_lcg_lists_give_no_initiative() -> None:
    event = Event("swu-1.4", players=4)
    deck = {"leader": "Darth Vader | Dark Lord of the Sith", "base": "Energy Conversion Lab",
            "deck": [{"card": f"Card {i}", "count": 2} for i in range(25)]}  # fmt: skip
    for player in event.players:
        event.do(type="submit_list", player=player, list=deck)
    event.pair()
    tables = views.json_of(pairings_of(event))["pairings"]
    assert all(set(t) == {"table", "players"} for t in tables)
    assert "Initiative" not in text(event.pairings())


@pytest.mark.parametrize("ruleset_id", ["xwing-2.0", "armada-2.0", "swu-1.4"])
def test_pairings_json_of_an_event_without_lists_is_unchanged(ruleset_id: str) -> None:
    event = Event(ruleset_id, players=7)
    event.pair()
    rnd = event.state.current
    assert rnd is not None
    before = {"round": 1, "stage": "swiss", "seq": event.state.seq, "head": event.state.head,
              "pairings": [{"table": m.table, "players": list(m.players)}
                           for m in rnd.matches]}  # fmt: skip
    served = ReadSide(event.handler.folds).get(T, Query("pairings")).body
    assert served == orjson.dumps(before) == views.json_bytes(pairings_of(event))


# the printout ----------------------------------------------------------------------


def test_the_printout_shows_who_chooses_the_points_and_the_rule() -> None:
    event = with_lists()
    page = event.pairings()
    assert "<th>Initiative</th>" in page
    by_table = rows(page, "by-table")
    names = event.names
    (a1, b1), (a2, b2), (_, b3), (a4, b4) = tables_of(event)
    assert by_table[0][1:] == [f"{names[a1]} {a1} 93 pts", "–", f"{names[b1]} {b1} 93 pts",
                               "tie: decide at random who chooses"]  # fmt: skip
    assert by_table[1][1:] == [f"{names[a2]} {a2} 87 pts", "–", f"{names[b2]} {b2} 93 pts",
                               f"{names[a2]} chooses"]  # fmt: skip
    assert by_table[2][-1] == f"{names[b3]} chooses"
    assert by_table[3][1:] == [f"{names[a4]} {a4}", "–", f"{names[b4]} {b4}", ""]
    words = text(page)
    assert ("Initiative: the player with fewer squad points chooses who has initiative; on a "
            'tie, decide at random who chooses. Points as declared on the lists. (xwing-2.0 '
            '"Spielvorbereitung" step 4)') in words  # fmt: skip


def test_the_printout_in_german_uses_the_regulations_words() -> None:
    event = with_lists("armada-2.0")
    by_table = rows(event.pairings("de"), "by-table")
    assert by_table[0][-1] == "Gleichstand: auslosen, wer bestimmt"
    assert by_table[1][-1].endswith(" bestimmt") and by_table[1][1].endswith("373 Pkt.")
    assert "Wer weniger Flottenpunkte hat, bestimmt, wer die Initiative hat" in text(
        event.pairings("de")
    )


def test_a_printout_without_lists_has_no_initiative_column() -> None:
    event = Event("xwing-2.0", players=8)
    event.pair()
    page = event.pairings()
    assert all(len(row) == 4 for row in rows(page, "by-table"))
    assert "Initiative" not in page and "pts" not in text(page)


# the public page -------------------------------------------------------------------


def test_the_public_page_says_who_chooses_and_never_the_points() -> None:
    event = with_lists()
    side = ReadSide(event.handler.folds)
    names = event.names
    a2, b3 = tables_of(event)[1][0], tables_of(event)[2][1]
    shown = cards(pages.render_content(models_of(side, T), "en"))
    assert shown[0].endswith("Tie: decide at random who chooses initiative")
    assert shown[1].endswith(f"{names[a2]} chooses initiative")
    assert shown[2].endswith(f"{names[b3]} chooses initiative")
    assert "initiative" not in shown[3]
    assert not any(str(points) in card for card in shown for points in (87, 89, 93))
    german = cards(pages.render_content(models_of(side, T), "de"))
    assert german[1].endswith(f"{names[a2]} bestimmt die Initiative")
    assert german[0].endswith("Gleichstand: auslosen, wer die Initiative bestimmt")


def test_the_public_page_of_an_event_without_lists_says_nothing_of_initiative() -> None:
    event = Event("xwing-2.0", players=8)
    event.pair()
    html = pages.render_content(models_of(ReadSide(event.handler.folds), T), "en")
    assert "initiative" not in html.lower()
