"""What the judges' and auditors' pages read: models of the one read side, in a worker
thread (a past point or a big log takes a while), and the role table's answer to "may
this caller send that command" (to hide forms; the server checks again on posting)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

from fastapi import Request

from commands.api.reads import read_side
from commands.auth import SENDERS, Principal
from commands.readmodels import ReadModel
from commands.readside import LogQuery, Query

M = TypeVar("M", bound=ReadModel)


async def model(request: Request, tournament: str, query: Query | LogQuery, kind: type[M],
                as_of: str | None = None) -> M:  # fmt: skip
    """The read model ``query`` asks for, now or as known at ``as_of``."""
    side = await read_side(request)
    found = await asyncio.to_thread(side.get, tournament, query, as_of)
    assert isinstance(found.model, kind)
    return found.model


def may(caller: Principal) -> Callable[[str], bool]:
    """Whether the caller's role may send a command type (``commands.auth.SENDERS``)."""

    roles: dict[str, frozenset[str]] = {str(k): frozenset(v) for k, v in SENDERS.items()}

    def allowed(kind: str) -> bool:
        return caller.token.role in roles.get(kind, frozenset())

    return allowed
