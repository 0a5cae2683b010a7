"""Points in time: a ``seq`` of the tournament's log, or a UTC time.

A time names the events recorded at or before it. Events are appended in time
order (the handler reads its clock when it decides, and decides again after a
concurrent append), so the events known at a time are the prefix before the first
event past it: a reader stops there and never reads the rest of the log.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from ledger.chain import GENESIS
from ledger.store import Recorded, Store
from replay.errors import BadPoint

#: events read per query while looking for the first one past a time
PAGE = 1000
#: the largest seq a store can hold (a signed 64-bit integer in SQLite and PostgreSQL)
MAX_SEQ = 2**63 - 1


def parse_point(point: str) -> int | datetime:
    """A seq (a number) or a UTC time (ISO 8601; without an offset it is UTC)."""
    text = point.strip()
    if text.isascii() and text.isdigit():
        return int(text)
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise BadPoint(f"{point!r} is neither a seq nor an ISO 8601 time") from None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def past_the_end(seq: int, length: int) -> BadPoint:
    return BadPoint(f"seq {seq} is past the end of the log ({length} events)")


def known_at(events: Sequence[Recorded], when: datetime) -> int:
    """How many events were recorded at or before ``when``: those before the first one
    recorded after it."""
    return next((i for i, r in enumerate(events) if r.event.at > when), len(events))


def resolve_point(events: Sequence[Recorded], point: str) -> int:
    """The seq a point names: a number is a seq; a time is the last event at or before it."""
    parsed = parse_point(point)
    if isinstance(parsed, datetime):
        return known_at(events, parsed)
    if parsed > len(events):
        raise past_the_end(parsed, len(events))
    return parsed


def prefix(events: Sequence[Recorded], point: str | None) -> list[Recorded]:
    """The events known at ``point`` (all of them when no point is given)."""
    return list(events) if point is None else list(events[: resolve_point(events, point)])


def load_prefix(store: Store, tournament: str, point: str | None) -> list[Recorded]:
    """The events known at ``point``, reading no more of the log than that prefix (and,
    for a time, one page past it): a seq is one query, a time a page at a time."""
    if point is None:
        return store.load(tournament)
    parsed = parse_point(point)
    if isinstance(parsed, datetime):
        return load_until(store, tournament, parsed)
    events = store.load(tournament, until=min(parsed, MAX_SEQ))
    if parsed > len(events) and events:  # no events at all: an unknown tournament
        raise past_the_end(parsed, len(events))
    return events


def load_until(store: Store, tournament: str, when: datetime) -> list[Recorded]:
    """The events recorded at or before ``when``, a page at a time, each page's link
    checked against the page before."""
    events: list[Recorded] = []
    while True:
        after = events[-1].seq if events else 0
        head = events[-1].event.hash if events else GENESIS
        page = store.load(tournament, after=after, head=head, until=after + PAGE)
        known = known_at(page, when)
        events += page[:known]
        if known < len(page) or len(page) < PAGE:
            return events
