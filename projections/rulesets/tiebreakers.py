"""Tiebreakers shared by X-Wing and Armada: summed MoV and strength of schedule.

Both documents define "Tabellenstärke" the same way (the mean over a player's
opponents of each opponent's tournament points per round played), so the two
rulesets share these functions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from projections.rulesets.base import Outcome, Scores, record_of

#: how the two are computed, as ``replay.explain`` says it (``Tiebreaker.how``)
MOV_HOW = "sum of margins of victory; a bye scores 1.5 x base, an unpaired loss 0"
SOS_HOW = ("mean over opponents of their points per round played (byes and unpaired losses "
           "count as rounds)")  # fmt: skip


def strength_of_schedule(
    player: str, records: Mapping[str, Sequence[Outcome]], count_unpaired: bool = True
) -> float:
    """Strength of schedule ("Tabellenstärke"): mean of opponents' points per round played.

    Each match counts once (an opponent met twice counts twice). An opponent's
    rounds include byes and unpaired losses; byes are not opponents. Computed
    exactly and converted to a float once, so equal strengths tie exactly and
    fall to the random tiebreaker instead of to float rounding noise.
    """
    values = [
        opponent_value(o.opponent, records, count_unpaired)
        for o in records.get(player, ())
        if o.opponent is not None
    ]
    return float(sum(values, Fraction(0)) / len(values)) if values else 0.0


def opponent_value(
    opponent: str, records: Mapping[str, Sequence[Outcome]], count_unpaired: bool = True
) -> Fraction:
    """One opponent's tournament points divided by the rounds that opponent played."""
    rounds = [o for o in records.get(opponent, ()) if count_unpaired or not o.unpaired]
    if not rounds:
        return Fraction(0)
    return sum((Fraction(o.points) for o in rounds), Fraction(0)) / len(rounds)


def mov_and_sos_scores(
    records: Mapping[str, Sequence[Outcome]], count_unpaired: bool = True
) -> dict[str, Scores]:
    """Points, W/L record, summed MoV and strength of schedule ("Tiebreaker")."""
    out: dict[str, Scores] = {}
    for player, outcomes in records.items():
        points = sum(o.points for o in outcomes)
        mov = sum(o.mov for o in outcomes)
        sos = strength_of_schedule(player, records, count_unpaired)
        out[player] = Scores(
            points, record_of(outcomes), {"mov": mov, "sos": sos}, (points, mov, sos)
        )
    return out
