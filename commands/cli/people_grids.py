"""Human output of the people reads (``players``, ``player``): Rich grids over the
read models, narrow enough for an 80-column terminal (long names wrap inside their
cell). Nothing here looks a name up or computes a value beyond wording a result."""

from __future__ import annotations

from typing import Any

from rich.markup import escape
from rich.table import Table

from commands.cli.grids import console
from commands.reads.models import PlayerHistory, Players

#: how each field of a result reads (the contract's result shapes); others as key=value
RESULT_WORDS = {
    "intentional_draw": "intentional draw", "double_loss": "double loss",
    "winner": "won by {}", "decided_by": "decided by {}", "concession": "conceded by {}",
    "no_show": "no-show: {}", "light": "light side: {}",
}  # fmt: skip


def shown_result(result: dict[str, Any] | None) -> str:
    """A result from the player's side as people say it: "2-1, 1 drawn", "140-84 pts",
    "intentional draw", "p1, draw" (LCG games)."""
    if result is None:
        return "-"
    parts: list[str] = []
    for key, value in result.items():
        if key == "games":
            parts.append("-".join(str(v) for v in value))
        elif key == "draws":
            if value:
                parts.append(f"{value} drawn")
        elif key == "points":
            parts.append("-".join(str(v) for v in value) + " pts")
        elif key == "game_results":
            parts.append("games " + " ".join(str(v) for v in value))
        elif key in RESULT_WORDS:
            if value is not False:
                parts.append(RESULT_WORDS[key].format(value))
        else:
            parts.append(f"{key}={value}")
    return ", ".join(parts)


def show_players(model: Players, search: str | None) -> None:
    """The list, then how many it shows (and for which search) under it."""
    grid = Table(title=escape(f"Players of {model.tournament}"))
    for col in ("Name", "Player", "Status"):
        grid.add_column(col)
    for row in model.players:
        grid.add_row(escape(row.name), escape(row.player), row.status)
    console.print(grid)
    found = f" matching {search!r}" if search else ""
    console.print(escape(f"{len(model.players)} player(s){found}"))
    console.print(f"seq {model.seq}, head {model.head}")


def show_player(model: PlayerHistory) -> None:
    """The player, then one grid per kind of entry that has any."""
    console.print(escape(f"{model.name} ({model.player}) in {model.tournament}: ")
                  + standing_of(model))  # fmt: skip
    matches = Table(title="Matches")
    for col in ("Round", "Table", "Opponent", "Result", "State"):
        matches.add_column(col)
    for m in model.matches:
        opponent = f"{m.opponent_name} ({m.opponent})" if m.opponent else "bye"
        matches.add_row(str(m.round), "-" if m.table is None else str(m.table),
                        escape(opponent), escape(shown_result(m.result)), m.state)  # fmt: skip
    console.print(matches)
    rows: list[tuple[str, tuple[str, ...], list[tuple[Any, ...]]]] = [
        ("Penalties", ("Round", "Penalty", "Infraction", "Points"),
         [(p.round, p.penalty, p.infraction, "-" if p.points is None else f"{p.points:g}")
          for p in model.penalties]),
        ("Deck checks", ("Round", "Timing", "Outcome", "Minutes"),
         [(d.round, d.timing, d.outcome, d.minutes) for d in model.deck_checks]),
        ("Time extensions", ("Round", "Minutes", "Reason"),
         [(x.round, x.minutes, x.reason or "-") for x in model.extensions]),
        ("Drops", ("After round", "Reason"),
         [(d.after_round, d.reason or "-") for d in model.drops]),
    ]  # fmt: skip
    for title, columns, entries in rows:
        if entries:
            console.print(listing(title, columns, entries))
    console.print(f"seq {model.seq}, head {model.head}")


def standing_of(model: PlayerHistory) -> str:
    """Whether the player still plays, and the rounds missed and rejoined."""
    if model.disqualified:
        said = "disqualified"
    elif model.dropped:
        said = f"dropped after round {model.dropped_after_round}"
    else:
        said = "active"
    if model.rejoined_in_rounds:
        said += ", rejoined in round " + ", ".join(map(str, model.rejoined_in_rounds))
    if model.reinstated_in_rounds:
        said += ", reinstated (a drop made in error) from round " + ", ".join(
            map(str, model.reinstated_in_rounds)
        )
    if model.missed_rounds:
        said += ", missed round " + ", ".join(map(str, model.missed_rounds))
    return said


def listing(title: str, columns: tuple[str, ...], entries: list[tuple[Any, ...]]) -> Table:
    grid = Table(title=title)
    for col in columns:
        grid.add_column(col)
    for entry in entries:
        grid.add_row(*(escape(str(value)) for value in entry))
    return grid
