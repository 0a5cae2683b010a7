"""A tournament's page in the console: where the event stands and what is outstanding.

It renders the read side's ``status`` model (the same one as ``tledger status`` and
``GET /tournaments/{t}/status``); the actions of each stage live in routers of their
own beside this one.
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import Response

from commands.api.deps import readable
from commands.api.reads import read_side
from commands.console.respond import page
from commands.console.session import PATH, ConsoleCaller
from commands.next_step import next_step
from commands.readmodels import Status
from commands.readside import Query

router = APIRouter(prefix=PATH, include_in_schema=False)


@router.get("/t/{tournament}")
async def tournament_page(request: Request, tournament: str, caller: ConsoleCaller) -> Response:
    readable(caller, tournament)
    side = await read_side(request)
    found = await asyncio.to_thread(side.get, tournament, Query("status"))
    assert isinstance(found.model, Status)
    return page(request, caller, "tournament.html.j2", tournament=tournament,
                status=found.model, next=next_step(found.model))  # fmt: skip
