"""decide() in given/when/then form: commands in, events or named errors out, no store."""

from __future__ import annotations

import pytest

from commands.errors import (
    DuplicatePlayer,
    InvalidCommand,
    RuleViolation,
    TournamentExists,
    UnknownMatch,
    UnknownPlayer,
    UnknownTournament,
    WrongPhase,
)
from ledger.events import (
    PlayerDropped,
    PlayerRegistered,
    ResultReported,
    RoundPaired,
    RoundStarted,
    TournamentCreated,
)
from tests.builders import Given, create, pair, register, report, start

FOUR = ("p1", "p2", "p3", "p4")


def running(*players: str) -> Given:
    """A tournament with players registered and round 1 paired (in order) and started."""
    tables = [list(players[i : i + 2]) for i in range(0, len(players), 2)]
    return Given(create(), *register(*players), pair(*tables), start())


def test_create_tournament_records_ruleset_defaults_and_a_seed() -> None:
    [event] = Given().when(create())
    assert isinstance(event, TournamentCreated)
    assert event.options == {"format": "bo3", "tier": "competitive", "compat": None}
    assert event.seed == 7


def test_create_tournament_takes_the_seed_option_as_the_recorded_seed() -> None:
    [event] = Given().when(create(seed=99))
    assert isinstance(event, TournamentCreated)
    assert event.seed == 99 and "seed" not in event.options


def test_second_tournament_with_the_same_id_is_refused() -> None:
    with pytest.raises(TournamentExists):
        Given(create()).when(create())


@pytest.mark.parametrize(
    ("options", "message"),
    [({"format": "bo5"}, "option 'format'"), ({"colour": "red"}, "no option 'colour'")],
)
def test_unknown_ruleset_options_are_input_errors(options: dict[str, str], message: str) -> None:
    with pytest.raises(InvalidCommand, match=message):
        Given().when(create(**options))


def test_unknown_ruleset_is_an_input_error() -> None:
    with pytest.raises(InvalidCommand, match="unknown ruleset 'chess'"):
        Given().when(create(ruleset="chess"))


def test_register_player_records_only_the_id() -> None:
    [event] = Given(create()).when(register("p1")[0])
    assert isinstance(event, PlayerRegistered)
    assert event.player == "p1" and "name" not in event.model_dump()


def test_second_registration_of_a_player_id_is_refused() -> None:
    with pytest.raises(DuplicatePlayer, match="'p1' is registered already"):
        Given(create(), *register("p1")).when(register("p1")[0])


def test_command_for_unknown_tournament_is_refused() -> None:
    with pytest.raises(UnknownTournament, match="'t9'"):
        Given().when(register("p1", t="t9")[0])


def test_report_before_pairing_is_refused_as_wrong_phase() -> None:
    given = Given(create(), *register(*FOUR))
    with pytest.raises(WrongPhase, match="round 1 is not paired"):
        given.when(report(1, "p1", "p2", games=[2, 0], draws=0))


def test_report_before_the_round_started_is_refused() -> None:
    given = Given(create(), *register(*FOUR), pair(["p1", "p2"], ["p3", "p4"]))
    with pytest.raises(WrongPhase, match="has not started"):
        given.when(report(1, "p1", "p2", games=[2, 0], draws=0))


def test_result_for_a_match_that_does_not_exist_is_refused() -> None:
    with pytest.raises(UnknownMatch, match="no match of p1 and p3"):
        running(*FOUR).when(report(1, "p1", "p3", games=[2, 0], draws=0))


def test_result_naming_an_unknown_player_is_refused() -> None:
    with pytest.raises(UnknownPlayer, match="'p9'"):
        running(*FOUR).when(report(1, "p1", "p9", games=[2, 0], draws=0))


@pytest.mark.parametrize(
    "result",
    [
        {"games": [3, 0], "draws": 0},  # swu-1.4 §4.3.2: first to two game wins
        {"games": [2, 2], "draws": 0},
        {"games": [0, 0], "draws": 0},
        {"points": [100, 20]},  # not an SWU shape
        {"games": [2, 1]},  # draws missing
    ],
)
def test_malformed_swu_bo3_result_is_an_input_error(result: dict[str, object]) -> None:
    with pytest.raises(InvalidCommand):
        running(*FOUR).when(report(1, "p1", "p2", **result))


def test_report_result_records_the_result_as_given() -> None:
    [event] = running(*FOUR).when(report(1, "p2", "p1", games=[1, 2], draws=1))
    assert isinstance(event, ResultReported)
    assert event.players == ("p2", "p1") and event.result.games == (1, 2)


def test_second_official_report_of_a_confirmed_match_points_to_correct_result() -> None:
    given = running(*FOUR)
    given.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    with pytest.raises(WrongPhase, match="use correct_result"):
        given.when(report(1, "p1", "p2", games=[0, 2], draws=0))


def test_player_may_report_only_their_own_match() -> None:
    command = report(1, "p1", "p2", games=[2, 0], draws=0)
    command["actor"] = {"role": "player", "id": "p3"}
    with pytest.raises(RuleViolation, match="only their own match"):
        running(*FOUR).when(command)


def test_next_round_cannot_be_paired_while_a_result_is_missing() -> None:
    given = running(*FOUR)
    given.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    with pytest.raises(WrongPhase, match="round 1 is not complete"):
        given.when({"type": "pair_round", "tournament": "t1"})


def test_pairing_is_refused_naming_each_waiting_table_and_its_state() -> None:
    given = running(*FOUR, "p5", "p6")
    given.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    self_report = report(1, "p3", "p4", games=[2, 0], draws=0)
    given.apply({**self_report, "actor": {"role": "player", "id": "p3"}})
    with pytest.raises(WrongPhase) as refused:
        given.when({"type": "pair_round", "tournament": "t1"})
    assert str(refused.value) == (
        "round 1 is not complete: table 2 (unconfirmed), table 3 (missing) still need a "
        "confirmed result before the next round is paired"
    )


def test_a_round_with_a_disputed_table_cannot_be_finished() -> None:
    given = running(*FOUR)
    given.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    for who, games in (("p3", [2, 0]), ("p4", [0, 2])):
        given.apply({**report(1, "p3", "p4", games=games, draws=0),
                     "actor": {"role": "player", "id": who}})  # fmt: skip
    with pytest.raises(WrongPhase, match=r"table 2 \(disputed\) still needs a confirmed result"):
        given.when({"type": "finish_tournament", "tournament": "t1"})


def test_automatic_pairing_records_seed_engine_and_tables() -> None:
    given = Given(create(), *register(*FOUR, "p5"))
    [event] = given.when({"type": "pair_round", "tournament": "t1", "seed": 5})
    assert isinstance(event, RoundPaired)
    assert event.method == "auto" and event.seed == 5 and event.engine
    assert [t.table for t in event.pairings] == [1, 2, None]
    assert sorted(p for t in event.pairings for p in t.players) == [*FOUR, "p5"]


def test_pairing_is_a_pure_function_of_log_and_seed() -> None:
    given = Given(create(), *register(*FOUR, "p5", "p6"))
    command = {"type": "pair_round", "tournament": "t1", "seed": 11}
    assert given.when(command) == given.when(command)


def test_later_rounds_avoid_rematches() -> None:
    given = running(*FOUR)
    given.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    given.apply(report(1, "p3", "p4", games=[2, 1], draws=0))
    [event] = given.when({"type": "pair_round", "tournament": "t1", "seed": 1})
    assert isinstance(event, RoundPaired)
    pairs = {frozenset(t.players) for t in event.pairings}
    assert pairs == {frozenset({"p1", "p3"}), frozenset({"p2", "p4"})}


def test_manual_pairings_must_list_every_active_player() -> None:
    given = Given(create(), *register(*FOUR))
    with pytest.raises(RuleViolation, match="missing p4"):
        given.when(pair(["p1", "p2"], ["p3"]))


def test_manual_pairings_may_not_list_a_player_twice() -> None:
    given = Given(create(), *register(*FOUR))
    with pytest.raises(InvalidCommand, match="p1 more than once"):
        given.when(pair(["p1", "p2"], ["p1", "p3"], ["p4"]))


def test_manual_pairings_number_tables_in_order_and_give_byes_no_table() -> None:
    [event] = Given(create(), *register("p1", "p2", "p3")).when(pair(["p3"], ["p2", "p1"]))
    assert isinstance(event, RoundPaired)
    assert [(t.table, t.players) for t in event.pairings] == [(None, ("p3",)), (1, ("p2", "p1"))]


def test_dropped_player_is_never_paired() -> None:
    given = Given(create(), *register(*FOUR, "p5"))
    [dropped] = given.apply({"type": "drop_player", "tournament": "t1", "player": "p5"})
    assert isinstance(dropped, PlayerDropped)
    [event] = given.when({"type": "pair_round", "tournament": "t1", "seed": 3})
    assert isinstance(event, RoundPaired)
    assert all("p5" not in t.players for t in event.pairings)


def test_start_round_twice_is_refused() -> None:
    given = running(*FOUR)
    with pytest.raises(WrongPhase, match="has started already"):
        given.when(start())


def test_start_round_records_the_round() -> None:
    [event] = Given(create(), *register(*FOUR), pair(["p1", "p2"], ["p3", "p4"])).when(start())
    assert isinstance(event, RoundStarted) and event.round == 1


def test_all_planned_rounds_paired_refuses_another_automatic_round() -> None:
    given = Given(create(rounds=1), *register(*FOUR), pair(["p1", "p2"], ["p3", "p4"]), start())
    given.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    given.apply(report(1, "p3", "p4", games=[2, 0], draws=0))
    with pytest.raises(WrongPhase, match="all 1 Swiss rounds"):
        given.when({"type": "pair_round", "tournament": "t1"})
