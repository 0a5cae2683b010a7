"""The audit reads a person reads: ``diff`` and ``explain`` with the players' names.

``replay`` works on the log alone and names players by id (names are not in the
log). Here the registry's names are joined once, as every read model joins them
(``commands.views``): the JSON gains a ``names`` member ({id: name}, "(erased)"
after ``tledger forget``) for the players the view names, and keeps every other
member as it was, so a consumer that reads ids reads the same data.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from commands.views import names_in
from ledger.store import Recorded
from projections.state import TournamentState
from replay import diff as diffs
from replay import explain as explains


def diff_view(
    events: Sequence[Recorded], a: int, b: int, names: Mapping[str, str]
) -> dict[str, Any]:
    """``replay.diff`` from seq ``a`` to ``b`` with the names of the players it names."""
    view = diffs.diff(events, a, b)
    return {**view, "names": names_in(names, diffs.players_named(view))}


def explain_view(state: TournamentState, player: str, names: Mapping[str, str]) -> dict[str, Any]:
    """``replay.explain`` of one player with their name and their opponents' names."""
    view = explains.explain(state, player)
    return {**view, "names": names_in(names, explains.players_named(view))}
