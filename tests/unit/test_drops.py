"""Drops and rejoining: a player may drop at any time; a drop in the middle of a round
records the open match as lost by the dropped player, in the ruleset's own result shape,
recorded by the official who acted; a dropped player is never paired again (RULES.md
"Common to all five") unless xwing-2.0 lets them rejoin in the same stage, their missed
rounds counting as unpaired losses (xwing "Drops"); swu-1.4 has no such rule."""

from __future__ import annotations

from typing import Any

import pytest

from commands.errors import RuleViolation, UnknownPlayer, WrongPhase
from ledger.events import (
    Actor,
    MatchResult,
    PlayerDropped,
    PlayerRejoined,
    ResultReported,
    RoundPaired,
)
from projections.standings import standings
from tests.builders import Given, create, pair, register, report, start
from tests.unit.discipline_steps import (
    AT,
    JUDGE,
    append_events,
    as_actor,
    auto_pair,
    disqualify,
    drop,
    elimination_round,
    forfeit,
    games,
    match,
    records,
    rejoin,
    running,
    then,
)


def test_drop_before_pairing_records_only_the_drop() -> None:
    given = Given(create(), *register("p1", "p2", "p3"))
    then(given.when(drop("p3", reason="went home")),
         PlayerDropped(**AT, player="p3", reason="went home"))  # fmt: skip


def test_drop_mid_round_records_the_open_match_lost_0_2_officially() -> None:
    given = running()
    events = given.apply(drop("p1"))
    then(events, PlayerDropped(**AT, player="p1"), forfeit("p1", "p2", games(0, 2), "dropped"))
    assert match(given, 1, "p1", "p2").status == "confirmed"
    assert records(given)["p2"] == (1, 0, 0)


def test_drop_mid_round_orients_the_forfeit_to_the_match_as_paired() -> None:
    then(running().when(drop("p2")),
         PlayerDropped(**AT, player="p2"), forfeit("p1", "p2", games(2, 0), "dropped"))  # fmt: skip


def test_self_drop_has_the_forfeit_recorded_by_the_organizer() -> None:
    """A player's own report would need confirming; the forfeit is the official's fact."""
    player = Actor(role="player", id="p1")
    events = running().when(as_actor(drop("p1"), "player", "p1"))
    then(events, PlayerDropped(**{**AT, "actor": player}, player="p1"),
         forfeit("p1", "p2", games(0, 2), "dropped"))  # fmt: skip


def test_drop_by_a_judge_has_the_forfeit_recorded_by_that_judge() -> None:
    events = running().when(as_actor(drop("p1"), "judge", "j1"))
    then(events, PlayerDropped(**{**AT, "actor": JUDGE}, player="p1"),
         ResultReported(**{**AT, "actor": JUDGE}, round=1, players=("p1", "p2"),
                        result=games(0, 2), reason="dropped"))  # fmt: skip


@pytest.mark.parametrize(
    ("rules", "options", "result"),
    [
        ("swu-1.4", {"format": "bo1"}, MatchResult(games=(0, 1), draws=0)),
        ("lcg-2.1d", {}, MatchResult(game_results=("p2", "p2"))),
        ("xwing-2.0", {}, MatchResult(points=(0, 0), concession="p1")),
        ("armada-2.0", {}, MatchResult(points=(0, 0), concession="p1")),
    ],
)
def test_drop_mid_round_forfeits_the_match_in_each_rulesets_shape(
    rules: str, options: dict[str, Any], result: MatchResult
) -> None:
    given = running(rules=rules, **options)
    then(given.apply(drop("p1")),
         PlayerDropped(**AT, player="p1"), forfeit("p1", "p2", result, "dropped"))  # fmt: skip
    assert records(given)["p2"] == (1, 0, 0) and records(given)["p1"] == (0, 1, 0)


def test_drop_after_the_match_has_a_result_changes_no_result() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 1], draws=0))
    then(given.when(drop("p1")), PlayerDropped(**AT, player="p1"))


def test_drop_of_a_player_with_a_bye_keeps_the_bye() -> None:
    given = running(["p1", "p2"], ["p3"])
    then(given.apply(drop("p3")), PlayerDropped(**AT, player="p3"))
    assert records(given)["p3"] == (1, 0, 0)


def test_dropped_player_is_never_paired_again_rules_common() -> None:
    given = running(["p1", "p2"], ["p3", "p4"], ["p5", "p6"])
    given.apply(drop("p5"))
    given.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    given.apply(report(1, "p3", "p4", games=[2, 1], draws=0))
    for seed in range(5):
        [paired] = given.when(auto_pair(seed))
        assert isinstance(paired, RoundPaired)
        assert all("p5" not in t.players for t in paired.pairings)
        assert sorted(p for t in paired.pairings for p in t.players) == ["p1", "p2", "p3", "p4",
                                                                         "p6"]  # fmt: skip


def test_dropped_player_cannot_be_paired_by_hand_either_rules_common() -> None:
    given = running()
    given.apply(drop("p4"))
    given.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    with pytest.raises(WrongPhase, match="p4 dropped and cannot be paired"):
        given.when(pair(["p1", "p3"], ["p2", "p4"]))


def test_second_drop_is_refused_rules_common() -> None:
    given = running()
    given.apply(drop("p1"))
    with pytest.raises(WrongPhase, match="player 'p1' has dropped already"):
        given.when(drop("p1"))


def test_drop_of_a_disqualified_player_is_refused_as_disqualified_rules_common() -> None:
    given = running()
    given.apply(disqualify("p1"))
    with pytest.raises(WrongPhase, match="player 'p1' is disqualified"):
        given.when(drop("p1"))


def test_drop_of_an_unknown_player_is_refused() -> None:
    with pytest.raises(UnknownPlayer, match="'p9'"):
        running().when(drop("p9"))


# rejoining: xwing-2.0 "Drops" lets a dropped player back in the same stage ---------------
def xwing_with_p4_away_for_round_2() -> Given:
    """xwing-2.0: p4 drops after round 1; round 2 is played without them."""
    given = running(rules="xwing-2.0")
    given.apply(report(1, "p1", "p2", points=[100, 40]))
    given.apply(report(1, "p4", "p3", points=[80, 30]))
    given.apply(drop("p4"))
    given.apply(pair(["p1", "p3"], ["p2"]))
    given.apply(start())
    given.apply(report(2, "p1", "p3", points=[60, 20]))
    return given


def test_dropped_player_may_rejoin_in_xwing_xwing_drops() -> None:
    given = xwing_with_p4_away_for_round_2()
    then(given.apply(rejoin("p4")), PlayerRejoined(**AT, player="p4"))
    assert given.state.players["p4"].active


def test_missed_rounds_count_as_unpaired_losses_in_standings_xwing_drops() -> None:
    given = xwing_with_p4_away_for_round_2()
    given.apply(rejoin("p4"))
    assert given.state.players["p4"].missed == [2]
    row = next(s for s in standings(given.state) if s.player == "p4")
    assert (row.scores.record.wins, row.scores.record.losses) == (1, 1)
    assert row.scores.points == 1
    assert row.scores.tiebreakers["mov"] == 150  # 100 + 50 in round 1, 0 for the missed round
    assert not row.dropped


def test_rejoined_player_is_paired_again_xwing_drops() -> None:
    given = xwing_with_p4_away_for_round_2()
    given.apply(rejoin("p4"))
    [paired] = given.when(auto_pair())
    assert isinstance(paired, RoundPaired)
    assert sorted(p for t in paired.pairings for p in t.players) == ["p1", "p2", "p3", "p4"]


def test_rejoin_is_refused_in_swu14_rules_common() -> None:
    given = running()
    given.apply(drop("p1"))
    with pytest.raises(RuleViolation, match=r"swu-1\.4 does not let a dropped player rejoin"):
        given.when(rejoin("p1"))


def test_disqualified_player_may_not_rejoin_xwing_drops() -> None:
    given = running(rules="xwing-2.0")
    given.apply(disqualify("p1"))
    with pytest.raises(RuleViolation, match="'p1' was disqualified and may not rejoin"):
        given.when(rejoin("p1"))


def test_dropped_then_disqualified_player_may_not_rejoin_xwing_drops() -> None:
    given = running(rules="xwing-2.0")
    given.apply(drop("p1"))
    given.apply(disqualify("p1"))
    with pytest.raises(RuleViolation, match="'p1' was disqualified and may not rejoin"):
        given.when(rejoin("p1"))


def test_rejoin_of_a_player_who_has_not_dropped_is_refused_xwing_drops() -> None:
    with pytest.raises(WrongPhase, match="player 'p1' has not dropped"):
        running(rules="xwing-2.0").when(rejoin("p1"))


def test_rejoin_after_the_cut_is_refused_same_stage_only_xwing_drops() -> None:
    given = running(rules="xwing-2.0")
    given.apply(report(1, "p1", "p2", points=[100, 40]))
    given.apply(report(1, "p3", "p4", points=[80, 30]))
    given.apply(drop("p4"))
    append_events(given, elimination_round(2, ("p1", "p3")))
    with pytest.raises(RuleViolation, match="only in the same stage"):
        given.when(rejoin("p4"))
