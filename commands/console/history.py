"""The event's history for auditors: every event of the log with its seq, time, actor
(and the label of the token that acted), type, what it says in one line and its reason;
filtered as ``tledger log --type --player --round`` and ``GET
/tournaments/{t}/log`` filter (``commands.reads.logfilter``), a page of ``LOG_PAGE`` events
at a time. Each seq links to the tournament as known at that point. On a damaged log the history
shows every event before the damaged seq and names the damage after them."""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from commands.console.reading import model, over_state, players_read
from commands.console.respond import page, whole_number
from commands.console.session import PATH, ConsoleCaller
from commands.errors import CommandError
from commands.pages.isolation import isolated_names
from commands.reads.cache import LOG_PAGE, LogQuery
from commands.reads.eventtext import event_detail
from commands.reads.logfilter import EVENT_TYPES, LogFilter, event_types
from commands.reads.models import LogPage

router = APIRouter(prefix=PATH, include_in_schema=False)
#: fields shown in columns of their own, not in the one-line summary
OWN_COLUMNS = frozenset({"reason"})


@router.get("/t/{tournament}/history")
async def history_page(
    request: Request, tournament: str, caller: ConsoleCaller,
    type: Annotated[str, Query(max_length=2000)] = "",
    player: Annotated[str, Query(max_length=200)] = "",
    round: Annotated[str, Query(max_length=6)] = "",
    after: Annotated[int, Query(ge=0)] = 0,
) -> Response:  # fmt: skip
    players, damage = await players_read(request, tournament)
    point = None if damage is None else str(max(damage.seq - 1, 0))
    # every name of the registry (teams, their members, players no longer active); on a
    # damaged log the fold cannot be brought up to date, so the players before the damage
    names = ({p.player: p.name for p in players.players} if damage is not None
             else await over_state(request, tournament, lambda _, names: names))  # fmt: skip
    error = ""
    try:
        keep = LogFilter(types=event_types([type]) if type else (), player=player or None,
                         round=whole_number(round))  # fmt: skip
        log = await model(request, tournament, LogQuery(after, LOG_PAGE, keep), LogPage, point)
    except CommandError as exc:
        error, keep = str(exc), LogFilter()
        log = await model(request, tournament, LogQuery(after, LOG_PAGE, keep), LogPage, point)
    rows = [row_of(e.seq, e.type, e.actor_label, e.model_extra or {}, names) for e in log.events]
    filters = {"type": type, "player": player, "round": round}
    more = (f"?{urlencode({**filters, 'after': log.next_after_seq})}"
            if log.next_after_seq is not None else "")  # fmt: skip
    return page(request, caller, "audit_history.html.j2", tournament=tournament, rows=rows,
                filters=filters, types=EVENT_TYPES, players=players.players, more=more,
                after=after, page_error=error, damage=damage)  # fmt: skip


def row_of(seq: int, kind: str, label: str | None, fields: dict[str, Any],
           names: dict[str, str]) -> dict[str, Any]:  # fmt: skip
    """One event as the history's row: who acted, what it says (players by name)."""
    actor = fields.get("actor", {})
    said = {k: v for k, v in fields.items() if k not in OWN_COLUMNS}
    who = names.get(actor.get("id", "")) if actor.get("role") == "player" else None
    return {"seq": seq, "type": kind, "at": str(fields.get("at", ""))[:19].replace("T", " "),
            "actor": f"{actor.get('role', '')}:{actor.get('id', '')}", "label": label,
            "actor_name": who,
            "summary": event_detail(said, isolated_names(names)),
            "reason": fields.get("reason")}  # fmt: skip
