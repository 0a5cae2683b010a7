"""A list of teams pasted into the console (lcg-2.1d "Team-Turniere", "Anmeldung":
"als zweiköpfige Teams anmelden"), into the ``register_team`` commands of one append:
the organizer registers every team at once instead of one by one.

One team a line: ``Team name; Member 1; Member 2`` (a tab between the three works as
well, as cells copied from a spreadsheet; a comma when the line has neither). Each
team gets the next free id ``team1``, ``team2``, ... and each member the next free
``p1``, ``p2``, ... (ids are seat numbers, never personal data; the names go to the
registry; ``commands.text.pasted``). A paste holds at most ``MAX_LINES`` lines.
Every line is checked as the contract checks a registration before anything is
sent, and a line names its error. Pure, and linear in the lines.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pydantic import ValidationError

from commands.errors import InvalidCommand
from commands.models import COMMAND_ADAPTER, RegisterTeam, describe
from commands.text.pasted import SeatNumbers, lines_of

SEPARATORS = (";", "\t", ",")


@dataclass(frozen=True)
class TeamRow:
    """One team's registration and the line it came from."""

    row: int
    command: RegisterTeam


def team_cells(line: str, number: int) -> list[str]:
    """The team's name and its two members' names, from one pasted line."""
    separator = next((s for s in SEPARATORS if s in line), None)
    cells = [c.strip() for c in line.split(separator)] if separator else [line.strip()]
    if len(cells) != 3 or not all(cells):
        raise InvalidCommand(
            f"line {number}: a team is 'Team name; Member 1; Member 2', got {line.strip()!r}"
        )
    return cells


def pasted_teams(text: str, tournament: str, taken: Iterable[str]) -> list[TeamRow]:
    """The team registrations a pasted text asks for; ``taken``: every id in the event
    (teams and members), so new ids never collide."""
    used = list(taken)
    teams, players = SeatNumbers("team", used), SeatNumbers("p", used)
    rows: list[TeamRow] = []
    for number, line in enumerate(lines_of(text, "team"), start=1):
        if not line.strip():
            continue
        name, first, second = team_cells(line, number)
        team = teams.give()
        members = [{"player": players.give(), "name": member} for member in (first, second)]
        data = {"type": "register_team", "tournament": tournament, "team": team,
                "name": name, "members": members}  # fmt: skip
        try:
            command = COMMAND_ADAPTER.validate_python(data)
        except ValidationError as exc:
            raise InvalidCommand(f"line {number}: {describe(exc)}") from None
        assert isinstance(command, RegisterTeam)
        rows.append(TeamRow(number, command))
    if not rows:
        raise InvalidCommand("nothing pasted: one team a line, 'Team name; Member 1; Member 2'")
    return rows
