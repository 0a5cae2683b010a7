"""correct_result under the timing rules of swu-1.4 §5.8, in given/when/then form."""

from __future__ import annotations

from typing import Any

import pytest

from commands.errors import RuleViolation, WrongPhase
from ledger.events import PairingsRevised, ResultCorrected
from projections.standings import standings
from tests.builders import Given, create, pair, register, report, start

PLAYERS = [f"p{i:02d}" for i in range(1, 17)]


def correct(rnd: int, a: str, b: str, reason: str | None = "slip filled in reverse",
            **result: Any) -> dict[str, Any]:  # fmt: skip
    command = {"type": "correct_result", "tournament": "t1", "round": rnd, "players": [a, b],
               "result": result}  # fmt: skip
    if reason is not None:
        command["reason"] = reason
    return command


def two_rounds() -> Given:
    """16 players, rounds 1 and 2 paired in order and played: the first named player wins."""
    given = Given(create(), *register(*PLAYERS))
    for rnd, order in ((1, PLAYERS), (2, PLAYERS[::2] + PLAYERS[1::2])):
        tables = [order[i : i + 2] for i in range(0, 16, 2)]
        given.apply(pair(*tables))
        given.apply(start())
        for a, b in tables:
            given.apply(report(rnd, a, b, games=[2, 0], draws=0))
    return given


def points(given: Given) -> dict[str, float]:
    return {s.player: s.scores.points for s in standings(given.state)}


def test_correction_before_the_next_round_is_paired_only_corrects_swu14_5_8_1() -> None:
    given = two_rounds()
    events = given.when(correct(2, "p01", "p03", games=[0, 2], draws=0))
    assert [type(e) for e in events] == [ResultCorrected]
    [event] = events
    assert isinstance(event, ResultCorrected)
    assert event.timing == "next_round_unpaired" and event.reason == "slip filled in reverse"
    assert event.previous.games == (2, 0) and event.result.games == (0, 2)
    before = points(given)
    given.apply(correct(2, "p01", "p03", games=[0, 2], draws=0))
    after = points(given)
    assert (before["p01"] - after["p01"], after["p03"] - before["p03"]) == (3, 3)
    assert {p for p in PLAYERS if before[p] != after[p]} == {"p01", "p03"}


def test_correction_keeps_the_original_report_in_the_log_swu14_5_8() -> None:
    given = two_rounds()
    given.apply(correct(2, "p03", "p01", games=[2, 1], draws=0))
    kinds = [r.event.type for r in given.log]
    assert kinds.count("result_reported") == 16 and kinds[-1] == "result_corrected"
    match = given.state.rounds[1].match_of("p01", "p03")
    assert match is not None and match.result is not None
    assert match.result.games == (1, 2)  # oriented to the match: p01 first
    assert [r.result.games for r in match.reports] == [(2, 0)]


def test_correction_after_next_round_paired_repairs_only_affected_tables_swu14_5_8_2() -> None:
    given = two_rounds()
    given.apply({"type": "pair_round", "tournament": "t1", "seed": 99})
    published = {m.table: m.players for m in given.state.rounds[2].matches}
    events = given.when(correct(2, "p01", "p03", games=[0, 2], draws=0))
    corrected, *revised = events
    assert isinstance(corrected, ResultCorrected) and corrected.timing == "next_round_paired"
    assert len(revised) <= 1
    if not revised:
        pytest.skip("this seed's re-pairing happened to keep every table")
    [revision] = revised
    assert isinstance(revision, PairingsRevised)
    assert revision.round == 3 and revision.seed == 7 and "corrected" in revision.reason
    touched = {p for t in revision.replaced for p in t.players}
    assert {"p01", "p03"} <= touched
    given.apply(correct(2, "p01", "p03", games=[0, 2], draws=0))
    now = {m.table: m.players for m in given.state.rounds[2].matches}
    untouched = {t.table for t in revision.replaced}
    assert {t: p for t, p in now.items() if t not in untouched} == {
        t: p for t, p in published.items() if t not in untouched
    }
    assert sorted(p for ps in now.values() for p in ps) == sorted(PLAYERS)


def test_correction_after_the_next_round_started_leaves_pairings_standing_swu14_5_8_3() -> None:
    given = two_rounds()
    given.apply({"type": "pair_round", "tournament": "t1", "seed": 99})
    given.apply(start())
    published = [m.players for m in given.state.rounds[2].matches]
    [event] = given.when(correct(2, "p01", "p03", games=[0, 2], draws=0))
    assert isinstance(event, ResultCorrected) and event.timing == "next_round_started"
    given.apply(correct(2, "p01", "p03", games=[0, 2], draws=0))
    assert [m.players for m in given.state.rounds[2].matches] == published


def test_correction_after_the_end_needs_a_reason_swu14_5_8() -> None:
    given = Given(create(), *register("p1", "p2"), pair(["p1", "p2"]), start())
    given.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    given.apply({"type": "finish_tournament", "tournament": "t1"})
    with pytest.raises(RuleViolation, match="after finish needs a reason"):
        given.when(correct(1, "p1", "p2", reason=None, games=[0, 2], draws=0))
    [event] = given.when(correct(1, "p1", "p2", games=[0, 2], draws=0))
    assert isinstance(event, ResultCorrected) and event.timing == "after_finish"


def test_a_correction_that_changes_nothing_is_refused() -> None:
    with pytest.raises(RuleViolation, match="changes nothing"):
        two_rounds().when(correct(2, "p03", "p01", games=[0, 2], draws=0))


def test_only_a_confirmed_result_can_be_corrected() -> None:
    given = Given(create(), *register("p1", "p2"), pair(["p1", "p2"]), start())
    with pytest.raises(WrongPhase, match="no confirmed result to correct"):
        given.when(correct(1, "p1", "p2", games=[0, 2], draws=0))


def test_a_player_cannot_correct_a_result() -> None:
    command = {**correct(2, "p01", "p03", games=[0, 2], draws=0),
               "actor": {"role": "player", "id": "p03"}}  # fmt: skip
    with pytest.raises(RuleViolation, match="may not correct a result"):
        two_rounds().when(command)


def test_correction_is_recorded_with_its_actor() -> None:
    command = {**correct(2, "p01", "p03", games=[0, 2], draws=0),
               "actor": {"role": "judge", "id": "j1"}}  # fmt: skip
    [event] = two_rounds().when(command)
    assert event.actor.role == "judge" and event.actor.id == "j1"


def test_repairing_is_a_pure_function_of_log_and_seed() -> None:
    given = two_rounds()
    given.apply({"type": "pair_round", "tournament": "t1", "seed": 5})
    command = correct(2, "p01", "p03", games=[0, 2], draws=0)
    assert given.when(command) == given.when(command)
