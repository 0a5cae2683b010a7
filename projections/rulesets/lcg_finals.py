"""lcg-2.1d "Finalrunden": which side each finalist plays, and the count at time.

Sides: in the first final round the better-placed player (Swiss rank) chooses;
afterwards each player plays the side they have played least in the finals; when
both have played the same side least, the one with the larger difference between
the sides plays it; with equal differences the better-placed player chooses. In the
last game of the final (after the unbeaten player lost the first) the players
switch sides.

Count at time ("Spielende durch Zeitablauf"), for a final game that reaches its
time limit: the light side scores 4 per objective in its victory pile and 0.1 per
damage on dark-side objectives; the dark side scores its Death Star dial in steps
(0-3: 0, 4-7: 4, 8-11: 8) and 0.1 per damage on light-side objectives; the side the
Balance of the Force favours adds 0.25. Exact fractions: 8.7 beats 8.65 exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from ledger.events import Table
from projections.state import TournamentState

Side = Literal["light", "dark"]


@dataclass(frozen=True, slots=True)
class Sides:
    light: str | None
    chooses: str | None


def least_played(counts: tuple[int, int]) -> Side | None:
    light, dark = counts
    if light == dark:
        return None
    return "light" if light < dark else "dark"


def assign_sides(better: str, worse: str, counts: Mapping[str, tuple[int, int]]) -> Sides:
    """The side rule for one final game; ``better`` is the better-placed player."""
    a, b = counts.get(better, (0, 0)), counts.get(worse, (0, 0))
    if sum(a) == 0 and sum(b) == 0:
        return Sides(None, better)
    want_a, want_b = least_played(a), least_played(b)
    if want_a is None and want_b is None:
        return Sides(None, better)
    if want_a != want_b:
        if want_a == "light" or want_b == "dark":
            return Sides(better, None)
        return Sides(worse, None)
    gap_a, gap_b = abs(a[0] - a[1]), abs(b[0] - b[1])
    if gap_a == gap_b:
        return Sides(None, better)
    taker = better if gap_a > gap_b else worse
    other = worse if taker == better else better
    return Sides(taker if want_a == "light" else other, None)


def light_side_count(objectives: int, damage_on_dark: int, balance: bool) -> Fraction:
    return 4 * objectives + Fraction(damage_on_dark, 10) + (Fraction(1, 4) if balance else 0)


def dark_side_count(dial: int, damage_on_light: int, balance: bool) -> Fraction:
    step = 0 if dial <= 3 else 4 if dial <= 7 else 8
    return step + Fraction(damage_on_light, 10) + (Fraction(1, 4) if balance else 0)


def sides_played(state: TournamentState) -> dict[str, tuple[int, int]]:
    """(light, dark) final games per player, from results that record the light side."""
    counts: dict[str, list[int]] = {}
    for rnd in state.rounds:
        if rnd.stage != "elimination":
            continue
        for m in rnd.matches:
            if m.status == "confirmed" and m.result is not None and m.result.light:
                for p in m.players:
                    counts.setdefault(p, [0, 0])[0 if p == m.result.light else 1] += 1
    return {p: (c[0], c[1]) for p, c in counts.items()}


def with_sides(
    tables: tuple[Table, ...], state: TournamentState, ranked: list[str]
) -> tuple[Table, ...]:
    """Annotate each final game with who plays light, or who chooses a side."""
    counts = sides_played(state)
    place = {p: i for i, p in enumerate(ranked)}
    first_final = {m.slot: m for r in state.rounds for m in r.matches if m.slot == "GF1"}
    out = []
    for t in tables:
        if len(t.players) != 2:
            out.append(t)
            continue
        better, worse = sorted(t.players, key=lambda p: place.get(p, len(place)))
        sides = assign_sides(better, worse, counts)
        gf1 = first_final.get("GF1")
        if t.slot == "GF2" and gf1 is not None and gf1.result and gf1.result.light:
            sides = Sides(next(p for p in t.players if p != gf1.result.light), None)
        out.append(t.model_copy(update={"light": sides.light, "chooses_side": sides.chooses}))
    return tuple(out)
