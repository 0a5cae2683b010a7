"""``/console/t/{t}/players`` of an lcg-2.1d team event: register a team of two, one
by one or by pasting a list (lcg-2.1d "Team-Turniere", "Anmeldung").

``register_player`` is refused in a team event (``commands.teams``), so the Players
page offers these forms instead. A team is one ``register_team``; a pasted list is
one append of every team (``reading.act_batch``), checked line by line first
(``commands.text.pasted_teams``), the next free ids from the same fold.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Protocol

from fastapi import APIRouter, Request
from fastapi.responses import Response

from commands.console.reading import act_batch, over_state
from commands.console.respond import MAX_PASTE, act, answered, back, form_of, form_sending
from commands.console.session import PATH, ConsoleCaller
from commands.errors import InvalidCommand
from commands.models import Command
from commands.text.pasted_teams import pasted_teams
from projections.state import TournamentState

router = APIRouter(prefix=f"{PATH}/t/{{tournament}}/players", include_in_schema=False)


def every_id(state: TournamentState, _: object) -> list[str]:
    """The ids in use: competitors (teams) and the teams' members."""
    return [*state.players, *(p for members in state.teams.values() for p in members)]


@router.post("/register-team")
async def register_team(request: Request, tournament: str, caller: ConsoleCaller) -> Response:
    form = await form_of(request)
    members = [{"player": form.get(f"member{n}"), "name": form.get(f"member{n}_name") or None}
               for n in (1, 2)]  # fmt: skip
    body = {"type": "register_team", "tournament": tournament, "team": form.get("team"),
            "name": form.get("name") or None, "members": members}  # fmt: skip
    outcome = await act(request, caller, body)
    return answered(f"{PATH}/t/{tournament}/players", outcome,
                    f"registered team {form.get('name') or form.get('team')}")  # fmt: skip


class Pasted(Protocol):
    """A pasted line's registration and its line number."""

    @property
    def row(self) -> int: ...
    @property
    def command(self) -> Command: ...


async def register_pasted(request: Request, tournament: str, caller: ConsoleCaller,
                          read: Callable[[str, str, list[str]], Sequence[Pasted]],
                          kind: str, noun: str) -> Response:  # fmt: skip
    """Every pasted line ``read`` into a registration (``kind``) and sent as one append,
    or none (the refused line named); the ids in use from the current fold. A caller
    who may not register is refused before the paste is read, and the paste is read in
    a worker thread outside the tournament's lock, in time linear in its lines
    (``commands.text.pasted``): a long paste holds neither the server nor the event."""
    here = f"{PATH}/t/{tournament}/players"
    form = await form_sending(request, caller, kind, here, MAX_PASTE)
    taken = await over_state(request, tournament, every_id)
    try:
        rows = await asyncio.to_thread(read, form.get("list"), tournament, taken)
    except InvalidCommand as exc:
        return back(here, error=str(exc))
    outcome = await act_batch(request, caller, [r.command for r in rows], [r.row for r in rows])
    return answered(here, outcome, f"registered {len(rows)} {noun}")


@router.post("/paste-teams")
async def paste_teams(request: Request, tournament: str, caller: ConsoleCaller) -> Response:
    return await register_pasted(
        request, tournament, caller, pasted_teams, "register_team", "teams"
    )
