"""``/console/t/{t}/players``: register players one by one or by pasting a list, find
them, and drop, rejoin, disqualify, withdraw or reinstate one.

Drop, disqualify and reinstate ask first: their buttons open a confirmation page that
names what confirming records (``commands.reads.leaving_preview``: the decider run
without appending, so "This records Ryan O'Connor's 2-0 win at table 8 of round 3" is
what the command appends), and only its form sends the command.

Each action is one command of the contract (``respond.act``); a pasted list is one
append of every registration (``reading.act_batch``), checked line by line first
(``commands.text.pasted_players``). The list is the ``players`` read model; the next
free id comes from the same fold. In an lcg-2.1d team event (the option ``team``)
the page registers teams instead (``commands.console.teams``) and lists each team
with its members (``commands.reads.teamviews``).
"""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from commands.api.deps import handler_of
from commands.console.reading import REFUSALS, frame, models, over_state, title_of
from commands.console.respond import act, answered, back, form_of, one_line, page
from commands.console.session import PATH, ConsoleCaller
from commands.console.teams import every_id, register_pasted
from commands.models import DisqualifyPlayer, DropPlayer, ReinstatePlayer, parse_command
from commands.pages.isolation import isolated, isolated_names
from commands.reads.cache import Query as ReadQuery
from commands.reads.leaving_preview import LeavingPreview, leaving_preview, return_preview
from commands.reads.models import Players, Status
from commands.reads.teamviews import team_members
from commands.text.pasted import SeatNumbers, next_numbered
from commands.text.pasted_players import pasted_rows
from projections.rulesets import ruleset
from projections.state import TournamentState

router = APIRouter(prefix=f"{PATH}/t/{{tournament}}/players", include_in_schema=False)
#: the actions of one player's row: command type, and whether it takes a reason
ACTIONS = {"drop": ("drop_player", False), "rejoin": ("rejoin_player", False),
           "disqualify": ("disqualify_player", True), "reinstate": ("reinstate_player", True),
           "withdraw": ("withdraw_registration", True)}  # fmt: skip
#: the actions that ask first, on a page naming what they record
CONFIRMED = ("drop", "disqualify", "reinstate")
DONE = {"drop": "dropped", "rejoin": "rejoined", "disqualify": "disqualified",
        "reinstate": "reinstated", "withdraw": "registration withdrawn"}  # fmt: skip


@router.get("")
async def players_page(request: Request, tournament: str, caller: ConsoleCaller,
                       q: Annotated[str, Query(max_length=200)] = "") -> Response:  # fmt: skip
    found, everyone, status = await models(
        request, caller, tournament, ReadQuery("players", search=q or None),
        ReadQuery("players"), ReadQuery("status"))  # fmt: skip
    assert isinstance(found, Players) and isinstance(everyone, Players)
    assert isinstance(status, Status)
    taken, teams = await over_state(
        request, tournament, lambda s, names: (every_id(s, names), team_members(s, names))
    )
    team_event = ruleset(status.ruleset, status.options).team is not None
    seats = SeatNumbers("p", taken)
    next_id = seats.give()
    context = frame(tournament, await title_of(request, tournament), "players",
                    heading="Teams" if team_event else "Players", players=found, search=q,
                    next_team=next_numbered("team", taken), next_members=[next_id, seats.give()],
                    next_id=next_id, started=status.round > 0, team_event=team_event,
                    teams=teams.teams)  # fmt: skip
    # a field of thousands is megabytes of rows: rendered in a worker thread, not the loop
    return await asyncio.to_thread(page, request, caller, "org_players.html.j2", **context)


@router.post("/register")
async def register(request: Request, tournament: str, caller: ConsoleCaller) -> Response:
    form = await form_of(request)
    here = f"{PATH}/t/{tournament}/players"
    body = {"type": "register_player", "tournament": tournament, "player": form.get("player"),
            "name": form.get("name") or None,
            "external_id": form.get("external_id") or None}  # fmt: skip
    return answered(here, await act(request, caller, body), f"registered {form.get('name')}")


@router.post("/paste")
async def paste(request: Request, tournament: str, caller: ConsoleCaller) -> Response:
    return await register_pasted(
        request, tournament, caller, pasted_rows, "register_player", "players"
    )


@router.get("/{player}/{action}")
async def confirm_page(request: Request, tournament: str, player: str, action: str,
                       caller: ConsoleCaller,
                       from_page: Annotated[str, Query(pattern="^player$")] = "",
                       ) -> Response:  # fmt: skip
    """Drop or disqualify ``player``? The page names what confirming records, from the
    decider run without appending; a refusal goes back with its one line. Asked from the
    player's own page (``from_page=player``), it goes back there."""
    here = f"{PATH}/t/{tournament}/players"
    if from_page:
        here = f"{here}/{player}"
    if action not in CONFIRMED:
        return back(here, error=f"no player action {action!r} to confirm")
    handler = handler_of(request)
    kind = ACTIONS[action][0]

    def preview(state: TournamentState, names: dict[str, str]) -> LeavingPreview:
        reason = "preview" if ACTIONS[action][1] else None  # the page asks for it
        command = parse_command({"type": kind, "tournament": tournament, "player": player,
                                 "reason": reason})  # fmt: skip
        acted = command.model_copy(update={"actor": caller.actor})
        shown = isolated_names(names)
        if isinstance(acted, ReinstatePlayer):
            return return_preview(state, acted, shown, handler.clock(), 0)
        assert isinstance(acted, DropPlayer | DisqualifyPlayer)
        return leaving_preview(state, acted, shown, handler.clock(), 0)

    try:
        shown = await over_state(request, tournament, preview)
    except REFUSALS as exc:
        return back(here, error=one_line(exc))
    return page(request, caller, "org_leave.html.j2",
                **frame(tournament, await title_of(request, tournament), "players",
                        heading=f"{action.capitalize()} {shown.name}?", preview=shown,
                        back_to=here))  # fmt: skip


@router.post("/{player}/{action}")
async def player_action(request: Request, tournament: str, player: str, action: str,
                        caller: ConsoleCaller) -> Response:  # fmt: skip
    form = await form_of(request)
    here = f"{PATH}/t/{tournament}/players"
    if form.get("back") == f"{here}/{player}":  # sent from the player's own page
        here = f"{here}/{player}"
    if action not in ACTIONS:
        return back(here, error=f"no player action {action!r}")
    kind, reasoned = ACTIONS[action]
    body = {"type": kind, "tournament": tournament, "player": player}
    if reasoned or form.get("reason"):  # a drop's reason is optional
        body["reason"] = form.get("reason")
    name = await over_state(request, tournament, lambda _, names: names.get(player, player))
    return answered(here, await act(request, caller, body), f"{isolated(name)} {DONE[action]}")
