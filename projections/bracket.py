"""Elimination brackets as a projection: nodes, their sources, and what the log says of them.

The bracket is a fixed graph built from the cut (``cut_made``): each node is one
match whose two places are filled from a seed, or from the winner or loser of
an earlier node. Nodes are numbered by fold, as the documents pair: seed 1 v N,
2 v N-1, ... and in every later round the winner of match 1 meets the winner of
the last match, 2 the second-to-last (X-Wing/Armada "K.-o.-Runden"; with
seeded entrants this is the standard bracket, seeds stay apart until late).

Double elimination (swu-1.0 §4.1.4, lcg-2.1d finals) uses the standard scheme: losers
of upper round 1 meet in lower round 1; in each later lower round the lower-bracket
winners meet the losers of the next upper round in reverse order (so early opponents
do not meet again), then play each other; the grand final follows, with one more
match if the upper-bracket player loses it.

Resolution reads the elimination rounds of the log: a node whose match was
paired keeps the players it was published with (a played match stands even if
an earlier result is corrected later); an unpaired node takes its players from
its sources. A dropped or disqualified player leaves an empty place, so the
opponent advances with a bye.

This module is the bracket's graph and its reading of the log, nothing more: it
takes the ruleset and the Swiss ranking as arguments and imports neither the
standings nor the pairing of a round, so ``standings`` (which orders by
elimination finish) can use it without a cycle. Pairing a round from it, fresh
or revised after a correction, is ``projections.elimination``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ledger.events import CutMade, Table
from projections.rulesets import Ruleset
from projections.state import Match, TournamentState

Kind = Literal["player", "winner", "loser", "empty"]
Status = Literal["void", "pending", "ready", "paired", "played"]


@dataclass(frozen=True, slots=True)
class Source:
    kind: Kind
    ref: str = ""


EMPTY = Source("empty")


@dataclass(frozen=True, slots=True)
class Node:
    id: str
    bracket: Literal["upper", "lower", "final"]
    sources: tuple[Source, Source]
    after: tuple[str, ...] = ()
    reset: bool = False


@dataclass(slots=True)
class Resolved:
    node: Node
    status: Status
    players: tuple[str, ...] = ()
    winner: str | None = None
    loser: str | None = None
    match: Match | None = None


@dataclass(slots=True)
class Bracket:
    nodes: list[Node]
    resolved: dict[str, Resolved] = field(default_factory=dict)

    @property
    def final(self) -> Resolved:
        last = self.resolved[self.nodes[-1].id]
        if last.node.reset and last.status == "void":
            return self.resolved[self.nodes[-2].id]
        return last

    @property
    def champion(self) -> str | None:
        return self.final.winner if self.final.status == "played" else None

    def ready(self) -> list[Resolved]:
        return [r for r in (self.resolved[n.id] for n in self.nodes) if r.status == "ready"]

    def alive(self) -> set[str]:
        """Players still in the bracket: in a match not yet decided."""
        return {p for r in self.resolved.values() if r.status in ("ready", "paired")
                for p in r.players} | ({self.champion} if self.champion else set())  # fmt: skip


def bracket_size(entrants: int) -> int:
    size = 1
    while size < entrants:
        size *= 2
    return max(size, 2)


def fold(items: list[Source]) -> list[tuple[Source, Source]]:
    """1 v N, 2 v N-1, ...: the documents' pairing of seeds and of numbered games."""
    n = len(items)
    return [(items[i], items[n - 1 - i]) for i in range(n // 2)]


def seed_sources(cut: CutMade, seeds: list[str]) -> list[Source]:
    """Seeds as sources; a place decided by the uneven-cut playoff is its winner."""
    playoff = {a: f"P{i}" for i, (a, _) in enumerate(cut.playoff, start=1)}
    return [Source("winner", playoff[s]) if s in playoff else Source("player", s) for s in seeds]


def build(cut: CutMade, seeds: list[str]) -> list[Node]:
    """Every node of the bracket, in an order where sources come before their users."""
    nodes = [Node(f"P{i}", "upper", (Source("player", a), Source("player", b)))
             for i, (a, b) in enumerate(cut.playoff, start=1)]  # fmt: skip
    waits = tuple(n.id for n in nodes)
    size = bracket_size(len(seeds))
    places = seed_sources(cut, seeds) + [EMPTY] * (size - len(seeds))
    upper: list[list[Node]] = []
    games = fold(places)
    while games:
        number = len(upper) + 1
        row = [Node(f"U{number}-{i}", "upper", g, waits if number == 1 else ())
               for i, g in enumerate(games, start=1)]  # fmt: skip
        upper.append(row)
        winners = [Source("winner", n.id) for n in row]
        games = fold(winners) if len(winners) > 1 else []
    if cut.format == "single" or size < 4:
        last = upper[-1][0]
        upper[-1][0] = Node(last.id, "final", last.sources, last.after)
        return nodes + [n for row in upper for n in row]
    return nodes + [n for row in upper for n in row] + lower_and_final(upper)


def lower_and_final(upper: list[list[Node]]) -> list[Node]:
    """The lower bracket and the grand final of the standard double-elimination scheme."""
    lower: list[list[Node]] = []
    losers = [Source("loser", n.id) for n in upper[0]]
    row = [Node(f"L1-{i}", "lower", g) for i, g in enumerate(fold(losers), start=1)]
    lower.append(row)
    for upper_row in upper[1:]:
        dropping = [Source("loser", n.id) for n in reversed(upper_row)]
        winners = [Source("winner", n.id) for n in lower[-1]]
        number = len(lower) + 1
        pairs = zip(winners, dropping, strict=True)
        lower.append([Node(f"L{number}-{i}", "lower", p) for i, p in enumerate(pairs, start=1)])
        if len(lower[-1]) > 1:
            number += 1
            winners = [Source("winner", n.id) for n in lower[-1]]
            lower.append([Node(f"L{number}-{i}", "lower", g)
                          for i, g in enumerate(fold(winners), start=1)])  # fmt: skip
    top, bottom = Source("winner", upper[-1][0].id), Source("winner", lower[-1][0].id)
    final = Node("GF1", "final", (top, bottom))
    reset = Node("GF2", "final", (Source("winner", "GF1"), Source("loser", "GF1")), reset=True)
    return [n for row in lower for n in row] + [final, reset]


def effective_seeds(
    state: TournamentState, cut: CutMade, rules: Ruleset, ranked: list[str]
) -> list[str]:
    """Seeds before the first elimination game: a qualified player who dropped is replaced
    by the next player in the standings as the lowest seed (X-Wing/Armada "K.-o.-Runden")."""
    started = any(r.stage == "elimination" for r in state.rounds)
    if started or not rules.cut_replacement or cut.order != "seeded":
        return list(cut.seeds)
    active = {p for p in state.active_players}
    kept = [s for s in cut.seeds if s in active]
    spare = [p for p in ranked if p in active and p not in cut.seeds]
    return kept + spare[: len(cut.seeds) - len(kept)]


def resolve(state: TournamentState, rules: Ruleset, ranked: list[str]) -> Bracket:
    """The bracket of ``state`` with every node's status, players and winner."""
    assert state.cut is not None
    nodes = build(state.cut, effective_seeds(state, state.cut, rules, ranked))
    matches = {m.slot: m for r in state.rounds if r.stage == "elimination"
               for m in r.matches if m.slot}  # fmt: skip
    active = set(state.active_players)
    bracket = Bracket(nodes)
    for node in nodes:
        bracket.resolved[node.id] = resolve_node(node, matches.get(node.id), bracket, rules, active)
    return bracket


def resolve_node(
    node: Node, match: Match | None, bracket: Bracket, rules: Ruleset, active: set[str]
) -> Resolved:
    if match is not None:
        return from_match(node, match, rules)
    if node.reset:
        first = bracket.resolved["GF1"]
        if first.status in ("pending", "ready", "paired"):
            return Resolved(node, "pending")
        if len(first.players) < 2 or first.winner == first.players[0]:
            return Resolved(node, "void")  # the upper-bracket player won the grand final
        return Resolved(node, "ready", first.players)
    places = [place(s, bracket, active) for s in node.sources]
    if any(p is None for p in places) or not all(
        bracket.resolved[d].status == "played" for d in node.after
    ):
        return Resolved(node, "pending")
    players = tuple(p for p in places if p)
    return Resolved(node, "ready" if players else "void", players)


def place(source: Source, bracket: Bracket, active: set[str]) -> str | None:
    """The player for one place: a name, "" for an empty place, None while undecided."""
    if source.kind == "empty":
        return ""
    if source.kind == "player":
        return source.ref if source.ref in active else ""
    earlier = bracket.resolved[source.ref]
    if earlier.status == "void":
        return ""
    if earlier.status != "played":
        return None
    chosen = earlier.winner if source.kind == "winner" else earlier.loser
    return chosen if chosen and chosen in active else ""


def from_match(node: Node, match: Match, rules: Ruleset) -> Resolved:
    if match.is_bye:
        return Resolved(node, "played", match.players, match.players[0], None, match)
    if match.status != "confirmed" or match.result is None:
        return Resolved(node, "paired", match.players, match=match)
    a, b = match.players
    winner = rules.winner((a, b), rules.effective((a, b), match.result, match.stage))
    return Resolved(node, "played", match.players, winner, b if winner == a else a, match)


def next_round(bracket: Bracket) -> tuple[Table, ...]:
    """The ready matches as tables: real matches numbered from 1, byes without a table."""
    tables, number = [], 0
    for r in bracket.ready():
        if len(r.players) == 2:
            number += 1
        tables.append(Table(table=number if len(r.players) == 2 else None,
                            players=r.players, bracket=r.node.bracket, slot=r.node.id))  # fmt: skip
    return tuple(tables)
