"""The discipline deciders as a whole: a pure function of the state and the command, and
only organizers and judges discipline (a player may drop only themselves)."""

from __future__ import annotations

from typing import Any

import pytest

from commands.decide import decide
from commands.errors import RuleViolation
from commands.models import parse_command
from tests.builders import T0, report
from tests.unit.discipline_steps import deck_check, running


def test_discipline_decisions_are_pure_functions_of_state_and_command() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 1], draws=0))
    state = given.state
    command = parse_command(deck_check("p1", 1, "after_match", "illegal"))
    first = decide(state, command, now=T0, seed=1)
    assert decide(state, command, now=T0, seed=1) == first
    assert given.state.seq == state.seq  # deciding appended nothing


def test_a_player_may_drop_only_themselves() -> None:
    given = running(["p1", "p2"], ["p3", "p4"])
    own = {"type": "drop_player", "tournament": "t1", "player": "p1",
           "actor": {"role": "player", "id": "p1"}}  # fmt: skip
    assert given.when(own)
    with pytest.raises(RuleViolation, match="may drop only themselves"):
        given.when({**own, "player": "p2"})


@pytest.mark.parametrize(
    "command",
    [
        {"type": "disqualify_player", "player": "p2", "reason": "x"},
        {"type": "issue_penalty", "player": "p2", "round": 1, "penalty": "warning",
         "infraction": "slow play"},
        {"type": "record_deck_check", "player": "p2", "round": 1, "timing": "before_game_1",
         "outcome": "legal", "minutes": 2},
        {"type": "grant_time_extension", "round": 1, "players": ["p1", "p2"], "minutes": 3},
    ],
)  # fmt: skip
def test_only_organizers_and_judges_discipline(command: dict[str, Any]) -> None:
    given = running(["p1", "p2"], ["p3", "p4"])
    for role in ("player", "scorekeeper"):
        with pytest.raises(RuleViolation, match=f"a {role} may not"):
            given.when({**command, "tournament": "t1", "actor": {"role": role, "id": "p1"}})
