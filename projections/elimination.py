"""Pairing elimination rounds from the bracket: fresh, and again after a correction.

Every elimination table is made here, whether ``pair_round`` pairs the next round
(swu-1.4 §4.1.2, swu-1.0 §4.1.2-4, X-Wing/Armada "K.-o.-Runden", lcg-2.1d
"Finalrunden") or a correction re-pairs a round that is paired but not started
(swu-1.4 §5.8 case 2). Both take their tables from ``elimination_tables``, so a
revised table publishes exactly what a fresh pairing would: its bracket and slot
and, in lcg-2.1d finals, who plays the light side or who chooses one. ``ENGINE``
names this engine in ``round_paired`` and ``pairings_revised`` alike, and
``replay.verify`` re-derives both from here.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import count

from ledger.events import Table
from projections.bracket import Bracket, next_round, resolve
from projections.rulesets.lcg_finals import with_sides
from projections.standings import ruleset_of, swiss_standings
from projections.state import TournamentState

ENGINE = "tledger-bracket-1"


def elimination_tables(state: TournamentState) -> tuple[Bracket, tuple[Table, ...]]:
    """The bracket and the tables of its next round; lcg-2.1d final games carry their
    sides ("Finalrunden"), which depend on the Swiss rank and the sides played so far."""
    rules = ruleset_of(state)
    ranked = [s.player for s in swiss_standings(state)]
    bracket = resolve(state, rules, ranked)
    tables = next_round(bracket)
    if rules.final_sides:
        tables = with_sides(tables, state, ranked)
    return bracket, tables


def champion(state: TournamentState) -> str | None:
    """The bracket's winner, once it has one (none before a cut)."""
    if state.cut is None:
        return None
    return resolve(state, ruleset_of(state), [s.player for s in swiss_standings(state)]).champion


def winner(state: TournamentState) -> str | None:
    """Who won the tournament, as status and the results document name it: the bracket's
    champion; in an lcg-2.1d team event finished without a final match (no two teams
    level at the top), the team with the most points ("Team-Turniere": "Am Ende der
    Runden nach dem Schweizer System wird das Team mit den meisten Punkten zum
    Turniersieger erklärt"). Other events without a bracket name none: their
    documents declare no winner beyond the standings' first rank."""
    if state.cut is not None:
        return champion(state)
    if not (state.finished and ruleset_of(state).team):
        return None
    ranked = [s.player for s in swiss_standings(state) if not s.dropped]
    return ranked[0] if ranked else None


def repaired(
    before: TournamentState, published: Sequence[Table]
) -> tuple[tuple[Table, ...], tuple[Table, ...]]:
    """The published tables a fresh pairing no longer makes, and what replaces them.

    ``before`` is the state just before the round was paired, with the correction
    known (swu-1.4 §5.8 case 2). A bracket match that would now be paired otherwise
    (other players, order or sides) is replaced under its published table number; one
    no longer ready is withdrawn; one that became ready is added. Every other table
    stays as published.
    """
    fresh = {t.slot: t for t in elimination_tables(before)[1]}
    spare = count(max((t.table or 0 for t in published), default=0) + 1)
    replaced: list[Table] = []
    tables: list[Table] = []
    for old in published:
        new = fresh.pop(old.slot, None)
        if new is not None:
            new = numbered(new, old.table, spare)
        if new != old:
            replaced.append(old)
            tables += [new] if new is not None else []
    tables += [numbered(t, None, spare) for t in fresh.values()]
    return tuple(replaced), tuple(tables)


def numbered(table: Table, number: int | None, spare: Iterator[int]) -> Table:
    """A fresh table under the number it replaces: a bye has none, and a match where a
    bye was takes the next free number, so no published table changes its number."""
    if len(table.players) != 2:
        return table.model_copy(update={"table": None})
    return table.model_copy(update={"table": number if number is not None else next(spare)})
