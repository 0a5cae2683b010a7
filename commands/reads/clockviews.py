"""The round clock as a read model: when the round and each table's time end.

``clock`` is a function of the fold only: absolute times, cached per seq like every
read model. The time left is for the face to compute from ``ends_at`` and its own
now (the CLI's render, the public pages' script); ``late`` takes now as an input
where a read flags the tables over time (``status``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from commands.reads.models import Clock, ReadModel, TableClock
from commands.reads.views import names_in, paired_round
from projections.clock import round_times
from projections.state import TournamentState


def clock(
    state: TournamentState, round_number: int | None = None,
    names: Mapping[str, str] | None = None,
) -> Clock:  # fmt: skip
    """The current (or a given) round's clock; before any round is paired an empty one
    (round 0, no tables)."""
    rnd = paired_round(state, round_number)
    if rnd is None:
        return Clock(round=0, started_at=None, ends_at=None, tables=[], stage=None,
                     minutes=None, section="", seq=state.seq)  # fmt: skip
    times = round_times(state, rnd)
    tables = [TableClock(table=t.table, players=list(t.players), ends_at=t.ends_at,
                         extension_minutes=t.extension_minutes,
                         state="finished" if t.finished else "playing")
              for t in times.tables]  # fmt: skip
    return Clock(
        round=times.round, started_at=times.started_at, ends_at=times.ends_at, tables=tables,
        stage=times.stage, minutes=times.minutes, section=times.section, seq=state.seq,
        names=names_in(names or {}, (p for t in tables for p in t.players)),
    )  # fmt: skip


def late(model: ReadModel, now: datetime) -> tuple[tuple[str, ...], ...]:
    """The players of each table still playing after its time at ``now`` (a table
    without an end time never is): what ``status`` flags as ``over_time``."""
    assert isinstance(model, Clock)
    return tuple(tuple(t.players) for t in model.tables if over(t, now))


def over(table: TableClock, now: datetime) -> bool:
    return table.state == "playing" and table.ends_at is not None and table.ends_at <= now


def late_at(state: TournamentState, now: datetime) -> tuple[tuple[str, ...], ...]:
    """``late`` of the current round's clock (the CLI's status, which folds itself)."""
    return late(clock(state), now)
