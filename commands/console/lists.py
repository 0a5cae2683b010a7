"""``/console/t/{t}/lists``: who has submitted a list, submit one by pasting its text
(the deck builders' text ``tledger list submit`` reads, ``commands.text.decklist_text``, or
the list's JSON), and lock the lists (from then on a player no longer resubmits; an
official corrects a list with a reason). The rules a list breaks are those its event
recorded (``commands.reads.list_status``). A team of an lcg-2.1d team event hands in its
four decks as one list, each member's light and dark deck under the member's id
(``{"members": {...}}``, lcg-2.1d "Team-Turniere", "Anmeldung"), pasted as JSON. A
caller who may not submit a list is refused before the text is read, and the text is
read in a worker thread."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import Response

from commands.console.reading import frame, models, over_state, title_of
from commands.console.respond import act, answered, back, form_of, form_sending, page
from commands.console.session import PATH, ConsoleCaller
from commands.reads.cache import Query as ReadQuery
from commands.reads.list_status import list_status
from commands.text.decklist_text import BadDeckText, list_of
from projections.rulesets import ruleset

router = APIRouter(prefix=f"{PATH}/t/{{tournament}}/lists", include_in_schema=False)


@router.get("")
async def lists_page(request: Request, tournament: str, caller: ConsoleCaller) -> Response:
    (status,) = await models(request, caller, tournament, ReadQuery("status"))
    lists = await over_state(request, tournament, list_status)
    team_event = ruleset(status.ruleset, status.options).team is not None
    return page(request, caller, "org_lists.html.j2",
                **frame(tournament, await title_of(request, tournament), "lists",
                        heading="Lists", status=status, lists=lists,
                        team_event=team_event))  # fmt: skip


@router.post("/submit")
async def submit(request: Request, tournament: str, caller: ConsoleCaller) -> Response:
    here = f"{PATH}/t/{tournament}/lists"
    form = await form_sending(request, caller, "submit_list", here)
    try:
        data = await asyncio.to_thread(list_of, form.get("list"))
    except BadDeckText as exc:
        return back(here, error=f"list: {exc}")
    body = {"type": "submit_list", "tournament": tournament, "player": form.get("player"),
            "list": data}  # fmt: skip
    return answered(
        here, await act(request, caller, body), f"list of {form.get('player')} recorded"
    )


@router.post("/lock")
async def lock(request: Request, tournament: str, caller: ConsoleCaller) -> Response:
    await form_of(request)
    outcome = await act(request, caller, {"type": "lock_lists", "tournament": tournament})
    return answered(f"{PATH}/t/{tournament}/lists", outcome, "lists locked")
