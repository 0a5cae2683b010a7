"""Pasted lists of players and teams (commands/text/pasted.py and its two readers): the
ids given follow the highest in use, and a paste is bounded in lines."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from commands.errors import InvalidCommand
from commands.text.pasted import MAX_LINES, SeatNumbers, next_numbered
from commands.text.pasted_players import pasted_rows
from commands.text.pasted_teams import pasted_teams


def test_names_get_the_ids_after_the_highest_in_use_and_a_named_id_moves_them_on() -> None:
    rows = pasted_rows("Ada\np10,Bo\nCid\np2,Dee\nEli", "t1", ["p3", "team9", "x7"])
    assert [r.command.player for r in rows] == ["p4", "p10", "p11", "p2", "p12"]


def test_teams_and_their_members_are_numbered_apart() -> None:
    rows = pasted_teams("Rebels; Ada; Bo\nRogues; Cid; Dee", "t1", ["team2", "p5"])
    assert [(r.command.team, [m.player for m in r.command.members]) for r in rows] == [
        ("team3", ["p6", "p7"]), ("team4", ["p8", "p9"])
    ]  # fmt: skip


def test_the_next_free_id_is_one_past_the_highest_of_its_kind() -> None:
    assert next_numbered("p", []) == "p1"
    assert next_numbered("team", ["team1", "p7", "team12x"]) == "team2"
    seats = SeatNumbers("p", ["p1"])
    assert (seats.give(), seats.give(), seats.free) == ("p2", "p3", "p4")


@pytest.mark.parametrize(
    ("read", "line"), [(pasted_rows, "Ada"), (pasted_teams, "Rebels; Ada; Bo")]
)
def test_a_paste_of_more_lines_than_the_bound_is_refused_before_a_line_is_read(
    read: Callable[[str, str, list[str]], object], line: str
) -> None:
    text = "\n".join([line] * (MAX_LINES + 1))
    with pytest.raises(InvalidCommand, match="a paste holds at most 10,000 lines"):
        read(text, "t1", [])
