"""Who may send what: the token roles and the role table, and the caller a token makes.

A token without a tournament acts on every tournament (an organizer's may create
tournaments); with one, only on that one. The actor of a command sent with a token
comes from the token, and a body naming another actor is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from commands import models as m
from commands.models import COMMAND_CLASSES, Command, CommandBase, CreateTournament, SubmitList
from ledger.events import Actor
from ledger.store import TokenEntry

#: ``venue``: a venue's ledger pushing its own tournaments to a hosted mirror
#: (commands.mirror); it sends no command and reads as a reader does
TokenRole = Literal["organizer", "judge", "scorekeeper", "player", "reader", "venue"]
ROLES: tuple[str, ...] = get_args(TokenRole)

ORGANIZER_ONLY: frozenset[TokenRole] = frozenset({"organizer"})
OFFICIALS: frozenset[TokenRole] = frozenset({"organizer", "judge"})

#: Which token roles may send each command model: one table, so that no command reaches
#: a face before someone decided who may send it (a test checks that every model of
#: the contract is here). The organizer may send every one; a reader none.
SENDERS_OF: dict[type[CommandBase], frozenset[TokenRole]] = {
    m.CreateTournament: ORGANIZER_ONLY,
    m.RegisterPlayer: ORGANIZER_ONLY,
    m.RegisterTeam: ORGANIZER_ONLY,
    m.DropPlayer: ORGANIZER_ONLY,
    m.RejoinPlayer: ORGANIZER_ONLY,
    m.PairRound: ORGANIZER_ONLY,
    m.StartRound: ORGANIZER_ONLY,
    m.ReportResult: frozenset({"organizer", "judge", "scorekeeper", "player"}),
    m.CorrectResult: OFFICIALS,
    m.DisqualifyPlayer: OFFICIALS,
    m.IssuePenalty: OFFICIALS,
    m.RecordDeckCheck: OFFICIALS,
    m.GrantTimeExtension: OFFICIALS,
    m.MakeCut: ORGANIZER_ONLY,
    m.FinishTournament: ORGANIZER_ONLY,
    # undoing a mistake is the organizer's, like the act it undoes
    m.ReinstatePlayer: ORGANIZER_ONLY,
    m.ReopenTournament: ORGANIZER_ONLY,
    m.WithdrawRegistration: ORGANIZER_ONLY,
    m.ChangeOptions: ORGANIZER_ONLY,
    # a player submits their own list (Principal.check); a judge corrects one
    m.SubmitList: frozenset({"organizer", "player"}),
    m.LockLists: ORGANIZER_ONLY,
    m.CorrectList: OFFICIALS,
    # a limited event's draft pods and deck building are the organizer's
    m.AssignPods: ORGANIZER_ONLY,
    m.StartDeckBuilding: ORGANIZER_ONLY,
}
#: The same table by command type, as a command's ``type`` names it.
SENDERS: dict[str, frozenset[TokenRole]] = {
    m.type_of(model): SENDERS_OF[model] for model in COMMAND_CLASSES
}


class Forbidden(Exception):
    """The token may not do this (HTTP 403)."""


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling, from their token."""

    token: TokenEntry

    @property
    def actor(self) -> Actor:
        role = self.token.role if self.token.role not in ("reader", "venue") else "organizer"
        ident = self.token.player or f"{self.token.role}-{self.token.token_id}"
        return Actor(role=role, id=ident)

    def may_read(self, tournament: str | None) -> bool:
        return self.token.tournament is None or self.token.tournament == tournament

    def check(self, command: Command) -> None:
        """Raise Forbidden unless this token may send ``command``."""
        role, scope = self.token.role, self.token.tournament
        if scope is not None and command.tournament != scope:
            raise Forbidden(f"this token acts only on tournament {scope!r}")
        if isinstance(command, CreateTournament) and (role != "organizer" or scope is not None):
            raise Forbidden("only an organizer token without a tournament may create one")
        if role not in SENDERS[command.type]:
            raise Forbidden(f"a {role} may not send {command.type}")
        if command.actor is not None and command.actor != self.actor:
            raise Forbidden("the body names another actor than the token's")
        if role == "player" and isinstance(command, SubmitList):
            if command.player != self.token.player:
                raise Forbidden("a player may submit only their own list")
            return
        players = getattr(command, "players", None)
        if role == "player" and (players is None or self.token.player not in players):
            raise Forbidden("a player may report only their own match")
