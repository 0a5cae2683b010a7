"""SWU limited events on the command line (swu-1.4 §2.3.2): seat a draft's
players in pods, show the pods, start the deck-building phase. Each write builds one
command of the contract (``assign_pods``, ``start_deck_building``); ``pods --json``
prints the same JSON as ``GET /tournaments/{t}/pods``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from commands.cli.execute import execute
from commands.cli.options import ActorOpt, AsOfOpt, JsonOpt, StoreOpt, Tournament

if TYPE_CHECKING:
    from commands.reads.podviews import Pods

app = typer.Typer()


@app.command("assign-pods")
def assign_pods(
    tournament: Tournament,
    size: Annotated[int, typer.Option("--size", min=2,
                                      help="Players per pod, about (8 recommended).")] = 8,
    seed: Annotated[int | None, typer.Option(help="Seed for the random seating.")] = None,
    reason: Annotated[str | None, typer.Option(help="Why (e.g. a late registration).")] = None,
    actor: ActorOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:  # fmt: skip
    """Seat a draft event's players in pods at random (seed chosen and recorded unless
    given); again until deck building starts, the last assignment counts."""
    execute(store, {"type": "assign_pods", "tournament": tournament, "pod_size": size,
                    "seed": seed, "reason": reason}, as_json, actor=actor)  # fmt: skip


@app.command()
def deckbuild(
    tournament: Tournament,
    minutes: Annotated[int, typer.Option(min=1, max=180,
                                         help="Length of the phase (swu-1.4 §2.3.2: 30).")] = 30,
    actor: ActorOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:  # fmt: skip
    """Start a limited event's deck-building phase now (draft: after assign-pods)."""
    execute(store, {"type": "start_deck_building", "tournament": tournament,
                    "minutes": minutes}, as_json, actor=actor)  # fmt: skip


@app.command()
def pods(
    tournament: Tournament, store: StoreOpt = None, as_json: JsonOpt = False, as_of: AsOfOpt = None
) -> None:
    """A draft's pods: each pod's seats in order round the table."""
    from commands.cli.read import print_model, read_model
    from commands.reads import podviews

    model = read_model(tournament, store, as_of, podviews.pods)
    if as_json:
        print_model(model)
    else:
        show_pods(model)


def show_pods(model: Pods) -> None:
    from rich.markup import escape
    from rich.table import Table

    from commands.cli.grids import console

    if not model.pods:
        console.print(f"{model.tournament}: no pods assigned")
        return
    grid = Table(title=f"Pods {model.tournament} (seq {model.assigned_seq}, seed {model.seed})")
    for col in ("Pod", "Seat", "Player", "Name"):
        grid.add_column(col, justify="right" if col in ("Pod", "Seat") else "left")
    for pod in model.pods:
        for s in pod.seats:
            grid.add_row(str(pod.pod), str(s.seat), escape(s.player),
                         escape(model.names.get(s.player, s.player)))  # fmt: skip
    console.print(grid)
