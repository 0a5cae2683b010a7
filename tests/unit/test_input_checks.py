"""Input the record must never hold: checked in the command models, so that the CLI and
the HTTP API refuse it alike (InvalidCommand: exit 2, HTTP 422) before anything is
decided or appended."""

from __future__ import annotations

from typing import Any

import pytest

from commands.errors import InvalidCommand
from commands.models import MAX_DEPTH, nested_deeper, parse_command
from tests.builders import Given, create, pair, register, report, start

RESULT = {"games": [2, 0], "draws": 0}


def with_bye() -> Given:
    """Round 1 started with p1 v p2 and a bye for p3."""
    return Given(create(), *register("p1", "p2", "p3"), pair(["p1", "p2"], ["p3"]), start())


def match_command(kind: str, players: list[str]) -> dict[str, Any]:
    command: dict[str, Any] = {"type": kind, "tournament": "t1", "round": 1, "players": players}
    if kind == "grant_time_extension":
        return command | {"minutes": 5}
    if kind == "correct_result":
        return command | {"result": RESULT, "reason": "slip filled in reverse"}
    return command | {"result": RESULT}


def refusal(command: dict[str, Any]) -> str:
    with pytest.raises(InvalidCommand) as caught:
        parse_command(command)
    return str(caught.value)


# the same player twice -------------------------------------------------------


@pytest.mark.parametrize("kind", ["report_result", "correct_result", "grant_time_extension"])
def test_a_match_command_naming_one_player_twice_is_refused_naming_the_player(kind: str) -> None:
    message = refusal(match_command(kind, ["p3", "p3"]))
    assert message == f"{kind}: players: names 'p3' twice; a match is two different players"


def test_a_result_for_a_bye_is_refused_as_input_and_never_reaches_the_round() -> None:
    given = with_bye()
    with pytest.raises(InvalidCommand, match="'p3' twice"):
        given.apply(report(1, "p3", "p3", games=[2, 0], draws=0))
    given.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    assert given.state.current is not None and given.state.current.state == "complete"


def test_the_refusal_is_input_that_does_not_fit_the_contract() -> None:
    assert (InvalidCommand.exit_code, InvalidCommand.http_status) == (2, 422)


def test_two_different_players_still_make_a_match() -> None:
    command = parse_command(match_command("report_result", ["p1", "p2"]))
    assert command.players == ("p1", "p2")  # type: ignore[union-attr]


# printable ids -----------------------------------------------------------------

UNPRINTABLE = {
    "\x00": "U+0000 NUL",
    "\n": "U+000A LINE FEED",
    "\r": "U+000D CARRIAGE RETURN",
    "\t": "U+0009 TAB",
    "\x1b": "U+001B ESCAPE",
    "\x85": "U+0085 CONTROL CHARACTER",
    "\u200e": "U+200E LEFT-TO-RIGHT MARK",
    "\u200f": "U+200F RIGHT-TO-LEFT MARK",
    "\u202a": "U+202A LEFT-TO-RIGHT EMBEDDING",
    "\u202e": "U+202E RIGHT-TO-LEFT OVERRIDE",
    "\u2066": "U+2066 LEFT-TO-RIGHT ISOLATE",
    "\u2069": "U+2069 POP DIRECTIONAL ISOLATE",
    "\u200b": "U+200B ZERO WIDTH SPACE",
    "\ufeff": "U+FEFF ZERO WIDTH NO-BREAK SPACE",
    "\u2028": "U+2028 LINE SEPARATOR",
}


def id_field(where: str, value: str) -> tuple[dict[str, Any], str]:
    """A command with ``value`` as the id at ``where``, and the location the error names."""
    base: dict[str, Any] = {"tournament": "t1"}
    if where == "tournament":
        return {"type": "start_round", "tournament": value}, "tournament"
    if where == "player":
        return {"type": "register_player", **base, "player": value}, "player"
    if where == "command_id":
        return {"type": "start_round", **base, "command_id": value}, "command_id"
    if where == "players":
        return match_command("report_result", ["p1", value]), "players.1"
    if where == "pairings":
        return {"type": "pair_round", **base, "pairings": [["p1", value]]}, "pairings.0.1"
    if where == "avoid":
        return {"type": "pair_round", **base, "avoid": [[value, "p2"]]}, "avoid.0.0"
    actor = {"role": "player", "id": value}
    return {"type": "start_round", **base, "actor": actor}, "actor"


ID_FIELDS = ["tournament", "player", "command_id", "players", "pairings", "avoid", "actor"]


@pytest.mark.parametrize("where", ID_FIELDS)
@pytest.mark.parametrize("char", list(UNPRINTABLE))
def test_an_id_with_a_control_or_format_character_is_refused_naming_it(
    where: str, char: str
) -> None:
    command, loc = id_field(where, f"p{char}9")
    message = refusal(command)
    what = "id must" if where == "actor" else "must"
    assert message.endswith(f"{loc}: {what} be printable (contains {UNPRINTABLE[char]})")
    assert "\n" not in message


def test_a_right_to_left_override_in_a_player_id_is_refused_naming_the_character() -> None:
    command = {"type": "register_player", "tournament": "t1", "player": "p\u202e1"}
    assert refusal(command) == (
        "register_player: player: must be printable (contains U+202E RIGHT-TO-LEFT OVERRIDE)"
    )


@pytest.mark.parametrize("where", ID_FIELDS)
def test_ids_keep_their_maximum_length_of_200(where: str) -> None:
    parse_command(id_field(where, "p" * 200)[0])
    message = refusal(id_field(where, "p" * 201)[0])
    assert "at most 200 characters" in message


@pytest.mark.parametrize("value", ["p-1", "Tisch 4", "Zoë", "席1", "seat#12"])
def test_printable_ids_in_any_script_are_taken(value: str) -> None:
    command = parse_command({"type": "register_player", "tournament": "t1", "player": value})
    assert command.player == value  # type: ignore[union-attr]


# names -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["Ada Lovelace", "Zoë O'Brien", "דוד\u200f", "👩\u200d🚀 Pilot", "李小龍", "Ana\u00a0María"],
)
def test_a_name_may_hold_any_printable_text(name: str) -> None:
    command = parse_command(register("p1")[0] | {"name": name})
    assert command.name == name  # type: ignore[union-attr]


@pytest.mark.parametrize(("char", "shown"), [("\x00", "U+0000 NUL"), ("\n", "U+000A LINE FEED"),
                                             ("\r", "U+000D CARRIAGE RETURN"),
                                             ("\u2029", "U+2029 PARAGRAPH SEPARATOR")])  # fmt: skip
def test_a_name_with_a_control_character_is_refused(char: str, shown: str) -> None:
    message = refusal(register("p1")[0] | {"name": f"Ada{char}Evil"})
    assert message == f"register_player: name: must be printable (contains {shown})"


@pytest.mark.parametrize(
    ("name", "problem"),
    [("Ada\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE is never closed"),
     ("\u2067Ada", "U+2067 RIGHT-TO-LEFT ISOLATE is never closed"),
     ("Ada\u202c", "U+202C POP DIRECTIONAL FORMATTING closes nothing opened before it"),
     ("Ada\u2069", "U+2069 POP DIRECTIONAL ISOLATE closes nothing opened before it"),
     ("\u2067Ada\u202c", "U+202C POP DIRECTIONAL FORMATTING closes nothing opened before it"),
     ("\u202bAda\u2069\u202c", "U+2069 POP DIRECTIONAL ISOLATE closes nothing opened before it"),
     ("\u202a\u2066Ada\u202c", "U+202C POP DIRECTIONAL FORMATTING closes nothing opened before it"),
     ("\u202d\u202eAda\u202c", "U+202D LEFT-TO-RIGHT OVERRIDE is never closed")],
)  # fmt: skip
def test_a_name_that_leaves_a_text_direction_open_is_refused(name: str, problem: str) -> None:
    message = refusal(register("p1")[0] | {"name": name})
    assert message == f"register_player: name: must close every text direction it opens ({problem})"


@pytest.mark.parametrize(
    "name", ["\u202bדוד\u202c", "\u2067דוד\u2069 Ada", "\u202e\u2066Ada\u2069\u202c", "a\u200fb"]
)
def test_a_name_that_closes_every_direction_it_opens_is_taken(name: str) -> None:
    command = parse_command(register("p1")[0] | {"name": name})
    assert command.name == name  # type: ignore[union-attr]


@pytest.mark.parametrize("kind", ["tournament", "team", "member"])
def test_every_name_must_close_the_directions_it_opens(kind: str) -> None:
    members = [{"player": "a1"}, {"player": "a2"}]
    command: dict[str, Any] = {"type": "register_team", "tournament": "t1", "team": "A",
                               "name": "A", "members": members}  # fmt: skip
    if kind == "tournament":
        command, where = create() | {"name": "Cup \u202e"}, "name"
    elif kind == "team":
        command, where = command | {"name": "A\u2068"}, "name"
    else:
        members[1]["name"] = "\u202bB"
        where = "members.1.name"
    assert f"{where}: must close every text direction it opens" in refusal(command)


def test_a_tournament_name_with_a_control_character_is_refused() -> None:
    message = refusal(create() | {"name": "Store\tShowdown"})
    assert message == "create_tournament: name: must be printable (contains U+0009 TAB)"


def test_an_external_id_with_a_control_character_is_refused() -> None:
    message = refusal(register("p1")[0] | {"external_id": "UID\n123"})
    assert message.endswith("external_id: must be printable (contains U+000A LINE FEED)")


@pytest.mark.parametrize(
    ("command", "field"),
    [({"type": "drop_player", "tournament": "t1", "player": "p1"}, "reason"),
     ({"type": "disqualify_player", "tournament": "t1", "player": "p1"}, "reason"),
     ({"type": "issue_penalty", "tournament": "t1", "player": "p1", "round": 1,
       "penalty": "warning"}, "infraction")],
)  # fmt: skip
def test_free_text_the_log_keeps_is_one_printable_line(command: dict[str, str], field: str) -> None:
    message = refusal(command | {field: "slow\x1b[2Jplay"})
    assert message.endswith(f"{field}: must be printable (contains U+001B ESCAPE)")


# nesting -----------------------------------------------------------------------


def nested(depth: int) -> Any:
    """A JSON value ``depth`` levels deep (a list at each level)."""
    value: Any = []
    for _ in range(depth - 1):
        value = [value]
    return value


def test_nesting_is_measured_in_levels_of_objects_and_arrays() -> None:
    assert not nested_deeper({"a": nested(3)}, 4)
    assert nested_deeper({"a": nested(4)}, 4)
    assert not nested_deeper("text", 0) and not nested_deeper(7, 0)


def test_a_command_nested_deeper_than_the_limit_is_refused_before_validation() -> None:
    command = create() | {"options": {"format": nested(MAX_DEPTH)}}
    assert refusal(command) == f"create_tournament: JSON nested deeper than {MAX_DEPTH} levels"


def test_a_command_within_the_limit_reaches_the_ruleset() -> None:
    with pytest.raises(InvalidCommand, match="option 'format' must be one of"):
        Given().when(create() | {"options": {"format": nested(MAX_DEPTH - 2)}})


def test_nesting_far_beyond_the_recursion_limit_is_refused_without_recursion() -> None:
    assert refusal({"type": "nope", "x": nested(100_000)}).startswith("JSON nested deeper")
