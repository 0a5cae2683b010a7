"""The Round page's steps before round 1 of an SWU limited event (swu-1.4 §2.3.2): a
draft's pods assigned ("8 Spieler pro Gruppe werden empfohlen", §2.3.2.1) and printed,
and deck building started ("30 Minuten", §2.3.2) with its end and a countdown.

They live on the Round page because that is where the organizer goes to pair round
1, and they come before it. Each is one command of the contract (``assign_pods``,
``start_deck_building``): when they may be sent is ``commands.limited``'s to say.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from commands.console.respond import act, answered, form_of
from commands.console.session import PATH, ConsoleCaller

router = APIRouter(prefix=f"{PATH}/t/{{tournament}}/round", include_in_schema=False)


@router.post("/pods")
async def assign_pods(request: Request, tournament: str, caller: ConsoleCaller) -> Response:
    form = await form_of(request)
    body: dict[str, object] = {"type": "assign_pods", "tournament": tournament,
                               "seed": form.number("seed")}  # fmt: skip
    if (size := form.number("size")) is not None:
        body["pod_size"] = size  # else the command's default: 8 a pod (§2.3.2.1)
    return answered(f"{PATH}/t/{tournament}/round", await act(request, caller, body),
                    "pods assigned")  # fmt: skip


@router.post("/deckbuilding")
async def start_deck_building(request: Request, tournament: str, caller: ConsoleCaller
                              ) -> Response:  # fmt: skip
    form = await form_of(request)
    body: dict[str, object] = {"type": "start_deck_building", "tournament": tournament}
    if (minutes := form.number("minutes")) is not None:
        body["minutes"] = minutes  # else the command's default: 30 (§2.3.2)
    return answered(f"{PATH}/t/{tournament}/round", await act(request, caller, body),
                    "deck building started")  # fmt: skip
