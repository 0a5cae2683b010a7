"""``tledger clock T``: the round's time left, table by table.

The read model (``commands.reads.clockviews``) holds absolute times only; this render
compares them with the time now, so the JSON of one seq never changes with the
clock on the wall. Times are shown in the machine's local time zone (the venue's).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Annotated

import typer

from commands.cli.options import JsonOpt, StoreOpt, Tournament
from commands.cli.output import reported_errors

if TYPE_CHECKING:
    from commands.reads.models import Clock, TableClock

app = typer.Typer()


@app.command()
def clock(
    tournament: Tournament,
    round_number: Annotated[int | None, typer.Option("--round", min=1, help="Round.")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The current (or a given) round's clock: start, end and time left per table
    (extensions and deck checks included), tables over time marked."""
    from datetime import UTC

    from commands.cli.read import load_state, names_of, print_model
    from commands.reads.clockviews import clock as clock_of

    with reported_errors():
        st, state, _ = load_state(tournament, store)
        model = clock_of(state, round_number, names_of(st, state))
    if as_json:
        print_model(model)
        return
    show_clock(model, datetime.now(UTC))


def left(ends_at: datetime, now: datetime) -> str:
    """Time left as mm:ss (minutes past 59 stay minutes: 75:00); past the end, the time
    over with a minus sign."""
    seconds = int((ends_at - now) // timedelta(seconds=1))
    sign, seconds = ("-", -seconds) if seconds < 0 else ("", seconds)
    return f"{sign}{seconds // 60:02d}:{seconds % 60:02d}"


def local(at: datetime) -> str:
    return at.astimezone().strftime("%H:%M:%S")


def table_row(t: TableClock, model: Clock, now: datetime) -> tuple[str, ...]:
    from commands.reads.clockviews import over

    first = (str(t.table or "-"), " v ".join(f"{model.names.get(p, p)} ({p})" for p in t.players),
             f"+{t.extension_minutes}" if t.extension_minutes else "")  # fmt: skip
    if t.state == "finished":
        return (*first, "-", "finished")
    if t.ends_at is None:
        return (*first, "-", "no limit" if model.started_at else "not started")
    late = " OVER TIME" if over(t, now) else ""
    return (*first, local(t.ends_at), f"{left(t.ends_at, now)}{late}")


def round_end(model: Clock, now: datetime) -> str:
    if model.ends_at is None:
        return ""
    if model.ends_at <= now:
        return f", ended {local(model.ends_at)}: time is up ({left(model.ends_at, now)})"
    return f", ends {local(model.ends_at)}: {left(model.ends_at, now)} left"


def show_clock(model: Clock, now: datetime) -> None:
    from rich.markup import escape
    from rich.table import Table

    from commands.cli.grids import console

    if not model.round:
        console.print("no round is paired yet")
        return
    limit = f"{model.minutes} minutes" if model.minutes is not None else "no time limit"
    console.print(f"Round {model.round} ({model.stage}): {limit} ({model.section})")
    if model.started_at is None:
        console.print(f"round {model.round} is paired, not started")
    else:
        console.print(f"started {local(model.started_at)}{round_end(model, now)}")
    grid = Table()
    for col in ("Table", "Players", "Added", "Ends", "Left"):
        grid.add_column(col, overflow="fold")
    for t in model.tables:
        grid.add_row(*(escape(cell) for cell in table_row(t, model, now)))
    console.print(grid)
