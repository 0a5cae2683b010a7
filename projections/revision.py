"""Re-pairing after a correction (swu-1.4 §5.8 case 2, the design's "affected matches").

When a result of round R is corrected after round R+1 was paired but before it
started, the tables of R+1 that hold the players whose result changed are
re-paired among themselves by the same engine and under the same constraints,
from the corrected standings. Only when no valid pairing exists among them does
the revision widen: first to the other tables of the same score groups, then to
the whole round. Every other table stays as published.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from ledger.events import Table
from ledger.store import Recorded
from projections.bracket import next_round, resolve
from projections.errors import NoValidPairing
from projections.pairing import Field, field_of, pair_field
from projections.standings import ruleset_of, swiss_standings
from projections.state import Match, TournamentState, evolve


@dataclass(frozen=True, slots=True)
class Revision:
    replaced: tuple[Table, ...]
    tables: tuple[Table, ...]

    @property
    def changed(self) -> bool:
        return {frozenset(t.players) for t in self.replaced} != {
            frozenset(t.players) for t in self.tables
        }


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
        return Revision(tuple(Table(table=m.table, players=m.players) for m in tables),
                        renumber(paired, tables))  # fmt: skip
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
    follows the corrected winner; tables whose players change are re-paired."""
    before = corrected_before(state, round_number, correction)
    swiss = [s.player for s in swiss_standings(before)]
    ready = {t.slot: t for t in next_round(resolve(before, ruleset_of(before), swiss))}
    rnd = state.round(round_number)
    assert rnd is not None
    replaced, tables = [], []
    for match in rnd.matches:
        fresh = ready.get(match.slot)
        if fresh is not None and fresh.players == match.players:
            continue
        replaced.append(Table(table=match.table, players=match.players, bracket=match.bracket,
                              slot=match.slot))  # fmt: skip
        if fresh is not None:
            number = match.table if len(fresh.players) == 2 else None
            tables.append(fresh.model_copy(update={"table": number}))
    return Revision(tuple(replaced), tuple(tables))
