"""Points in time: a ``seq`` of the tournament's log, or a UTC time (design: The store)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from ledger.store import Recorded
from replay.errors import BadPoint


def resolve_point(events: Sequence[Recorded], point: str) -> int:
    """The seq a point names: a number is a seq; a time is the last event at or before it."""
    text = point.strip()
    if text.isdigit():
        seq = int(text)
        if seq > len(events):
            raise BadPoint(f"seq {seq} is past the end of the log ({len(events)} events)")
        return seq
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise BadPoint(f"{point!r} is neither a seq nor an ISO 8601 time") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return sum(1 for r in events if r.event.at <= when)


def prefix(events: Sequence[Recorded], point: str | None) -> list[Recorded]:
    """The events known at ``point`` (all of them when no point is given)."""
    return list(events) if point is None else list(events[: resolve_point(events, point)])
