"""Client command ids: safe retries for integrations, ids that cannot be squatted.

A ``command_id`` is scoped to its tournament (one stream) and its actor, and is
bound to the command's body by a digest recorded with its events: the same id
with the same body returns the first outcome and appends nothing; the same id
with another body is refused, naming the id. A player who guesses an
organizer's id therefore only ever names a command of their own.

Personal data never enters the digest (it is hashed into the log, and an
erasure must leave no trace of a name there): a retried ``register_player`` is
compared with the registry instead.
"""

from __future__ import annotations

import hashlib

import orjson

from commands.errors import Refused
from commands.models import Command, RegisterPlayer, RegisterTeam
from ledger.events import ORGANIZER
from ledger.store import PlayerEntry
from projections.state import CommandSeen, TournamentState

#: Fields left out of the digest: the id itself, who sends it (the key has it), and
#: personal data, which stays out of the hashed log.
NOT_DIGESTED = frozenset({"command_id", "actor", "name", "external_id"})


class CommandIdReused(Refused):
    """The same command id with a different body (HTTP 409, exit 1)."""

    def __init__(self, command_id: str, seq: int) -> None:
        super().__init__(
            f"command_id {command_id!r} was used for a different command (seq {seq}); "
            "a retry must repeat the same body, a new command needs a new id"
        )
        self.command_id = command_id


def command_digest(command: Command) -> str:
    """SHA-256 of the command's canonical body, without the fields in NOT_DIGESTED."""
    body = command.model_dump(mode="json", exclude=set(NOT_DIGESTED), exclude_none=True)
    if isinstance(command, RegisterPlayer) and command.name is None:
        body.pop("name", None)
    if isinstance(command, RegisterTeam):  # the members' names are personal data too
        for member in body["members"]:
            member.pop("name", None)
    return hashlib.sha256(orjson.dumps(body, option=orjson.OPT_SORT_KEYS)).hexdigest()


def seen_before(state: TournamentState, command: Command) -> CommandSeen | None:
    """The earlier outcome of this actor's command id, or None for a new one; refuses an
    id reused with another body."""
    if command.command_id is None:
        return None
    actor = command.actor or ORGANIZER
    seen = state.command_ids.get((actor.role, actor.id, command.command_id))
    if seen is None:
        return None
    if seen.digest is not None and seen.digest != command_digest(command):
        raise CommandIdReused(command.command_id, seen.first)
    return seen


def registry_id(command: Command) -> str:
    """The registry entry a retried command is compared with: a registration's player,
    or a team's (lcg-2.1d Team-Turniere); "" names none."""
    if isinstance(command, RegisterTeam):
        return command.team
    return str(getattr(command, "player", ""))


def same_personal_data(command: Command, entry: PlayerEntry | None) -> bool:
    """Whether a retried registration names the player (or the team) as the registry
    does (an erased entry cannot be compared, and is not a difference)."""
    if isinstance(command, RegisterTeam) and entry is not None:
        return (command.name or command.team) == entry.name
    if not isinstance(command, RegisterPlayer) or entry is None:
        return True
    return (command.name or command.player, command.external_id) == (
        entry.name,
        entry.external_id,
    )
