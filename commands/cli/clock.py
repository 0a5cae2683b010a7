"""``tledger clock T``: the round's time left, table by table.

The read model (``commands.reads.clockviews``) holds absolute times only; this render
compares them with the time now, so the JSON of one seq never changes with the
clock on the wall. Times are shown in the machine's local time zone (the venue's).

``--watch`` keeps the clock on a screen by the desk: it is drawn again every second
(in place on a terminal, one frame after another off one) until Ctrl-C, which ends it
with exit 0. The store is read again each second, so an extension, a deck check or a
result shows at once; only the new events are folded. With ``--json`` it prints the
clock's JSON once and again only when an event changes it (JSON Lines, as ``log
--follow``): the JSON holds absolute times and would otherwise repeat itself.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Annotated, Any

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
    watch: Annotated[
        bool, typer.Option("--watch", help="Draw it again every second until Ctrl-C.")
    ] = False,
    count: Annotated[
        int | None,
        typer.Option(min=1, help="With --watch: stop after this many seconds (for scripts)."),
    ] = None,
) -> None:
    """The current (or a given) round's clock: start, end and time left per table
    (extensions and deck checks included), tables over time marked. --watch keeps it on
    screen, drawn again every second (--json: a JSON line each time it changes)."""
    from datetime import UTC

    from commands.cli.read import load_state, names_of, print_model
    from commands.reads.clockviews import clock as clock_of

    if count is not None and not watch:
        from commands.cli.output import fail

        fail("clock: --count goes with --watch", 2)
    with reported_errors():
        st, state, _ = load_state(tournament, store)
        model = clock_of(state, round_number, names_of(st, state))
    if watch:
        from commands.folds import Folds

        folds = Folds(st)  # brought up to date each second: only new events are folded

        def read() -> Clock:
            now = folds.state(tournament)
            return clock_of(now, round_number, names_of(st, now))

        with reported_errors():
            watched(read, as_json, count)
        return
    if as_json:
        print_model(model)
        return
    show_clock(model, datetime.now(UTC))


def watched(read: Callable[[], Clock], as_json: bool, count: int | None) -> None:
    """Every second: the clock read again and drawn (a JSON line only when it changed),
    ``count`` times or until Ctrl-C (exit 0 either way)."""
    import sys
    import time
    from datetime import UTC

    from commands.cli.grids import console
    from commands.reads.views import json_bytes

    ticks, last = 0, b""
    live = None
    try:
        if console.is_terminal and not as_json:
            from rich.live import Live

            live = Live(console=console, auto_refresh=False, transient=False)
            live.start()
        while count is None or ticks < count:
            model = read()
            if as_json:
                data = json_bytes(model)
                if data != last:
                    sys.stdout.write(data.decode() + "\n")
                    sys.stdout.flush()
                    last = data
            elif live is not None:
                live.update(clock_view(model, datetime.now(UTC)), refresh=True)
            else:
                if ticks:
                    console.print()
                show_clock(model, datetime.now(UTC))
                sys.stdout.flush()
            ticks += 1
            if count is None or ticks < count:
                time.sleep(1.0)
    except KeyboardInterrupt:
        pass
    finally:
        if live is not None:
            live.stop()


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
    from commands.cli.grids import console

    console.print(clock_view(model, now))


def clock_view(model: Clock, now: datetime) -> Any:
    """The clock as one renderable: its heading lines and the tables' grid."""
    from rich.console import Group
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    if not model.round:
        return Text("no round is paired yet")
    limit = f"{model.minutes} minutes" if model.minutes is not None else "no time limit"
    lines = [f"Round {model.round} ({model.stage}): {limit} ({model.section})"]
    if model.started_at is None:
        lines.append(f"round {model.round} is paired, not started")
    else:
        lines.append(f"started {local(model.started_at)}{round_end(model, now)}")
    grid = Table()
    for col in ("Table", "Players", "Added", "Ends", "Left"):
        grid.add_column(col, overflow="fold")
    for t in model.tables:
        grid.add_row(*(escape(cell) for cell in table_row(t, model, now)))
    return Group(*(Text(line) for line in lines), grid)
