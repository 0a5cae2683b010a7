"""The Swiss pairing engine: valid, deterministic, verifiable, fast on large fields.

Rules (swu-1.4 §4.1.1, swu-1.0 §4.1.1, X-Wing/Armada "Schweizer System", LCG
"Setzung"), in this order of precedence, so that the field is paired as the documents
ask wherever a valid pairing allows it:

1. no rematch within a stage while any rematch-free pairing exists (a rematch is
   no edge of the graph, never a weight);
2. nobody a second bye while avoidable;
3. the bye to the lowest-ranked eligible player (random in round 1);
4. fewest and smallest pair-downs: each score group pairs within itself except
   for one odd player moved down, unless rematches force more (on fields up to
   256 players a whole-field matching and a repair per group correct the
   top-down pass where it sent two players down needlessly, never at the cost
   of a higher group: groups come first top down, as swu-1.4 §4.1.1 pairs them).

Score groups are paired top down. Each group (plus the players moved down into
it) is matched by a maximum-weight, maximum-cardinality matching (rustworkx) on
a sparse graph: every player is joined to a few neighbours in the group's random
order (``swiss``) or around their fold partner (``fold``, LCG), and players moved
down are joined to all. Large groups are matched in chunks. When a group cannot
be matched, the graph widens; when the bottom of the field cannot be paired, the
lowest groups are merged and matched together, widening up to the whole field.
Only when the whole rematch-free graph has no perfect matching is the command
refused, naming the players left over.

Randomness comes only from the recorded seed: the same log prefix and seed
always give the same pairings, so an auditor can recompute and compare.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import groupby

from ledger.events import Table
from projections.errors import NoValidPairing
from projections.matching import SAME_GROUP, Entrant, Pair, matching
from projections.pair_downs import fewer_pair_downs
from projections.standings import ruleset_of, standings
from projections.state import TournamentState

#: 3: pair-downs judged top down (``excess_pair_downs``, ``settle_pair_downs``).
ENGINE = "tledger-swiss-3"
CHUNK = 256
NEIGHBOURS = 6
MOVED_DOWN_BONUS = 100_000


@dataclass(frozen=True, slots=True)
class Field:
    """Everything the engine needs, taken from the state once."""

    entrants: list[Entrant]
    met: dict[str, frozenset[str]]
    had_bye: frozenset[str]
    first_round: bool
    method: str


def eligible_players(state: TournamentState) -> list[str]:
    """Active players who may play the next round (late entrants from their first round)."""
    next_round = len(state.rounds) + 1
    return [p.id for p in state.players.values() if p.active and p.first_round <= next_round]


def previous_opponents(
    state: TournamentState, stage: str = "swiss", avoid: Iterable[Sequence[str]] = ()
) -> dict[str, frozenset[str]]:
    """Who may not meet whom: earlier opponents in this stage, plus pairs to keep apart."""
    met: dict[str, set[str]] = {p: set() for p in state.players}
    pairs = [m.players for r in state.rounds if r.stage == stage for m in r.matches]
    for pair in [*pairs, *avoid]:
        if len(pair) == 2:
            a, b = pair
            met.setdefault(a, set()).add(b)
            met.setdefault(b, set()).add(a)
    return {p: frozenset(s) for p, s in met.items()}


def field_of(state: TournamentState, avoid: Iterable[Sequence[str]] = ()) -> Field:
    rules = ruleset_of(state)
    eligible = set(eligible_players(state))
    numbers = {p: n for n, p in enumerate(state.players)}
    entrants = [
        Entrant(s.player, rules.pairing_score(s.scores), s.rank, numbers[s.player])
        for s in standings(state)
        if s.player in eligible
    ]
    swiss = [r for r in state.rounds if r.stage == "swiss"]
    byes = frozenset(m.players[0] for r in swiss for m in r.matches if m.is_bye)
    return Field(entrants, previous_opponents(state, "swiss", avoid), byes, not swiss,
                 rules.pairing_method)  # fmt: skip


def pair_swiss(
    state: TournamentState, seed: int, avoid: Iterable[Sequence[str]] = ()
) -> tuple[Table, ...]:
    """Pair the next Swiss round of ``state`` with randomness from ``seed``."""
    return pair_field(field_of(state, avoid), seed)


def too_few(entrants: int) -> str | None:
    """Why ``entrants`` eligible players cannot be paired (None: they can)."""
    return None if entrants >= 2 else f"{entrants} eligible player(s): a round needs at least two"


def pair_field(field: Field, seed: int) -> tuple[Table, ...]:
    refused = too_few(len(field.entrants))
    if refused is not None:
        raise NoValidPairing(refused)
    leftovers: list[str] = []
    for attempt, bye in enumerate(bye_candidates(field, seed)):
        rest = [e for e in field.entrants if e.id != bye]
        rng = random.Random(f"{seed}:{attempt}")
        pairs, leftovers = pair_groups(rest, field, rng)
        if not leftovers:
            if field.method == "swiss":
                pairs = fewer_pair_downs(pairs, rest, field.met, rng)
            return number_tables(pairs, bye, field)
    raise NoValidPairing(
        f"no pairing avoids a rematch for {', '.join(sorted(leftovers))} "
        "(no rematch within a stage, swu-1.4 §4.1.1); pair this round manually"
    )


def bye_candidates(field: Field, seed: int) -> list[str | None]:
    """Who may get the bye, best first: nobody for an even field; random in round 1;
    later the lowest-ranked player without a bye, then (only if unavoidable) others."""
    if len(field.entrants) % 2 == 0:
        return [None]
    ids: list[str | None] = [e.id for e in field.entrants]
    if field.first_round:
        random.Random(f"{seed}:bye").shuffle(ids)
        return list(ids)
    bottom_up = ids[::-1]
    return [p for p in bottom_up if p not in field.had_bye] + [
        p for p in bottom_up if p in field.had_bye
    ]


def score_groups(
    entrants: Sequence[Entrant], field: Field, rng: random.Random
) -> list[list[Entrant]]:
    """Players by score, best first; random order within a group, or by player number (fold)."""
    ordered = sorted(entrants, key=lambda e: (-e.score, e.number))
    groups = [list(g) for _, g in groupby(ordered, key=lambda e: e.score)]
    if field.method == "swiss" or field.first_round:
        for group in groups:
            rng.shuffle(group)
    return groups


def pair_groups(
    entrants: Sequence[Entrant], field: Field, rng: random.Random
) -> tuple[list[Pair], list[str]]:
    """Pair group by group, top down; merge the lowest groups upward when the bottom fails."""
    groups = score_groups(entrants, field, rng)
    if field.first_round:
        groups = [[e for g in groups for e in g]]
    done: list[list[Pair]] = []
    moved: list[Entrant] = []
    for group in groups:
        pairs, moved = pair_group(moved, group, field)
        done.append(pairs)
    if not moved:
        return [p for pairs in done for p in pairs], []
    return merge_upward(done, moved, groups, field)


def merge_upward(
    done: list[list[Pair]], moved: list[Entrant], groups: list[list[Entrant]], field: Field
) -> tuple[list[Pair], list[str]]:
    """The bottom of the field cannot be paired: re-pair the lowest groups together."""
    by_id = {e.id: e for g in groups for e in g}
    for depth in range(1, len(groups) + 1):
        kept = [p for pairs in done[: len(done) - depth] for p in pairs]
        redo = [by_id[p] for pairs in done[len(done) - depth :] for pair in pairs for p in pair]
        pool = sorted([*redo, *moved], key=lambda e: (-e.score, e.number))
        pairs, left = match_merged(pool, field)
        if not left:
            return kept + pairs, []
    return [], [e.id for e in moved]


def pair_group(
    moved: list[Entrant], group: list[Entrant], field: Field
) -> tuple[list[Pair], list[Entrant]]:
    """Pair one score group with the players moved down into it; return who moves on."""
    if field.method == "fold" and not field.first_round:
        return pair_fold(moved, group, field)
    pairs: list[Pair] = []
    carry = list(moved)
    for start in range(0, len(group), CHUNK):
        chunk = group[start : start + CHUNK]
        new_pairs, carry = match_chunk(carry, chunk, field)
        pairs += new_pairs
    return pairs, carry


def match_chunk(
    moved: list[Entrant], members: list[Entrant], field: Field
) -> tuple[list[Pair], list[Entrant]]:
    """Match a chunk in its random order; widen the graph until only parity is left over."""
    pool = [*moved, *members]
    down = {e.id for e in moved}
    reach = NEIGHBOURS
    while True:
        edges = swiss_edges(pool, down, reach, field)
        pairs, left = matching(pool, edges)
        if len(left) <= len(pool) % 2 or reach >= len(pool):
            return pairs, left
        reach *= 4


def swiss_edges(
    pool: list[Entrant], down: set[str], reach: int, field: Field
) -> list[tuple[int, int, int]]:
    """Neighbours in random order within ``reach``; moved-down players join everyone."""
    edges = []
    for i, a in enumerate(pool):
        others = range(len(pool)) if a.id in down else range(i + 1, min(len(pool), i + 1 + reach))
        for j in others:
            if j <= i and a.id in down and pool[j].id in down:
                continue
            b = pool[j]
            if j != i and b.id not in field.met.get(a.id, frozenset()):
                edges.append((i, j, weight(a, b, down)))
    return edges


def weight(a: Entrant, b: Entrant, down: set[str]) -> int:
    """Same score group first; a moved-down player must be paired; small gaps over large."""
    gap = abs(a.score - b.score)
    bonus = MOVED_DOWN_BONUS if (a.id in down) != (b.id in down) else 0
    return SAME_GROUP + bonus - int(gap * 100)


def pair_fold(
    moved: list[Entrant], group: list[Entrant], field: Field
) -> tuple[list[Pair], list[Entrant]]:
    """LCG "Setzung": moved-down players on top, fold the group (1vN, 2vN-1, ...); with an
    odd count the lowest player moves to the top of the next group. That player stays in
    the matching (one past the end of the fold), so a rematch is avoided by a small change
    that moves one other player down, not by sending two down; the graph widens until
    only the odd one out is left and every moved-down player is paired."""
    pool = [*moved, *group]
    reach = 2
    while True:
        edges = fold_edges(pool, reach, field)
        pairs, left = matching(pool, edges)
        settled = len(left) <= len(pool) % 2 and not any(e in moved for e in left)
        if settled or reach >= len(pool):
            return pairs, left
        reach *= 4


def fold_edges(pool: list[Entrant], reach: int, field: Field) -> list[tuple[int, int, int]]:
    """Edges near each player's fold partner; the exact fold weighs most ("kleine Änderungen").

    With an odd pool the fold covers all but the last player, who is left out at no cost."""
    n = len(pool)
    last = n - 1 - n % 2
    edges = []
    for i in range(n):
        partner = last - i
        for j in range(max(i + 1, partner - reach), min(n, partner + reach + 1)):
            if pool[j].id not in field.met.get(pool[i].id, frozenset()):
                edges.append((i, j, SAME_GROUP - abs(i + j - last) * 10))
    return edges


def match_merged(pool: list[Entrant], field: Field) -> tuple[list[Pair], list[Entrant]]:
    """Match several groups at once by rank, preferring small score gaps; widen to everyone."""
    reach = NEIGHBOURS * 2
    while True:
        edges = []
        for i, a in enumerate(pool):
            for j in range(i + 1, min(len(pool), i + 1 + reach)):
                b = pool[j]
                if b.id not in field.met.get(a.id, frozenset()):
                    edges.append((i, j, SAME_GROUP - int(abs(a.score - b.score) * 100) - (j - i)))
        pairs, left = matching(pool, edges)
        if not left or reach >= len(pool):
            return pairs, left
        reach *= 4


def number_tables(pairs: list[Pair], bye: str | None, field: Field) -> tuple[Table, ...]:
    """Top tables for top records: by the better player's rank."""
    rank = {e.id: e.rank for e in field.entrants}
    ordered = sorted(
        pairs, key=lambda p: (min(rank[p[0]], rank[p[1]]), max(rank[p[0]], rank[p[1]]))
    )
    tables = [Table(table=n, players=pair) for n, pair in enumerate(ordered, start=1)]
    if bye is not None:
        tables.append(Table(table=None, players=(bye,)))
    return tuple(tables)
