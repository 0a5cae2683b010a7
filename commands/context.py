"""Lookups every decider needs, each raising the named error a caller reports."""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from commands.errors import UnknownMatch, UnknownPlayer, WrongPhase
from ledger.events import ORGANIZER, Actor
from projections.state import OFFICIAL_ROLES, TABLE_STATE, Match, Player, Round, TournamentState


class Base(TypedDict):
    """The fields every event of one command shares (those of ``EventBase`` that the
    command sets): the tournament, when, who acted, and the client's command id with a
    digest of the command's body (for safe retries)."""

    tournament: str
    at: datetime
    actor: Actor
    command_id: str | None
    command_digest: str | None


def player_of(state: TournamentState, player: str) -> Player:
    found = state.players.get(player)
    if found is None:
        raise UnknownPlayer(player)
    return found


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
        from commands.errors import RuleViolation

        raise RuleViolation(f"a {role} may not {what} (only {', '.join(roles)})")


def require_complete(state: TournamentState, before: str) -> None:
    """Refuse while the current round has a table without a confirmed result, naming
    each such table and why, so the organizer knows whom to ask."""
    current = state.current
    if current is None or current.state == "complete":
        return
    waiting = [f"{f'table {m.table}' if m.table else ' v '.join(m.players)} "
               f"({TABLE_STATE[m.status]})"
               for m in current.matches if TABLE_STATE[m.status] != "confirmed"]  # fmt: skip
    raise WrongPhase(
        f"round {current.number} is not complete: {', '.join(waiting)} still "
        f"need{'s' if len(waiting) == 1 else ''} a confirmed result before {before}"
    )
