"""Drops, rejoining, disqualification, penalties, deck checks, intentional draws,
self-reports, idempotent retries and time extensions, in given/when/then form.

Each test names the section it checks (RULES.md, DESIGN.md). Expected events are
compared exactly, except for ``at`` (the builders' clock).
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest

from commands.decide import decide
from commands.errors import InvalidCommand, RuleViolation, UnknownMatch, UnknownPlayer, WrongPhase
from commands.handler import Handler
from commands.models import parse_command
from ledger.events import (
    ORGANIZER,
    Actor,
    DeckCheckRecorded,
    EventBase,
    MatchResult,
    PenaltyIssued,
    PlayerDisqualified,
    PlayerDropped,
    PlayerRejoined,
    ResultCorrected,
    ResultReported,
    RoundPaired,
    Table,
    TimeExtensionGranted,
)
from ledger.url import open_store
from projections.errors import InvalidResult
from projections.rulesets import ruleset
from projections.standings import standings
from tests.builders import T0, Given, create, pair, recorded, register, report, start
from tests.plain_views import status_view

T = "t1"
AT: dict[str, Any] = {"tournament": T, "at": T0, "actor": ORGANIZER}
JUDGE = Actor(role="judge", id="j1")
TWO_TABLES = (["p1", "p2"], ["p3", "p4"])


# builders --------------------------------------------------------------------
def running(*tables: list[str], rules: str = "swu-1.4", **options: Any) -> Given:
    """Players registered, round 1 paired as given (default p1 v p2, p3 v p4) and started."""
    tables = tables or TWO_TABLES
    players = [p for table in tables for p in table]
    return Given(create(ruleset=rules, **options), *register(*players), pair(*tables), start())


def drop(player: str, **extra: Any) -> dict[str, Any]:
    return {"type": "drop_player", "tournament": T, "player": player, **extra}


def rejoin(player: str) -> dict[str, Any]:
    return {"type": "rejoin_player", "tournament": T, "player": player}


def disqualify(player: str, reason: str = "cheating") -> dict[str, Any]:
    return {"type": "disqualify_player", "tournament": T, "player": player, "reason": reason}


def penalty(
    player: str, rnd: int, kind: str, infraction: str = "marked cards", **extra: Any
) -> dict[str, Any]:
    return {"type": "issue_penalty", "tournament": T, "player": player, "round": rnd,
            "penalty": kind, "infraction": infraction, **extra}  # fmt: skip


def deck_check(
    player: str, rnd: int, timing: str, outcome: str = "legal", minutes: int = 6
) -> dict[str, Any]:
    return {"type": "record_deck_check", "tournament": T, "player": player, "round": rnd,
            "timing": timing, "outcome": outcome, "minutes": minutes}  # fmt: skip


def extend(rnd: int, a: str, b: str, minutes: int, reason: str | None = None) -> dict[str, Any]:
    return {"type": "grant_time_extension", "tournament": T, "round": rnd, "players": [a, b],
            "minutes": minutes, "reason": reason}  # fmt: skip


def as_actor(command: dict[str, Any], role: str, actor_id: str) -> dict[str, Any]:
    return {**command, "actor": {"role": role, "id": actor_id}}


def auto_pair(seed: int = 3) -> dict[str, Any]:
    return {"type": "pair_round", "tournament": T, "seed": seed}


def append_events(given: Given, *events: EventBase) -> None:
    """Literal events after the commands (for facts no command can make yet, e.g. a cut)."""
    given.log += recorded(list(events), start=len(given.log) + 1, prev=given.log[-1].event.hash)


def elimination_round(number: int, *tables: tuple[str, str]) -> RoundPaired:
    pairings = tuple(Table(table=i, players=t) for i, t in enumerate(tables, start=1))
    return RoundPaired(**AT, round=number, stage="elimination", method="manual",
                       pairings=pairings)  # fmt: skip


def games(a: int, b: int, draws: int = 0) -> MatchResult:
    return MatchResult(games=(a, b), draws=draws)


# then ------------------------------------------------------------------------
def dump(event: EventBase) -> dict[str, Any]:
    return event.model_dump(mode="json", exclude={"at"})


def then(events: list[EventBase], *expected: EventBase) -> None:
    """The command's events are exactly ``expected`` and share one timestamp."""
    assert [dump(e) for e in events] == [dump(e) for e in expected]
    assert len({e.at for e in events}) <= 1


def match(given: Given, rnd: int, a: str, b: str) -> Any:
    found = given.state.round(rnd).match_of(a, b)  # type: ignore[union-attr]
    assert found is not None
    return found


def points(given: Given) -> dict[str, float]:
    return {s.player: s.scores.points for s in standings(given.state)}


def records(given: Given) -> dict[str, tuple[int, int, int]]:
    return {
        s.player: (s.scores.record.wins, s.scores.record.losses, s.scores.record.draws)
        for s in standings(given.state)
    }


def forfeit(a: str, b: str, result: MatchResult, reason: str, rnd: int = 1) -> ResultReported:
    return ResultReported(**AT, round=rnd, players=(a, b), result=result, reason=reason)


# drops (DESIGN "Rulesets": penalties model; RULES "Common to all five") ---------
def test_drop_before_pairing_records_only_the_drop_design_drops_at_any_time() -> None:
    given = Given(create(), *register("p1", "p2", "p3"))
    then(given.when(drop("p3", reason="went home")),
         PlayerDropped(**AT, player="p3", reason="went home"))  # fmt: skip


def test_drop_mid_round_records_the_open_match_lost_0_2_officially_design_penalties() -> None:
    given = running()
    events = given.apply(drop("p1"))
    then(events, PlayerDropped(**AT, player="p1"), forfeit("p1", "p2", games(0, 2), "dropped"))
    assert match(given, 1, "p1", "p2").status == "confirmed"
    assert records(given)["p2"] == (1, 0, 0)


def test_drop_mid_round_orients_the_forfeit_to_the_match_as_paired_design_penalties() -> None:
    then(running().when(drop("p2")),
         PlayerDropped(**AT, player="p2"), forfeit("p1", "p2", games(2, 0), "dropped"))  # fmt: skip


def test_self_drop_has_the_forfeit_recorded_by_the_organizer_design_round_lifecycle() -> None:
    """A player's own report would need confirming; the forfeit is the official's fact."""
    player = Actor(role="player", id="p1")
    events = running().when(as_actor(drop("p1"), "player", "p1"))
    then(events, PlayerDropped(**{**AT, "actor": player}, player="p1"),
         forfeit("p1", "p2", games(0, 2), "dropped"))  # fmt: skip


def test_drop_by_a_judge_has_the_forfeit_recorded_by_that_judge_design_events() -> None:
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
def test_drop_mid_round_forfeits_the_match_in_each_rulesets_shape_design_penalties(
    rules: str, options: dict[str, Any], result: MatchResult
) -> None:
    given = running(rules=rules, **options)
    then(given.apply(drop("p1")),
         PlayerDropped(**AT, player="p1"), forfeit("p1", "p2", result, "dropped"))  # fmt: skip
    assert records(given)["p2"] == (1, 0, 0) and records(given)["p1"] == (0, 1, 0)


def test_drop_after_the_match_has_a_result_changes_no_result_design_drops_at_any_time() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 1], draws=0))
    then(given.when(drop("p1")), PlayerDropped(**AT, player="p1"))


def test_drop_of_a_player_with_a_bye_keeps_the_bye_design_drops_at_any_time() -> None:
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


def test_drop_of_an_unknown_player_is_refused_design_errors() -> None:
    with pytest.raises(UnknownPlayer, match="'p9'"):
        running().when(drop("p9"))


# rejoining (xwing "Drops"; swu has no such rule) -----------------------------------
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


# disqualification (RULES "Common": removed, may not rejoin) -------------------------
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
def test_disqualification_needs_a_reason_design_command_contract(
    command: dict[str, Any], message: str
) -> None:
    with pytest.raises(InvalidCommand, match=message):
        parse_command(command)


# penalties (swu-1.4 §4.6.2, §6; DESIGN "Rulesets": the common model) -------------------
def issued(player: str, rnd: int, kind: str, infraction: str = "marked cards",
           points: float | None = None) -> PenaltyIssued:  # fmt: skip
    return PenaltyIssued(**AT, player=player, round=rnd, penalty=kind, infraction=infraction,
                         points=points)  # fmt: skip


def corrected(a: str, b: str, new: MatchResult, previous: MatchResult, reason: str,
              timing: str = "next_round_unpaired", rnd: int = 1) -> ResultCorrected:  # fmt: skip
    return ResultCorrected(**AT, round=rnd, players=(a, b), result=new, previous=previous,
                           reason=reason, timing=timing)  # fmt: skip


def test_warning_is_only_recorded_swu14_4_6_2() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 1], draws=0))
    then(given.apply(penalty("p1", 1, "warning", "slow play")),
         issued("p1", 1, "warning", "slow play"))  # fmt: skip
    assert match(given, 1, "p1", "p2").result == games(2, 1)


def test_game_loss_while_the_match_is_in_progress_records_only_the_penalty_swu14_4_6_2() -> None:
    """The reported result then counts the game (before game 1: game 2 is the first game)."""
    given = running()
    then(given.apply(penalty("p1", 1, "game_loss")), issued("p1", 1, "game_loss"))
    assert match(given, 1, "p1", "p2").status == "pending"


@pytest.mark.parametrize(
    ("reported", "penalized", "after"),
    [
        ({"games": [2, 1], "draws": 0}, "p1", games(1, 2)),  # both would have 2: 2-1 -> 1-2
        ({"games": [2, 0], "draws": 0}, "p1", games(2, 1)),  # the winner still wins 2-1
        ({"games": [1, 1], "draws": 1}, "p1", games(1, 2, draws=1)),  # a drawn match lost
        ({"games": [1, 1], "draws": 1}, "p2", games(2, 1, draws=1)),
        ({"games": [1, 0], "draws": 0}, "p2", games(2, 0)),  # time, 1-0: 2-0
        ({"intentional_draw": True}, "p1", games(0, 1)),
    ],
)
def test_game_loss_after_the_match_gives_the_opponent_a_game_in_the_match_just_finished_swu14_6(
    reported: dict[str, Any], penalized: str, after: MatchResult
) -> None:
    given = running()
    given.apply(report(1, "p1", "p2", **reported))
    before = match(given, 1, "p1", "p2").result
    then(given.apply(penalty(penalized, 1, "game_loss")),
         issued(penalized, 1, "game_loss"),
         corrected("p1", "p2", after, before, "game loss: marked cards"))  # fmt: skip
    assert match(given, 1, "p1", "p2").result == after


def test_game_loss_after_the_match_follows_the_paired_order_not_the_report_swu14_6() -> None:
    given = running()
    given.apply(report(1, "p2", "p1", games=[0, 2], draws=0))
    then(given.when(penalty("p1", 1, "game_loss")),
         issued("p1", 1, "game_loss"),
         corrected("p1", "p2", games(2, 1), games(2, 0), "game loss: marked cards"))  # fmt: skip


def test_game_loss_to_the_loser_of_a_2_0_match_changes_no_result_swu14_6() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    then(given.when(penalty("p2", 1, "game_loss")), issued("p2", 1, "game_loss"))


def test_game_loss_after_a_bo1_match_loses_the_match_swu14_6() -> None:
    given = running(format="bo1")
    given.apply(report(1, "p1", "p2", games=[1, 0], draws=0))
    then(given.when(penalty("p1", 1, "game_loss")),
         issued("p1", 1, "game_loss"),
         corrected("p1", "p2", games(0, 1), games(1, 0), "game loss: marked cards"))  # fmt: skip


def test_lcg_game_loss_after_the_match_gives_the_opponent_the_first_game_lcg_sanctions() -> None:
    given = running(rules="lcg-2.1d")
    given.apply(report(1, "p1", "p2", game_results=["p1", "draw"]))
    then(given.when(penalty("p1", 1, "game_loss")),
         issued("p1", 1, "game_loss"),
         corrected("p1", "p2", MatchResult(game_results=("p2", "draw")),
                   MatchResult(game_results=("p1", "draw")),
                   "game loss: marked cards"))  # fmt: skip


def test_game_loss_found_during_the_next_round_corrects_and_pairings_stand_swu14_5_8() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 1], draws=0))
    given.apply(report(1, "p3", "p4", games=[2, 1], draws=0))
    given.apply(pair(["p1", "p3"], ["p2", "p4"]))
    given.apply(start())
    then(given.when(penalty("p1", 1, "game_loss")),
         issued("p1", 1, "game_loss"),
         corrected("p1", "p2", games(1, 2), games(2, 1), "game loss: marked cards",
                   timing="next_round_started"))  # fmt: skip


def test_match_loss_while_the_match_is_in_progress_records_it_lost_0_2_design_penalties() -> None:
    given = running()
    then(given.apply(penalty("p2", 1, "match_loss", "bribery")),
         issued("p2", 1, "match_loss", "bribery"),
         forfeit("p1", "p2", games(2, 0), "match loss: bribery"))  # fmt: skip
    assert match(given, 1, "p1", "p2").status == "confirmed"


def test_match_loss_after_the_result_corrects_it_to_0_2_design_penalties() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 1], draws=0))
    then(given.apply(penalty("p1", 1, "match_loss", "bribery")),
         issued("p1", 1, "match_loss", "bribery"),
         corrected("p1", "p2", games(0, 2), games(2, 1), "match loss: bribery"))  # fmt: skip
    assert records(given)["p2"] == (1, 0, 0)


def test_match_loss_to_a_player_who_lost_0_2_changes_no_result_design_penalties() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    then(given.when(penalty("p2", 1, "match_loss")), issued("p2", 1, "match_loss"))


def test_loss_penalty_to_a_player_with_a_bye_records_only_the_penalty_design_penalties() -> None:
    given = running(["p1", "p2"], ["p3"])
    then(given.when(penalty("p3", 1, "match_loss")), issued("p3", 1, "match_loss"))


def test_disqualification_penalty_disqualifies_and_forfeits_the_open_match_swu14_4_6_2() -> None:
    given = running()
    then(given.apply(penalty("p4", 1, "disqualification", "theft")),
         issued("p4", 1, "disqualification", "theft"),
         PlayerDisqualified(**AT, player="p4", reason="disqualification: theft"),
         forfeit("p3", "p4", games(2, 0), "disqualified"))  # fmt: skip
    assert given.state.players["p4"].disqualified


def test_disqualification_penalty_for_a_disqualified_player_is_refused_rules_common() -> None:
    given = running()
    given.apply(disqualify("p4"))
    with pytest.raises(WrongPhase, match="is disqualified already"):
        given.when(penalty("p4", 1, "disqualification", "theft"))


def lcg_round_one() -> Given:
    """lcg-2.1d: p1 beats p2 6:0, p3 and p4 share 3:3."""
    given = running(rules="lcg-2.1d")
    given.apply(report(1, "p1", "p2", game_results=["p1", "p1"]))
    given.apply(report(1, "p3", "p4", game_results=["p3", "p4"]))
    return given


def test_point_deduction_lowers_points_and_the_opponents_sos_lcg_sanctions() -> None:
    given = lcg_round_one()
    then(given.apply(penalty("p1", 1, "point_deduction", "unsporting conduct", points=2)),
         issued("p1", 1, "point_deduction", "unsporting conduct", points=2))  # fmt: skip
    rows = {s.player: s.scores for s in standings(given.state)}
    assert rows["p1"].points == 4
    assert rows["p2"].tiebreakers["sos"] == 4
    assert rows["p1"].record.wins == 1 and rows["p1"].record.losses == 0  # no match lost


def test_point_deductions_add_up_lcg_sanctions() -> None:
    given = lcg_round_one()
    given.apply(penalty("p1", 1, "point_deduction", "late", points=1))
    given.apply(penalty("p1", 1, "point_deduction", "late again", points=1.5))
    assert points(given)["p1"] == 3.5


def test_point_deduction_is_refused_in_swu14_lcg_sanctions() -> None:
    with pytest.raises(RuleViolation, match=re.escape("swu-1.4 has no point deductions")):
        running().when(penalty("p1", 1, "point_deduction", points=2))


@pytest.mark.parametrize(("kind", "extra"), [("warning", {"points": 2}), ("point_deduction", {})])
def test_points_go_with_a_point_deduction_and_only_with_it_design_command_contract(
    kind: str, extra: dict[str, Any]
) -> None:
    with pytest.raises(InvalidCommand, match="points go with a point_deduction"):
        running(rules="lcg-2.1d").when(penalty("p1", 1, kind, **extra))


def test_point_deduction_of_zero_points_is_an_input_error_design_command_contract() -> None:
    with pytest.raises(InvalidCommand, match="points: Input should be greater than 0"):
        parse_command(penalty("p1", 1, "point_deduction", points=0))


def test_penalty_for_a_round_not_paired_yet_is_refused_design_errors() -> None:
    with pytest.raises(WrongPhase, match="round 2 is not paired yet"):
        running().when(penalty("p1", 2, "warning"))


def test_penalty_for_an_unknown_player_is_refused_design_errors() -> None:
    with pytest.raises(UnknownPlayer, match="'p9'"):
        running().when(penalty("p9", 1, "warning"))


# deck checks (swu-1.4 §6; lcg "Deck check", "Sanctions") ---------------------------------
def deck_checked(player: str, rnd: int, timing: str, outcome: str = "legal",
                 minutes: int = 6) -> DeckCheckRecorded:  # fmt: skip
    return DeckCheckRecorded(**AT, player=player, round=rnd, timing=timing, outcome=outcome,
                             minutes=minutes)  # fmt: skip


def deck_check_time(a: str, b: str, minutes: int, rnd: int = 1) -> TimeExtensionGranted:
    return TimeExtensionGranted(**AT, round=rnd, players=(a, b), minutes=minutes,
                                reason="deck check (swu-1.4 §6)")  # fmt: skip


@pytest.mark.parametrize("timing", ["before_game_1", "between_games"])
def test_deck_check_during_the_match_adds_time_spent_plus_3_minutes_swu14_6(timing: str) -> None:
    given = running()
    then(given.apply(deck_check("p2", 1, timing, minutes=7)),
         deck_checked("p2", 1, timing, minutes=7), deck_check_time("p1", "p2", 10))  # fmt: skip
    assert match(given, 1, "p1", "p2").extension_minutes == 10
    assert match(given, 1, "p3", "p4").extension_minutes == 0


def test_deck_check_time_adds_to_earlier_extensions_swu14_6() -> None:
    given = running()
    given.apply(deck_check("p1", 1, "before_game_1", minutes=2))
    given.apply(deck_check("p2", 1, "between_games", minutes=0))
    assert match(given, 1, "p1", "p2").extension_minutes == 5 + 3


def test_deck_check_after_the_match_adds_no_time_swu14_6() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 1], draws=0))
    then(given.apply(deck_check("p1", 1, "after_match")), deck_checked("p1", 1, "after_match"))
    assert match(given, 1, "p1", "p2").extension_minutes == 0


def test_deck_check_after_the_match_before_its_report_adds_no_time_swu14_6() -> None:
    then(running().when(deck_check("p1", 1, "after_match")),
         deck_checked("p1", 1, "after_match"))  # fmt: skip


def test_illegal_deck_during_the_match_costs_a_game_loss_there_swu14_6() -> None:
    given = running()
    then(given.apply(deck_check("p1", 1, "between_games", "illegal", minutes=4)),
         deck_checked("p1", 1, "between_games", "illegal", minutes=4),
         deck_check_time("p1", "p2", 7),
         issued("p1", 1, "game_loss", "illegal deck found in a deck check"))  # fmt: skip
    assert match(given, 1, "p1", "p2").status == "pending"


def test_illegal_deck_after_the_match_gives_the_opponent_a_game_in_that_match_swu14_6() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 1], draws=0))
    then(given.apply(deck_check("p1", 1, "after_match", "illegal")),
         deck_checked("p1", 1, "after_match", "illegal"),
         issued("p1", 1, "game_loss", "illegal deck found in a deck check"),
         corrected("p1", "p2", games(1, 2), games(2, 1),
                   "illegal deck found in a deck check"))  # fmt: skip
    assert records(given)["p2"] == (1, 0, 0)


def test_illegal_deck_of_a_2_0_winner_after_the_match_makes_it_2_1_swu14_6() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    events = given.apply(deck_check("p1", 1, "after_match", "illegal"))
    assert isinstance(events[-1], ResultCorrected) and events[-1].result == games(2, 1)
    assert records(given)["p1"] == (1, 0, 0)


def test_legal_deck_check_after_the_match_changes_nothing_swu14_6() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    then(given.when(deck_check("p1", 1, "after_match", "legal")),
         deck_checked("p1", 1, "after_match"))  # fmt: skip


def test_illegal_card_annuls_the_offenders_won_games_and_warns_lcg_deck_check() -> None:
    given = running(rules="lcg-2.1d")
    given.apply(report(1, "p1", "p2", game_results=["p1", "p2"]))
    then(given.apply(deck_check("p1", 1, "after_match", "illegal")),
         deck_checked("p1", 1, "after_match", "illegal"),
         issued("p1", 1, "warning", "illegal deck found in a deck check"),
         corrected("p1", "p2", MatchResult(game_results=("annulled", "p2")),
                   MatchResult(game_results=("p1", "p2")),
                   "illegal card found: game annulled (lcg-2.1d)"))  # fmt: skip
    # the annulled game scores for nobody: p1 0, p2 3 (and wins the match)
    assert points(given) == {"p1": 0, "p2": 3, "p3": 0, "p4": 0}
    assert records(given)["p2"] == (1, 0, 0) and records(given)["p1"] == (0, 1, 0)


def test_illegal_card_of_a_player_who_won_no_game_only_warns_lcg_deck_check() -> None:
    given = running(rules="lcg-2.1d")
    given.apply(report(1, "p1", "p2", game_results=["p2", "draw"]))
    then(given.when(deck_check("p1", 1, "after_match", "illegal")),
         deck_checked("p1", 1, "after_match", "illegal"),
         issued("p1", 1, "warning", "illegal deck found in a deck check"))  # fmt: skip


def test_deck_that_cannot_be_made_legal_disqualifies_lcg_deck_check() -> None:
    given = running(rules="lcg-2.1d")
    given.apply(report(1, "p1", "p2", game_results=["p1", "p1"]))
    then(given.apply(deck_check("p1", 1, "after_match", "unfixable")),
         deck_checked("p1", 1, "after_match", "unfixable"),
         PlayerDisqualified(**AT, player="p1",
                            reason="deck cannot be made legal (lcg-2.1d)"))  # fmt: skip
    assert given.state.players["p1"].disqualified


def test_unfixable_deck_before_the_report_also_forfeits_the_open_match_lcg_deck_check() -> None:
    then(running(rules="lcg-2.1d").when(deck_check("p1", 1, "after_match", "unfixable")),
         deck_checked("p1", 1, "after_match", "unfixable"),
         PlayerDisqualified(**AT, player="p1", reason="deck cannot be made legal (lcg-2.1d)"),
         forfeit("p1", "p2", MatchResult(game_results=("p2", "p2")), "disqualified"))  # fmt: skip


@pytest.mark.parametrize("timing", ["before_game_1", "between_games"])
def test_deck_check_other_than_after_the_match_is_refused_lcg_deck_check(timing: str) -> None:
    with pytest.raises(RuleViolation, match=re.escape("lcg-2.1d Decküberprüfung")):
        running(rules="lcg-2.1d").when(deck_check("p1", 1, timing))


@pytest.mark.parametrize("rules", ["swu-1.4", "swu-1.0", "xwing-2.0", "armada-2.0"])
def test_unfixable_outcome_is_refused_outside_lcg_lcg_deck_check(rules: str) -> None:
    with pytest.raises(RuleViolation, match=re.escape("outcome 'unfixable' is the lcg-2.1d rule")):
        running(rules=rules).when(deck_check("p1", 1, "after_match", "unfixable"))


def test_deck_check_of_a_player_with_a_bye_is_refused_swu14_6() -> None:
    """§6: decks presented in a match; a bye presents none."""
    with pytest.raises(WrongPhase, match="player 'p3' has no match in round 1"):
        running(["p1", "p2"], ["p3"]).when(deck_check("p3", 1, "after_match"))


def test_status_counts_deck_checks_against_the_10_percent_target_swu14_6() -> None:
    """128 players -> about 12 checks."""
    players = [f"p{i:03}" for i in range(1, 129)]
    given = running(*[players[i : i + 2] for i in range(0, 128, 2)])
    assert status_view(given.state)["deck_checks"] == {"checked": 0, "target": 12}
    given.apply(deck_check("p001", 1, "before_game_1"))
    given.apply(deck_check("p128", 1, "between_games", "illegal"))
    assert status_view(given.state)["deck_checks"] == {"checked": 2, "target": 12}


# intentional draw (swu-1.4 §4.4) ------------------------------------------------------
INTENTIONAL_DRAW: dict[str, Any] = {"intentional_draw": True}


def test_intentional_draw_before_any_game_is_recorded_swu14_4_4() -> None:
    given = running()
    then(given.apply(report(1, "p1", "p2", **INTENTIONAL_DRAW)),
         ResultReported(**AT, round=1, players=("p1", "p2"),
                        result=MatchResult(intentional_draw=True)))  # fmt: skip
    assert records(given)["p1"] == (0, 0, 1) and points(given)["p2"] == 1


def test_intentional_draw_after_a_deck_check_before_game_1_is_allowed_swu14_4_4() -> None:
    given = running()
    given.apply(deck_check("p1", 1, "before_game_1"))
    [event] = given.when(report(1, "p1", "p2", **INTENTIONAL_DRAW))
    assert isinstance(event, ResultReported) and event.result.intentional_draw


def test_intentional_draw_agreed_by_both_players_self_reports_swu14_4_4() -> None:
    given = running()
    given.apply(as_actor(report(1, "p1", "p2", **INTENTIONAL_DRAW), "player", "p1"))
    given.apply(as_actor(report(1, "p2", "p1", **INTENTIONAL_DRAW), "player", "p2"))
    assert match(given, 1, "p1", "p2").status == "confirmed"


@pytest.mark.parametrize(
    "before",
    [
        penalty("p2", 1, "game_loss"),
        deck_check("p1", 1, "between_games"),
        deck_check("p1", 1, "after_match"),
        deck_check("p1", 1, "before_game_1", "illegal"),  # a game loss before game 1
        as_actor(report(1, "p1", "p2", games=[1, 0], draws=0), "player", "p1"),
    ],
    ids=["game_loss", "deck_check_between_games", "deck_check_after_match",
         "illegal_deck_before_game_1", "a_game_reported"],
)  # fmt: skip
def test_intentional_draw_after_the_first_game_began_is_refused_swu14_4_4(
    before: dict[str, Any],
) -> None:
    given = running()
    given.apply(before)
    with pytest.raises(RuleViolation, match=r"only before the first game begins \(swu-1.4 §4.4\)"):
        given.when(as_actor(report(1, "p2", "p1", **INTENTIONAL_DRAW), "player", "p2"))


def test_game_loss_of_an_earlier_round_does_not_block_an_intentional_draw_swu14_4_4() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    given.apply(report(1, "p3", "p4", games=[2, 0], draws=0))
    given.apply(penalty("p1", 1, "game_loss", "late"))
    given.apply(pair(["p1", "p3"], ["p2", "p4"]))
    given.apply(start())
    [event] = given.when(report(2, "p1", "p3", **INTENTIONAL_DRAW))
    assert isinstance(event, ResultReported)


def test_intentional_draw_is_refused_in_elimination_by_the_ruleset_swu14_4_4() -> None:
    with pytest.raises(InvalidResult, match=re.escape("Swiss rounds only, swu-1.4 §4.4")):
        ruleset("swu-1.4", {}).validate_result(
            ("p1", "p2"), MatchResult(intentional_draw=True), "elimination"
        )


def test_intentional_draw_in_an_elimination_round_is_an_input_error_swu14_4_4() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    given.apply(report(1, "p3", "p4", games=[2, 0], draws=0))
    append_events(given, elimination_round(2, ("p1", "p3")))
    given.apply(start())
    with pytest.raises(InvalidCommand, match=re.escape("Swiss rounds only, swu-1.4 §4.4")):
        given.when(report(2, "p1", "p3", **INTENTIONAL_DRAW))


# self-reports (DESIGN "Round lifecycle") ------------------------------------------------
def self_report(reporter: str, a: str, b: str, wins: list[int]) -> dict[str, Any]:
    return as_actor(report(1, a, b, games=wins, draws=0), "player", reporter)


def test_matching_self_reports_confirm_each_other_design_round_lifecycle() -> None:
    given = running()
    given.apply(self_report("p1", "p1", "p2", [2, 1]))
    given.apply(self_report("p2", "p2", "p1", [1, 2]))  # the same result, told the other way
    assert match(given, 1, "p1", "p2").status == "confirmed"
    assert records(given)["p1"] == (1, 0, 0)


def test_unconfirmed_self_report_does_not_count_in_standings_design_round_lifecycle() -> None:
    given = running()
    then(given.apply(self_report("p1", "p1", "p2", [2, 0])),
         ResultReported(**{**AT, "actor": Actor(role="player", id="p1")}, round=1,
                        players=("p1", "p2"), result=games(2, 0)))  # fmt: skip
    assert match(given, 1, "p1", "p2").status == "unconfirmed"
    assert records(given)["p1"] == (0, 0, 0)


def test_conflicting_self_reports_stay_disputed_until_a_judge_reports_round_lifecycle() -> None:
    given = running()
    given.apply(report(1, "p3", "p4", games=[2, 0], draws=0))
    given.apply(self_report("p1", "p1", "p2", [2, 1]))
    given.apply(self_report("p2", "p1", "p2", [1, 2]))
    assert match(given, 1, "p1", "p2").status == "disputed"
    assert records(given)["p1"] == (0, 0, 0) and records(given)["p2"] == (0, 0, 0)
    with pytest.raises(WrongPhase, match="round 1 is not complete"):
        given.when(auto_pair())
    given.apply(as_actor(report(1, "p1", "p2", games=[1, 2], draws=0), "judge", "j1"))
    assert match(given, 1, "p1", "p2").status == "confirmed"
    assert records(given)["p2"] == (1, 0, 0)
    assert isinstance(given.when(auto_pair())[0], RoundPaired)


def test_player_changing_their_self_report_settles_a_dispute_design_round_lifecycle() -> None:
    given = running()
    given.apply(self_report("p1", "p1", "p2", [2, 1]))
    given.apply(self_report("p2", "p1", "p2", [1, 2]))
    given.apply(self_report("p1", "p1", "p2", [1, 2]))  # the latest report of each player counts
    assert match(given, 1, "p1", "p2").status == "confirmed"
    assert match(given, 1, "p1", "p2").result == games(1, 2)


# idempotent command ids (DESIGN "Events": a repeated id returns the original outcome) -------
def handler_with_round_one() -> Handler:
    handler = Handler(open_store(f"memory://{uuid.uuid4().hex}"), clock=lambda: T0,
                      seeds=lambda: 7)  # fmt: skip
    for command in [create(), *register("p1", "p2", "p3", "p4"), pair(*TWO_TABLES), start()]:
        handler.handle(parse_command(command))
    return handler


def test_the_same_command_id_twice_counts_once_design_events() -> None:
    handler = handler_with_round_one()
    warning = parse_command({**penalty("p1", 1, "warning"), "command_id": "c-17"})
    first = handler.handle(warning)
    again = handler.handle(warning)
    assert again == first
    assert [r.event.type for r in first.recorded] == ["penalty_issued"]
    assert len(handler.store.load(T)) == first.seq
    assert len(handler.folds.state(T).players["p1"].penalties) == 1


def test_a_repeated_drop_returns_the_original_outcome_not_a_refusal_design_events() -> None:
    handler = handler_with_round_one()
    dropped = parse_command(drop("p1", command_id="c-drop"))
    first = handler.handle(dropped)
    assert [r.event.type for r in first.recorded] == ["player_dropped", "result_reported"]
    fresh = Handler(handler.store)  # no cached state: the id is found in the stored log
    assert fresh.handle(dropped) == first
    assert len(handler.store.load(T)) == first.seq


def test_a_new_command_id_is_a_new_command_design_events() -> None:
    handler = handler_with_round_one()
    handler.handle(parse_command({**penalty("p1", 1, "warning"), "command_id": "c-1"}))
    handler.handle(parse_command({**penalty("p1", 1, "warning"), "command_id": "c-2"}))
    assert len(handler.folds.state(T).players["p1"].penalties) == 2


# time extensions (DESIGN "clock": grant_time_extension extends one match) ---------------
def test_time_extension_adds_to_the_matchs_extension_minutes_design_clock() -> None:
    given = running()
    then(given.apply(extend(1, "p2", "p1", 5, "judge call")),
         TimeExtensionGranted(**AT, round=1, players=("p2", "p1"), minutes=5,
                              reason="judge call"))  # fmt: skip
    given.apply(extend(1, "p1", "p2", 2))
    assert match(given, 1, "p1", "p2").extension_minutes == 7
    assert match(given, 1, "p3", "p4").extension_minutes == 0


def test_time_extension_for_a_finished_match_is_refused_design_clock() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    with pytest.raises(WrongPhase, match="round 1 match p1 v p2 is finished"):
        given.when(extend(1, "p1", "p2", 5))


def test_time_extension_for_a_match_that_does_not_exist_is_refused_design_errors() -> None:
    with pytest.raises(UnknownMatch, match="no match of p1 and p3"):
        running().when(extend(1, "p1", "p3", 5))


def test_time_extension_of_zero_minutes_is_an_input_error_design_command_contract() -> None:
    with pytest.raises(InvalidCommand, match="minutes: Input should be greater than or equal"):
        parse_command(extend(1, "p1", "p2", 0))


# the deciders are pure ----------------------------------------------------------------
def test_discipline_decisions_are_pure_functions_of_state_and_command_design_core() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 1], draws=0))
    state = given.state
    command = parse_command(deck_check("p1", 1, "after_match", "illegal"))
    first = decide(state, command, now=T0, seed=1)
    assert decide(state, command, now=T0, seed=1) == first
    assert given.state.seq == state.seq  # deciding appended nothing


def test_a_player_may_drop_only_themselves_design_who_acts() -> None:
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
def test_only_organizers_and_judges_discipline_design_who_acts(command: dict[str, Any]) -> None:
    given = running(["p1", "p2"], ["p3", "p4"])
    for role in ("player", "scorekeeper"):
        with pytest.raises(RuleViolation, match=f"a {role} may not"):
            given.when({**command, "tournament": "t1", "actor": {"role": role, "id": "p1"}})
