"""The teams of an lcg-2.1d team event with their members (lcg-2.1d "Team-Turniere":
"zweiköpfige Teams"): what the console's Players page lists beside each team, each
member's id and name from the registry (an erased member shows as "(erased)")."""

from __future__ import annotations

from collections.abc import Mapping

from commands.reads.models import ReadModel
from commands.reads.views import name_of
from projections.state import TournamentState


class TeamMemberRow(ReadModel):
    player: str
    name: str


class TeamMembers(ReadModel):
    """Team id -> its two members, in the order they registered."""

    teams: dict[str, list[TeamMemberRow]]


def team_members(state: TournamentState, names: Mapping[str, str]) -> TeamMembers:
    return TeamMembers(teams={
        team: [TeamMemberRow(player=p, name=name_of(names, p)) for p in members]
        for team, members in state.teams.items()})  # fmt: skip
