"""Honest mistakes undone by new events (the log is never edited, so the mistake and its
undo both stay visible), disputes recorded in the official decision (an official's
report decides), no-shows and the cut as a line (swu-1.4 §5.8 after the cut), in
given/when/then form."""

from __future__ import annotations

from typing import Any

import pytest

from commands.errors import InvalidCommand, RuleViolation, UnknownPlayer, WrongPhase
from commands.reads.history import player_history
from ledger.events import (
    DisputedReport,
    MatchResult,
    OptionsChanged,
    PlayerReinstated,
    RegistrationWithdrawn,
    ResultCorrected,
    ResultReported,
    TournamentReopened,
)
from projections.cutline import SeedChange, seeding_changes
from projections.pairing import eligible_players
from projections.rulesets import ruleset
from projections.standings import standings
from tests.builders import Given, create, pair, register, report, start
from tests.plain_views import status_view
from tests.unit.discipline_steps import AT, T, drop, then

REASON = "dropped the wrong player"


def undo(kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "tournament": T, **fields}


def as_player(command: dict[str, Any], player: str) -> dict[str, Any]:
    return {**command, "actor": {"role": "player", "id": player}}


def points(given: Given) -> dict[str, float]:
    return {s.player: s.scores.points for s in standings(given.state)}


def played_round_1(rules: str = "swu-1.4", **options: Any) -> Given:
    """Four players, round 1 played (p1 and p3 won)."""
    won = {"games": [2, 0], "draws": 0} if rules.startswith("swu") else {"points": [100, 20]}
    return Given(create(ruleset=rules, **options), *register("p1", "p2", "p3", "p4"),
                 pair(["p1", "p2"], ["p3", "p4"]), start(),
                 report(1, "p1", "p2", **won), report(1, "p3", "p4", **won))  # fmt: skip


# reinstate_player ------------------------------------------------------------------------


def test_reinstate_player_undoes_a_drop_with_actor_and_reason() -> None:
    given = played_round_1()
    given.apply(drop("p4"))
    then(given.when(undo("reinstate_player", player="p4", reason=REASON)),
         PlayerReinstated(**AT, player="p4", reason=REASON))  # fmt: skip


def test_a_reinstated_player_is_paired_again_from_the_next_round() -> None:
    given = played_round_1()
    given.apply(drop("p4"))
    assert "p4" not in eligible_players(given.state)
    given.apply(undo("reinstate_player", player="p4", reason=REASON))
    assert "p4" in eligible_players(given.state) and not given.state.players["p4"].dropped
    paired = given.apply({"type": "pair_round", "tournament": T, "seed": 3})
    assert any("p4" in t.players for t in paired[0].pairings)  # type: ignore[attr-defined]
    history = player_history(given.state, "p4", {})
    assert history.reinstated_in_rounds == [2] and not history.dropped
    assert [d.after_round for d in history.drops] == [1]


def test_rounds_missed_before_reinstatement_count_as_the_ruleset_counts_them() -> None:
    """X-Wing "Drops": a missed round is an unpaired loss; swu-1.4 has no such rule, so a
    missed round adds nothing (the rounds paired while the player was wrongly out)."""
    for rules, missed_points in (("xwing-2.0", 0.0), ("swu-1.4", 0.0)):
        given = played_round_1(rules)
        given.apply(drop("p4"))
        given.apply({"type": "pair_round", "tournament": T, "seed": 1})
        given.apply(undo("reinstate_player", player="p4", reason=REASON))
        assert given.state.players["p4"].missed == [2]
        assert points(given)["p4"] == missed_points
    xwing = played_round_1("xwing-2.0")
    xwing.apply(drop("p4"))
    xwing.apply({"type": "pair_round", "tournament": T, "seed": 1})
    xwing.apply(undo("reinstate_player", player="p4", reason=REASON))
    record = next(s for s in standings(xwing.state) if s.player == "p4").scores.record
    assert record.losses == 2  # round 1 lost, round 2 an unpaired loss


def test_reinstate_refuses_a_player_who_has_not_dropped_or_was_disqualified() -> None:
    given = played_round_1()
    with pytest.raises(WrongPhase, match="'p4' has not dropped"):
        given.when(undo("reinstate_player", player="p4", reason=REASON))
    given.apply({"type": "disqualify_player", "tournament": T, "player": "p4",
                 "reason": "aggressive behaviour"})  # fmt: skip
    with pytest.raises(RuleViolation, match="disqualified"):
        given.when(undo("reinstate_player", player="p4", reason=REASON))
    with pytest.raises(UnknownPlayer):
        given.when(undo("reinstate_player", player="p9", reason=REASON))


def test_reinstate_needs_a_reason_and_the_organizer() -> None:
    given = played_round_1()
    given.apply(drop("p4"))
    with pytest.raises(InvalidCommand, match="reason"):
        given.when(undo("reinstate_player", player="p4"))
    judge = {**undo("reinstate_player", player="p4", reason=REASON),
             "actor": {"role": "judge", "id": "j1"}}  # fmt: skip
    with pytest.raises(RuleViolation, match="a judge may not reinstate a player"):
        given.when(judge)


def test_reinstate_is_refused_once_the_swiss_stage_is_over() -> None:
    given = played_round_1(rounds=1)
    given.apply(drop("p4"))
    given.apply({"type": "make_cut", "tournament": T, "size": 2})
    with pytest.raises(WrongPhase, match="Swiss stage is over"):
        given.when(undo("reinstate_player", player="p4", reason=REASON))


# reopen_tournament -------------------------------------------------------------------------


def test_reopen_undoes_a_finish_and_the_event_runs_on() -> None:
    given = played_round_1(rounds=2)
    given.apply({"type": "finish_tournament", "tournament": T})
    with pytest.raises(WrongPhase, match="reopen_tournament undoes a finish"):
        given.when({"type": "pair_round", "tournament": T})
    reason = "finished by mistake"
    then(given.when(undo("reopen_tournament", reason=reason)),
         TournamentReopened(**AT, reason=reason))  # fmt: skip
    given.apply(undo("reopen_tournament", reason=reason))
    assert status_view(given.state)["stage"] == "swiss"
    assert given.apply({"type": "pair_round", "tournament": T, "seed": 1})


def test_reopen_is_refused_unless_finished() -> None:
    with pytest.raises(WrongPhase, match="is not finished"):
        played_round_1().when(undo("reopen_tournament", reason="why"))


# withdraw_registration -----------------------------------------------------------------------


def test_a_withdrawn_registration_leaves_no_trace_in_standings() -> None:
    given = Given(create(), *register("p1", "p2", "p3", "p4", "p5"))
    reason = "registered twice"
    then(given.when(undo("withdraw_registration", player="p5", reason=reason)),
         RegistrationWithdrawn(**AT, player="p5", reason=reason))  # fmt: skip
    given.apply(undo("withdraw_registration", player="p5", reason=reason))
    assert "p5" not in points(given) and status_view(given.state)["players"] == 4
    paired = given.apply({"type": "pair_round", "tournament": T, "seed": 1})
    assert all("p5" not in t.players for t in paired[0].pairings)  # type: ignore[attr-defined]


def test_withdrawal_is_refused_once_round_1_is_paired() -> None:
    given = played_round_1()
    with pytest.raises(WrongPhase, match="round 1 is paired: drop p4 instead"):
        given.when(undo("withdraw_registration", player="p4", reason="wrong event"))


def test_a_withdrawn_id_may_be_registered_again() -> None:
    given = Given(create(), *register("p1", "p2"))
    given.apply(undo("withdraw_registration", player="p2", reason="wrong name"))
    assert given.apply(register("p2")[0])


# change_options ---------------------------------------------------------------------------------


def test_change_options_before_round_1_records_the_change_and_the_options_in_force() -> None:
    given = Given(create(), *register("p1", "p2", "p3", "p4"))
    before = given.state.options
    then(given.when(undo("change_options", options={"rounds": 5, "format": "bo1"})),
         OptionsChanged(**AT, options={"rounds": 5, "format": "bo1"},
                        effective={**before, "rounds": 5, "format": "bo1"}))  # fmt: skip
    given.apply(undo("change_options", options={"rounds": 5}, reason="a longer day"))
    assert status_view(given.state)["rounds_planned"] == 5
    given.apply(undo("change_options", options={"rounds": None}))
    assert "rounds" not in given.state.options


def test_change_options_refusals() -> None:
    given = Given(create(), *register("p1", "p2"))
    with pytest.raises(InvalidCommand, match=r"swu-1\.4 has no option 'colour'"):
        given.when(undo("change_options", options={"colour": "red"}))
    with pytest.raises(InvalidCommand, match="option 'format' must be one of"):
        given.when(undo("change_options", options={"format": "bo5"}))
    with pytest.raises(InvalidCommand, match="the seed is fixed"):
        given.when(undo("change_options", options={"seed": 4}))
    with pytest.raises(RuleViolation, match="already so"):
        given.when(undo("change_options", options={"format": "bo3"}))
    with pytest.raises(InvalidCommand, match="options"):
        given.when(undo("change_options", options={}))
    with pytest.raises(WrongPhase, match="round 1 is paired"):
        played_round_1().when(undo("change_options", options={"rounds": 5}))


# disputes ---------------------------------------------------------------------------------------


def test_a_players_report_that_contradicts_the_opponents_flags_the_dispute() -> None:
    given = Given(create(), *register("p1", "p2"), pair(["p1", "p2"]), start())
    given.apply(as_player(report(1, "p1", "p2", games=[2, 0], draws=0), "p1"))
    events = given.when(as_player(report(1, "p2", "p1", games=[2, 1], draws=0), "p2"))
    p2 = {"role": "player", "id": "p2"}
    p1_said = DisputedReport(seq=6, player="p1", result=MatchResult(games=(0, 2), draws=0))
    then(events, ResultReported(**{**AT, "actor": p2}, round=1, players=("p2", "p1"),
                                result=MatchResult(games=(2, 1), draws=0),
                                disputed=(p1_said,)))  # fmt: skip
    given.apply(as_player(report(1, "p2", "p1", games=[2, 1], draws=0), "p2"))
    assert status_view(given.state)["tables"][0]["state"] == "disputed"


def test_an_official_decision_records_both_reports_of_a_dispute() -> None:
    given = Given(create(), *register("p1", "p2"), pair(["p1", "p2"]), start())
    given.apply(as_player(report(1, "p1", "p2", games=[2, 0], draws=0), "p1"))
    given.apply(as_player(report(1, "p1", "p2", games=[1, 2], draws=0), "p2"))
    events = given.when(report(1, "p1", "p2", games=[2, 1], draws=0))
    p1_said = DisputedReport(seq=6, player="p1", result=MatchResult(games=(2, 0), draws=0))
    p2_said = DisputedReport(seq=7, player="p2", result=MatchResult(games=(1, 2), draws=0))
    then(events, ResultReported(**AT, round=1, players=("p1", "p2"),
                                result=MatchResult(games=(2, 1), draws=0),
                                disputed=(p1_said, p2_said)))  # fmt: skip


def test_an_official_report_over_a_different_self_report_is_flagged_not_silent() -> None:
    given = Given(create(), *register("p1", "p2"), pair(["p1", "p2"]), start())
    given.apply(as_player(report(1, "p1", "p2", games=[2, 0], draws=0), "p1"))
    decided = given.when(report(1, "p2", "p1", games=[2, 0], draws=0))
    assert decided[0].disputed == (  # type: ignore[attr-defined]
        DisputedReport(seq=6, player="p1", result=MatchResult(games=(0, 2), draws=0)),
    )
    agreeing = given.when(report(1, "p1", "p2", games=[2, 0], draws=0))
    assert agreeing[0].disputed is None  # type: ignore[attr-defined]
    assert "disputed" not in agreeing[0].model_dump(exclude_none=True)


# no-show ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "winner_points"),
    [("swu-1.4", 3), ("swu-1.0", 1), ("xwing-2.0", 1), ("armada-2.0", 8), ("lcg-2.1d", 6)],
)
def test_a_no_show_is_its_own_result_scored_as_the_rulesets_won_match(
    rules: str, winner_points: float
) -> None:
    given = Given(create(ruleset=rules), *register("p1", "p2"), pair(["p1", "p2"]), start())
    events = given.apply(report(1, "p1", "p2", no_show="p2"))
    assert events[0].result == MatchResult(no_show="p2")  # type: ignore[attr-defined]
    scored = points(given)
    assert scored["p1"] == winner_points and scored["p1"] > scored["p2"]
    rule = ruleset(rules)
    forfeit = rule.forfeit(("p1", "p2"), "p2", "swiss")
    assert rule.effective(("p1", "p2"), MatchResult(no_show="p2"), "swiss") == forfeit


def test_a_no_show_names_a_player_of_the_match_and_nothing_else() -> None:
    given = Given(create(), *register("p1", "p2"), pair(["p1", "p2"]), start())
    with pytest.raises(InvalidCommand, match="no_show 'p9' is not a player of this match"):
        given.when(report(1, "p1", "p2", no_show="p9"))
    with pytest.raises(InvalidCommand, match="names the absent player and nothing else"):
        given.when(report(1, "p1", "p2", no_show="p2", games=[2, 0]))


# the cut is a line -------------------------------------------------------------------------


def cut_after_round_1() -> Given:
    given = played_round_1(rounds=1)
    given.apply({"type": "make_cut", "tournament": T, "size": 2})
    return given


def test_from_the_cut_on_a_swiss_correction_needs_a_reason_and_the_cut_stands() -> None:
    """swu-1.4 §5.8: the cut is a line, even before elimination is paired."""
    given = cut_after_round_1()
    correct = {"type": "correct_result", "tournament": T, "round": 1, "players": ["p1", "p2"],
               "result": {"games": [0, 2], "draws": 0}}  # fmt: skip
    with pytest.raises(RuleViolation, match="after cut needs a reason"):
        given.when(correct)
    seeds = given.state.cut.seeds  # type: ignore[union-attr]
    events = given.apply({**correct, "reason": "slip filled in reverse"})
    assert isinstance(events[0], ResultCorrected) and events[0].timing == "after_cut"
    assert given.state.cut.seeds == seeds  # type: ignore[union-attr]
    changes = seeding_changes(given.state)
    assert changes and all(isinstance(c, SeedChange) for c in changes)
    assert {c.as_made for c in changes} <= set(seeds)
    assert "p2" in {c.now for c in changes}


def test_before_the_cut_the_cut_follows_the_corrected_standings() -> None:
    given = played_round_1(rounds=1)
    given.apply({"type": "correct_result", "tournament": T, "round": 1,
                 "players": ["p1", "p2"], "result": {"games": [0, 2], "draws": 0}})  # fmt: skip
    cut = given.apply({"type": "make_cut", "tournament": T, "size": 2})
    assert "p2" in cut[0].seeds and "p1" not in cut[0].seeds  # type: ignore[attr-defined]
    assert seeding_changes(given.state) == []


def test_no_seeding_change_when_the_correction_keeps_the_order() -> None:
    given = cut_after_round_1()
    assert seeding_changes(given.state) == []
