"""A player's page for judges: their matches, penalties (earlier ones first
on the page, for escalation), deck checks, time extensions and drops, read from the
``player`` read model (``commands.reads.history``), and the actions a judge takes there:
a penalty, a deck check, a disqualification (each one command of the contract)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from commands.console.judge import OUTCOMES, PENALTIES, TIMINGS
from commands.console.reading import may, model
from commands.console.respond import page
from commands.console.session import PATH, ConsoleCaller
from commands.pages.isolation import said
from commands.reads.cache import Query
from commands.reads.models import PlayerHistory, Status

router = APIRouter(prefix=PATH, include_in_schema=False)


@router.get("/t/{tournament}/players/{player}")
async def player_page(request: Request, tournament: str, player: str, caller: ConsoleCaller
                      ) -> Response:  # fmt: skip
    history = await model(request, tournament, Query("player", player=player), PlayerHistory)
    status = await model(request, tournament, Query("status"), Status)
    names = {player: history.name} | {m.opponent: m.opponent_name or m.opponent
                                      for m in history.matches if m.opponent}  # fmt: skip
    return page(request, caller, "judge_player.html.j2", tournament=tournament, h=history,
                status=status, names=names, may=may(caller), penalties=PENALTIES,
                timings=TIMINGS, outcomes=OUTCOMES, said=said)  # fmt: skip
