"""The Round and Results pages' read of the current round: which of the round's steps
the organizer is offered now, each table with its players' names and its result
state, and the hand editor's rows.

The steps offered are the tournament's lifecycle's (``projections.lifecycle``), the
same answer the commands refuse by: the next round paired automatically (drawn in the
Swiss part, from the bracket once the cut is made or for a team event's final), by
hand in the Swiss part only, the paired round started, and before round 1 of an SWU
limited event the draft's pods and deck building. Pure functions of read models and
the fold, so the console computes no rule itself.
"""

from __future__ import annotations

from collections.abc import Mapping

from commands.reads.models import Pairings, ReadModel, Status
from commands.reads.pairing_check import PairingCheck, check_pairings
from commands.reads.people import sort_key
from projections.lifecycle import Lifecycle
from projections.pairing import eligible_players
from projections.state import TournamentState


class RoundSteps(ReadModel):
    """``pair``: the next round may be paired (``from_bracket``: by the bracket, the
    cut's or a team final's); ``by_hand``: it may be paired by hand; ``start``: the
    paired round may start; ``assign_pods``, ``deck_building``: before round 1 of a
    limited event, the draft's pods may be assigned, deck building started."""

    pair: bool
    from_bracket: bool
    by_hand: bool
    start: bool
    assign_pods: bool
    deck_building: bool


def round_steps(steps: Lifecycle) -> RoundSteps:
    return RoundSteps(pair=steps.pair.allowed, from_bracket=steps.pairing != "swiss",
                      by_hand=steps.pair_by_hand.allowed, start=steps.start.allowed,
                      assign_pods=steps.assign_pods.allowed,
                      deck_building=steps.start_deck_building.allowed)  # fmt: skip


class SeatedTable(ReadModel):
    """A table of the current round: ``table`` None for a bye; ``state`` the status
    model's as an organizer reads it (not started, missing, unconfirmed, disputed,
    confirmed), "" when it has none."""

    table: int | None
    players: list[str]
    names: list[str]
    state: str


def seated_tables(status: Status, pairings: Pairings) -> list[SeatedTable]:
    """The pairings' tables, each with the state the status model gives its match."""
    states = {tuple(t.players): t.shown or t.state for t in status.tables}
    return [SeatedTable(table=t.table, players=list(t.players),
                        names=[pairings.names.get(p, p) for p in t.players],
                        state=states.get(tuple(t.players), ""))
            for t in pairings.pairings]  # fmt: skip


class HandEditor(ReadModel):
    """The hand editor: who may play the next round (id, name; by name), the rows as
    given so far (``a``, ``b``: ids, "" when blank) and the read layer's warnings."""

    players: list[tuple[str, str]]
    rows: list[list[str]]
    check: PairingCheck | None


def editor_rows(given: Mapping[str, str], count: int) -> list[list[str]]:
    """The tables of the hand editor (fields ``a1``/``b1``, ...): blank rows skipped,
    a row with one player a bye."""
    rows = [[given.get(f"a{n}", ""), given.get(f"b{n}", "")] for n in range(1, count + 1)]
    return [[p for p in row if p] for row in rows if any(row)]


def hand_editor(state: TournamentState, names: Mapping[str, str],
                given: Mapping[str, str]) -> HandEditor:  # fmt: skip
    """As many rows as two players a table takes (a bye the last), and the check of
    the tables given so far (``commands.reads.pairing_check``)."""
    eligible = sorted(eligible_players(state), key=lambda p: sort_key(names.get(p) or p, p))
    count = (len(eligible) + 1) // 2
    tables = editor_rows(given, count) if given else []
    check = check_pairings(state, tables, names) if tables else None
    chosen = [[given.get(f"a{n}", ""), given.get(f"b{n}", "")] for n in range(1, count + 1)]
    return HandEditor(players=[(p, names.get(p, p)) for p in eligible], rows=chosen,
                      check=check)  # fmt: skip
