"""API tokens and what each role may do (design: Interfaces, HTTP; issue: the HTTP API).

A token is a random secret shown once; only its SHA-256 is stored. A token without
a tournament acts on every tournament (an organizer's may create tournaments);
with one, only on that one. The actor of a command comes from the token.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal, get_args

from commands.models import Command, CreateTournament, SubmitList
from ledger.events import Actor
from ledger.store import Store, TokenEntry

TokenRole = Literal["organizer", "judge", "scorekeeper", "player", "reader"]
ROLES: tuple[str, ...] = get_args(TokenRole)

#: Every command type of the contract. ``SENDERS[command.type]`` below fails mypy when
#: a command model is added without its type here, and tests/unit/test_dispatch.py
#: checks this list against the models and the table against this list.
CommandType = Literal[
    "create_tournament", "register_player", "register_team", "drop_player", "rejoin_player",
    "pair_round", "start_round", "report_result", "correct_result", "disqualify_player",
    "issue_penalty", "record_deck_check", "grant_time_extension", "make_cut",
    "finish_tournament", "reinstate_player", "reopen_tournament", "withdraw_registration",
    "change_options", "submit_list", "lock_lists", "correct_list", "assign_pods",
    "start_deck_building",
]  # fmt: skip

ORGANIZER_ONLY: frozenset[TokenRole] = frozenset({"organizer"})
OFFICIALS: frozenset[TokenRole] = frozenset({"organizer", "judge"})

#: Which token roles may send each command type (design: Who acts): one table, so that
#: no command reaches the API before someone decided who may send it. The organizer
#: may send every one; a reader none.
SENDERS: dict[CommandType, frozenset[TokenRole]] = {
    "create_tournament": ORGANIZER_ONLY,
    "register_player": ORGANIZER_ONLY,
    "register_team": ORGANIZER_ONLY,
    "drop_player": ORGANIZER_ONLY,
    "rejoin_player": ORGANIZER_ONLY,
    "pair_round": ORGANIZER_ONLY,
    "start_round": ORGANIZER_ONLY,
    "report_result": frozenset({"organizer", "judge", "scorekeeper", "player"}),
    "correct_result": OFFICIALS,
    "disqualify_player": OFFICIALS,
    "issue_penalty": OFFICIALS,
    "record_deck_check": OFFICIALS,
    "grant_time_extension": OFFICIALS,
    "make_cut": ORGANIZER_ONLY,
    "finish_tournament": ORGANIZER_ONLY,
    # undoing a mistake is the organizer's, like the act it undoes
    "reinstate_player": ORGANIZER_ONLY,
    "reopen_tournament": ORGANIZER_ONLY,
    "withdraw_registration": ORGANIZER_ONLY,
    "change_options": ORGANIZER_ONLY,
    # issue 15: a player submits their own list (Principal.check); a judge corrects one
    "submit_list": frozenset({"organizer", "player"}),
    "lock_lists": ORGANIZER_ONLY,
    "correct_list": OFFICIALS,
    # issue 16: a limited event's draft pods and deck building are the organizer's
    "assign_pods": ORGANIZER_ONLY,
    "start_deck_building": ORGANIZER_ONLY,
}


class Forbidden(Exception):
    """The token may not do this (HTTP 403)."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_token(
    store: Store, role: str, tournament: str | None, player: str | None, *,
    label: str | None = None, expires_at: datetime | None = None, now: datetime | None = None,
) -> str:  # fmt: skip
    """Make and record a token; the secret is returned once and never stored. ``label``
    names its holder (kept with the token, never in the log); ``expires_at`` ends it.
    ``now`` is the creation time (the clock when a shell does not give one)."""
    from commands.tokens import check_label

    now = now or datetime.now(UTC)
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r} (roles: {', '.join(ROLES)})")
    if (role == "player") != (player is not None):
        raise ValueError("a player token names its player (--player), and only a player token")
    if role == "player" and tournament is None:
        raise ValueError("a player token belongs to one tournament (--tournament)")
    if expires_at is not None and expires_at <= now:
        raise ValueError("a token's expiry must be in the future")
    label = check_label(label) if label is not None else None
    secret = "tl_" + secrets.token_urlsafe(32)
    store.put_token(TokenEntry(token_hash(secret), new_token_id(store), role, tournament, player,
                               label=label, expires_at=expires_at, created_at=now))  # fmt: skip
    return secret


def new_token_id(store: Store) -> str:
    """A short public id no other token has (``token revoke`` names a token by it)."""
    taken = {t.token_id for t in store.tokens()}
    while (candidate := secrets.token_hex(4)) in taken:
        pass
    return candidate


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling, from their token."""

    token: TokenEntry

    @property
    def actor(self) -> Actor:
        role = self.token.role if self.token.role != "reader" else "organizer"
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
