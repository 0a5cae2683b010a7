"""Undoing honest mistakes from the command line: each undo is a new event with its
reason, shown by ``log``, ``replay`` and ``diff`` beside the act it undoes."""

from __future__ import annotations

from typing import Annotated

import typer

from commands.cli.execute import execute, parse_option
from commands.cli.options import ActorOpt, JsonOpt, StoreOpt, Tournament

app = typer.Typer()

Player = Annotated[str, typer.Argument(help="Player id or a unique name.")]
Reason = Annotated[str, typer.Option(help="Why (kept in the log).")]


@app.command()
def reinstate(
    tournament: Tournament, player: Player, reason: Reason, actor: ActorOpt = None,
    store: StoreOpt = None, as_json: JsonOpt = False,
) -> None:  # fmt: skip
    """Undo a drop made in error: paired again from the next round (the match recorded as
    lost at the drop stands; correct it if it was played)."""
    execute(store, {"type": "reinstate_player", "tournament": tournament, "player": player,
                    "reason": reason}, as_json, actor=actor)  # fmt: skip


@app.command()
def reopen(
    tournament: Tournament, reason: Reason, actor: ActorOpt = None, store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:  # fmt: skip
    """Undo a finish made in error: the tournament runs on from where it stood."""
    execute(store, {"type": "reopen_tournament", "tournament": tournament, "reason": reason},
            as_json, actor=actor)  # fmt: skip


@app.command()
def withdraw(
    tournament: Tournament, player: Player, reason: Reason, actor: ActorOpt = None,
    store: StoreOpt = None, as_json: JsonOpt = False,
) -> None:  # fmt: skip
    """Withdraw a registration made in error (before round 1 is paired; later, drop)."""
    execute(store, {"type": "withdraw_registration", "tournament": tournament,
                    "player": player, "reason": reason}, as_json, actor=actor)  # fmt: skip


@app.command("change-options")
def change_options(
    tournament: Tournament,
    option: Annotated[
        list[str],
        typer.Option("--option", "-o", help="KEY=VALUE to set; KEY=null for the default."),
    ],
    reason: Annotated[str | None, typer.Option(help="Why (kept in the log).")] = None,
    actor: ActorOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Change options (rounds, cut, format, ...) before round 1 is paired."""
    options = dict(parse_option(o) for o in option)
    execute(store, {"type": "change_options", "tournament": tournament, "options": options,
                    "reason": reason}, as_json, actor=actor)  # fmt: skip
