"""Deck checks against the list in force: what was presented is compared
with the locked list, the differences are counted in the event without a card name,
kept in full beside it for officials, and no penalty follows from them by itself."""

from __future__ import annotations

from typing import Any

import pytest

from commands.errors import InvalidCommand
from commands.reads.listviews import deck_check_comparisons, official_list
from ledger.errors import ListDamaged
from ledger.events import ORGANIZER, Actor, DeckCheckRecorded, EventBase, to_json
from ledger.list_events import DifferenceCount, list_hash
from ledger.store import ListEntry
from projections.rulesets import ruleset
from projections.rulesets.deckcompare import compare
from projections.rulesets.decklists import DeckList
from tests.builders import T0, Given, create, pair, register, start


def shaped(ruleset_id: str, data: dict[str, Any]) -> DeckList:
    return ruleset(ruleset_id).read_list(data)


JUDGE = Actor(role="judge", id="AK")
AT: dict[str, Any] = {"tournament": "t1", "at": T0, "actor": JUDGE}
LISTED: dict[str, Any] = {
    "leader": "Darth Vader | Dark Lord of the Sith", "base": "Energy Conversion Lab",
    "deck": [{"card": f"Card {i}", "count": 2} for i in range(25)], "sideboard": [],
}  # fmt: skip
#: one card in another count, one missing, one extra in the sideboard; the same cards
#: written in another case and spacing are the same cards (title and subtitle)
PRESENTED: dict[str, Any] = {
    "leader": "darth vader|dark lord of the sith", "base": "Energy Conversion Lab",
    "deck": [{"card": "Card 0", "count": 3}, *({"card": f"Card {i}", "count": 2}
                                              for i in range(1, 24))],
    "sideboard": [{"card": "TIE Fighter", "count": 1}],
}  # fmt: skip


def check(player: str = "p1", presented: dict[str, Any] | None = None) -> dict[str, Any]:
    command = {"type": "record_deck_check", "tournament": "t1", "player": player, "round": 1,
               "timing": "after_match", "outcome": "legal", "minutes": 5,
               "actor": {"role": "judge", "id": "AK"}}  # fmt: skip
    return command if presented is None else {**command, "presented": presented}


class Kept(Given):
    """Given, with what the handler writes to ``tledger_lists`` read as ``kept``."""

    @property
    def kept(self) -> list[ListEntry]:
        return self.lists


def locked(*submitted: str, salt: bytes = b"") -> Kept:
    g = Kept(create(), *register("p1", "p2"), salt=salt)
    for p in submitted:
        g.apply({"type": "submit_list", "tournament": "t1", "player": p, "list": LISTED})
    g.apply({"type": "lock_lists", "tournament": "t1"})
    g.apply(pair(["p1", "p2"]))
    g.apply(start())
    return g


def dump(event: EventBase) -> dict[str, Any]:
    return event.model_dump(mode="json", exclude={"at"})


def test_a_deck_check_that_finds_differences_records_them_counted_per_zone_and_kind() -> None:
    g = locked("p1")
    held = g.state.lists["p1"]
    events = g.when(check(presented=PRESENTED))
    assert [dump(e) for e in events] == [dump(DeckCheckRecorded(
        **AT, player="p1", round=1, timing="after_match", outcome="legal", minutes=5,
        presented_hash=list_hash(shaped("swu-1.4", PRESENTED).model_dump(exclude_none=True)),
        compared_hash=held.hash, difference_count=3,
        differences=(DifferenceCount(zone="deck", kind="count", count=1),
                     DifferenceCount(zone="deck", kind="missing", count=1),
                     DifferenceCount(zone="sideboard", kind="extra", count=1)),
    ))]  # fmt: skip
    data = str(to_json(events[0]))
    assert "Card" not in data and "TIE" not in data and "Vader" not in data


def test_a_deck_check_that_finds_none_records_zero_differences_and_no_penalty() -> None:
    g = locked("p1")
    same = {**LISTED, "deck": list(reversed(LISTED["deck"]))}  # order does not matter
    events = g.when(check(presented=same))
    assert [dump(e) for e in events] == [dump(DeckCheckRecorded(
        **AT, player="p1", round=1, timing="after_match", outcome="legal", minutes=5,
        presented_hash=list_hash(same), compared_hash=g.state.lists["p1"].hash,
        differences=(), difference_count=0,
    ))]  # fmt: skip


def test_differences_alone_bring_no_penalty_the_outcome_is_the_judges() -> None:
    g = locked("p1")
    events = g.when(check(presented=PRESENTED))
    assert [type(e) for e in events] == [DeckCheckRecorded]


def test_without_a_list_the_check_is_recorded_with_a_note() -> None:
    g = locked("p1")
    [event] = g.when(check("p2", presented=PRESENTED))
    assert isinstance(event, DeckCheckRecorded)
    assert (event.note, event.compared_hash, event.differences) == (
        "no locked list to compare", None, None)  # fmt: skip
    assert event.presented_hash is not None


def test_without_presented_the_event_is_as_before() -> None:
    g = locked("p1")
    [event] = g.when(check())
    assert to_json(event).keys() == {"type", "version", "tournament", "at", "actor", "player",
                                     "round", "timing", "outcome", "minutes", "prev_hash",
                                     "hash"}  # fmt: skip


def test_a_presented_list_not_of_the_games_shape_is_refused() -> None:
    g = locked("p1")
    with pytest.raises(InvalidCommand, match=r"record_deck_check: not a swu-1.4 list: "
                                             r"list.deck.0.count"):  # fmt: skip
        g.when(check(presented={**LISTED, "deck": [{"card": "X", "count": 0}]}))


def test_officials_see_every_difference_with_card_names_against_the_list_then() -> None:
    g = locked("p1")
    g.apply(check(presented=PRESENTED))
    listed_seq = g.state.lists["p1"].seq
    g.apply({"type": "correct_list", "tournament": "t1", "player": "p1", "list": PRESENTED,
             "reason": "deck check", "actor": {"role": "judge", "id": "AK"}})  # fmt: skip
    [shown] = official_list(g.state, "p1", {}, g.kept).deck_checks
    assert shown.compared_seq == listed_seq and shown.presented["sideboard"][0]["card"] == (
        "TIE Fighter")  # fmt: skip
    assert [(d.zone, d.kind, d.entry, d.listed, d.presented) for d in shown.differences] == [
        ("deck", "count", "Card 0", 2, 3), ("deck", "missing", "Card 24", 2, 0),
        ("sideboard", "extra", "TIE Fighter", 0, 1)]  # fmt: skip
    g.apply(check(presented=PRESENTED))  # against the corrected list now
    later = deck_check_comparisons(g.state, g.kept, player="p1")[1]
    assert later.differences == [] and later.compared_seq == g.state.lists["p1"].seq


def test_what_was_presented_is_committed_to_by_a_hash_salted_as_the_lists_are() -> None:
    salt = bytes(range(16))
    g = locked("p1", salt=salt)
    [event] = g.apply(check(presented=PRESENTED))
    presented = g.kept[-1]
    assert isinstance(event, DeckCheckRecorded) and presented.salt == salt.hex()
    assert event.presented_hash == list_hash(presented.list, salt.hex())
    assert event.presented_hash != list_hash(presented.list)
    assert event.compared_hash == g.state.lists["p1"].hash == list_hash(g.kept[0].list, salt.hex())
    [shown] = deck_check_comparisons(g.state, g.kept)
    assert shown.presented_salt == salt.hex() and len(shown.differences) == 3


def test_a_presented_list_that_no_longer_matches_its_event_is_an_integrity_error() -> None:
    g = locked("p1")
    g.apply(check(presented=PRESENTED))
    seq = len(g.log)
    damaged = [e if e.seq != seq else ListEntry(e.tournament, e.seq, e.player, e.list_hash,
                                                LISTED) for e in g.kept]  # fmt: skip
    with pytest.raises(ListDamaged, match=f"seq {seq}: the stored list does not hash"):
        deck_check_comparisons(g.state, damaged)


@pytest.mark.parametrize(
    ("ruleset", "listed", "presented", "found"),
    [
        ("xwing-2.0",
         {"faction": "Rebel", "points": 50, "obstacles": ["a", "b", "c"],
          "pilots": [{"pilot": "Luke", "ship": "X-wing", "points": 50, "upgrades": ["R2-D2"]}]},
         {"faction": "Rebel", "points": 50, "obstacles": ["a", "b", "d"],
          "pilots": [{"pilot": "Luke", "ship": "X-wing", "points": 50, "upgrades": ["R5-D8"]}]},
         [("upgrades", "missing", "R2-D2 on Luke"), ("upgrades", "extra", "R5-D8 on Luke"),
          ("obstacles", "missing", "c"), ("obstacles", "extra", "d")]),
        ("armada-2.0",
         {"faction": "Empire", "points": 100, "commander": "Tarkin",
          "ships": [{"ship": "ISD", "points": 100}],
          "squadrons": [{"squadron": "TIE", "count": 2, "points": 8}]},
         {"faction": "Empire", "points": 100, "commander": "Vader",
          "ships": [{"ship": "ISD", "points": 100}],
          "squadrons": [{"squadron": "TIE", "count": 3, "points": 8}]},
         [("commander", "missing", "Tarkin"), ("commander", "extra", "Vader"),
          ("squadrons", "count", "TIE")]),
        ("lcg-2.1d",
         {"light": {"affiliation": "Jedi", "objective_sets": [{"set": "Yoda", "number": 1}]},
          "dark": {"affiliation": "Sith", "objective_sets": [{"set": "Vader", "number": 2}]}},
         {"light": {"affiliation": "Jedi", "objective_sets": [{"set": "Yoda", "number": 1},
                                                              {"set": "Yoda", "number": 1}]},
          "dark": {"affiliation": "Sith", "objective_sets": []}},
         [("light", "count", "Yoda #1"), ("dark", "missing", "Vader #2")]),
    ],
)  # fmt: skip
def test_other_games_compare_by_their_entries(
    ruleset: str, listed: dict[str, Any], presented: dict[str, Any], found: list[Any]
) -> None:
    differences = compare(shaped(ruleset, listed), shaped(ruleset, presented))
    assert [(d.zone, d.kind, d.entry) for d in differences] == found


def test_the_organizer_may_record_a_presented_list_too() -> None:
    g = locked("p1")
    [event] = g.when({**check(presented=LISTED), "actor": None})
    assert isinstance(event, DeckCheckRecorded) and event.actor == ORGANIZER
    assert event.difference_count == 0


# limited events: deck and sideboard are one pool (swu-1.4 §2.3.2 note) ---------------------

POOL: dict[str, Any] = {
    **LISTED,
    "deck": LISTED["deck"][:15],
    "sideboard": [*LISTED["deck"][15:], {"card": "TIE Fighter", "count": 2}],
}
#: five entries moved from the sideboard into the deck and one TIE Fighter back
SIDEBOARDED: dict[str, Any] = {**LISTED, "deck": [*LISTED["deck"][:20],
                                                  {"card": "TIE Fighter", "count": 1}],
                               "sideboard": [*LISTED["deck"][20:],
                                             {"card": "tie fighter", "count": 1}]}  # fmt: skip


def limited_check(fmt: str, presented: dict[str, Any]) -> DeckCheckRecorded:
    g = Kept(create(deck_format=fmt), *register("p1", "p2"))
    g.apply({"type": "submit_list", "tournament": "t1", "player": "p1", "list": POOL})
    g.apply(pair(["p1", "p2"]))
    g.apply(start())  # locks the lists (competitive tier)
    [event] = g.when(check(presented=presented))
    assert isinstance(event, DeckCheckRecorded)
    return event


@pytest.mark.parametrize("fmt", ["draft", "sealed"])
def test_a_limited_deck_changes_between_games_so_moving_cards_to_the_sideboard_is_no_difference(
    fmt: str,
) -> None:
    """swu-1.4 §2.3.2: "Im Limited-Format dürfen die Spieler zwischen den Partien jederzeit
    ihr Deck verändern"."""
    event = limited_check(fmt, SIDEBOARDED)
    assert (event.difference_count, event.differences) == (0, ())


def test_in_premier_the_same_moves_are_differences() -> None:
    event = limited_check("premier", SIDEBOARDED)
    assert event.differences is not None and {d.zone for d in event.differences} == {
        "deck", "sideboard"}  # fmt: skip


@pytest.mark.parametrize("fmt", ["draft", "sealed"])
def test_a_card_not_in_the_limited_pool_is_still_a_difference(fmt: str) -> None:
    foreign = {**SIDEBOARDED, "deck": [*SIDEBOARDED["deck"], {"card": "Luke | Hero", "count": 1}]}
    event = limited_check(fmt, foreign)
    assert event.differences == (DifferenceCount(zone="pool", kind="extra", count=1),)
    other_leader = {**SIDEBOARDED, "leader": "Luke Skywalker | Faithful Friend"}
    leader = limited_check(fmt, other_leader)
    assert leader.differences == (
        DifferenceCount(zone="leader", kind="missing", count=1),
        DifferenceCount(zone="leader", kind="extra", count=1),
    )


def test_the_pool_is_compared_by_title_and_subtitle_across_deck_and_sideboard() -> None:
    listed, presented = shaped("swu-1.4", POOL), shaped("swu-1.4", SIDEBOARDED)
    assert compare(listed, presented, pooled=True) == []
    assert [d.zone for d in compare(listed, presented)] == ["deck"] * 6 + ["sideboard"] * 6
