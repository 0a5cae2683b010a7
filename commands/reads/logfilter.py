"""Which events a log read keeps: ``log --type --player --round`` and
``GET /tournaments/{t}/log?type=&player=&round=``.

An organizer at a crowded desk asks "what happened to p3 in round 2", not for
the whole log: the filter answers it from the events as stored, with no fold.
An event concerns a player when it names them: its ``player`` or ``players``,
the tables of a ``round_paired`` or ``pairings_revised``, the seeds and playoff
of a ``cut_made``, the seats of a ``pods_assigned``. It belongs to a round when
its ``round`` is that round (events without a round, such as registrations and the
cut, belong to none).
A filter with nothing set keeps every event, and the log's JSON stays the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import get_args

from commands.errors import InvalidCommand
from ledger.events import CutMade, Event, PairingsRevised, PodsAssigned, RoundPaired
from ledger.store import Recorded

#: Every stored event type, in the order of the event union (new events join by themselves).
EVENT_TYPES: tuple[str, ...] = tuple(
    get_args(model.model_fields["type"].annotation)[0] for model in get_args(get_args(Event)[0])
)


class UnknownEventType(InvalidCommand):
    """A ``--type`` (or ``?type=``) that no event has: input that does not fit (exit 2, 422)."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"unknown event type {kind!r} (types: {', '.join(EVENT_TYPES)})")
        self.kind = kind


_ONE_TYPE = f" *(?:{'|'.join(EVENT_TYPES)}) *"
#: What ``event_types`` takes in one value, as the HTTP route documents it (OpenAPI).
TYPES_PATTERN = f"^{_ONE_TYPE}(?:,{_ONE_TYPE})*$"


def event_types(given: Iterable[str]) -> tuple[str, ...]:
    """The types asked for, each option repeated or comma-separated (``a,b`` or ``a`` ``b``,
    spaces around a name allowed), in the order of the event union and each once; an
    unknown (or empty) one is refused."""
    asked = {part.strip(" ") for value in given for part in value.split(",")}
    for kind in sorted(asked):
        if kind not in EVENT_TYPES:
            raise UnknownEventType(kind)
    return tuple(t for t in EVENT_TYPES if t in asked)


def players_named(event: Event) -> frozenset[str]:
    """Every player id an event names (events name players by id only, never by name)."""
    named: set[str] = set()
    player = getattr(event, "player", None)
    if isinstance(player, str):
        named.add(player)
    named.update(getattr(event, "players", ()) or ())
    if isinstance(event, RoundPaired):
        named.update(p for t in event.pairings for p in t.players)
    elif isinstance(event, PairingsRevised):
        named.update(p for t in (*event.replaced, *event.tables) for p in t.players)
    elif isinstance(event, CutMade):
        named.update(event.seeds)
        named.update(p for pair in event.playoff for p in pair)
    elif isinstance(event, PodsAssigned):
        named.update(p for pod in event.pods for p in pod.players)
    return frozenset(named)


@dataclass(frozen=True, slots=True)
class LogFilter:
    """Event types (empty: all), a player and a round; every criterion given must hold."""

    types: tuple[str, ...] = ()
    player: str | None = None
    round: int | None = None

    @property
    def active(self) -> bool:
        return bool(self.types) or self.player is not None or self.round is not None

    def keeps(self, recorded: Recorded) -> bool:
        event = recorded.event
        if self.types and event.type not in self.types:
            return False
        if self.round is not None and getattr(event, "round", None) != self.round:
            return False
        return self.player is None or self.player in players_named(event)

    def apply(self, events: Sequence[Recorded]) -> list[Recorded]:
        return [r for r in events if self.keeps(r)] if self.active else list(events)
