"""Pair-downs: each score group pairs within itself but for one player, top group first.

swu-1.4 §4.1.1 (and swu-1.0 §4.1.1) pairs the group with the best record first, at
random; an odd player left over is paired against a random player of the next group;
then the next group is paired, and so on. The document is silent on rematches that
keep a group from pairing within itself; the engine's rule 4 (fewest and smallest
pair-downs, see :mod:`projections.pairing`) says more than one player goes down from a
group only when rematches force it. The top-down pass of ``projections.pairing``
cannot look ahead, so on fields up to ``WHOLE_FIELD`` players these passes correct it,
always judging the groups top down: a lower group is never spared a pair-down at the
cost of a higher one.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping

from projections.matching import SAME_GROUP, Entrant, Pair, matching

ACROSS = 10_000
WHOLE_FIELD = 256

Met = Mapping[str, frozenset[str]]


def sent_down(pairs: list[Pair], score: dict[str, float]) -> Counter[float]:
    """How many players each score group sends down (pairs across two groups)."""
    counts: Counter[float] = Counter()
    for a, b in pairs:
        if score[a] != score[b]:
            counts[max(score[a], score[b])] += 1
    return counts


def fewer_pair_downs(
    pairs: list[Pair], rest: list[Entrant], met: Met, rng: random.Random
) -> list[Pair]:
    """Pairing top down cannot look ahead: a group can send two players down where the
    whole field had a pairing sending one. For fields up to ``WHOLE_FIELD`` players the
    whole field is then matched at once (fewest pairs across groups, then the smallest
    gaps, random within groups) and taken when it sends fewer players down needlessly
    by ``excess_pair_downs``, compared from the top group down; ``settle_pair_downs``
    then repairs what neither pass got right."""
    score = {e.id: e.score for e in rest}
    before = sent_down(pairs, score)
    if len(rest) > WHOLE_FIELD or max(before.values(), default=0) < 2:
        return pairs
    order = list(rest)
    rng.shuffle(order)
    edges = [(i, j, SAME_GROUP - across(a, b)) for i, a, j, b in open_pairs(order, met)]
    alternative, left = matching(order, edges)
    if not left and excess_pair_downs(alternative, score) < excess_pair_downs(pairs, score):
        pairs = alternative
    return settle_pair_downs(pairs, rest, met, rng)


def across(a: Entrant, b: Entrant) -> int:
    """The cost of a pair across two score groups: any such pair, then the gap."""
    return 0 if a.score == b.score else ACROSS + int(abs(a.score - b.score) * 100)


def open_pairs(pool: list[Entrant], met: Met) -> list[tuple[int, Entrant, int, Entrant]]:
    """Every pair of ``pool`` that would not be a rematch, by position."""
    return [(i, a, j, b) for i, a in enumerate(pool) for j, b in enumerate(pool)
            if i < j and b.id not in met.get(a.id, ())]  # fmt: skip


def excess_pair_downs(pairs: list[Pair], score: dict[str, float]) -> list[int]:
    """Players each score group sends down beyond its one odd player, top group first.

    Compared as a list (lexicographically), because swu-1.4 §4.1.1 pairs top down: the
    highest group is paired among itself first, and only its one player left over is
    paired down. A pairing that spares a lower group by sending two players of a higher
    group down is worse, even though the largest count from one group falls (regression:
    two 1-0 players who could meet each other were both paired down so that three 0.6
    players, all of whom had met, sent one down instead of three)."""
    sent = sent_down(pairs, score)
    return [max(0, sent[level] - 1) for level in sorted(set(score.values()), reverse=True)]


def settle_pair_downs(
    pairs: list[Pair], rest: list[Entrant], met: Met, rng: random.Random
) -> list[Pair]:
    """Top down, a group sending two or more down keeps every pair with a player from a
    higher group and re-pairs everyone else with the fewest players sent down from it
    (then the fewest pairs across groups, the smallest gaps): more go down only when
    rematches force it, given the groups above (swu-1.4 §4.1.1, the engine's rule 4).
    Neither the top-down pass (merging the bottom groups ignores the groups) nor the
    whole-field pass (fewest pairs across groups overall) guarantees that alone."""
    score, by_id = {e.id: e.score for e in rest}, {e.id: e for e in rest}
    for level in sorted(set(score.values()), reverse=True):
        sent = sent_down(pairs, score)[level]
        if sent < 2:
            continue
        decided = [p for p in pairs if max(score[p[0]], score[p[1]]) > level]
        pool = [by_id[x] for p in pairs if max(score[p[0]], score[p[1]]) <= level for x in p]
        free = [e for e in pool if e.score == level]
        within, _ = matching(free, [(i, j, 1) for i, _, j, _ in open_pairs(free, met)])
        if sent <= len(free) - 2 * len(within):
            continue  # rematches within the group force these: no need to re-pair
        rng.shuffle(pool)
        down = len(pool) * (ACROSS + int((level - min(score.values())) * 100)) + 1
        edges = [(i, j, settle_weight(a, b, level, down)) for i, a, j, b in open_pairs(pool, met)]
        settled, left = matching(pool, edges)
        if not left and sent_down(settled, score)[level] < sent:
            pairs = decided + settled
    return pairs


def settle_weight(a: Entrant, b: Entrant, level: float, down: int) -> int:
    """A pair sending a player down from ``level`` costs ``down``, more than all other
    pairs across groups together; then any pair across groups, then the gap."""
    sent_from_level = a.score != b.score and level in (a.score, b.score)
    return 2 * down - across(a, b) - (down if sent_from_level else 0)
