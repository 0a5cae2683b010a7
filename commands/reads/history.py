"""A player's history in one tournament: what a player, a judge at the table or an
appeal needs in one place (matches by round, drops and returns, penalties for
escalation, deck checks, time extensions), read from the same fold as every other
read model."""

from __future__ import annotations

from collections.abc import Mapping

from commands.reads.models import (
    DeckCheckEntry,
    DropEntry,
    ExtensionEntry,
    PenaltyEntry,
    PlayedMatch,
    PlayerHistory,
)
from commands.reads.views import PlayerNotFound, name_of, number
from projections.state import TABLE_STATE, Match, TournamentState


def player_history(state: TournamentState, player: str, names: Mapping[str, str]) -> PlayerHistory:
    """The player's matches in round order, each result turned to the player's side."""
    found = state.players.get(player)
    if found is None:
        raise PlayerNotFound(player)
    matches = [played(m, player, names) for rnd in state.rounds
               if (m := rnd.match_for(player)) is not None]  # fmt: skip
    return PlayerHistory(
        tournament=state.id, player=player, name=name_of(names, player),
        seq=state.seq, head=state.head,
        dropped=found.dropped, dropped_after_round=found.dropped_after,
        disqualified=found.disqualified,
        rejoined_in_rounds=list(found.rejoined), missed_rounds=list(found.missed),
        reinstated_in_rounds=list(found.reinstated),
        matches=matches,
        penalties=[
            PenaltyEntry(at=p.at, round=p.round, penalty=p.penalty, infraction=p.infraction,
                         points=None if p.points is None else number(p.points))
            for p in found.penalties
        ],
        deck_checks=[
            DeckCheckEntry(at=d.at, round=d.round, timing=d.timing, outcome=d.outcome,
                           minutes=d.minutes)
            for d in state.deck_checks if d.player == player
        ],
        extensions=[
            ExtensionEntry(at=x.at, round=x.round, minutes=x.minutes, reason=x.reason)
            for x in state.extensions if player in x.players
        ],
        drops=[DropEntry(at=e.at, after_round=after, reason=e.reason)
               for after, e in found.drops],
    )  # fmt: skip


def played(match: Match, player: str, names: Mapping[str, str]) -> PlayedMatch:
    """One match from the player's side: their games first, their opponent named."""
    opponent = match.opponent(player)
    result = match.result
    if result is not None and match.players[0] != player:
        result = result.swapped()
    return PlayedMatch(
        round=match.round, stage=match.stage, table=match.table, opponent=opponent,
        opponent_name=name_of(names, opponent) if opponent is not None else None,
        state=TABLE_STATE[match.status],
        result=result.model_dump(mode="json", exclude_none=True) if result else None,
    )  # fmt: skip
