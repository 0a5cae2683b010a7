"""A tournament's page in the console: where the event stands and what is outstanding.

It renders the read side's ``status`` model (the same one as ``tledger status`` and
``GET /tournaments/{t}/status``); the actions of each stage live in routers of their
own beside this one. The status is read at the time now (``ReadSide.status_at``), so a
table without a report reads "playing" until its time runs out, then "missing". Before
round 1 an organizer also changes the options here (``console.options``), each shown
with its value now.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from commands.api.deps import handler_of
from commands.console.reading import may, models
from commands.console.respond import page
from commands.console.session import PATH, ConsoleCaller
from commands.pages.isolation import isolated
from commands.reads.cache import Query
from commands.reads.models import Status
from commands.reads.next_step import NextSteps, lists_warning, next_step
from commands.reads.ruleset_options import ruleset_options, shown

router = APIRouter(prefix=PATH, include_in_schema=False)


@router.get("/t/{tournament}")
async def tournament_page(request: Request, tournament: str, caller: ConsoleCaller) -> Response:
    status, steps = await models(request, caller, tournament, Query("status"),
                                 Query("lifecycle"), at=handler_of(request).clock())  # fmt: skip
    assert isinstance(status, Status) and isinstance(steps, NextSteps)
    changing = status.stage == "registration" and may(caller)("change_options")
    return page(request, caller, "tournament.html.j2", tournament=tournament,
                status=status, next=next_step(status, steps.steps, isolated),
                lists_warning=lists_warning(status),
                ruleset_options=ruleset_options(status.ruleset) if changing else None,
                shown_options={k: shown(v) for k, v in status.options.items()})  # fmt: skip
