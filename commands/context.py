"""Lookups every decider needs, each raising the named error a caller reports."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import TypedDict

from commands.errors import (
    CommandError,
    DuplicatePlayer,
    InvalidCommand,
    RuleViolation,
    UnknownMatch,
    UnknownPlayer,
    WrongPhase,
)
from ledger.events import ORGANIZER, Actor
from ledger.fields import normalized
from projections.refusal import Refusal, Step
from projections.state import OFFICIAL_ROLES, Match, Player, Round, TournamentState


class Base(TypedDict):
    """The fields every event of one command shares (those of ``EventBase`` that the
    command sets): the tournament, when, who acted, and the client's command id with a
    digest of the command's body (for safe retries)."""

    tournament: str
    at: datetime
    actor: Actor
    command_id: str | None
    command_digest: str | None


#: the command error of each kind of refusal (``projections.refusal``)
REFUSALS: dict[Refusal, type[CommandError]] = {
    "wrong_phase": WrongPhase, "rule_violation": RuleViolation,
    "invalid_command": InvalidCommand,
}  # fmt: skip


def player_of(state: TournamentState, player: str) -> Player:
    found = state.players.get(player)
    if found is None:
        raise UnknownPlayer(player)
    return found


def refuse_taken(state: TournamentState, new: str, taken: Collection[str]) -> None:
    """A registration's id must be new: not one of ``taken``, nor an id of a log written
    before ids were normalized that reads as ``new`` (DuplicatePlayer names that one)."""
    if new in taken:
        raise DuplicatePlayer(new)
    stored = state.other_forms.get(normalized(new))
    if stored is not None:
        raise DuplicatePlayer(new, stored)


def round_of(state: TournamentState, number: int) -> Round:
    rnd = state.round(number)
    if rnd is None:
        raise WrongPhase(f"round {number} is not paired yet")
    return rnd


def match_of(state: TournamentState, number: int, players: tuple[str, str]) -> tuple[Round, Match]:
    rnd = round_of(state, number)
    for p in players:
        player_of(state, p)
    match = rnd.match_of(*players)
    if match is None:
        raise UnknownMatch(f"round {number} has no match of {players[0]} and {players[1]}")
    return rnd, match


def official(base: Base) -> Actor:
    """Who records a consequence (a forfeit, a correction): the acting official."""
    actor = base["actor"]
    return actor if actor.role in OFFICIAL_ROLES else ORGANIZER


def by_official(base: Base) -> Base:
    """The command's fields with the acting official as the actor (``official``)."""
    return {**base, "actor": official(base)}


def open_match(state: TournamentState, player: str) -> Match | None:
    """The player's match of the current round while it has no confirmed result."""
    current = state.current
    match = current.match_for(player) if current else None
    if match is None or match.is_bye or match.status == "confirmed":
        return None
    return match


def require_role(actor: Actor | None, roles: tuple[str, ...], what: str) -> None:
    """Only these roles may do this (without an actor, as on the CLI, the organizer acts)."""
    role = (actor or ORGANIZER).role
    if role not in roles:
        raise RuleViolation(f"a {role} may not {what} (only {', '.join(roles)})")


def require(step: Step) -> None:
    """Refuse a step the lifecycle refuses (``projections.lifecycle``), with its reason
    and the error its kind names."""
    if not step.allowed:
        raise REFUSALS[step.refusal or "wrong_phase"](step.reason or "")
