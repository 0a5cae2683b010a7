"""What the organizer's pages share: the read models of one tournament under one hold
of its lock, a pure read over the fold (the checks and previews of the read layer),
the registry's names, and a batch of commands run as one append (a pasted list of
players) with the same authorization as ``commands.api.writes.run``; for the judges'
and auditors' pages, one model now or as known at a past point, and ``commands.roles``'
answer to "may this caller send that command" (to hide forms; the server checks again
on posting).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, TypeVar

from fastapi import Request

from commands.api.deps import handler_of, readable
from commands.api.reads import read_side
from commands.console.respond import one_line
from commands.errors import CommandError
from commands.handler import BatchRefused, Outcome
from commands.models import Command
from commands.reads.cache import INTEGRITY, LogQuery, Query
from commands.reads.models import Players, ReadModel
from commands.reads.views import registered_names
from commands.roles import SENDERS, Forbidden, Principal
from ledger.errors import ChainBroken, ListDamaged
from projections.errors import ProjectionError
from projections.state import TournamentState
from replay.errors import ReplayError

T = TypeVar("T")
M = TypeVar("M", bound=ReadModel)
REFUSALS = (CommandError, Forbidden, ProjectionError, ReplayError)


async def models(request: Request, caller: Principal, tournament: str, *queries: Query,
                 at: datetime | None = None) -> list[Any]:  # fmt: skip
    """The read models asked for, of one seq (403 for a token of another tournament);
    ``at``: the time now, for a status that flags the tables over time (``status_at``)."""
    readable(caller, tournament)
    side = await read_side(request)
    entries = await asyncio.to_thread(side.current, tournament, list(queries), at)
    return [e.model for e in entries]


async def over_state(request: Request, tournament: str,
                     view: Callable[[TournamentState, dict[str, str]], T]) -> T:  # fmt: skip
    """A read-layer function of the current fold and the registry's names."""
    handler = handler_of(request)

    def read(state: TournamentState) -> T:
        return view(state, registered_names(handler.store.players(tournament), state.teams))

    return await asyncio.to_thread(handler.folds.read, tournament, read)


async def title_of(request: Request, tournament: str) -> str:
    side = await read_side(request)
    found = await asyncio.to_thread(side.summary, tournament)
    return found.name if found is not None else tournament


async def act_batch(request: Request, caller: Principal, commands: Sequence[Command],
                    rows: Sequence[int] = ()) -> Outcome | str:  # fmt: skip
    """Several commands of one tournament as one append (all or none), each checked as
    ``writes.run`` checks one: the token may send it, and its actor is the token's. A
    refusal names the line (``rows``) of the refused command. All of it runs in a worker
    thread: a pasted field of thousands of players never holds the event loop."""
    handler = handler_of(request)

    def checked_and_handled() -> Outcome:
        for command in commands:
            caller.check(command)
        acted = [c.model_copy(update={"actor": caller.actor}) for c in commands]
        return handler.handle_batch(acted)

    try:
        return await asyncio.to_thread(checked_and_handled)
    except BatchRefused as exc:
        line = rows[exc.index] if exc.index < len(rows) else exc.index + 1
        return f"line {line}: {one_line(exc.error)}"
    except REFUSALS as exc:
        return one_line(exc)


def frame(tournament: str, title: str, here: str, **context: Any) -> dict[str, Any]:
    """What every organizer page of a tournament renders around its own part."""
    return {"tournament": tournament, "title": title, "here": here, **context}


async def model(request: Request, tournament: str, query: Query | LogQuery, kind: type[M],
                as_of: str | None = None) -> M:  # fmt: skip
    """The read model ``query`` asks for, now or as known at ``as_of``."""
    side = await read_side(request)
    found = await asyncio.to_thread(side.get, tournament, query, as_of)
    assert isinstance(found.model, kind)
    return found.model


def may(caller: Principal) -> Callable[[str], bool]:
    """Whether the caller's role may send a command type (``commands.roles.SENDERS``)."""

    roles: dict[str, frozenset[str]] = {str(k): frozenset(v) for k, v in SENDERS.items()}

    def allowed(kind: str) -> bool:
        return caller.token.role in roles.get(kind, frozenset())

    return allowed


async def players_read(request: Request, tournament: str
                       ) -> tuple[Players, ChainBroken | ListDamaged | None]:  # fmt: skip
    """The players now, and no damage; or, on a damaged log, the players as known at the
    seq before the damage and the damage itself, so that the auditors' pages still read
    the intact part of the log and show where it breaks."""
    try:
        return await model(request, tournament, Query("players"), Players), None
    except INTEGRITY as damage:
        before = str(max(damage.seq - 1, 0))
        try:
            return await model(request, tournament, Query("players"), Players, before), damage
        except CommandError:  # nothing before the damage: no tournament to name players of
            return Players(tournament=tournament, seq=0, head="", players=[]), damage
