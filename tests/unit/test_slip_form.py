"""The slip report page's read model and form: the match as it stands, the
result's shape per ruleset, and the form's fields turned into the contract's command
and back."""

from __future__ import annotations

from typing import Any

import pytest

from commands.errors import InvalidCommand
from commands.reads.papermodels import MatchSlip, ReportForm
from commands.reads.slipmatch import SlipMatchGone, match_slip, report_form
from commands.roles import Forbidden
from commands.text.slipform import command_of, fields_of, result_of
from ledger.events import Actor
from projections.rulesets import ruleset
from tests.builders import Given, create, pair, register, report, start

NAMES = {"p1": "Ada", "p2": "Ben", "p3": "Cyra", "p4": "Dov"}


def as_player(command: dict[str, Any], player: str) -> dict[str, Any]:
    return {**command, "actor": {"role": "player", "id": player}}


def slip_after(*reports: dict[str, Any], ruleset_id: str = "swu-1.4") -> MatchSlip:
    given = Given(create(ruleset=ruleset_id), *register("p1", "p2", "p3", "p4"),
                  pair(["p1", "p2"], ["p3", "p4"]), start(), *reports)  # fmt: skip
    return match_slip(given.state, 1, ("p1", "p2"), NAMES)


@pytest.mark.parametrize(("ruleset_id", "options", "stage", "form"), [
    ("swu-1.4", {}, "swiss", ReportForm(kind="games", max_wins=2, max_draws=3)),
    ("swu-1.4", {"format": "bo1"}, "swiss", ReportForm(kind="games", max_wins=1, max_draws=1)),
    ("swu-1.4", {}, "elimination", ReportForm(kind="games", max_wins=2, max_draws=3, tie="table")),
    ("swu-1.0", {"format": "bo1"}, "elimination",
     ReportForm(kind="games", max_wins=2, max_draws=3, tie="table")),
    ("xwing-2.0", {"squad_points": 200}, "swiss",
     ReportForm(kind="points", max_points=200, tie="final_salvo")),
    ("xwing-2.0", {}, "elimination", ReportForm(kind="points", tie="final_salvo")),
    ("armada-2.0", {}, "swiss", ReportForm(kind="points", tie="second_player")),
    ("lcg-2.1d", {}, "swiss", ReportForm(kind="game_results", games=2, game_draws=True)),
    ("lcg-2.1d", {}, "elimination", ReportForm(kind="game_results", games=1)),
])  # fmt: skip
def test_the_form_takes_the_result_in_the_ruleset_shape(
    ruleset_id: str, options: dict[str, Any], stage: Any, form: ReportForm
) -> None:
    assert report_form(ruleset(ruleset_id, options), stage) == form


def test_a_match_without_reports_is_missing_and_names_only_its_players() -> None:
    slip = slip_after()
    assert (slip.state, slip.awaiting, slip.reports, slip.result) == ("missing", None, [], None)
    assert (slip.round, slip.table, slip.players, slip.event) == (1, 1, ["p1", "p2"], "Test")
    assert slip.names == {"p1": "Ada", "p2": "Ben"}
    assert slip.round_started and not slip.finished


def test_one_self_report_waits_for_the_opponent() -> None:
    slip = slip_after(as_player(report(1, "p2", "p1", games=[1, 2], draws=0), "p2"))
    assert (slip.state, slip.awaiting) == ("unconfirmed", "p1")
    assert [(r.player, r.result) for r in slip.reports] == [
        ("p2", {"games": [2, 1], "draws": 0})], "turned to the match's player order"  # fmt: skip


def test_differing_self_reports_are_disputed_and_an_official_confirms() -> None:
    first = as_player(report(1, "p1", "p2", games=[2, 1], draws=0), "p1")
    second = as_player(report(1, "p1", "p2", games=[1, 2], draws=0), "p2")
    slip = slip_after(first, second)
    assert (slip.state, slip.awaiting, len(slip.reports)) == ("disputed", None, 2)
    judged = slip_after(first, second, {**report(1, "p1", "p2", games=[1, 2], draws=0),
                                        "actor": {"role": "judge", "id": "j1"}})  # fmt: skip
    assert (judged.state, judged.result) == ("confirmed", {"games": [1, 2], "draws": 0})
    assert [r.player for r in judged.reports] == ["p1", "p2"], "the judge made no self-report"


def test_a_match_that_is_no_longer_paired_has_no_slip() -> None:
    given = Given(create(), *register("p1", "p2"), pair(["p1", "p2"]))
    with pytest.raises(SlipMatchGone):
        match_slip(given.state, 1, ("p1", "p3"), NAMES)
    with pytest.raises(SlipMatchGone):
        match_slip(given.state, 2, ("p1", "p2"), NAMES)


def test_the_form_becomes_a_player_report_of_the_slip_match() -> None:
    slip = slip_after()
    command = command_of({"player": "p2", "games_0": "2", "games_1": "0", "draws": "1",
                          "nonce": "00112233aabbccdd"}, slip)  # fmt: skip
    assert (command.tournament, command.round, command.players) == ("t1", 1, ("p1", "p2"))
    assert command.actor == Actor(role="player", id="p2")
    assert command.result.games == (2, 0) and command.result.draws == 1
    assert command.command_id == "slip-00112233aabbccdd"
    assert command_of({"player": "p1", **dict.fromkeys(("games_0", "games_1"), "1"),
                       "nonce": "<script>"}, slip).command_id is None  # fmt: skip


@pytest.mark.parametrize(("fields", "error", "message"), [
    ({"games_0": "2", "games_1": "1"}, InvalidCommand, "player: say which"),
    ({"player": "p3", "games_0": "2", "games_1": "1"}, Forbidden, "only its own match"),
    ({"player": "p1", "games_0": "2"}, InvalidCommand, "games_1: must be a whole number"),
    ({"player": "p1", "games_0": "-1", "games_1": "2"}, InvalidCommand, "games_0"),
    ({"player": "p1", "games_0": "2", "games_1": "1", "draws": "x"}, InvalidCommand, "draws"),
])  # fmt: skip
def test_a_form_that_says_too_little_is_refused_naming_the_field(
    fields: dict[str, str], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        command_of(fields, slip_after())


def test_a_level_result_names_its_winner_only_where_the_ruleset_takes_one() -> None:
    swu = slip_after()
    level = {"games_0": "1", "games_1": "1", "draws": "1", "winner": "p2"}
    assert result_of(level, swu) == {"games": [1, 1], "draws": 1}, "Swiss: a drawn match"
    table = swu.model_copy(update={"form": ReportForm(kind="games", max_wins=2, max_draws=3,
                                                      tie="table")})  # fmt: skip
    with pytest.raises(InvalidCommand, match="decided_by"):
        result_of(level, table)
    assert result_of({**level, "decided_by": "initiative"}, table) == {
        "games": [1, 1], "draws": 1, "winner": "p2", "decided_by": "initiative"}  # fmt: skip
    armada = slip_after(ruleset_id="armada-2.0")
    assert result_of({"points_0": "80", "points_1": "80", "winner": "p1"}, armada) == {
        "points": [80, 80], "winner": "p1"}  # fmt: skip
    assert result_of({"points_0": "90", "points_1": "80", "winner": "p1"}, armada) == {
        "points": [90, 80]}  # fmt: skip


@pytest.mark.parametrize(("ruleset_id", "result"), [
    ("swu-1.4", {"games": [2, 1], "draws": 0}),
    ("swu-1.4", {"no_show": "p2"}),
    ("xwing-2.0", {"points": [40, 40], "winner": "p1", "decided_by": "final_salvo"}),
    ("xwing-2.0", {"points": [100, 35]}),
    ("armada-2.0", {"points": [120, 120], "winner": "p2"}),
    ("lcg-2.1d", {"game_results": ["p2", "draw"]}),
])  # fmt: skip
def test_a_reported_result_becomes_the_fields_that_report_it_again(
    ruleset_id: str, result: dict[str, Any]
) -> None:
    slip = slip_after(ruleset_id=ruleset_id)
    fields = fields_of(result, slip)
    assert fields is not None
    assert result_of(fields, slip) == result


def test_a_result_the_form_cannot_say_gets_no_one_tap_confirmation() -> None:
    xwing = slip_after(ruleset_id="xwing-2.0")
    assert fields_of({"points": [30, 100], "concession": "p1"}, xwing) is None
    assert fields_of({"intentional_draw": True}, slip_after()) is None
