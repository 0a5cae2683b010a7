"""The Overview's "change options" before round 1 (``tledger change-options``, the
contract's ``change_options``): each option of the event's ruleset with its value now,
a blank field left unchanged, ``null`` back to the ruleset's default, as the CLI's
``-o KEY=null``; a reason for the log. Which options may change and when is the
command's to say (round 1 not paired; the seed and ``team`` fixed at creation)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from commands.console.reading import models
from commands.console.respond import act, answered, back, form_of
from commands.console.session import PATH, ConsoleCaller
from commands.reads.cache import Query as ReadQuery
from commands.reads.models import Status
from commands.reads.ruleset_options import options_from

router = APIRouter(prefix=f"{PATH}/t/{{tournament}}", include_in_schema=False)
FIELD = "option."


@router.post("/options")
async def change_options(request: Request, tournament: str, caller: ConsoleCaller) -> Response:
    form = await form_of(request)
    here = f"{PATH}/t/{tournament}"
    (status,) = await models(request, caller, tournament, ReadQuery("status"))
    assert isinstance(status, Status)
    given = {k[len(FIELD) :]: v for k, v in form.pairs if k.startswith(FIELD)}
    options = options_from(status.ruleset, given, null=True)
    if not options:
        return back(here, error="change_options: no option given (blank fields stay as they are)")
    body = {"type": "change_options", "tournament": tournament, "options": options,
            "reason": form.get("reason") or None}  # fmt: skip
    changed = ", ".join(options)
    return answered(here, await act(request, caller, body), f"options changed: {changed}")
