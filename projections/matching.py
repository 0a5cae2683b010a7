"""The matching primitive of the pairing engine and the players it matches.

A maximum-cardinality, maximum-weight matching (rustworkx, a maintained native
library rather than a hand-written blossom, fast enough for large fields) over a pool of
entrants, with edges given by position in the pool.
"""

from __future__ import annotations

from dataclasses import dataclass

import rustworkx as rx

SAME_GROUP = 1_000_000

Pair = tuple[str, str]


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player as the engine sees them: score, rank, player number."""

    id: str
    score: float
    rank: int
    number: int


def matching(
    pool: list[Entrant], edges: list[tuple[int, int, int]]
) -> tuple[list[Pair], list[Entrant]]:
    """Maximum-cardinality, maximum-weight matching; pairs keep the pool's order."""
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(len(pool)))
    graph.add_edges_from(edges)
    matched = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    pairs = sorted((min(a, b), max(a, b)) for a, b in matched)
    used = {i for pair in pairs for i in pair}
    left = [e for i, e in enumerate(pool) if i not in used]
    return [(pool[a].id, pool[b].id) for a, b in pairs], left
