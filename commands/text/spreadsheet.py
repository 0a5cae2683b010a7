"""The organizer's spreadsheet of players: ``tledger register T --csv FILE``.

Registration lists come from a spreadsheet: exported as CSV by Excel (a German
Excel writes ``;`` between cells and often a byte-order mark), LibreOffice or a
sign-up form. A header row names the columns, matched without regard to case:
``player`` (or ``id``), the player id, required; ``name`` and ``external_id``,
optional; other columns are ignored (a sign-up sheet has many).

Every row is checked before anything is registered, with the same rules as a
``register_player`` command (ids short and printable, names on one line), and a
player listed twice is refused: an error names the spreadsheet row the
organizer sees (the header is row 1). Pure: text in, commands out.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import ValidationError

from commands.errors import InvalidCommand
from commands.models import COMMAND_ADAPTER, RegisterPlayer, describe

DELIMITERS = (",", ";", "\t")
PLAYER_COLUMNS = ("player", "id")
OPTIONAL_COLUMNS = ("name", "external_id")


class InvalidSpreadsheet(InvalidCommand):
    """A spreadsheet that does not fit (exit 2): the message names the row."""


@dataclass(frozen=True, slots=True)
class Row:
    """One registration and the spreadsheet row it came from."""

    row: int
    command: RegisterPlayer


def decode(data: bytes) -> str:
    """UTF-8, with or without the byte-order mark Excel writes."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidSpreadsheet(
            f"not UTF-8 at byte {exc.start + 1} (save the spreadsheet as CSV UTF-8)"
        ) from None


def delimiter_of(header: str) -> str:
    """The delimiter the header row uses most (a German Excel writes ``;``); a header of
    one column has none, and any will do."""
    return max(DELIMITERS, key=header.count) if any(d in header for d in DELIMITERS) else ","


def columns_of(header: Sequence[str]) -> dict[str, int]:
    """Column positions by their name: player (required), name, external_id."""
    found = {cell.strip().lstrip("\ufeff").casefold(): i for i, cell in enumerate(header)}
    player = next((found[c] for c in PLAYER_COLUMNS if c in found), None)
    if player is None:
        shown = ", ".join(repr(c) for c in header) or "nothing"
        raise InvalidSpreadsheet(f"row 1: the header needs a 'player' (or 'id') column; "
                                 f"found {shown}")  # fmt: skip
    return {"player": player, **{c: found[c] for c in OPTIONAL_COLUMNS if c in found}}


def read_rows(text: str, tournament: str) -> list[Row]:
    """Every registration of the spreadsheet, or the first bad row's error."""
    header = text.split("\n", 1)[0]
    if not header.strip():
        raise InvalidSpreadsheet("row 1: empty; the first row must be a header with 'player'")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter_of(header))
    rows: list[Row] = []
    try:
        columns = columns_of(next(reader))
        for cells in reader:
            number = reader.line_num
            if not any(c.strip() for c in cells):
                continue  # a blank row (spreadsheets often end with some)
            rows.append(Row(number, registration(cells, columns, tournament, number)))
    except csv.Error as exc:  # a cell over the csv module's field limit
        raise InvalidSpreadsheet(f"row {reader.line_num}: {not_csv(exc)}") from None
    once(rows, "row")
    if not rows:
        raise InvalidSpreadsheet("no players: the spreadsheet has a header and no rows")
    return rows


def not_csv(exc: csv.Error) -> str:
    """What the csv module refused, said in the spreadsheet's words."""
    if "field larger than field limit" in str(exc):
        return f"a cell is longer than {csv.field_size_limit():,} characters"
    return str(exc)


def once(rows: Sequence[Row], where: str) -> None:
    """Refuse a player listed twice, naming both places (``where``: "row", "line")."""
    first: dict[str, int] = {}
    for row in rows:
        player = row.command.player
        if player in first:
            raise InvalidSpreadsheet(f"{where} {row.row}: player {player!r} appears twice "
                                     f"(first in {where} {first[player]})")  # fmt: skip
        first[player] = row.row


def registration(cells: Sequence[str], columns: dict[str, int], tournament: str,
                 number: int) -> RegisterPlayer:  # fmt: skip
    """One row as a register_player command, checked as the command contract checks it."""

    def cell(column: str) -> str | None:
        at = columns.get(column)
        value = cells[at].strip() if at is not None and at < len(cells) else ""
        return value or None

    player = cell("player")
    if player is None:
        raise InvalidSpreadsheet(f"row {number}: blank player id")
    data = {"type": "register_player", "tournament": tournament, "player": player,
            "name": cell("name"), "external_id": cell("external_id")}  # fmt: skip
    try:
        command = COMMAND_ADAPTER.validate_python(data)
    except ValidationError as exc:
        raise InvalidSpreadsheet(f"row {number}: {describe(exc)}") from None
    assert isinstance(command, RegisterPlayer)
    return command
