"""Which events ``log --type --player --round`` keeps (commands/reads/logfilter.py)."""

from __future__ import annotations

import re

import pytest

from commands.reads.logfilter import (
    EVENT_TYPES,
    TYPES_PATTERN,
    LogFilter,
    UnknownEventType,
    event_types,
)
from commands.reads.query import LogQuery
from ledger.store import Recorded
from tests.builders import Given, create, pair, register, report, start

WON = {"games": [2, 0], "draws": 0}


def log() -> list[Recorded]:
    """Four players, two rounds, a cut of two: every kind of event that names players."""
    given = Given(create(rounds=2, cut=2), *register("p1", "p2", "p3", "p4"),
                  pair(["p1", "p2"], ["p3", "p4"]), start(),
                  report(1, "p1", "p2", **WON), report(1, "p3", "p4", **WON),
                  pair(["p1", "p3"], ["p2", "p4"]), start(),
                  report(2, "p1", "p3", **WON), report(2, "p2", "p4", **WON),
                  {"type": "make_cut", "tournament": "t1"})  # fmt: skip
    return given.log


def kept(keep: LogFilter) -> list[tuple[int, str]]:
    return [(r.seq, r.event.type) for r in keep.apply(log())]


def test_every_event_type_is_known_and_new_ones_join_by_themselves() -> None:
    assert EVENT_TYPES[0] == "tournament_created"
    assert {"result_reported", "result_corrected", "cut_made"} <= set(EVENT_TYPES)


def test_types_are_given_comma_separated_or_repeated_each_once_in_event_order() -> None:
    assert event_types(["result_corrected,result_reported", "result_reported"]) == (
        "result_reported", "result_corrected")  # fmt: skip
    assert event_types([" cut_made ,round_paired"]) == ("round_paired", "cut_made")
    assert event_types([]) == ()


@pytest.mark.parametrize("value", ["cut_made", " cut_made , round_paired", "a", "cut_made,",
                                   "cut_made\t", ",", "cut_made,cut_made"])  # fmt: skip
def test_the_documented_pattern_takes_exactly_what_is_accepted(value: str) -> None:
    try:
        accepted = bool(event_types([value]))
    except UnknownEventType:
        accepted = False
    assert accepted == bool(re.match(TYPES_PATTERN, value))


def test_an_unknown_type_is_refused_listing_the_types() -> None:
    with pytest.raises(UnknownEventType) as refused:
        event_types(["result_reported,results"])
    message = str(refused.value)
    assert message.startswith("unknown event type 'results' (types: tournament_created, ")
    assert "\n" not in message and refused.value.exit_code == 2


def test_an_empty_filter_keeps_every_event() -> None:
    events = log()
    assert not LogFilter().active
    assert LogFilter().apply(events) == events


def test_type_keeps_only_those_types() -> None:
    found = kept(LogFilter(types=("round_paired", "cut_made")))
    assert [t for _, t in found] == ["round_paired", "round_paired", "cut_made"]


def test_round_keeps_the_events_of_that_round_only() -> None:
    found = kept(LogFilter(round=2))
    assert [t for _, t in found] == ["round_paired", "round_started", "result_reported",
                                     "result_reported"]  # fmt: skip


def test_player_keeps_events_naming_the_player_in_any_field() -> None:
    found = kept(LogFilter(player="p1"))
    assert [t for _, t in found] == ["player_registered", "round_paired", "result_reported",
                                     "round_paired", "result_reported", "cut_made"]  # fmt: skip


def test_a_player_outside_the_cut_is_not_named_by_it() -> None:
    assert "cut_made" not in [t for _, t in kept(LogFilter(player="p4"))]


def test_criteria_combine_all_must_hold() -> None:
    found = kept(LogFilter(types=("result_reported",), player="p2", round=2))
    assert len(found) == 1
    (seq, _), events = found[0], log()
    assert events[seq - 1].event.players == ("p2", "p4")  # type: ignore[union-attr]


def test_a_log_query_is_keyed_by_every_field_it_sets_and_only_by_those() -> None:
    assert LogQuery().key == "log{}"
    filtered = LogQuery(keep=LogFilter(("cut_made",), "p1", 2))
    assert filtered.key == 'log{"keep":{"types":["cut_made"],"player":"p1","round":2}}'
    assert LogQuery(keep=LogFilter(round=2)).key != LogQuery(keep=LogFilter(player="2")).key


def test_a_player_seated_in_a_draft_pod_is_named_by_the_assignment() -> None:
    """swu-1.4 §2.3.2.1: ``log --player`` shows where the player sat."""
    given = Given(create(deck_format="draft"), *register("p1", "p2", "p3"),
                  {"type": "assign_pods", "tournament": "t1", "seed": 1})  # fmt: skip
    found = [r.event.type for r in LogFilter(player="p3").apply(given.log)]
    assert found == ["player_registered", "pods_assigned"]
