"""The fields commands are made of: ids, names and free text that the record may hold.
Input the record must never hold is refused here, so the CLI, ``apply`` and the HTTP
API refuse it alike: ids that are not short and printable, blank or hold a
noncharacter, names that break a line or leave a text direction open, a match naming
one player twice. Ids are stored in Unicode NFC, so an id typed with a precomposed
``é`` and one typed with ``e`` and a combining accent are the same id.
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
#: Directional formatting characters and what closes each: an embedding or override
#: (LRE, RLE, LRO, RLO) is closed by PDF, an isolate (LRI, RLI, FSI) by PDI. One left
#: open in a name turns the text printed after the name (its id, the next column).
CLOSER_OF = {"\u202a": "\u202c", "\u202b": "\u202c", "\u202d": "\u202c", "\u202e": "\u202c",
             "\u2066": "\u2069", "\u2067": "\u2069", "\u2068": "\u2069"}  # fmt: skip
CLOSERS = frozenset(CLOSER_OF.values())
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


def is_noncharacter(ch: str) -> bool:
    """U+FDD0..U+FDEF and the last two code points of every plane (U+FFFE, U+FFFF, ...):
    permanently reserved for a program's own use, never text."""
    code = ord(ch)
    return 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE


def printable_id(value: str) -> str:
    """Ids are short, printable and visible, so that what is shown is what is stored: no
    control or format character, no noncharacter, not whitespace only (a single space
    is an id nobody can tell from none)."""
    refuse_categories(value, NOT_IN_IDS)
    bad = next((ch for ch in value if is_noncharacter(ch)), None)
    if bad is not None:
        raise PydanticCustomError("noncharacter", "must not contain the noncharacter {character}",
                                  {"character": f"U+{ord(bad):04X}"})  # fmt: skip
    if value.isspace():
        raise PydanticCustomError("blank", "must not be only whitespace")
    return value


def normalized(value: str) -> str:
    """An id in Unicode NFC: the forms of one text that look the same (a precomposed
    ``é``, or ``e`` and a combining accent) are one id."""
    return unicodedata.normalize("NFC", value)


def unbalanced_direction(value: str) -> str | None:
    """What leaves a text direction of ``value`` unbalanced, said for a reader (a closer
    with nothing of its kind open, or an opener never closed); None when every
    embedding, override and isolate is closed, innermost first, by its own closer."""
    opened: list[str] = []
    for ch in value:
        if ch in CLOSER_OF:
            opened.append(ch)
        elif ch in CLOSERS:
            if not opened or CLOSER_OF[opened[-1]] != ch:
                return f"{character(ch)} closes nothing opened before it"
            opened.pop()
    return f"{character(opened[-1])} is never closed" if opened else None


def balanced_directions(value: str) -> str:
    """A name is printed beside other text (its id, the next column): a direction it
    opens and does not close would turn that text too ("Ada" and an open RIGHT-TO-LEFT
    OVERRIDE print "Ada 9p" for "Ada p9"), so it must close what it opens."""
    problem = unbalanced_direction(value)
    if problem is not None:
        raise PydanticCustomError("unbalanced_direction",
                                  "must close every text direction it opens ({problem})",
                                  {"problem": problem})  # fmt: skip
    return value


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
        raise PydanticCustomError(exc.type, "id {message}",
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


#: An id (a tournament's, a player's, a command's): short, printable, stored in NFC.
Id = Annotated[str, Field(min_length=1, max_length=MAX_ID), AfterValidator(normalized),
               AfterValidator(printable_id)]  # fmt: skip
#: A display name (a player's, a tournament's): one printable line, not blank, stripped,
#: closing every text direction it opens.
Name = Annotated[str, Field(max_length=200), AfterValidator(printable_text),
                 AfterValidator(not_blank), AfterValidator(balanced_directions)]  # fmt: skip
#: Free text the log keeps and prints (reasons, infractions): one printable line.
Text = Annotated[str, Field(min_length=1, max_length=500), AfterValidator(printable_text)]
MatchPlayers = Annotated[tuple[Id, Id], AfterValidator(two_players)]
