"""swu-1.0 in both formats, and literal events of a swu-1.0 event, folded into a state
by the standings tests (``state_of``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ledger.events import (
    ORGANIZER,
    EventBase,
    MatchResult,
    PlayerRegistered,
    ResultReported,
    RoundPaired,
    RoundStarted,
    Table,
    TournamentCreated,
)
from projections.rulesets.swu_1_0 import Swu10

AT = datetime(2024, 3, 2, 10, 0, tzinfo=UTC)
BASE: dict[str, Any] = {"tournament": "t1", "at": AT, "actor": ORGANIZER}
BO1 = Swu10({"format": "bo1", "tier": "casual"})
BO3 = Swu10()


def created(options: dict[str, Any] | None = None) -> TournamentCreated:
    return TournamentCreated(
        **BASE, name="Showdown", ruleset="swu-1.0", options=options or {}, seed=7
    )


def registered(*players: str) -> list[EventBase]:
    return [PlayerRegistered(**BASE, player=p) for p in players]


def round_of(
    number: int, *tables: tuple[str, ...], results: dict[tuple[str, str], Any]
) -> list[EventBase]:
    """A manually paired, started and fully reported Swiss round."""
    numbered = [Table(table=None if len(t) == 1 else i, players=t) for i, t in enumerate(tables, 1)]
    events: list[EventBase] = [
        RoundPaired(**BASE, round=number, method="manual", pairings=tuple(numbered)),
        RoundStarted(**BASE, round=number),
    ]
    for players, result in results.items():
        events.append(
            ResultReported(**BASE, round=number, players=players, result=MatchResult(**result))
        )
    return events


def result(**fields: Any) -> MatchResult:
    return MatchResult(**fields)
