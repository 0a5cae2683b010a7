"""An oracle for the Swiss pairing engine that shares no code with it: an exact
backtracking search for a perfect matching of the rematch-free graph.

It stays fast at every field size the property tests use: after r rounds a field of
2 * (r + 1) or more players always has a rematch-free pairing (everyone may still meet
at least half the field; Dirac's theorem), found at the first try, and smaller fields
are small.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from functools import cache

Met = Mapping[str, Collection[str]]
Pairs = tuple[tuple[str, str], ...]


def pairable(players: Sequence[str], met: Met) -> bool:
    """Whether all of ``players`` can be paired without a rematch (exact backtracking)."""
    if len(players) % 2:
        return False
    index = {p: i for i, p in enumerate(players)}
    allowed = [
        sum(1 << index[q] for q in players if q != p and q not in met.get(p, ())) for p in players
    ]

    @cache
    def complete(unpaired: int) -> bool:
        if not unpaired:
            return True
        first = unpaired & -unpaired
        rest = unpaired ^ first
        partners = allowed[first.bit_length() - 1] & rest
        while partners:
            partner = partners & -partners
            if complete(rest ^ partner):
                return True
            partners ^= partner
        return False

    return complete((1 << len(players)) - 1)


def valid_byes(ranked: Sequence[str], had_bye: Collection[str], met: Met) -> list[str | None]:
    """Every bye (None for an even field) leaving a rematch-free pairing, best first:
    the lowest-ranked player without a bye first, players with one only after them."""
    if len(ranked) % 2 == 0:
        return [None] if pairable(ranked, met) else []
    bottom_up = list(reversed(ranked))
    order = [p for p in bottom_up if p not in had_bye] + [p for p in bottom_up if p in had_bye]
    return [bye for bye in order if pairable([p for p in ranked if p != bye], met)]


def completable_sending_one_down(
    rest: Sequence[str], group: Sequence[str], lower: Collection[str], met: Met
) -> bool:
    """Whether ``rest`` can be paired without a rematch with at most one of ``group``
    paired against a player of ``lower`` (try each member, or none, as the one)."""
    for one in [None, *group]:
        kept_up = {p: {*met.get(p, ())} for p in rest}
        for p in group:
            if p != one:
                kept_up[p] |= set(lower)
                for q in lower:
                    kept_up[q].add(p)
        if pairable(rest, kept_up):
            return True
    return False
