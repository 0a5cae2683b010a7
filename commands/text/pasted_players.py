"""A list of players pasted into the console, into the ``register_player`` commands of
one append: the organizer registers a whole field at once instead of one by one.

Three forms, told apart by their first line: a spreadsheet with a header row naming
a ``player`` (or ``id``) column, read exactly as ``tledger register --csv`` reads it
(``commands.text.spreadsheet``); lines of ``id,name`` (or ``;`` or a tab between them);
or one name per line, each given the next free id ``p1``, ``p2``, ... (ids are seat
numbers, never personal data). Every line is checked as the contract checks a
registration before anything is sent, and a line names its error. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from commands.text.spreadsheet import (
    DELIMITERS,
    PLAYER_COLUMNS,
    InvalidSpreadsheet,
    Row,
    once,
    read_rows,
    registration,
)

NUMBERED = re.compile(r"p(\d+)")


def next_free_id(taken: Iterable[str]) -> str:
    """``p`` and one more than the highest number of an id like ``p7`` (``p1`` first)."""
    numbers = [int(m.group(1)) for t in taken if (m := NUMBERED.fullmatch(t))]
    return f"p{max(numbers, default=0) + 1}"


def pasted_rows(text: str, tournament: str, taken: Iterable[str]) -> list[Row]:
    """The registrations a pasted text asks for, each with the line it came from."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    first = next((line for line in lines if line.strip()), "")
    if not first:
        raise InvalidSpreadsheet("nothing pasted: one name per line, or id,name")
    cells = {c.strip().casefold() for c in re.split("[,;\t]", first)}
    if cells & set(PLAYER_COLUMNS):
        return read_rows("\n".join(lines[lines.index(first) :]), tournament)
    used = set(taken)
    rows: list[Row] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        delimiter = next((d for d in DELIMITERS if d in line), None)
        parts = [next_free_id(used), line] if delimiter is None else line.split(delimiter, 1)
        rows.append(Row(number, registration(parts, {"player": 0, "name": 1}, tournament, number)))
        used.add(rows[-1].command.player)
    once(rows, "line")
    return rows
