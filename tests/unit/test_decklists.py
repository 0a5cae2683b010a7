"""List shapes, structural validation with each rule's section, the canonical hash and
the SWU text format. Violations are reported, not refused; a list that is
not its game's shape is refused as invalid input."""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any

import pytest

from commands.text.decklist_text import BadDeckText, looks_like_json, parse_swu_text, swu_text
from ledger.list_events import Violation
from projections.errors import InvalidList
from projections.rulesets import ruleset as ruleset_of
from projections.rulesets.decklists import DeckList, canonical, list_hash, stored


def shaped(ruleset: str, data: dict[str, Any]) -> DeckList:
    return ruleset_of(ruleset).read_list(data)


def violations(ruleset: str, data: dict[str, Any], options: dict[str, Any]) -> list[Violation]:
    rules = ruleset_of(ruleset, options)
    return list(rules.list_violations(rules.read_list(data)))


def found(ruleset: str, data: dict[str, Any], **options: Any) -> dict[str, str]:
    """rule -> section of every violation (one rule at most once in these tests)."""
    return {v.rule: v.section for v in violations(ruleset, data, options)}


def messages(ruleset: str, data: dict[str, Any], **options: Any) -> list[str]:
    return [v.message for v in violations(ruleset, data, options)]


def swu(deck: int = 50, sideboard: int = 0, **fields: Any) -> dict[str, Any]:
    """A legal Premier list with ``deck`` cards in 1-copy entries, ``sideboard`` likewise."""
    data: dict[str, Any] = {
        "leader": "Darth Vader | Dark Lord of the Sith", "base": "Energy Conversion Lab",
        "deck": [{"card": f"Card {i}", "count": 1} for i in range(deck)],
        "sideboard": [{"card": f"Side {i}", "count": 1} for i in range(sideboard)],
    }  # fmt: skip
    data.update(fields)
    return data


# SWU Premier (swu-1.4 §2.3.1.1) ---------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["swu-1.4", "swu-1.0"])
def test_a_legal_premier_list_has_no_violations(ruleset: str) -> None:
    assert found(ruleset, swu(deck=50, sideboard=10)) == {}


@pytest.mark.parametrize("ruleset", ["swu-1.4", "swu-1.0"])
def test_premier_needs_exactly_one_leader_and_one_base(ruleset: str) -> None:
    two = swu(leaders=["Luke Skywalker | Faithful Friend"])
    assert found(ruleset, two) == {"leaders": f"{ruleset} §2.3.1.1"}
    none = {k: v for k, v in swu().items() if k not in ("leader", "base")}
    assert found(ruleset, none) == {"leaders": f"{ruleset} §2.3.1.1",
                                    "base": f"{ruleset} §2.3.1.1"}  # fmt: skip
    assert "Premier needs exactly 1 leader; the list names 2" in messages(ruleset, two)


def test_premier_draw_deck_at_least_50_and_sideboard_at_most_10() -> None:
    assert found("swu-1.4", swu(deck=49)) == {"deck_size": "swu-1.4 §2.3.1.1"}
    assert found("swu-1.4", swu(sideboard=11)) == {"sideboard_size": "swu-1.4 §2.3.1.1"}
    assert messages("swu-1.4", swu(deck=49)) == [
        "the draw deck has 49 cards; Premier needs at least 50"
    ]


def test_premier_at_most_three_copies_by_title_and_subtitle_across_deck_and_sideboard() -> None:
    deck = swu(deck=48)
    deck["deck"] += [{"card": "Vader | Dark Lord", "count": 2}]
    deck["sideboard"] = [{"card": "vader|dark  lord", "count": 2}]  # case and spacing
    assert found("swu-1.4", deck) == {"copies": "swu-1.4 §2.3.1.1"}
    assert messages("swu-1.4", deck) == [
        "Vader | Dark Lord: 4 copies in draw deck and sideboard; at most 3"
    ]
    other = swu(deck=48)
    other["deck"] += [{"card": "Vader | Dark Lord", "count": 3}]
    other["sideboard"] = [{"card": "Vader | Another Subtitle", "count": 3}]
    assert found("swu-1.4", other) == {}


# Twin Suns (§2.3.1.2) and Limited (§2.3.2) ----------------------------------------------


def test_twin_suns_two_leaders_one_base_singleton_no_sideboard() -> None:
    legal = swu(leader=None, leaders=["Han Solo | Worth the Risk", "Chewbacca | Walking Carpet"])
    del legal["leader"]
    assert found("swu-1.4", legal, deck_format="twin_suns") == {}
    one = swu()
    assert found("swu-1.4", one, deck_format="twin_suns") == {"leaders": "swu-1.4 §2.3.1.2"}
    doubled = dict(legal, deck=[*legal["deck"][:-1], {"card": "Card 0", "count": 1}])
    assert found("swu-1.4", doubled, deck_format="twin_suns") == {"copies": "swu-1.4 §2.3.1.2"}
    sided = dict(legal, sideboard=[{"card": "Side", "count": 1}])
    assert found("swu-1.4", sided, deck_format="twin_suns") == {"no_sideboard": "swu-1.4 §2.3.1.2"}


@pytest.mark.parametrize("fmt", ["draft", "sealed"])
def test_limited_needs_30_cards_and_allows_any_copies_and_sideboard(fmt: str) -> None:
    deck = swu(deck=0, sideboard=40)
    deck["deck"] = [{"card": "TIE Fighter", "count": 30}]
    assert found("swu-1.4", deck, deck_format=fmt) == {}
    deck["deck"] = [{"card": "TIE Fighter", "count": 29}]
    assert found("swu-1.4", deck, deck_format=fmt) == {"deck_size": "swu-1.4 §2.3.2"}


@pytest.mark.parametrize("ruleset", ["swu-1.4", "swu-1.0"])
@pytest.mark.parametrize("fmt", ["draft", "sealed"])
def test_limited_needs_exactly_one_leader_and_one_base_swu_2_3_2(ruleset: str, fmt: str) -> None:
    """§2.3.2: "Genau 1 Anführer und genau 1 Basis"; as many copies as opened, and every
    other card received is sideboard (no size limit)."""
    legal = swu(deck=0)
    legal["deck"] = [{"card": "Card 0", "count": 12}, {"card": "card  0", "count": 18}]
    legal["sideboard"] = [
        {"card": "Card 0", "count": 9},
        *({"card": f"Side {i}", "count": 1} for i in range(60)),
    ]
    assert found(ruleset, legal, deck_format=fmt) == {}
    two = dict(legal, leaders=["Luke Skywalker | Faithful Friend"])
    assert found(ruleset, two, deck_format=fmt) == {"leaders": f"{ruleset} §2.3.2"}
    baseless = {k: v for k, v in legal.items() if k != "base"}
    assert found(ruleset, baseless, deck_format=fmt) == {"base": f"{ruleset} §2.3.2"}
    assert messages(ruleset, two, deck_format=fmt) == [
        f"Limited ({fmt}) needs exactly 1 leader; the list names 2"]  # fmt: skip


# X-Wing ---------------------------------------------------------------------------------

BUILD = 'xwing-2.0 "Zusammenstellung von Jägerstaffeln"'


def squad(**fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "faction": "Rebel Alliance", "points": 100,
        "pilots": [{"pilot": "Luke Skywalker", "points": 60, "upgrades": ["R2-D2"]},
                   {"pilot": "Wedge Antilles", "points": 40}],
        "obstacles": ["Asteroid 1", "Asteroid 2", "Debris 1"],
    }  # fmt: skip
    data.update(fields)
    return data


def test_xwing_squad_points_within_the_events_squad_points() -> None:
    assert found("xwing-2.0", squad(), squad_points=100) == {}
    over = squad(points=101, pilots=[{"pilot": "Luke Skywalker", "points": 101}])
    assert found("xwing-2.0", over, squad_points=100) == {"squad_points": BUILD}
    assert found("xwing-2.0", over, squad_points=200) == {}


def test_xwing_declared_points_are_the_pilots_total() -> None:
    assert found("xwing-2.0", squad(points=90)) == {
        "declared_points": 'xwing-2.0 "Jägerstaffellisten"'
    }


def test_xwing_three_different_obstacles() -> None:
    assert found("xwing-2.0", squad(obstacles=["Asteroid 1", "Asteroid 2"])) == {"obstacles": BUILD}
    twice = squad(obstacles=["Asteroid 1", "asteroid 1", "Debris 1"])
    assert found("xwing-2.0", twice) == {"different_obstacles": BUILD}


def test_xwing_one_faction() -> None:
    boba = {"pilot": "Boba Fett", "points": 40, "faction": "Scum and Villainy"}
    mixed = squad(pilots=[{"pilot": "Luke Skywalker", "points": 60}, boba])
    assert found("xwing-2.0", mixed) == {
        "one_faction": 'xwing-2.0 "Schiffe verschiedener Fraktionen"'
    }


# Armada ---------------------------------------------------------------------------------

FLEET = 'armada-2.0 "Flottenzusammenstellung"'


def fleet(**fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "faction": "Galactic Empire", "points": 400, "squadron_points": 134,
        "commander": "Grand Moff Tarkin",
        "objectives": {"assault": "Most Wanted", "defense": "Fire Lanes",
                       "navigation": "Solar Corona"},
        "ships": [{"ship": "Imperial II", "points": 266, "upgrades": ["Gunnery Team"]}],
        "squadrons": [{"squadron": "TIE Interceptor", "count": 1, "points": 134}],
    }  # fmt: skip
    data.update(fields)
    return data


def test_armada_at_most_400_points_and_134_in_squadrons() -> None:
    assert found("armada-2.0", fleet()) == {}
    over = fleet(points=401, ships=[{"ship": "Imperial II", "points": 267}])
    assert found("armada-2.0", over) == {"fleet_points": FLEET}
    many = fleet(squadron_points=135, points=401,
                 squadrons=[{"squadron": "TIE Fighter", "count": 15, "points": 9}])  # fmt: skip
    assert found("armada-2.0", many) == {"squadron_points": FLEET, "fleet_points": FLEET}


def test_armada_declared_totals_are_the_entries_totals() -> None:
    assert found("armada-2.0", fleet(points=390)) == {
        "declared_points": 'armada-2.0 "Flottenlisten"'
    }


def test_armada_needs_a_commander_and_one_objective_of_each_category() -> None:
    bare = fleet(objectives={"assault": "Most Wanted"})
    del bare["commander"]
    assert found("armada-2.0", bare) == {"commander": FLEET, "objectives": FLEET}
    assert "one objective of each category; missing defense, navigation" in messages(
        "armada-2.0", bare
    )


# LCG ------------------------------------------------------------------------------------


def decks(light_sets: int = 10, dark_sets: int = 10, **light: Any) -> dict[str, Any]:
    def deck(affiliation: str, sets: int) -> dict[str, Any]:
        objective_sets = [{"set": "Core Set", "number": i + 1} for i in range(sets)]
        return {"affiliation": affiliation, "objective_sets": objective_sets}

    return {"light": {**deck("Jedi", light_sets), **light}, "dark": deck("Sith", dark_sets)}


def test_lcg_each_deck_one_affiliation_and_at_least_ten_objective_sets() -> None:
    section = 'lcg-2.1d "Deckvoraussetzungen"'
    assert found("lcg-2.1d", decks()) == {}
    assert found("lcg-2.1d", decks(dark_sets=9)) == {"objective_sets": section}
    assert messages("lcg-2.1d", decks(dark_sets=9)) == [
        "the dark-side deck has 9 objective sets; at least 10"
    ]
    nameless = decks()
    del nameless["light"]["affiliation"]
    assert found("lcg-2.1d", nameless) == {"affiliation": section}


# shapes ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "data", "said"),
    [
        ("swu-1.4", {"leader": "X", "ships": []}, "list.ships: unknown field"),
        ("swu-1.4", {"deck": [{"card": "X", "count": 0}]}, "list.deck.0.count"),
        ("swu-1.4", {"deck": [{"card": "  ", "count": 1}]}, "list.deck.0.card: must not be blank"),
        ("xwing-2.0", {"faction": "Rebel", "points": "many"}, "list.points"),
        ("armada-2.0", {"points": 400}, "list.faction: Field required"),
        ("lcg-2.1d", {"light": {}}, "list.dark: Field required"),
        ("swu-1.4", {"leader": "Line\nbreak"}, "list.leader: must be printable"),
    ],
)
def test_a_list_not_in_its_games_shape_is_refused(
    ruleset: str, data: dict[str, Any], said: str
) -> None:
    with pytest.raises(InvalidList, match=f"not a {ruleset} list: {said}"):
        shaped(ruleset, data)


def test_the_hash_is_sha256_of_canonical_json_anyone_can_recompute() -> None:
    data = stored(shaped("swu-1.4", swu(deck=2, leader="  Élan | Ünïcode  ")))
    assert data["leader"] == "Élan | Ünïcode" and "leaders" not in data
    again = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert canonical(data) == again.encode("utf-8") and b" " not in canonical({"a": [1, 2]})
    assert list_hash(data) == hashlib.sha256(again.encode("utf-8")).hexdigest()
    reordered = dict(reversed(list(data.items())))
    assert list_hash(reordered) == list_hash(data)


# the SWU text format ------------------------------------------------------------------------

TEXT = """\
// exported by a deck builder
Leader
1 Darth Vader | Dark Lord of the Sith

Base:
1 Energy Conversion Lab
Deck (50)
3 TIE Fighter
3x Admiral Piett | Commanding the Armada
Sideboard
2 Vader's Lightsaber
"""


def test_swu_text_reads_sections_and_counts_and_round_trips() -> None:
    data = parse_swu_text(TEXT)
    assert data == {
        "leader": "Darth Vader | Dark Lord of the Sith", "base": "Energy Conversion Lab",
        "deck": [{"card": "TIE Fighter", "count": 3},
                 {"card": "Admiral Piett | Commanding the Armada", "count": 3}],
        "sideboard": [{"card": "Vader's Lightsaber", "count": 2}],
    }  # fmt: skip
    assert parse_swu_text(swu_text(data)) == data
    twin = parse_swu_text("Leaders\n1 Han Solo | Worth the Risk\n1 Chewbacca | Walking Carpet\n")
    assert twin["leaders"] == ["Han Solo | Worth the Risk", "Chewbacca | Walking Carpet"]
    assert not looks_like_json(TEXT) and looks_like_json('  {"leader": "x"}')


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("3 TIE Fighter\n", "line 1: an entry before any section header"),
        ("Deck\nTIE Fighter\n", "line 2: expected 'N Card Name'"),
        ("Base\n1 Echo Base\n1 Jedha City\n", "the Base section names 2 bases"),
        ("Deck\n100 TIE Fighter\n", "line 2: a count is at most 99, got 100"),
        ("Deck\n" + "9" * 5000 + " TIE Fighter\n", "line 2: a count is at most 99, got 9999"),
        ("Leader\n" + "99 Darth Vader\n" * 3, "names 297 leaders; a list names at most 200"),
    ],
)
def test_swu_text_refuses_what_it_cannot_read_naming_the_line(text: str, said: str) -> None:
    with pytest.raises(BadDeckText, match=said):
        parse_swu_text(text)


@pytest.mark.parametrize(
    "line", ["Deck" + " " * 300 + "!", "Main" + " " * 300 + "(1", "1 a" + " " * 300 + "b"]
)
def test_a_line_of_many_spaces_is_read_in_time_linear_in_its_length(line: str) -> None:
    """A header or an entry never backtracks over a run of spaces (a pasted list is read
    while the server waits): 300 spaces are read at once, not in seconds."""
    start = time.monotonic()
    with pytest.raises(BadDeckText):
        parse_swu_text(line)
    assert time.monotonic() - start < 1.0
