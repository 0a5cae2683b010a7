"""Who chooses initiative at each table, for the read layer.

The rule is the ruleset's (``Ruleset.initiative``, :mod:`projections.rulesets.initiative`:
X-Wing and Armada, fewer list points chooses); this module feeds it the points each
player *declared* on their list in force. The fold holds only each list's hash and
seq, so the lists are read from ``tledger_lists`` and checked against their events
(:func:`ledger.list_rows.checked`: a damaged list is an integrity error naming the
seq, never a wrong answer).

Lists are secret until publication (swu-1.4 §7.1 and its kin, :mod:`commands.reads.listviews`),
so what reaches a player is only who chooses: the points stay out of the contract's
JSON and off the public page; the organizer's printout may show them
(``commands.reads.paper.wall_pairings``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ledger.list_rows import checked
from ledger.store import ListEntry, Store
from projections.rulesets.initiative import InitiativeRule
from projections.standings import ruleset_of
from projections.state import TournamentState


def initiative_rule(state: TournamentState) -> InitiativeRule | None:
    """The tournament's rule, or None: its ruleset does not compare list points, or no
    list was submitted (then there is nothing to read)."""
    if not state.lists:
        return None
    return ruleset_of(state).initiative


def initiative_lists(store: Store, state: TournamentState) -> Sequence[ListEntry]:
    """The ``tledger_lists`` rows the pairings read to say who chooses initiative; none
    are read where the ruleset does not decide it by list points or no list exists."""
    return store.lists(state.id) if initiative_rule(state) is not None else ()


def declared_points(state: TournamentState, stored: Sequence[ListEntry]) -> dict[str, int]:
    """Player -> the points declared on their list in force (``stored``: the
    tournament's ``tledger_lists`` rows); empty where the ruleset has no such rule."""
    if initiative_rule(state) is None:
        return {}
    rules = ruleset_of(state)
    by_seq = {e.seq: e for e in stored}
    found: dict[str, int] = {}
    for player, held in state.lists.items():
        entry = checked(state.id, by_seq, held.seq, held.player, held.hash)
        points = rules.read_list(entry.list).declared_points()
        if points is not None:
            found[player] = points
    return found
