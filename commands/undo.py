"""Honest mistakes undone by new events, never by deleting one.

Each undo names its actor and reason and stays in the log beside the act it
undoes, so ``log``, ``replay`` and ``diff`` show both the mistake and its undoing.
Only the organizer undoes, as only the organizer drops, registers and finishes.
"""

from __future__ import annotations

from typing import Any

from commands import models as m
from commands.context import Base, player_of, require_role
from commands.errors import InvalidCommand, RuleViolation, WrongPhase
from commands.limited import refuse_unsupported
from ledger.events import (
    EventBase,
    OptionsChanged,
    PlayerReinstated,
    RegistrationWithdrawn,
    TournamentReopened,
)
from projections.rulesets import ruleset, team_variant
from projections.state import TournamentState

ORGANIZER_ROLE = ("organizer",)


def reinstate_player(
    state: TournamentState, c: m.ReinstatePlayer, base: Base, seed: int
) -> list[EventBase]:
    """A drop made in error. The player is paired again from the next round; a Swiss round
    paired meanwhile counts as the ruleset counts a missed round (X-Wing, Armada: an
    unpaired loss; SWU, LCG: nothing). The match recorded as lost at the drop stands:
    correct it if it was in fact played. A disqualification is not a drop and is not
    undone here."""
    require_role(c.actor, ORGANIZER_ROLE, "reinstate a player")
    player = player_of(state, c.player)
    if player.disqualified:
        raise RuleViolation(
            f"player {c.player!r} is disqualified; reinstate undoes a drop made in error"
        )
    if not player.dropped:
        raise WrongPhase(f"player {c.player!r} has not dropped")
    if state.stage not in ("registration", "swiss"):
        raise WrongPhase(
            f"the Swiss stage is over (stage {state.stage}): a reinstated player could "
            "not be paired again"
        )
    return [PlayerReinstated(**base, player=c.player, reason=c.reason)]


def reopen_tournament(
    state: TournamentState, c: m.ReopenTournament, base: Base, seed: int
) -> list[EventBase]:
    """A finish made in error: the tournament runs on from where it stood."""
    require_role(c.actor, ORGANIZER_ROLE, "reopen the tournament")
    if not state.finished:
        raise WrongPhase(f"tournament {state.id!r} is not finished")
    return [TournamentReopened(**base, reason=c.reason)]


def before_round_1(state: TournamentState, what: str) -> None:
    if state.rounds:
        raise WrongPhase(f"round 1 is paired: {what}")


def withdraw_registration(
    state: TournamentState, c: m.WithdrawRegistration, base: Base, seed: int
) -> list[EventBase]:
    """A registration made in error (a player registered twice, the wrong event): before
    round 1 is paired it goes without a trace in standings; after, drop the player."""
    require_role(c.actor, ORGANIZER_ROLE, "withdraw a registration")
    player_of(state, c.player)
    before_round_1(state, f"drop {c.player} instead of withdrawing the registration")
    return [RegistrationWithdrawn(**base, player=c.player, reason=c.reason)]


def change_options(
    state: TournamentState, c: m.ChangeOptions, base: Base, seed: int
) -> list[EventBase]:
    """Options (rounds, cut, format, ...) changed before round 1 is paired: the round
    count and the cut follow from them (swu-1.4 §4.5), so they may not change after.
    The seed is fixed at creation: every draw of the event depends on it."""
    require_role(c.actor, ORGANIZER_ROLE, "change the options")
    before_round_1(state, "options are fixed once pairing has begun")
    if "seed" in c.options:
        raise InvalidCommand("change_options: the seed is fixed when the tournament is created")
    _, option, team = team_variant()
    if option in c.options:
        raise InvalidCommand(
            f"change_options: {option!r} is fixed when the tournament is created "
            f"(teams and players register differently, {team.section})"
        )
    refuse_unsupported(c.type, state.ruleset, c.options)
    merged: dict[str, Any] = {**state.options, **c.options}
    effective = ruleset(state.ruleset, {k: v for k, v in merged.items() if v is not None})
    if effective.options == state.options:
        raise RuleViolation("change_options: the options are already so")
    return [OptionsChanged(**base, options=dict(c.options), effective=effective.options,
                           reason=c.reason)]  # fmt: skip
