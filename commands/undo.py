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
    AutomaticResultWithdrawn,
    EventBase,
    OptionsChanged,
    PlayerReinstated,
    RegistrationWithdrawn,
    TournamentReopened,
)
from projections.rulesets import ruleset, team_variant
from projections.state import OFFICIAL_ROLES, Match, TournamentState

ORGANIZER_ROLE = ("organizer",)


def reinstate_player(
    state: TournamentState, c: m.ReinstatePlayer, base: Base, seed: int
) -> list[EventBase]:
    """A drop made in error. The player is paired again from the next round; a Swiss round
    paired meanwhile counts as the ruleset counts a missed round (X-Wing, Armada: an
    unpaired loss; SWU, LCG: nothing). Before the drop's round has started, the loss
    recorded automatically at the drop is withdrawn and the player plays at their table
    (``automatic_result``); once it has started the loss stands: correct it if the match
    was in fact played. A disqualification is not a drop and is not undone here."""
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
    reinstated = PlayerReinstated(**base, player=c.player, reason=c.reason)
    match = automatic_result(state, c.player)
    if match is None:
        return [reinstated]
    players = (match.players[0], match.players[1])
    return [reinstated, AutomaticResultWithdrawn(**base, round=match.round, players=players,
                                                 player=c.player, reason=c.reason)]  # fmt: skip


def automatic_result(state: TournamentState, player_id: str) -> Match | None:
    """The table whose loss was recorded automatically when ``player_id`` dropped, while it
    may still be withdrawn: the drop was made in the current Swiss round before it
    started, the loss was recorded with the drop (the next seq) and still counts (no
    correction since), and the opponent has not left too. None otherwise."""
    player = state.players[player_id]
    current = state.current
    if current is None or current.stage != "swiss" or current.started_at is not None:
        return None
    if player.dropped_after != current.number or player.dropped_seq is None:
        return None
    match = current.match_for(player_id)
    if match is None or match.is_bye or match.corrections or match.status != "confirmed":
        return None
    official = [r for r in match.reports if r.actor.role in OFFICIAL_ROLES]
    if not official or official[-1].seq != player.dropped_seq + 1:
        return None
    opponent = next(p for p in match.players if p != player_id)
    return match if state.players[opponent].active else None


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
