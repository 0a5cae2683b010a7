"""Round clocks: each ruleset's round time by stage, the
end of round and of each table from ``round_started``, extensions and deck checks
(swu-1.4 §6: time spent plus 3 minutes), byes without a clock, the LCG final without
a limit, and the status's ``over_time`` flag at a given now."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from commands.reads.clockviews import clock, late, late_at
from commands.reads.views import json_of, status
from projections.errors import InvalidOptions
from projections.rulesets import ruleset
from projections.state import TournamentState
from tests.builders import Given, create, pair, register, start

MINUTE = timedelta(minutes=1)


def running(ruleset_id: str = "swu-1.4", **options: Any) -> Given:
    """Five players, round 1 paired p1 v p2, p3 v p4, p5 a bye, and started."""
    return Given(create(ruleset=ruleset_id, **options), *register("p1", "p2", "p3", "p4", "p5"),
                 pair(["p1", "p2"], ["p3", "p4"], ["p5"]), start())  # fmt: skip


def started_at(state: TournamentState) -> datetime:
    current = state.current
    assert current is not None and current.started_at is not None
    return current.started_at


def ends(given: Given) -> dict[tuple[str, ...], datetime | None]:
    return {tuple(t.players): t.ends_at for t in clock(given.state).tables}


def deck_check(player: str, timing: str, minutes: int) -> dict[str, Any]:
    return {"type": "record_deck_check", "tournament": "t1", "player": player, "round": 1,
            "timing": timing, "outcome": "legal", "minutes": minutes}  # fmt: skip


def extend(a: str, b: str, minutes: int) -> dict[str, Any]:
    return {"type": "grant_time_extension", "tournament": "t1", "round": 1, "players": [a, b],
            "minutes": minutes}  # fmt: skip


def report(a: str, b: str, rnd: int = 1) -> dict[str, Any]:
    return {"type": "report_result", "tournament": "t1", "round": rnd, "players": [a, b],
            "result": {"games": [2, 0], "draws": 0}}  # fmt: skip


# round time per ruleset and stage ------------------------------------------------------
@pytest.mark.parametrize(
    ("ruleset_id", "options", "swiss", "elimination", "final"),
    [
        ("swu-1.4", {"format": "bo3"}, 55, 75, 75),  # §4.3.1: top cut 75
        ("swu-1.4", {"format": "bo1", "tier": "casual"}, 25, 25, 25),  # §4.2.1
        ("swu-1.0", {"format": "bo3"}, 55, 55, 55),  # §4.3.1, no longer top cut
        ("swu-1.0", {"format": "bo1"}, 25, 55, 55),  # §4.2.1; elimination is Bo3 (§4.1.3)
        ("xwing-2.0", {}, 75, 75, 120),  # "Zeitdauer einer Turnierrunde"
        ("armada-2.0", {}, 135, 135, 180),
        ("lcg-2.1d", {}, 70, 35, None),  # "Zeitlimit", "Finalrunden", "Final-Begegnung"
        ("lcg-2.1d", {"round_minutes": 60, "final_minutes": 40}, 60, 40, None),
    ],
)
def test_each_ruleset_declares_its_round_time_by_stage_and_final(
    ruleset_id: str, options: dict[str, Any], swiss: int, elimination: int, final: int | None
) -> None:
    times = ruleset(ruleset_id, options).round_time()
    assert times.minutes("swiss") == swiss
    assert times.minutes("elimination", "upper") == elimination
    assert times.minutes("elimination", "lower") == elimination
    assert times.minutes("elimination", "final") == final


@pytest.mark.parametrize(
    ("options", "message"),
    [({"round_minutes": 90}, r"'round_minutes' must be from 60 to 80 \(lcg-2.1d \"Zeitlimit\"\)"),
     ({"round_minutes": 59}, "from 60 to 80"),
     ({"final_minutes": 45}, r"'final_minutes' must be from 30 to 40 \(lcg-2.1d \"Finalrunden\"\)"),
     ({"round_minutes": "70"}, "'round_minutes' must be a int"),
     ({"round_minutes": True}, "'round_minutes' must be a int")],
)  # fmt: skip
def test_the_lcg_organizer_sets_round_times_within_the_documents_bounds_zeitlimit(
    options: dict[str, Any], message: str
) -> None:
    with pytest.raises(InvalidOptions, match=message):
        ruleset("lcg-2.1d", options)


def test_other_rulesets_have_no_round_minutes_option() -> None:
    with pytest.raises(InvalidOptions, match=r"swu-1\.4 has no option 'round_minutes'"):
        ruleset("swu-1.4", {"round_minutes": 50})


# the clock of a round -------------------------------------------------------------------
def test_a_started_round_ends_its_round_time_after_round_started_swu14_4_3_1() -> None:
    given = running()
    model = clock(given.state)
    begun = started_at(given.state)
    assert (model.round, model.stage, model.minutes) == (1, "swiss", 55)
    assert model.started_at == begun and model.ends_at == begun + 55 * MINUTE
    shown = [(t.table, t.players, t.ends_at, t.extension_minutes, t.state) for t in model.tables]
    assert shown == [(1, ["p1", "p2"], begun + 55 * MINUTE, 0, "playing"),
                     (2, ["p3", "p4"], begun + 55 * MINUTE, 0, "playing")]  # fmt: skip


def test_time_left_mid_round_is_the_end_minus_now_and_nothing_is_late_yet() -> None:
    given = running()
    model = clock(given.state)
    now = started_at(given.state) + 30 * MINUTE
    assert model.ends_at is not None and model.ends_at - now == 25 * MINUTE
    assert late(model, now) == ()


def test_a_byes_player_has_no_clock() -> None:
    assert all("p5" not in t.players for t in clock(running().state).tables)


def test_a_deck_check_during_the_match_extends_that_table_by_its_minutes_plus_3_swu14_6() -> None:
    given = running()
    given.apply(deck_check("p2", "between_games", 6))
    begun = started_at(given.state)
    assert ends(given) == {("p1", "p2"): begun + (55 + 6 + 3) * MINUTE,
                           ("p3", "p4"): begun + 55 * MINUTE}  # fmt: skip
    table = clock(given.state).tables[0]
    assert table.extension_minutes == 9
    assert clock(given.state).ends_at == begun + 55 * MINUTE  # the round's own clock stays


def test_a_deck_check_after_the_match_adds_no_time_swu14_6() -> None:
    given = running()
    given.apply(report("p1", "p2"))
    given.apply(deck_check("p1", "after_match", 6))
    assert clock(given.state).tables[0].extension_minutes == 0


def test_deck_checks_and_extensions_add_up_on_one_table() -> None:
    given = running()
    given.apply(deck_check("p1", "before_game_1", 2))
    given.apply(extend("p2", "p1", 5))
    begun = started_at(given.state)
    assert ends(given)[("p1", "p2")] == begun + (55 + 2 + 3 + 5) * MINUTE
    assert clock(given.state).tables[0].extension_minutes == 10


def test_a_time_extension_moves_only_its_tables_end() -> None:
    given = running()
    given.apply(extend("p3", "p4", 7))
    begun = started_at(given.state)
    assert ends(given) == {("p1", "p2"): begun + 55 * MINUTE, ("p3", "p4"): begun + 62 * MINUTE}


def test_a_round_paired_but_not_started_has_no_times() -> None:
    given = Given(create(), *register("p1", "p2"), pair(["p1", "p2"]))
    model = clock(given.state)
    assert (model.round, model.started_at, model.ends_at, model.minutes) == (1, None, None, 55)
    assert model.tables[0].ends_at is None


def test_before_any_round_the_clock_is_empty() -> None:
    model = json_of(clock(Given(create(), *register("p1", "p2")).state))
    assert model == {"round": 0, "started_at": None, "ends_at": None, "tables": [],
                     "stage": None, "minutes": None, "section": "", "seq": 3}  # fmt: skip


def test_an_earlier_round_keeps_its_clock() -> None:
    given = running()
    given.apply(report("p1", "p2"))
    given.apply(report("p3", "p4"))
    first = started_at(given.state)
    given.apply(pair(["p1", "p3"], ["p2", "p5"], ["p4"]))
    assert clock(given.state).started_at is None
    assert clock(given.state, 1).ends_at == first + 55 * MINUTE


def test_the_clock_json_has_the_contracts_keys_first() -> None:
    data = json_of(clock(running().state))
    assert list(data)[:4] == ["round", "started_at", "ends_at", "tables"]
    assert list(data["tables"][0]) == ["table", "players", "ends_at", "extension_minutes",
                                       "state"]  # fmt: skip
    assert data["started_at"].endswith("Z") and data["tables"][0]["ends_at"].endswith("Z")


# status flags tables over time ----------------------------------------------------------
def test_status_flags_only_the_tables_still_playing_after_their_time() -> None:
    given = running()
    given.apply(extend("p3", "p4", 10))
    now = started_at(given.state) + 56 * MINUTE
    tables = json_of(status(given.state, late=late_at(given.state, now)))["tables"]
    assert tables == [
        {"table": 1, "players": ["p1", "p2"], "state": "missing", "over_time": True},
        {"table": 2, "players": ["p3", "p4"], "state": "missing"},
        {"table": None, "players": ["p5"], "state": "confirmed"},
    ]


def test_a_confirmed_match_is_finished_and_never_over_time() -> None:
    given = running()
    given.apply(report("p1", "p2"))
    now = started_at(given.state) + 80 * MINUTE
    assert clock(given.state).tables[0].state == "finished"
    assert late_at(given.state, now) == (("p3", "p4"),)


def test_nothing_is_over_time_in_a_round_not_started() -> None:
    given = Given(create(), *register("p1", "p2"), pair(["p1", "p2"]))
    assert late_at(given.state, datetime.max.replace(tzinfo=UTC)) == ()
