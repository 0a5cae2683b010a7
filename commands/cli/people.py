"""Finding people from the command line: ``players`` lists and searches the tournament's
players, ``player`` shows one player's history, and every command that takes a player
takes an id or a unique name (``with_player_ids``, called by ``execute.execute``). Names
are the CLI's convenience: the commands it builds name players by id, as ``apply`` and
the HTTP API do, since the contract knows players by id only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from commands.cli.options import AsOfOpt, JsonOpt, StoreOpt, Tournament
from commands.cli.output import reported_errors
from commands.cli.read import load_state, names_of, print_model

if TYPE_CHECKING:
    from commands.handler import Handler
    from ledger.store import Store
    from projections.state import TournamentState

app = typer.Typer()

#: the fields of a command's data that name players (``commands.reads.people.with_ids``)
PLAYER_FIELDS = ("player", "players", "result")
#: commands whose ``player`` is a new id, or that name no player yet
NEW_IDS = ("register_player", "create_tournament")


def with_player_ids(handler: Handler, data: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """A CLI command's data with names turned into ids (from the store's registry), and
    the warnings to print once it is appended: a registration under a name another
    player of the tournament has already is accepted, and said (two people may share a
    name; the organizer may also have typed one twice). Names are not in events, so the
    check reads the registry here, in the shell, never in ``decide``."""
    from commands.reads.people import named, with_ids

    tournament, kind = data.get("tournament"), data.get("type")
    if not isinstance(tournament, str) or kind == "create_tournament":
        return data, []
    if kind == "register_player":
        name, player = data.get("name"), data.get("player")
        if not isinstance(name, str) or not name.strip():
            return data, []
        others = named(handler.store.players(tournament), name, but=str(player))
        return data, ([f"{name.strip()!r} is also the name of {', '.join(others)}"]
                      if others else [])  # fmt: skip
    if not any(field in data for field in PLAYER_FIELDS):
        return data, []
    known = handler.folds.state(tournament).players
    return with_ids(data, handler.store.players(tournament), known), []


def player_id(store: Store, state: TournamentState, text: str) -> str:
    """The id a read command's player argument names (an id or a unique name)."""
    from commands.reads.people import resolve_player

    return resolve_player(store.players(state.id), text, state.players)


SearchOpt = Annotated[
    str | None,
    typer.Option(help="Only players whose name or id holds this text (accents and case "
                 "ignored: 'elan' finds 'Élan')."),
]  # fmt: skip
PlayerArg = Annotated[
    str, typer.Argument(metavar="PLAYER", help="Player id, or a name only one player has.")
]


@app.command()
def players(
    tournament: Tournament,
    search: SearchOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
    as_of: AsOfOpt = None,
) -> None:
    """The players sorted by name (accents and case folded), with id and status."""
    from commands.reads import roster

    with reported_errors():
        st, state, _ = load_state(tournament, store, as_of)
        model = roster.players(state, names_of(st, state), search)
    if as_json:
        print_model(model)
        return
    from commands.cli import people_grids

    people_grids.show_players(model, search)


@app.command()
def player(
    tournament: Tournament,
    who: PlayerArg,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
    as_of: AsOfOpt = None,
) -> None:
    """One player's history: opponents and results by round, penalties (for escalation),
    deck checks, time extensions, drops and returns."""
    from commands.reads.history import player_history

    with reported_errors():
        st, state, _ = load_state(tournament, store, as_of)
        model = player_history(state, player_id(st, state, who), names_of(st, state))
    if as_json:
        print_model(model)
        return
    from commands.cli import people_grids

    people_grids.show_player(model)
