"""An SWU event in round 1 with a judge's work waiting, made through the Python API (not
the console): table 1 disputed (Ada says she won 2-0, Ben says he did), table 2
reported by Cyra only, tables 3 and 4 missing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import unquote_plus

from commands.handler import Handler
from commands.models import parse_command

T = "t1"
NAMES = {"p1": "Ada Lovelace", "p2": "Ben Kenobi", "p3": "Cyra Vale", "p4": "Dov Rask",
         "p5": "Eli Vanto", "p6": "Fen Rau", "p7": "Gia Sol", "p8": "Hux Brendol"}  # fmt: skip
#: Ada's locked list (swu-1.4 §2.3: 50 cards, a leader and a base)
ADA_LIST: dict[str, Any] = {
    "leader": "Luke Skywalker | Faithful Friend",
    "base": "Echo Base",
    "deck": [{"card": f"Card {i}", "count": 2} for i in range(25)],
}
TABLES = [["p1", "p2"], ["p3", "p4"], ["p5", "p6"], ["p7", "p8"]]


def send(handler: Handler, t: str = T, **body: Any) -> int:
    return handler.handle(parse_command({"tournament": t, **body})).seq


def round_one(handler: Handler, t: str = T) -> int:
    """Eight players registered, Ada's list locked, round 1 paired (``TABLES``) and
    started; the seq after registration."""
    send(handler, t, type="create_tournament", name="Store Showdown", ruleset="swu-1.4")
    for player, name in NAMES.items():
        registered = send(handler, t, type="register_player", player=player, name=name)
    send(handler, t, type="submit_list", player="p1", list=ADA_LIST)
    send(handler, t, type="lock_lists")
    send(handler, t, type="pair_round", pairings=TABLES)
    send(handler, t, type="start_round")
    return registered


def reader_sees(sign_in: Callable[..., Any], handler: Handler, path: str) -> tuple[Any, str]:
    """The judge's event, a reader (an auditor's token) signed in, and the page at
    ``path``: the console and the page's text."""
    judge_event(handler)
    console = sign_in("reader")
    page = console.get(f"/console/t/{T}{path}")
    assert page.status_code == 200
    return console, page.text


def refusal(answer: Any) -> str:
    """The one line a console action answered with (its redirect's ``error``)."""
    return unquote_plus(answer.headers["location"].partition("error=")[2])


def judge_event(handler: Handler) -> dict[str, int]:
    """The event; the seqs worth pointing at: after registration, and the dispute."""
    registered = round_one(handler)
    report(handler, "p1", ["p1", "p2"], [2, 0])
    disputed = report(handler, "p2", ["p1", "p2"], [0, 2])
    report(handler, "p3", ["p3", "p4"], [2, 1])
    return {"registered": registered, "disputed": disputed}


def report(handler: Handler, player: str, players: list[str], games: list[int]) -> int:
    return send(handler, type="report_result", round=1, players=players,
                result={"games": games, "draws": 0},
                actor={"role": "player", "id": player})  # fmt: skip
