"""A correction's timing before it is confirmed, and its impact after: the organizer
sees what a correction will do to the rounds before confirming it, and what it changed
once it is made.

The preview runs the decider of ``correct_result`` (``commands.corrections``) on the
current state without appending: the timing it records and the tables its revision
would replace are exactly what confirming would append (swu-1.4 §5.8: next round
not paired, corrected; paired but not started, its affected tables re-paired;
started, pairings stay; after the cut, the cut stands and a reason is required). A
refusal (no confirmed result, a result the ruleset does not take) is the same one
line confirming would give. The impact is ``replay.diff`` between the seq before
and after: who moved in the standings, who crossed the cut line, which tables were
re-paired, and the seeds the corrected standings would have given differently.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from commands.corrections import LATE
from commands.decide import decide
from commands.models import CorrectResult
from commands.reads.audit import diff_view
from commands.reads.models import ReadModel
from commands.reads.views import name_of
from ledger.events import PairingsRevised, ResultCorrected
from ledger.store import Recorded
from projections.state import TournamentState


class CorrectionPreview(ReadModel):
    """What confirming the correction would do: its timing (``ResultCorrected.timing``),
    the sentence that says it, the tables of the next round re-paired (by number) and
    whether a reason is required."""

    round: int
    players: list[str]
    timing: str
    text: str
    repaired: list[int]
    reason_required: bool
    names: dict[str, str]


def correction_preview(state: TournamentState, command: CorrectResult, names: Mapping[str, str],
                       now: datetime, seed: int) -> CorrectionPreview:  # fmt: skip
    """The correction decided on ``state`` and not appended (raises as ``decide`` would,
    except for a missing reason, which the preview asks for)."""
    trial = command if command.reason else command.model_copy(update={"reason": "preview"})
    events = decide(state, trial, now=now, seed=seed)
    corrected = next(e for e in events if isinstance(e, ResultCorrected))
    revised = [e for e in events if isinstance(e, PairingsRevised)]
    repaired = sorted(t.table for e in revised for t in e.replaced if t.table is not None)
    following = command.round + 1
    text = timing_text(corrected.timing, following, repaired)
    return CorrectionPreview(
        round=command.round, players=list(command.players), timing=corrected.timing, text=text,
        repaired=repaired, reason_required=corrected.timing in LATE,
        names={p: name_of(names, p) for p in command.players},
    )  # fmt: skip


def timing_text(timing: str, following: int, repaired: Sequence[int]) -> str:
    """The regulation's timing as one sentence (swu-1.4 §5.8)."""
    match timing:
        case "next_round_unpaired":
            return f"round {following} is not paired yet: the result is corrected"
        case "next_round_paired":
            if not repaired:
                return (f"round {following} is paired but not started: "
                        "no table changes (the players' tables stay as published)")  # fmt: skip
            head = ", ".join(str(t) for t in repaired[:-1])
            tables = f"{head} and {repaired[-1]}" if head else str(repaired[-1])
            word = "tables" if len(repaired) > 1 else "table"
            return f"round {following} is paired but not started: {word} {tables} will be re-paired"
        case "next_round_started":
            return f"round {following} is under way: pairings stay"
        case "after_cut":
            return "after the cut: the cut stands; a reason is required"
        case _:
            return "the tournament is finished: the cut stands; a reason is required"


def correction_impact(events: Sequence[Recorded], a: int, b: int, names: Mapping[str, str]
                      ) -> dict[str, Any]:  # fmt: skip
    """``replay.diff`` from seq ``a`` to ``b`` with the names it needs (``tledger diff``)."""
    return diff_view(events, a, b, names)
