"""Re-pairing the affected matches after a correction (swu-1.4 §5.8 case 2).

When a result of round R is corrected after round R+1 was paired but before it
started, the tables of R+1 that hold the players whose result changed are
re-paired among themselves by the same engine and under the same constraints,
from the corrected standings. Only when no valid pairing exists among them does
the revision widen: first to the other tables of the same score groups, then to
the whole round. Every other table stays as published.

An elimination round is re-paired by the engine that paired it: the bracket of
``projections.elimination`` follows the corrected winner, and the revision names
that engine, so ``pairings_revised`` publishes what a fresh pairing would and
says which engine made it (``replay.verify`` re-derives it from the same place).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from ledger.events import Table
from ledger.store import Recorded
from projections import elimination, pairing
from projections.errors import NoValidPairing
from projections.pairing import Field, field_of, pair_field
from projections.state import Match, TournamentState, evolve


@dataclass(frozen=True, slots=True)
class Revision:
    replaced: tuple[Table, ...]
    tables: tuple[Table, ...]
    engine: str

    @property
    def changed(self) -> bool:
        """Whether anything published changes; table numbers alone do not count."""
        return Counter(map(published_as, self.replaced)) != Counter(map(published_as, self.tables))


def published_as(table: Table) -> tuple[object, ...]:
    """What a table publishes besides its number. A Swiss pair is unordered; a bracket
    match keeps its order (the grand final's first place is the upper-bracket player)."""
    players = table.players if table.slot else tuple(sorted(table.players))
    return (players, table.bracket, table.slot, table.light, table.chooses_side)


def published_table(match: Match) -> Table:
    """A match of the log as its pairing was published, every field included."""
    return Table(table=match.table, players=match.players, bracket=match.bracket,
                 slot=match.slot, light=match.light, chooses_side=match.chooses_side)  # fmt: skip


def revise_round(
    state: TournamentState, round_number: int, correction: Recorded, changed: Iterable[str],
    seed: int,
) -> Revision:  # fmt: skip
    """Re-pair ``round_number`` after ``correction`` with the engine of its stage."""
    rnd = state.round(round_number)
    if rnd is not None and rnd.stage == "elimination":
        return revise_elimination(state, round_number, correction)
    return revise(state, round_number, correction, changed, seed)


def corrected_before(
    state: TournamentState, round_number: int, correction: Recorded
) -> TournamentState:
    """The state just before ``round_number`` was paired, had the correction been known."""
    before = copy.deepcopy(state)
    evolve(before, correction)
    before.rounds = before.rounds[: round_number - 1]
    return before


def corrected_field(state: TournamentState, round_number: int, correction: Recorded) -> Field:
    """The pairing field of ``round_number`` as it would have been with the correction."""
    return field_of(corrected_before(state, round_number, correction))


def revise(
    state: TournamentState, round_number: int, correction: Recorded, changed: Iterable[str],
    seed: int,
) -> Revision:  # fmt: skip
    """Re-pair the tables of ``round_number`` affected by ``correction``."""
    rnd = state.round(round_number)
    assert rnd is not None
    field = corrected_field(state, round_number, correction)
    changed = set(changed)
    affected = [m for m in rnd.matches if changed & set(m.players)]
    score = {e.id: e.score for e in field.entrants}
    groups = {score[p] for m in affected for p in m.players if p in score}
    widenings: list[Callable[[Match], bool]] = [
        lambda m: bool(changed & set(m.players)),
        lambda m: any(score.get(p) in groups for p in m.players),
        lambda m: True,
    ]
    for include in widenings:
        tables = [m for m in rnd.matches if include(m)]
        pool = {p for m in tables for p in m.players}
        try:
            paired = pair_field(replace(field, entrants=[e for e in field.entrants
                                                         if e.id in pool]), seed)  # fmt: skip
        except NoValidPairing:
            continue
        return Revision(tuple(published_table(m) for m in tables), renumber(paired, tables),
                        pairing.ENGINE)  # fmt: skip
    raise NoValidPairing(f"round {round_number} cannot be re-paired after the correction")


def renumber(paired: tuple[Table, ...], replaced: list[Match]) -> tuple[Table, ...]:
    """The new pairs take the replaced tables' numbers, best pair on the lowest number."""
    numbers = sorted(m.table for m in replaced if m.table is not None)
    out, free = [], iter(numbers)
    for t in paired:
        out.append(Table(table=next(free, None) if len(t.players) == 2 else None,
                         players=t.players))  # fmt: skip
    return tuple(out)


def revise_elimination(state: TournamentState, round_number: int, correction: Recorded) -> Revision:
    """An elimination result corrected before the next match was played: the bracket
    follows the corrected winner, and every table a fresh pairing would now publish
    otherwise (players or lcg-2.1d sides) is re-paired by the bracket's engine."""
    before = corrected_before(state, round_number, correction)
    rnd = state.round(round_number)
    assert rnd is not None
    replaced, tables = elimination.repaired(before, [published_table(m) for m in rnd.matches])
    return Revision(replaced, tables, elimination.ENGINE)
