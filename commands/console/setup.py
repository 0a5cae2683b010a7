"""``/console/new``: create an event: its ruleset, format, tier and structure, and the
ruleset's options, each shown with its default so the organizer changes only what differs.

The options and their defaults are the ruleset objects' own
(``commands.reads.ruleset_options``); an option left blank is not sent, so the ruleset's
default applies and is recorded in ``tournament_created`` as for ``tledger new``.
"""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from commands.console.respond import act, back, form_of, page
from commands.console.session import PATH, ConsoleCaller
from commands.reads.ruleset_options import PLAN_UP_TO, catalog, options_from
from projections.rulesets import DEFAULT_RULESET, RULESETS

router = APIRouter(prefix=PATH, include_in_schema=False)


@router.get("/new")
async def new_page(request: Request, caller: ConsoleCaller,
                   ruleset: Annotated[str, Query(max_length=40)] = DEFAULT_RULESET,
                   players: Annotated[str, Query(max_length=8)] = ""
                   ) -> Response:  # fmt: skip
    """The form of a new event, with the ruleset's plan (rounds and cut by players) and,
    given the players expected (blank or out of range: none), the line of that count."""
    chosen = ruleset if ruleset in RULESETS else DEFAULT_RULESET
    count = int(players) if players.strip().isdigit() else 0
    expected = count if 2 <= count <= PLAN_UP_TO else None
    return page(request, caller, "org_new.html.j2", catalog=catalog(), chosen=chosen,
                expected=expected)  # fmt: skip


@router.post("/new")
async def create(request: Request, caller: ConsoleCaller) -> Response:
    """One ``create_tournament``; the ruleset's own fields are named ``{ruleset}.{option}``
    so that switching rulesets in the form never sends another ruleset's options."""
    form = await form_of(request)
    ruleset, tournament = form.get("ruleset"), form.get("tournament")
    prefix = f"{ruleset}."
    given = {k[len(prefix) :]: v for k, v in form.pairs if k.startswith(prefix)}
    options = options_from(ruleset, given) if ruleset in RULESETS else {}
    body = {"type": "create_tournament", "tournament": tournament, "name": form.get("name"),
            "ruleset": ruleset, "options": options}  # fmt: skip
    outcome = await act(request, caller, body)
    if isinstance(outcome, str):
        return back(f"{PATH}/new?{urlencode({'ruleset': ruleset})}", error=outcome)
    return back(f"{PATH}/t/{tournament}/players", ok=f"created {tournament} (seq {outcome.seq})")
