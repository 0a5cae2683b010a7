"""Ids that look the same are the same id: a command's ids are stored in Unicode NFC, an id
nobody can see (whitespace only) or that is no text (a noncharacter) is refused, and a
registration whose id reads as one registered in a log written before ids were
normalized is refused naming that one. Stored events are never checked again: a log
that holds such ids folds as it always did."""

from __future__ import annotations

from typing import Any

import pytest

from commands.errors import DuplicatePlayer, InvalidCommand
from commands.models import parse_command
from ledger.events import ORGANIZER, PlayerRegistered, RegistrationWithdrawn, TeamRegistered
from tests.builders import T0, Given, create, recorded, register

COMPOSED, DECOMPOSED = "Jos\u00e9", "Jose\u0301"
BASE: dict[str, Any] = {"tournament": "t1", "at": T0, "actor": ORGANIZER}


def registration(player: str) -> dict[str, Any]:
    return {"type": "register_player", "tournament": "t1", "player": player}


def refusal(command: dict[str, Any]) -> str:
    with pytest.raises(InvalidCommand) as caught:
        parse_command(command)
    return str(caught.value)


def with_stored(*events: Any, given: Given | None = None) -> Given:
    """A log as an older version wrote it: ``events`` appended as they are, unchecked."""
    given = given or Given(create())
    head = given.log[-1].event.hash
    given.log += recorded(list(events), start=len(given.log) + 1, prev=head)
    return given


def stored_registration(player: str) -> PlayerRegistered:
    return PlayerRegistered(**BASE, player=player)


# the forms of one id -------------------------------------------------------------


@pytest.mark.parametrize("typed", [COMPOSED, DECOMPOSED])
def test_an_id_typed_in_either_form_is_stored_composed(typed: str) -> None:
    assert parse_command(registration(typed)).player == COMPOSED  # type: ignore[union-attr]


def test_the_two_forms_of_one_id_are_one_player_twice_in_a_match() -> None:
    result = {"games": [2, 0], "draws": 0}
    command = {"type": "report_result", "tournament": "t1", "round": 1,
               "players": [COMPOSED, DECOMPOSED], "result": result}  # fmt: skip
    assert "twice; a match is two different players" in refusal(command)


def test_a_second_registration_in_the_other_form_is_the_same_player_again() -> None:
    with pytest.raises(DuplicatePlayer, match=f"'{COMPOSED}' is registered already$"):
        Given(create(), registration(DECOMPOSED)).when(registration(COMPOSED))


# ids nobody can see ------------------------------------------------------------


@pytest.mark.parametrize("blank", [" ", "   ", "\u00a0", "\u3000"])
def test_an_id_of_whitespace_only_is_refused(blank: str) -> None:
    assert refusal(registration(blank)) == ("register_player: player: must not be only whitespace")


@pytest.mark.parametrize(("char", "shown"), [("\uffff", "U+FFFF"), ("\ufffe", "U+FFFE"),
                                             ("\ufdd0", "U+FDD0"), ("\ufdef", "U+FDEF"),
                                             ("\U0001fffe", "U+1FFFE"),
                                             ("\U0010ffff", "U+10FFFF")])  # fmt: skip
def test_an_id_with_a_noncharacter_is_refused_naming_it(char: str, shown: str) -> None:
    assert refusal(registration(f"p{char}")) == (
        f"register_player: player: must not contain the noncharacter {shown}"
    )


def test_an_actor_id_with_a_noncharacter_is_refused_too() -> None:
    command = {"type": "start_round", "tournament": "t1", "actor": {"role": "player",
                                                                    "id": "p\uffff"}}  # fmt: skip
    assert refusal(command) == "start_round: actor: id must not contain the noncharacter U+FFFF"


def test_an_id_with_spaces_and_text_is_taken() -> None:
    assert parse_command(registration("Tisch 4")).player == "Tisch 4"  # type: ignore[union-attr]


# logs written before ids were normalized ------------------------------------------


def test_a_new_id_reading_as_a_stored_one_in_another_form_is_refused_naming_it() -> None:
    given = with_stored(stored_registration(DECOMPOSED))
    with pytest.raises(DuplicatePlayer) as caught:
        given.when(registration(COMPOSED))
    assert str(caught.value) == (f"player '{COMPOSED}' is registered already as 'Jose\\u0301', "
                                 "the same id in another Unicode form")  # fmt: skip
    assert caught.value.player == DECOMPOSED


def test_a_team_or_member_id_reading_as_a_stored_one_is_refused() -> None:
    given = Given(create(ruleset="lcg-2.1d", team=True))
    given = with_stored(
        TeamRegistered(**BASE, team="E\u0301", members=("a", DECOMPOSED)), given=given
    )
    for team, members in (("\u00c9", ["x1", "x2"]), ("X", ["x1", COMPOSED])):
        command = {"type": "register_team", "tournament": "t1", "team": team,
                   "members": [{"player": p} for p in members]}  # fmt: skip
        with pytest.raises(DuplicatePlayer, match="another Unicode form"):
            given.when(command)


def test_a_withdrawn_registration_frees_its_id_in_every_form() -> None:
    given = with_stored(
        stored_registration(DECOMPOSED),
        RegistrationWithdrawn(**BASE, player=DECOMPOSED, reason="typo"),
    )
    [event] = given.when(registration(COMPOSED))
    assert isinstance(event, PlayerRegistered) and event.player == COMPOSED


def test_stored_ids_are_never_checked_again_when_a_log_is_folded() -> None:
    given = with_stored(*(stored_registration(p) for p in (DECOMPOSED, " ", "p\uffff")))
    assert set(given.state.players) == {DECOMPOSED, " ", "p\uffff"}
    given.apply(register("p2")[0])
    assert "p2" in given.state.players
