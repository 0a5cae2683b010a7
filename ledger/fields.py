"""The fields commands are made of: ids, names and free text that the record may hold.
Input the record must never hold is refused here, so the CLI, ``apply`` and the HTTP
API refuse it alike: ids that are not short and printable, names that
break a line, a match naming one player twice.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated

from pydantic import AfterValidator, Field
from pydantic_core import PydanticCustomError

from ledger.events import Actor

#: Deeper JSON than this is refused before validation: no command of the contract
#: nests more than a few levels, and deep data only costs stack and time.
MAX_DEPTH = 64
MAX_ID = 200
#: Unicode categories an id may not contain: controls (NUL, line breaks, tabs),
#: format characters (bidirectional overrides, isolates and marks, zero-width
#: characters), surrogates and line or paragraph separators. An id is printed in
#: pairings, logs and error lines, and one of these would make two ids look alike
#: or reorder what a terminal or a printout shows.
NOT_IN_IDS = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
#: Names may hold any printable text (a zero-width joiner in an emoji, a
#: right-to-left mark in a name written in Hebrew) but nothing that breaks a line.
NOT_IN_NAMES = frozenset({"Cc", "Cs", "Zl", "Zp"})
CONTROL_NAMES = {0x00: "NUL", 0x09: "TAB", 0x0A: "LINE FEED", 0x0D: "CARRIAGE RETURN",
                 0x1B: "ESCAPE", 0x7F: "DELETE"}  # fmt: skip


def character(ch: str) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE``: a character named so that a reader can find it."""
    name = unicodedata.name(ch, "") or CONTROL_NAMES.get(ord(ch), "CONTROL CHARACTER")
    return f"U+{ord(ch):04X} {name}"


def refuse_categories(value: str, categories: frozenset[str]) -> str:
    bad = next((ch for ch in value if unicodedata.category(ch) in categories), None)
    if bad is not None:
        raise PydanticCustomError(
            "not_printable", "must be printable (contains {character})",
            {"character": character(bad)},
        )  # fmt: skip
    return value


def printable_id(value: str) -> str:
    """Ids are short and printable, so that what is shown is what is stored."""
    return refuse_categories(value, NOT_IN_IDS)


def printable_text(value: str) -> str:
    """Free text (names) may be any printable text on one line."""
    return refuse_categories(value, NOT_IN_NAMES)


def not_blank(value: str) -> str:
    """A name is what people see on pairings and standings, so one with nothing to see
    is refused: empty, only whitespace, or only invisible format characters (a
    zero-width space). Leading and trailing whitespace is stripped (a spreadsheet cell's
    stray spaces): the name stored is the name shown, and " Ada" finds "Ada"."""
    stripped = value.strip()
    if all(ch.isspace() or unicodedata.category(ch) == "Cf" for ch in stripped):
        raise PydanticCustomError("blank", "must not be blank")
    return stripped


def printable_actor(actor: Actor) -> Actor:
    """The actor's id is an id like any other (``Actor`` itself lives in the record)."""
    if len(actor.id) > MAX_ID:
        raise PydanticCustomError(
            "string_too_long", "id should have at most {max_length} characters",
            {"max_length": MAX_ID},
        )  # fmt: skip
    try:
        printable_id(actor.id)
    except PydanticCustomError as exc:
        raise PydanticCustomError("not_printable", "id {message}",
                                  {"message": exc.message()}) from None  # fmt: skip
    return actor


def two_players(players: tuple[str, str]) -> tuple[str, str]:
    """A match has two different players: the same id twice names a bye, which has no
    result to report or correct and no clock to extend."""
    if players[0] == players[1]:
        raise PydanticCustomError(
            "same_player", "names {player} twice; a match is two different players",
            {"player": repr(players[0])},
        )  # fmt: skip
    return players


Id = Annotated[str, Field(min_length=1, max_length=MAX_ID), AfterValidator(printable_id)]
#: A display name (a player's, a tournament's): one printable line, not blank, stripped.
Name = Annotated[str, Field(max_length=200), AfterValidator(printable_text),
                 AfterValidator(not_blank)]  # fmt: skip
#: Free text the log keeps and prints (reasons, infractions): one printable line.
Text = Annotated[str, Field(min_length=1, max_length=500), AfterValidator(printable_text)]
MatchPlayers = Annotated[tuple[Id, Id], AfterValidator(two_players)]
