"""Time extensions: ``grant_time_extension`` adds minutes to one open match of the round."""

from __future__ import annotations

import pytest

from commands.errors import InvalidCommand, UnknownMatch, WrongPhase
from commands.models import parse_command
from ledger.events import TimeExtensionGranted
from tests.builders import report
from tests.unit.discipline_steps import AT, extend, match, running, then


def test_time_extension_adds_to_the_matchs_extension_minutes() -> None:
    given = running()
    then(given.apply(extend(1, "p2", "p1", 5, "judge call")),
         TimeExtensionGranted(**AT, round=1, players=("p2", "p1"), minutes=5,
                              reason="judge call"))  # fmt: skip
    given.apply(extend(1, "p1", "p2", 2))
    assert match(given, 1, "p1", "p2").extension_minutes == 7
    assert match(given, 1, "p3", "p4").extension_minutes == 0


def test_time_extension_for_a_finished_match_is_refused() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    with pytest.raises(WrongPhase, match="round 1 match p1 v p2 is finished"):
        given.when(extend(1, "p1", "p2", 5))


def test_time_extension_for_a_match_that_does_not_exist_is_refused() -> None:
    with pytest.raises(UnknownMatch, match="no match of p1 and p3"):
        running().when(extend(1, "p1", "p3", 5))


def test_time_extension_of_zero_minutes_is_an_input_error() -> None:
    with pytest.raises(InvalidCommand, match="minutes: Input should be greater than or equal"):
        parse_command(extend(1, "p1", "p2", 0))
