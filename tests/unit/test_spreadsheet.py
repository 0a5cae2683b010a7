"""The organizer's spreadsheet (commands/text/spreadsheet.py): header names, delimiters, a
byte-order mark, and every bad row named by its spreadsheet row."""

from __future__ import annotations

import pytest

from commands.text.spreadsheet import InvalidSpreadsheet, decode, delimiter_of, read_rows


def rows(text: str) -> list[tuple[int, str, str | None, str | None]]:
    return [(r.row, r.command.player, r.command.name, r.command.external_id)
            for r in read_rows(text, "t1")]  # fmt: skip


def refused(text: str) -> str:
    with pytest.raises(InvalidSpreadsheet) as error:
        read_rows(text, "t1")
    return str(error.value)


def test_comma_separated_with_optional_columns_in_any_order_and_case() -> None:
    text = "Name,PLAYER,External_Id,Club\nAda,p1,UID-1,Kessel\nBo,p2,,\n"
    assert rows(text) == [(2, "p1", "Ada", "UID-1"), (3, "p2", "Bo", None)]


def test_a_german_excel_export_semicolons_and_a_byte_order_mark() -> None:
    data = "\ufeffid;name\np1;Jürgen Müller\np2;Zoë\n".encode()
    assert rows(decode(data)) == [(2, "p1", "Jürgen Müller", None), (3, "p2", "Zoë", None)]


def test_the_delimiter_is_the_one_the_header_uses() -> None:
    assert delimiter_of("player;name") == ";"
    assert delimiter_of("player,name;x,y") == ","
    assert delimiter_of("player") == ","


def test_quoted_cells_keep_their_delimiters() -> None:
    assert rows('player,name\np1,"Berg, Anna"\n') == [(2, "p1", "Berg, Anna", None)]


def test_blank_rows_are_skipped_and_rows_keep_their_spreadsheet_numbers() -> None:
    assert rows("player;name\n\np1;A\n;\n\np2;B\n") == [(3, "p1", "A", None), (6, "p2", "B", None)]


def test_a_player_listed_twice_is_named_with_both_rows() -> None:
    message = refused("player,name\np1,A\np2,B\np3,C\np1,D\n")
    assert message == "row 5: player 'p1' appears twice (first in row 2)"


@pytest.mark.parametrize(
    ("text", "message"),
    [("player,name\np1,A\n,B\n", "row 3: blank player id"),
     ("player\n" + "p" * 201 + "\n", "row 2: player: String should have at most 200 characters"),
     ("player,name\np1,\"A\x1bB\"\n", "row 2: name: must be printable (contains U+001B ESCAPE)"),
     ("player\np\u202e1\n", "row 2: player: must be printable (contains U+202E RIGHT-TO-LEFT "
                            "OVERRIDE)"),
     ("name,club\nAda,x\n", "row 1: the header needs a 'player' (or 'id') column; found "
                            "'name', 'club'"),
     ("", "row 1: empty; the first row must be a header with 'player'"),
     ("player\n\n", "no players: the spreadsheet has a header and no rows")],
)  # fmt: skip
def test_a_bad_row_is_refused_naming_its_row(text: str, message: str) -> None:
    assert refused(text) == message


def test_bytes_that_are_not_utf8_are_refused() -> None:
    with pytest.raises(InvalidSpreadsheet, match="not UTF-8 at byte 12"):
        decode(b"player\np1,J\xfcrgen\n")


def test_a_cell_over_the_csv_modules_limit_is_refused_naming_its_row() -> None:
    text = f"player,name\np1,Ada\np2,{'x' * 140_000}\np3,Bo\n"
    assert refused(text) == "row 3: a cell is longer than 131,072 characters"
