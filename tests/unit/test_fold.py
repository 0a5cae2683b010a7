"""evolve/fold over literal event lists: facts in, state out."""

from __future__ import annotations

from typing import Any

from projections.state import fold
from tests.builders import Given, create, pair, register, report, start


def as_player(command: dict[str, Any], player: str) -> dict[str, Any]:
    return {**command, "actor": {"role": "player", "id": player}}


def started() -> Given:
    return Given(create(), *register("p1", "p2", "p3"), pair(["p1", "p2"], ["p3"]), start())


def test_fold_of_no_events_is_an_empty_tournament() -> None:
    state = fold([])
    assert not state.exists and state.stage == "registration"


def test_round_lifecycle_goes_paired_started_complete() -> None:
    given = Given(create(), *register("p1", "p2"), pair(["p1", "p2"]))
    assert given.state.current is not None and given.state.current.state == "paired"
    given.apply(start())
    assert given.state.current is not None and given.state.current.state == "started"
    given.apply(report(1, "p1", "p2", games=[2, 1], draws=0))
    assert given.state.current is not None and given.state.current.state == "complete"


def test_bye_needs_no_result() -> None:
    given = started()
    match = given.state.rounds[0].match_for("p3")
    assert match is not None and match.status == "bye"


def test_a_single_self_report_is_unconfirmed_and_does_not_count() -> None:
    given = started()
    given.apply(as_player(report(1, "p1", "p2", games=[2, 0], draws=0), "p1"))
    match = given.state.rounds[0].match_of("p1", "p2")
    assert match is not None and match.status == "unconfirmed" and match.result is None


def test_matching_self_reports_confirm_each_other_in_either_player_order() -> None:
    given = started()
    given.apply(as_player(report(1, "p1", "p2", games=[2, 0], draws=0), "p1"))
    given.apply(as_player(report(1, "p2", "p1", games=[0, 2], draws=0), "p2"))
    match = given.state.rounds[0].match_of("p1", "p2")
    assert match is not None and match.status == "confirmed"
    assert match.result is not None and match.result.games == (2, 0)


def test_conflicting_self_reports_leave_the_match_disputed_until_a_judge_reports() -> None:
    given = started()
    given.apply(as_player(report(1, "p1", "p2", games=[2, 0], draws=0), "p1"))
    given.apply(as_player(report(1, "p1", "p2", games=[0, 2], draws=0), "p2"))
    match = given.state.rounds[0].match_of("p1", "p2")
    assert match is not None and match.status == "disputed"
    judge = {**report(1, "p1", "p2", games=[2, 1], draws=0), "actor": {"role": "judge", "id": "j"}}
    given.apply(judge)
    match = given.state.rounds[0].match_of("p1", "p2")
    assert match is not None and match.status == "confirmed"
    assert match.result is not None and match.result.games == (2, 1)


def test_late_registration_is_eligible_from_the_next_round() -> None:
    given = started()
    given.apply(register("p4")[0])
    assert given.state.players["p4"].first_round == 2
    assert given.state.round1_players == 3


def test_fresh_fold_equals_incremental_state() -> None:
    given = started()
    given.apply(report(1, "p1", "p2", games=[2, 1], draws=0))
    incremental = fold(given.log[:5])
    for r in given.log[5:]:
        from projections.state import evolve

        evolve(incremental, r)
    assert incremental == fold(given.log)
