"""Commands that read a tournament: its status, standings, pairings, bracket and
log, each as a grid or as the JSON of the contract, as of now or of a past point."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from commands.cli.options import AsOfOpt, JsonOpt, StoreOpt, Tournament
from commands.cli.output import print_json, reported_errors

if TYPE_CHECKING:
    from commands.reads.logfilter import LogFilter
    from commands.reads.models import ReadModel
    from ledger.store import Recorded, Store
    from projections.state import TournamentState

app = typer.Typer()
M = TypeVar("M", bound="ReadModel")


def load_state(
    tournament: str, store_url: str | None, as_of: str | None = None
) -> tuple[Store, TournamentState, list[Recorded]]:
    """Open the store and fold the tournament (the prefix known at ``as_of``)."""
    from commands.errors import UnknownTournament
    from ledger.url import open_store
    from replay.rebuild import rebuild

    store = open_store(store_url, create=False)
    state, events = rebuild(store, tournament, as_of)
    if not state.exists:
        raise UnknownTournament(tournament)
    return store, state, events


def read_model(
    tournament: str, store_url: str | None, as_of: str | None,
    build: Callable[[TournamentState, dict[str, str]], M],
) -> M:  # fmt: skip
    """The read model ``build`` makes of the tournament (as known at ``as_of``) and its
    players' names; errors reported as every read command reports them."""
    with reported_errors():
        store, state, _ = load_state(tournament, store_url, as_of)
        return build(state, names_of(store, state))


def print_model(model: ReadModel) -> None:
    """A read model's JSON, exactly the bytes the HTTP API sends."""
    from commands.reads.views import json_bytes

    sys.stdout.write(json_bytes(model).decode() + "\n")


def names_of(store: Store, state: TournamentState) -> dict[str, str]:
    """The registry's names, teams named with their members (lcg-2.1d Team-Turniere)."""
    from commands.reads.views import registered_names

    return registered_names(store.players(state.id), state.teams)


def labels_of(store: Store) -> dict[tuple[str, str], str]:
    """Token actors' labels, joined at read time (personal data stays out of the log)."""
    from commands.reads.token_list import actor_labels

    return actor_labels(store.tokens())


@app.command()
def status(
    tournament: Tournament, store: StoreOpt = None, as_json: JsonOpt = False, as_of: AsOfOpt = None
) -> None:
    """Where the tournament stands: stage, round, players, head hash, the round's tables
    (those still playing after their time marked "over time"; not with --as-of)."""
    from datetime import UTC, datetime

    from commands.reads import views
    from commands.reads.clockviews import late_at

    with reported_errors():
        st, state, _ = load_state(tournament, store, as_of)
        late = late_at(state, datetime.now(UTC)) if as_of is None else ()
        model = views.status(state, names_of(st, state), late)
    if as_json:
        print_model(model)
        return
    from commands.cli import grids

    grids.show_status(model)


@app.command()
def standings(
    tournament: Tournament, store: StoreOpt = None, as_json: JsonOpt = False, as_of: AsOfOpt = None
) -> None:
    """Standings with points, record and tiebreakers."""
    from commands.reads import views

    with reported_errors():
        st, state, _ = load_state(tournament, store, as_of)
        model = views.standings(state, names_of(st, state))
    if as_json:
        print_model(model)
        return
    from commands.cli import grids

    grids.show_standings(model)


@app.command()
def pairings(
    tournament: Tournament,
    round_number: Annotated[int | None, typer.Option("--round", min=1, help="Round.")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
    as_of: AsOfOpt = None,
) -> None:
    """Pairings of the current (or a given) round, by table and by name."""
    from commands.reads import views
    from commands.reads.initiative import initiative_lists

    with reported_errors():
        st, state, _ = load_state(tournament, store, as_of)
        model = views.pairings(state, round_number, names_of(st, state),
                               lists=initiative_lists(st, state))  # fmt: skip
    if as_json:
        print_model(model)
        return
    from commands.cli import grids

    grids.show_pairings(model)


@app.command()
def bracket(
    tournament: Tournament, store: StoreOpt = None, as_json: JsonOpt = False, as_of: AsOfOpt = None
) -> None:
    """The elimination bracket: every round's matches, brackets and winners."""
    from commands.reads import views

    with reported_errors():
        st, state, _ = load_state(tournament, store, as_of)
        model = views.bracket(state, names_of(st, state))
    if as_json:
        print_model(model)
        return
    from commands.cli import bracket_grids

    bracket_grids.show_bracket(model)


@app.command()
def log(
    tournament: Tournament,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
    as_of: AsOfOpt = None,
    follow: Annotated[bool, typer.Option("--follow", help="Keep printing new events.")] = False,
    types: Annotated[
        list[str] | None,
        typer.Option(
            "--type", metavar="TYPE", help="Only events of this type (repeat it, or a,b,c)."
        ),
    ] = None,
    player: Annotated[
        str | None,
        typer.Option(help="Only events naming this player (an id, or a name only one has)."),
    ] = None,
    round_number: Annotated[
        int | None, typer.Option("--round", min=1, help="Only events of this round.")
    ] = None,
) -> None:
    """Every event of the tournament, oldest first (--follow: as they arrive, JSON Lines);
    --type, --player and --round keep the events that match all of them. --player takes
    an id or a name only one player has; an unknown or shared name is an error (exit 1)."""
    from dataclasses import replace

    from commands.reads.logfilter import LogFilter, event_types
    from commands.reads.people import known_player
    from commands.reads.views import log_page

    with reported_errors("log: "):
        keep = LogFilter(event_types(types or []), None, round_number)
    if follow:
        if player is not None:
            with reported_errors("log: "):
                st, state, _ = load_state(tournament, store)
                keep = replace(keep, player=known_player(st.players(tournament), player,
                                                         state.players))  # fmt: skip
        follow_log(tournament, store, keep)
        return
    with reported_errors():
        st, state, events = load_state(tournament, store, as_of)
        labels = labels_of(st)
    if player is not None:
        with reported_errors("log: "):
            keep = replace(keep, player=known_player(st.players(tournament), player,
                                                     state.players))  # fmt: skip
    model = log_page(tournament, events, keep=keep, labels=labels)
    if as_json:
        print_model(model)
        return
    from commands.cli import grids

    grids.show_log(model)


def follow_log(tournament: str, store_url: str | None, keep: LogFilter | None = None) -> None:
    """Print each event (that ``keep`` keeps) as one JSON line as it arrives (the CLI twin
    of the SSE stream)."""
    import time

    from ledger.url import open_store

    with reported_errors():
        store = open_store(store_url, create=False)
        seen = 0
        try:
            while True:
                for r in store.load(tournament, after=seen):
                    if keep is None or keep.keeps(r):
                        print_json(r.as_json())
                    seen = r.seq
                sys.stdout.flush()
                time.sleep(0.5)
        except KeyboardInterrupt:
            return
