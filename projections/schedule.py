"""How long the Swiss stage runs and how large the cut is (swu-1.4 §4.5 and the other
rulesets' tables): fixed by the players present at round 1, so late registrations
change nothing; before round 1 the eligible players stand in for them."""

from __future__ import annotations

from projections.pairing import eligible_players
from projections.standings import ruleset_of
from projections.state import TournamentState


def players_present(state: TournamentState) -> int:
    return state.round1_players or len(eligible_players(state))


def rounds_planned(state: TournamentState) -> int:
    return ruleset_of(state).rounds_planned(players_present(state))


def cut_size(state: TournamentState) -> int:
    """The cut made, or the one the ruleset's table (or the ``cut`` option) gives."""
    if state.cut is not None:
        return state.cut.size
    return ruleset_of(state).cut_size(players_present(state))
