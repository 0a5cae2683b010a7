"""The audit reads a person reads: ``diff`` and ``explain`` with the players' names.

``replay`` works on the log alone and names players by id (names are not in the
log). Here the registry's names are joined once, as every read model joins them
(``commands.reads.views``): the JSON gains a ``names`` member ({id: name}, "(erased)"
after ``tledger forget``) for the players the view names, and keeps every other
member as it was, so a consumer that reads ids reads the same data.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from commands.errors import InvalidCommand, UnknownTournament
from commands.reads.auditmodels import Explained, TiebreakerWhy
from commands.reads.views import names_in, registered_names
from ledger.store import Recorded, Store
from projections.rulesets import ruleset
from projections.state import TournamentState
from replay import diff as diffs
from replay import explain as explains
from replay.points import known_at, load_prefix, parse_point


def diff_view(
    events: Sequence[Recorded], a: int, b: int, names: Mapping[str, str]
) -> dict[str, Any]:
    """``replay.diff`` from seq ``a`` to ``b`` with the names of the players it names."""
    view = diffs.diff(events, a, b)
    return {**view, "names": names_in(names, diffs.players_named(view))}


def diff_between(store: Store, tournament: str, a: str, b: str) -> dict[str, Any]:
    """``diff_view`` between two points (each a seq or a UTC time), A before B, with the
    registry's names (teams named with their members). Only B's prefix is read, so a log
    damaged after B still compares, as ``tledger replay --until`` reads it."""
    from projections.state import fold

    events = load_prefix(store, tournament, b)
    if not events:
        raise UnknownTournament(tournament)
    parsed, end = parse_point(a), len(events)
    start = known_at(events, parsed) if isinstance(parsed, datetime) else parsed
    if start >= end:
        raise InvalidCommand(f"diff: A (seq {start}) must come before B (seq {end})")
    names = registered_names(store.players(tournament), fold(events).teams)
    return diff_view(events, start, end, names)


def explained(state: TournamentState, player: str, names: Mapping[str, str]) -> Explained:
    """``explain_view`` as the typed read model, each tiebreaker labelled and shown as its
    ruleset declares (``Tiebreaker.show``)."""
    view = explain_view(state, player, names)
    described = {t.key: t for t in ruleset(state.ruleset).tiebreakers}
    why = {
        key: TiebreakerWhy(**t, label=described[key].label, shown=described[key].show(t["value"]))
        for key, t in view["tiebreakers"].items()
    }
    return Explained.model_validate({**view, "tiebreakers": why})


def explain_view(state: TournamentState, player: str, names: Mapping[str, str]) -> dict[str, Any]:
    """``replay.explain`` of one player with their name and their opponents' names."""
    view = explains.explain(state, player)
    return {**view, "names": names_in(names, explains.players_named(view))}
