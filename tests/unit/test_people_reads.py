"""The people reads (commands/reads/roster.py, commands/reads/history.py) and the names commands
accept (commands/models.py): the players list sorted as people read it and searched,
a history with time extensions and drops, blank names refused, names stripped."""

from __future__ import annotations

from typing import Any

import pytest

from commands.cli.people_grids import shown_result
from commands.errors import InvalidCommand
from commands.models import parse_command
from commands.reads import roster, views
from commands.reads.cache import Query, build
from commands.reads.history import player_history
from tests.builders import Given, create, pair, register, report, start

NAMES = {"p1": "Fay", "p2": "Élan", "p3": "dana", "p4": "Bail", "p5": "Anna Berg",
         "p6": "Anna Berg"}  # fmt: skip
WON: dict[str, Any] = {"games": [2, 0], "draws": 0}


def event(*commands: dict[str, Any]) -> Given:
    """Six players, round 1 p1-p2, p3-p4, p5-p6 paired and started; then ``commands``."""
    return Given(create(), *register(*NAMES), pair(["p1", "p2"], ["p3", "p4"], ["p5", "p6"]),
                 start(), *commands)  # fmt: skip


def test_players_are_sorted_as_people_read_their_names() -> None:
    model = roster.players(event().state, NAMES)
    assert [(r.name, r.player) for r in model.players] == [
        ("Anna Berg", "p5"), ("Anna Berg", "p6"), ("Bail", "p4"), ("dana", "p3"),
        ("Élan", "p2"), ("Fay", "p1")]  # fmt: skip


def test_each_player_says_whether_they_still_play() -> None:
    given = event(
        {"type": "drop_player", "tournament": "t1", "player": "p3"},
        {"type": "disqualify_player", "tournament": "t1", "player": "p4", "reason": "cheating"},
    )  # fmt: skip
    status = {r.player: r.status for r in roster.players(given.state, NAMES).players}
    assert status == {"p1": "active", "p2": "active", "p3": "dropped", "p4": "disqualified",
                      "p5": "active", "p6": "active"}  # fmt: skip


def test_a_search_keeps_only_the_players_it_finds() -> None:
    state = event().state
    assert [r.player for r in roster.players(state, NAMES, "ELAN").players] == ["p2"]
    assert [r.player for r in roster.players(state, NAMES, "berg").players] == ["p5", "p6"]
    assert [r.player for r in roster.players(state, NAMES, "p1").players] == ["p1"]
    assert roster.players(state, NAMES, "nobody").players == []


def test_the_players_json_holds_names_as_standings_do_and_no_external_id() -> None:
    state = event().state
    names = {p: n for p, n in NAMES.items() if p != "p1"}  # p1 erased
    data = views.json_of(roster.players(state, names, "p1"))
    row = {"player": "p1", "name": "(erased)", "status": "active"}
    assert data == {"tournament": "t1", "seq": state.seq, "head": state.head, "players": [row]}


def test_the_read_side_builds_the_players_list_for_its_search() -> None:
    state = event().state
    model = build(state, Query("players", search="fay"), NAMES)
    assert model == roster.players(state, NAMES, "fay")
    assert Query("players", search="fay").key != Query("players").key != Query("player").key


def test_a_history_shows_the_time_extensions_of_the_players_matches() -> None:
    given = event(
        {"type": "grant_time_extension", "tournament": "t1", "round": 1, "players": ["p2", "p1"],
         "minutes": 5, "reason": "judge call"},
        {"type": "grant_time_extension", "tournament": "t1", "round": 1, "players": ["p1", "p2"],
         "minutes": 3},
        {"type": "grant_time_extension", "tournament": "t1", "round": 1, "players": ["p3", "p4"],
         "minutes": 7},
    )  # fmt: skip
    history = player_history(given.state, "p1", NAMES)
    assert [(x.round, x.minutes, x.reason) for x in history.extensions] == [
        (1, 5, "judge call"), (1, 3, None)]  # fmt: skip
    assert history.extensions[0].at == given.log[-3].event.at
    assert [x.minutes for x in player_history(given.state, "p4", NAMES).extensions] == [7]


def test_a_history_shows_each_drop_with_its_round_and_reason() -> None:
    won = {"points": [100, 40]}  # X-Wing lets a dropped player rejoin
    given = Given(
        create(ruleset="xwing-2.0"), *register("p1", "p2", "p3", "p4"),
        pair(["p1", "p2"], ["p3", "p4"]), start(),
        report(1, "p1", "p2", **won), report(1, "p3", "p4", **won),
        {"type": "drop_player", "tournament": "t1", "player": "p2", "reason": "feeling ill"},
        {"type": "rejoin_player", "tournament": "t1", "player": "p2"},
        {"type": "pair_round", "tournament": "t1", "seed": 1},
        {"type": "drop_player", "tournament": "t1", "player": "p2"},
    )  # fmt: skip
    history = player_history(given.state, "p2", NAMES)
    assert [(d.after_round, d.reason) for d in history.drops] == [(1, "feeling ill"), (2, None)]
    dropped = [r.event.at for r in given.log if r.event.type == "player_dropped"]
    assert [d.at for d in history.drops] == dropped
    assert history.dropped and history.dropped_after_round == 2
    assert history.rejoined_in_rounds == [2]
    assert player_history(given.state, "p1", NAMES).drops == []


def test_a_history_adds_its_new_fields_after_the_old_ones() -> None:
    fields = list(views.json_of(player_history(event().state, "p1", NAMES)))
    assert fields[-5:] == ["penalties", "deck_checks", "extensions", "drops",
                           "reinstated_in_rounds"]  # fmt: skip
    assert fields[:3] == ["tournament", "player", "name"]


@pytest.mark.parametrize("name", ["", "   ", "\u00a0", "\u200b", " \u2003 "])
def test_a_blank_name_is_refused_for_a_player_and_a_tournament(name: str) -> None:
    with pytest.raises(InvalidCommand, match=r"^register_player: name: must not be blank$"):
        parse_command({"type": "register_player", "tournament": "t1", "player": "p1",
                       "name": name})  # fmt: skip
    with pytest.raises(InvalidCommand, match=r"^create_tournament: name: must not be blank$"):
        parse_command({"type": "create_tournament", "tournament": "t1", "name": name,
                       "ruleset": "swu-1.4"})  # fmt: skip


def test_a_names_leading_and_trailing_spaces_are_stripped() -> None:
    command = parse_command({"type": "register_player", "tournament": "t1", "player": "p1",
                             "name": "  Ada Lovelace "})  # fmt: skip
    assert getattr(command, "name", None) == "Ada Lovelace"
    created = Given().when(create() | {"name": " Weekly "})
    assert getattr(created[0], "name", None) == "Weekly"


def test_a_result_in_a_history_reads_as_people_say_it() -> None:
    assert shown_result(None) == "-"
    assert shown_result({"games": [2, 1], "draws": 0}) == "2-1"
    assert shown_result({"games": [1, 1], "draws": 1, "winner": "p2", "decided_by": "base_hp"}) == (
        "1-1, 1 drawn, won by p2, decided by base_hp")  # fmt: skip
    assert shown_result({"points": [140, 84]}) == "140-84 pts"
    assert shown_result({"intentional_draw": True}) == "intentional draw"
    assert shown_result({"game_results": ["p1", "draw"]}) == "games p1 draw"
    assert shown_result({"something_new": 1}) == "something_new=1"
