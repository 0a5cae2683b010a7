"""Round clocks in the elimination rounds: the top cut's round time
(swu-1.4 §4.3.1: 75 minutes), the final's (X-Wing 120, Armada 180 minutes,
"Zeitdauer einer Turnierrunde"), the LCG final rounds (35 minutes, "Finalrunden") and
its final match without a limit ("Kein Spiel der Final-Begegnung hat ein Zeitlimit")."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from commands.reads.clockviews import clock
from tests.unit.test_bracket import Event, cut_event


def started(event: Event) -> Any:
    """Pair and start the next elimination round; its clock."""
    event.do(type="pair_round")
    event.do(type="start_round")
    return clock(event.state)


def to_the_final(event: Event) -> Any:
    """Play elimination rounds until the round that holds only final matches; its clock."""
    while True:
        model = started(event)
        current = event.state.current
        assert current is not None
        if all(m.bracket == "final" for m in current.matches if len(m.players) == 2):
            return model
        for m in current.matches:
            if len(m.players) == 2:
                event.win(*m.players, current.number, winner=min(m.players))


@pytest.mark.parametrize(
    ("ruleset_id", "options", "first", "final"),
    [
        ("swu-1.4", {}, 75, 75),
        ("swu-1.0", {}, 55, 55),
        ("xwing-2.0", {}, 75, 120),
        ("armada-2.0", {}, 135, 180),
        ("lcg-2.1d", {}, 35, None),
        ("lcg-2.1d", {"final_minutes": 30}, 30, None),
    ],
)
def test_the_end_of_an_elimination_round_follows_the_ruleset_and_stage(
    ruleset_id: str, options: dict[str, Any], first: int, final: int | None
) -> None:
    event = cut_event(4, ruleset_id, **options)
    semis = started(event)
    assert (semis.stage, semis.minutes) == ("elimination", first)
    assert semis.started_at is not None
    assert semis.ends_at == semis.started_at + timedelta(minutes=first)
    assert all(t.ends_at == semis.ends_at for t in semis.tables)
    for m in event.state.current.matches:  # type: ignore[union-attr]
        event.win(*m.players, semis.round, winner=min(m.players))
    last = to_the_final(event)
    assert last.minutes == final
    expected = None if final is None else last.started_at + timedelta(minutes=final)
    assert last.ends_at == expected
    assert [t.ends_at for t in last.tables] == [expected]


def test_the_lcg_final_match_has_no_end_even_with_an_extension_final_begegnung() -> None:
    event = cut_event(2, "lcg-2.1d")
    final = started(event)
    assert final.minutes is None and final.ends_at is None
    players = final.tables[0].players
    event.do(type="grant_time_extension", round=final.round, players=players, minutes=5)
    table = clock(event.state).tables[0]
    assert (table.ends_at, table.extension_minutes, table.state) == (None, 5, "playing")


def test_the_swiss_rounds_keep_their_own_time_after_the_cut() -> None:
    event = cut_event(4, "xwing-2.0")
    assert clock(event.state, 1).minutes == 75
    assert started(event).minutes == 75
