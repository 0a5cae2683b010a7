"""Errors of command handling: one root, ``CommandError``.

Each error knows its CLI exit code and HTTP status, the same for every face: 2 / 422
for input that does not fit the contract, 1 / 404 for an unknown tournament,
1 / 409 for a well-formed command the ledger refuses.
"""

from __future__ import annotations

from typing import ClassVar


class CommandError(Exception):
    exit_code: ClassVar[int] = 1
    http_status: ClassVar[int] = 409


class InvalidCommand(CommandError):
    """The input does not fit the command contract (malformed, unknown, wrong type or shape)."""

    exit_code = 2
    http_status = 422


class UnknownTournament(CommandError):
    http_status = 404

    def __init__(self, tournament: str) -> None:
        super().__init__(f"unknown tournament {tournament!r}")
        self.tournament = tournament


class Refused(CommandError):
    """A well-formed command the ledger refuses; the message names the rule."""


class TournamentExists(Refused):
    def __init__(self, tournament: str) -> None:
        super().__init__(f"tournament {tournament!r} exists already")


class UnknownPlayer(Refused):
    def __init__(self, player: str) -> None:
        super().__init__(f"unknown player {player!r}")
        self.player = player


class DuplicatePlayer(Refused):
    """An id registered already; ``stored``: the registered id when it reads the same as
    ``player`` but is stored in another Unicode form (escaped, so the two differ on screen)."""

    def __init__(self, player: str, stored: str | None = None) -> None:
        also = f" as {stored!a}, the same id in another Unicode form" if stored else ""
        super().__init__(f"player {player!r} is registered already{also}")
        self.player = stored or player


class WrongPhase(Refused):
    """The command does not fit where the tournament is (e.g. a report before pairing)."""


class UnknownMatch(Refused):
    """No match of these players in that round."""


class RuleViolation(Refused):
    """A rule of the regulation refuses the command; the message cites the section."""


class Mirrored(CommandError):
    """A command sent to a hosted mirror for a tournament mirrored from its venue: its
    commands go there, and the mirror only follows it (409)."""

    def __init__(self, tournament: str) -> None:
        super().__init__(f"tournament {tournament!r} is mirrored from its venue; "
                         "commands go there")  # fmt: skip
        self.tournament = tournament
