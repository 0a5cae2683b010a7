"""LCG 2 vs 2 team tournaments (lcg-2.1d "Team-Turniere"): registration by team and
the final match between teams level on points at the end.

The scoring and what is silent in the document are in
:mod:`projections.rulesets.lcg_teams`; here are the commands' rules:

- ``register_team`` registers a team of two with its members ("Anmeldung": "als
  zweiköpfige Teams anmelden"), only in a team event; ``register_player`` is refused
  there. Every id is unique across teams and members: a member's id names a person
  (``tledger forget`` erases that person's name), a team's id the competitor.
  Names (the team's, the members') go to the registry, never into the event
  (``commands.handler.personal_data``). The four deck lists may come with the
  registration (``list``, as ``submit_list`` takes them) or later by ``submit_list``
  for the team; "bei der Anmeldung zusammen eingereicht" is the organizer's to
  enforce (``lock_lists`` names the teams without one).
- ``make_cut`` is refused ("Eine Finalrunde gibt es im Team-Turnier nicht").
- After the last Swiss round, when the two best active teams have equal points,
  ``pair_round`` records a cut of those two and pairs their final match
  ("Finalbegegnung"); ``finish_tournament`` is refused until it is decided. When each
  is due is the lifecycle's to say (``projections.lifecycle``).
"""

from __future__ import annotations

import dataclasses

from commands import lists
from commands import models as m
from commands.context import Base, refuse_taken
from commands.errors import RuleViolation
from ledger.events import CutMade, EventBase, RoundPaired, TeamRegistered
from projections.elimination import ENGINE, elimination_tables
from projections.lifecycle import final_teams
from projections.rulesets import team_variant
from projections.rulesets.base import TeamFormat
from projections.standings import ruleset_of
from projections.state import TournamentState


def team_format(state: TournamentState) -> TeamFormat | None:
    """The event's team format (``Ruleset.team``); None where players compete."""
    return ruleset_of(state).team


def is_team_event(state: TournamentState) -> bool:
    return team_format(state) is not None


def section(state: TournamentState) -> str:
    """The section of the event's team format, or of the registered one (a singles
    event is told where team events are)."""
    own = team_format(state)
    return (own or team_variant()[2]).section


def register_team(
    state: TournamentState, c: m.RegisterTeam, base: Base, seed: int, salt: bytes = b""
) -> list[EventBase]:
    if not is_team_event(state):
        rid, option, _ = team_variant()
        raise RuleViolation(
            f"register_team: {state.id!r} is not a team tournament (create an {rid} "
            f'tournament with options {{"{option}": true}}, {section(state)})'
        )
    members = tuple(p.player for p in c.members)
    if members[0] == members[1]:
        raise RuleViolation(f"register_team: a team is two players; {members[0]!r} is named twice")
    if c.team in members:
        raise RuleViolation(f"register_team: the team id {c.team!r} is also a member's id")
    taken = {*state.players, *(p for team in state.teams.values() for p in team)}
    for new in (c.team, *members):
        refuse_taken(state, new, taken)
    events: list[EventBase] = [TeamRegistered(**base, team=c.team, members=members)]
    if c.list is not None:
        events += lists.listed(state, c, base, c.team, salt)
    return events


def refuse_player(state: TournamentState) -> None:
    """In a team event the competitors are teams ("Anmeldung")."""
    if is_team_event(state):
        raise RuleViolation(
            f"register_player: {state.id!r} is a team tournament; register players as a "
            f"team of two with register_team ({section(state)})"
        )


def pair_final(state: TournamentState, base: Base) -> list[EventBase]:
    """The final match of the two teams level at the top: a cut of two (seed 1 the team
    ranked higher) and its one match, paired from the bracket as every elimination
    round is (so ``verify`` re-derives it); the lifecycle's ``pair`` says when it is due
    (``projections.lifecycle.final_teams``)."""
    teams = final_teams(state)
    assert teams is not None
    cut = CutMade(**base, size=2, seeds=teams, format="single")
    _, tables = elimination_tables(dataclasses.replace(state, cut=cut))
    paired = RoundPaired(
        **base, round=len(state.rounds) + 1, stage="elimination", method="auto",
        engine=ENGINE, ruleset=state.ruleset, pairings=tables,
    )  # fmt: skip
    return [cut, paired]
