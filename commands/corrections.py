"""Correcting a result under the timing rules of swu-1.4 §5.8 (the default for every ruleset).

Correcting round R's result, when round R+1 is:
1. not yet paired: corrected;
2. paired but not started: corrected, and the affected tables of R+1 re-paired
   (``pairings_revised``, listing the tables replaced, the new ones and the seed);
3. started: corrected; the pairings stand and are played out.
From ``cut_made`` on (and after the end of the tournament) a correction of a Swiss
result needs a reason; the standings change, the cut as made and played elimination
matches stand (the audit shows who would have been seeded differently:
``projections.cutline``). Before the cut, the cut is made from corrected standings. The original
report always stays in the log.
"""

from __future__ import annotations

from commands import models as m
from commands.context import Base, by_official, match_of, require_role
from commands.errors import RuleViolation, WrongPhase
from ledger.events import EventBase, MatchResult, PairingsRevised, ResultCorrected
from ledger.store import Recorded
from projections.revision import revise_round
from projections.standings import ruleset_of
from projections.state import Match, TournamentState

LATE = ("after_cut", "after_finish")


def timing_of(state: TournamentState, number: int) -> str:
    """Where the tournament stands relative to the corrected round (swu-1.4 §5.8)."""
    rnd = state.round(number)
    if state.finished:
        return "after_finish"
    if rnd is not None and rnd.stage == "swiss" and state.cut is not None:
        return "after_cut"  # the cut is a line: from cut_made on, it stands
    following = state.round(number + 1)
    if following is None:
        return "next_round_unpaired"
    return "next_round_paired" if following.started_at is None else "next_round_started"


def correct_result(
    state: TournamentState, c: m.CorrectResult, base: Base, seed: int
) -> list[EventBase]:
    require_role(c.actor, ("organizer", "judge"), "correct a result")
    rnd, match = match_of(state, c.round, c.players)
    if match.status != "confirmed" or match.result is None:
        raise WrongPhase(
            f"round {c.round} match {c.players[0]} v {c.players[1]} has no confirmed result "
            "to correct; use report_result"
        )
    ruleset_of(state).validate_result(c.players, c.result, rnd.stage)
    new = match.oriented(c.players, c.result)
    if new == match.result:
        raise RuleViolation("the correction changes nothing: the result is already recorded so")
    return correction(state, match, new, c.reason, base, seed)


def correction(
    state: TournamentState, match: Match, new: MatchResult, reason: str | None, base: Base,
    seed: int,
) -> list[EventBase]:  # fmt: skip
    """The events of correcting ``match`` to ``new`` (oriented to the match's players)."""
    assert match.result is not None and len(match.players) == 2
    timing = timing_of(state, match.round)
    if timing in LATE and not reason:
        raise RuleViolation(
            f"a correction {timing.replace('_', ' ')} needs a reason (swu-1.4 §5.8)"
        )
    players = (match.players[0], match.players[1])
    event = ResultCorrected(
        **by_official(base), round=match.round, players=players, result=new,
        previous=match.result, reason=reason, timing=timing,
    )  # fmt: skip
    events: list[EventBase] = [event]
    if timing == "next_round_paired":
        events += revision(state, event, seed, base)
    return events


def revision(
    state: TournamentState, event: ResultCorrected, seed: int, base: Base
) -> list[EventBase]:
    """Re-pair the affected tables of the next round (swu-1.4 §5.8 case 2) with the engine
    of its stage, and name that engine: an elimination round is re-paired from the bracket
    (with the lcg-2.1d sides of its final games), never by the Swiss engine."""
    following = event.round + 1
    preview = Recorded(state.seq + 1, 0, event)
    revised = revise_round(state, following, preview, event.players, seed)
    if not revised.changed:
        return []
    a, b = event.players
    return [
        PairingsRevised(
            **by_official(base), round=following, seed=seed,
            engine=revised.engine,
            reason=f"round {event.round} result of {a} v {b} corrected (swu-1.4 §5.8)",
            replaced=revised.replaced, tables=revised.tables,
        )
    ]  # fmt: skip
