"""A list of players pasted into the console, into the ``register_player`` commands of
one append: the organizer registers a whole field at once instead of one by one.

Three forms, told apart by their first line: a spreadsheet with a header row naming
a ``player`` (or ``id``) column, read exactly as ``tledger register --csv`` reads it
(``commands.text.spreadsheet``); lines of ``id,name`` (or ``;`` or a tab between them);
or one name per line, each given the next free id ``p1``, ``p2``, ... (ids are seat
numbers, never personal data; ``commands.text.pasted``). A paste holds at most
``MAX_LINES`` lines. Every line is checked as the contract checks a registration
before anything is sent, and a line names its error. Pure, and linear in the lines.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from commands.text.pasted import SeatNumbers, lines_of
from commands.text.spreadsheet import (
    DELIMITERS,
    PLAYER_COLUMNS,
    InvalidSpreadsheet,
    Row,
    once,
    read_rows,
    registration,
)


def pasted_rows(text: str, tournament: str, taken: Iterable[str]) -> list[Row]:
    """The registrations a pasted text asks for, each with the line it came from."""
    lines = lines_of(text, "player")
    first = next((line for line in lines if line.strip()), "")
    if not first:
        raise InvalidSpreadsheet("nothing pasted: one name per line, or id,name")
    cells = {c.strip().casefold() for c in re.split("[,;\t]", first)}
    if cells & set(PLAYER_COLUMNS):
        return read_rows("\n".join(lines[lines.index(first) :]), tournament)
    seats = SeatNumbers("p", taken)
    rows: list[Row] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        delimiter = next((d for d in DELIMITERS if d in line), None)
        parts = [seats.give(), line] if delimiter is None else line.split(delimiter, 1)
        rows.append(Row(number, registration(parts, {"player": 0, "name": 1}, tournament, number)))
        seats.saw(rows[-1].command.player)
    once(rows, "line")
    return rows
