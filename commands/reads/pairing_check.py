"""Pairings made by hand, checked before they are sent: the organizer edits pairings
and sees rematch and bye warnings first.

The pairing engine's hard constraints and preferences (``projections.pairing``) become
warnings here, since an organizer may have reasons the engine does not know: a
rematch while earlier rounds already paired them, a second bye, and a bye not given
to the lowest-ranked player without one (swu-1.4 §5.3: the bye goes to the lowest
ranked; in round 1 it is random, so no warning then). Players left out or named
twice are said too; the ledger refuses those when the pairings are sent (manual
pairings list every active player exactly once). A pure function of the fold.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from commands.reads.models import ReadModel
from commands.reads.views import name_of
from projections.pairing import eligible_players, field_of
from projections.state import TournamentState


class PairingWarning(ReadModel):
    """One thing to look at again; ``table`` is its 1-based place in the list (None:
    the whole list)."""

    table: int | None
    kind: str
    text: str


class PairingCheck(ReadModel):
    round: int
    warnings: list[PairingWarning]
    names: dict[str, str]


def check_pairings(state: TournamentState, tables: Sequence[Sequence[str]],
                   names: Mapping[str, str]) -> PairingCheck:  # fmt: skip
    """The warnings for pairing the next round as ``tables`` (a one-player entry is a bye)."""
    field = field_of(state)
    ranks = {e.id: e.rank for e in field.entrants}
    shown = {p: name_of(names, p) for p in state.players}
    warnings: list[PairingWarning] = []
    for number, table in enumerate(tables, start=1):
        if len(table) == 2 and table[1] in field.met.get(table[0], frozenset()):
            a, b = (shown.get(p, p) for p in table)
            warnings.append(
                PairingWarning(
                    table=number, kind="rematch", text=f"{a} and {b} have played each other already"
                )
            )
        if len(table) == 1:
            warnings += bye_warnings(table[0], number, field.had_bye, ranks, field.first_round,
                                     shown)  # fmt: skip
    counted = Counter(p for t in tables for p in t)
    for player in sorted(p for p, n in counted.items() if n > 1):
        warnings.append(
            PairingWarning(
                table=None, kind="twice", text=f"{shown.get(player, player)} is paired twice"
            )
        )
    left = [p for p in eligible_players(state) if p not in counted]
    if left:
        listed = ", ".join(shown.get(p, p) for p in left)
        warnings.append(PairingWarning(table=None, kind="missing",
                                       text=f"not at a table: {listed}"))  # fmt: skip
    return PairingCheck(round=len(state.rounds) + 1, warnings=warnings, names=shown)


def bye_warnings(player: str, number: int, had_bye: frozenset[str], ranks: Mapping[str, int],
                 first_round: bool, shown: Mapping[str, str]) -> list[PairingWarning]:  # fmt: skip
    """A second bye, or a bye not to the lowest-ranked player without one."""
    name = shown.get(player, player)
    if player in had_bye:
        return [PairingWarning(table=number, kind="second_bye",
                               text=f"{name} had a bye already")]  # fmt: skip
    without = [p for p in ranks if p not in had_bye]
    lowest = max(without, key=lambda p: ranks[p]) if without else player
    if first_round or lowest == player:
        return []
    return [PairingWarning(table=number, kind="bye_not_lowest",
                           text=f"the bye goes to the lowest-ranked player without one: "
                                f"{shown.get(lowest, lowest)}, not {name}")]  # fmt: skip
