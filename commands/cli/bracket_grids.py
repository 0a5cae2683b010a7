"""Human output of the elimination stage: the seeds after ``cut`` and the bracket.

The bracket reads the way an organizer calls it out: each round under its name
(quarterfinal, semifinal, final; upper and lower rounds and the grand final in
double elimination, with the regulation's own words), each match with its seeds,
names, result and winner, then the champion. Everything shown comes from the
bracket read model (``commands.reads.views.bracket``); nothing is computed here. Rich
wraps every cell, so the output stays within the console's width (80 columns
when standard output is not a terminal).
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.markup import escape
from rich.table import Table

from commands.cli.grids import console, label
from commands.reads.eventtext import describe_result
from commands.reads.models import Bracket, BracketMatch, BracketRound


def seed_of(model: Bracket) -> dict[str, int]:
    """Each player's seed; both players of a playoff hold the seed they play for."""
    seeds = {s.player: s.seed for s in model.seeds}
    seeds.update({s.playoff: s.seed for s in model.seeds if s.playoff})
    return seeds


def show_seeds(model: Bracket) -> None:
    """The seeds, one per line: seed, name, id (and who plays whom for a place first)."""
    if not model.seeds:
        return
    console.print(f"Seeds ({model.format} elimination, top {len(model.seeds)}):", markup=False)
    for s in model.seeds:
        line = f"{s.seed:>4}  {label(model.names, s.player)}"
        if s.playoff:
            line += f" or {label(model.names, s.playoff)} (playoff)"
        console.print(line, markup=False, highlight=False)


def show_bracket(model: Bracket) -> None:
    """Each elimination round under its name; the champion at the end."""
    if not model.rounds:
        console.print("no elimination round yet", markup=False)
        show_seeds(model)
        return
    console.print(f"Bracket ({model.format} elimination); * won the match", markup=False)
    seeds = seed_of(model)
    for rnd in model.rounds:
        console.print(f"\nRound {rnd.round}: {rnd.name}", markup=False)
        console.print(round_grid(rnd, model.names, seeds))
    if model.champion:
        console.print(f"Champion: {label(model.names, model.champion)}", markup=False)


def round_grid(rnd: BracketRound, names: Mapping[str, str], seeds: Mapping[str, int]) -> Table:
    """One round; a round that holds matches of several names (an upper and a lower
    round at once) names each match."""
    mixed = len({m.name for m in rnd.matches}) > 1
    grid = Table()
    for col in ("Table", *(["Match"] if mixed else []), "Players", "Result"):
        grid.add_column(col)
    for m in rnd.matches:
        shown = "\n".join(player_line(m, p, names, seeds) for p in m.players)
        where = str(m.table) if m.table is not None else "-"
        grid.add_row(where, *([escape(m.name)] if mixed else []), shown, result_text(m, names))
    return grid


def player_line(m: BracketMatch, player: str, names: Mapping[str, str],
                seeds: Mapping[str, int]) -> str:  # fmt: skip
    mark = "*" if player == m.winner else " "
    seed = f"({seeds[player]}) " if player in seeds else ""
    return escape(f"{mark} {seed}{label(names, player)}")


def result_text(m: BracketMatch, names: Mapping[str, str]) -> str:
    """A result as people say it, numbers in the order of the match's players."""
    if len(m.players) == 1:
        return "bye"
    if m.result is None:
        return "not reported"
    return escape(describe_result(m.result, names))
