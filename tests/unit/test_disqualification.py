"""Disqualification (RULES.md "Common to all five"): the player is removed, their open
match is recorded as lost, they are never paired again and may not rejoin; a reason is
required, and a second disqualification is refused."""

from __future__ import annotations

from typing import Any

import pytest

from commands.errors import InvalidCommand, WrongPhase
from commands.models import parse_command
from ledger.events import PlayerDisqualified, RoundPaired
from tests.builders import report
from tests.unit.discipline_steps import (
    AT,
    T,
    auto_pair,
    disqualify,
    drop,
    forfeit,
    games,
    running,
    then,
)


def test_disqualification_removes_the_player_and_records_the_open_match_lost_rules_common() -> None:
    given = running()
    then(given.apply(disqualify("p3", "aggressive behaviour")),
         PlayerDisqualified(**AT, player="p3", reason="aggressive behaviour"),
         forfeit("p3", "p4", games(0, 2), "disqualified"))  # fmt: skip
    player = given.state.players["p3"]
    assert player.disqualified and not player.active
    given.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    [paired] = given.when(auto_pair())
    assert isinstance(paired, RoundPaired)
    assert all("p3" not in t.players for t in paired.pairings)


def test_disqualification_after_the_match_changes_no_result_rules_common() -> None:
    given = running()
    given.apply(report(1, "p3", "p4", games=[2, 0], draws=0))
    then(given.when(disqualify("p3")), PlayerDisqualified(**AT, player="p3", reason="cheating"))


def test_disqualifying_a_dropped_player_records_no_second_forfeit_rules_common() -> None:
    given = running()
    given.apply(drop("p3"))
    then(given.when(disqualify("p3")), PlayerDisqualified(**AT, player="p3", reason="cheating"))


def test_second_disqualification_is_refused_rules_common() -> None:
    given = running()
    given.apply(disqualify("p3"))
    with pytest.raises(WrongPhase, match="player 'p3' is disqualified already"):
        given.when(disqualify("p3"))


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ({"type": "disqualify_player", "tournament": T, "player": "p3"},
         "disqualify_player: reason: Field required"),
        ({"type": "disqualify_player", "tournament": T, "player": "p3", "reason": ""},
         "disqualify_player: reason: String should have at least 1 character"),
    ],
)  # fmt: skip
def test_disqualification_needs_a_reason(command: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidCommand, match=message):
        parse_command(command)
