"""The contract's JSON of the main reads as plain data, for tests that compare it with
what a golden log or an earlier run recorded."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from commands.reads.views import bracket, json_of, pairings, registered_names, standings, status
from ledger.store import PlayerEntry
from projections.state import TournamentState


def status_view(state: TournamentState) -> dict[str, Any]:
    return json_of(status(state))


def standings_view(state: TournamentState, entries: Mapping[str, PlayerEntry]) -> dict[str, Any]:
    return json_of(standings(state, registered_names(entries, state.teams)))


def pairings_view(state: TournamentState, round_number: int | None = None) -> dict[str, Any]:
    return json_of(pairings(state, round_number))


def bracket_view(state: TournamentState) -> dict[str, Any]:
    return json_of(bracket(state))
