"""Round clocks: when a round's time ends, table by table.

A round's time runs from its ``round_started`` event for as long as its ruleset
gives a match of that stage (``Ruleset.round_time``); a table ends later by the
minutes added to its match (``time_extension_granted``, which a deck check during
the match appends too: swu-1.4 §6). A bye has no clock; a final without a limit
(lcg-2.1d "Final-Begegnung") has no end time. Everything here is a function of the
state: the time now is an input of ``over_time`` only, so a clock computed once
per seq holds until the next event.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from ledger.events import Stage
from projections.standings import ruleset_of
from projections.state import Match, Round, TournamentState


@dataclass(frozen=True, slots=True)
class TableTime:
    """One match's clock: its end (None: not started, or no limit), the minutes added
    to it, and whether its result is confirmed (a finished match stops its clock)."""

    table: int | None
    players: tuple[str, ...]
    ends_at: datetime | None
    extension_minutes: int
    finished: bool


@dataclass(frozen=True, slots=True)
class RoundTimes:
    """A round's clock: its time limit (None: no limit), start and end, and its tables."""

    round: int
    stage: Stage
    minutes: int | None
    section: str
    started_at: datetime | None
    ends_at: datetime | None
    tables: tuple[TableTime, ...]


def end(started_at: datetime | None, minutes: int | None, extra: int = 0) -> datetime | None:
    if started_at is None or minutes is None:
        return None
    return started_at + timedelta(minutes=minutes + extra)


def round_times(state: TournamentState, rnd: Round) -> RoundTimes:
    """The clock of round ``rnd``. The round's own limit is that of its matches: a
    round that holds only final matches has the final's (X-Wing 120 minutes, the
    LCG grand final none), any other round that of its stage."""
    rules = ruleset_of(state).round_time()
    played = [m for m in rnd.matches if not m.is_bye]
    final = bool(played) and all(m.bracket == "final" for m in played)
    minutes = rules.minutes(rnd.stage, "final" if final else None)
    return RoundTimes(
        round=rnd.number, stage=rnd.stage, minutes=minutes, section=rules.section,
        started_at=rnd.started_at, ends_at=end(rnd.started_at, minutes),
        tables=tuple(table_time(m, end(rnd.started_at, rules.minutes(m.stage, m.bracket),
                                       m.extension_minutes)) for m in played),
    )  # fmt: skip


def table_time(match: Match, ends_at: datetime | None) -> TableTime:
    return TableTime(match.table, match.players, ends_at, match.extension_minutes,
                     finished=match.status == "confirmed")  # fmt: skip
