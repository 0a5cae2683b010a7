"""What printing slips with report codes changes, said before it is done.

A slip's codes are good for one match of one round, and issuing them again replaces
them (``commands.slipcodes``): the codes on slips already on the tables stop working.
So printing slips with codes for a round that has codes already, or one table's slip
again, is confirmed on a page naming what changes ("New codes for all 12 tables of
round 3; the slips already on the tables stop working"). The tables that hold codes
come from the store's slip-code rows (their hashes only, ``Store.slip_codes_of``); the
tables from the fold.
"""

from __future__ import annotations

from collections.abc import Mapping

from commands.errors import InvalidCommand, WrongPhase
from commands.reads.models import ReadModel
from commands.reads.views import name_of, paired_round
from ledger.store import Store
from projections.state import TournamentState


class SlipReprint(ReadModel):
    """Slips with codes for ``round`` (of ``table`` only when given): ``tables`` that get
    new codes; ``coded``, the tables of the round that hold codes now; ``replaces``,
    whether a printed code stops working (then the organizer confirms first); ``text``,
    the sentence that says what changes."""

    round: int
    table: int | None
    tables: list[int]
    coded: list[int]
    replaces: bool
    text: str


def slip_reprint(store: Store, state: TournamentState, round_number: int | None,
                 table: int | None, names: Mapping[str, str]) -> SlipReprint:  # fmt: skip
    """What printing the round's slips with codes (or ``table``'s) would change; a round
    never paired, or a table it does not have, is refused as printing would be."""
    rnd = paired_round(state, round_number)
    if rnd is None:
        raise WrongPhase("no round is paired yet: there are no match slips to print")
    matches = [m for m in rnd.matches if not m.is_bye and m.table is not None]
    held = {frozenset(e.players) for e in store.slip_codes_of(state.id, rnd.number)}
    coded = sorted(m.table for m in matches if frozenset(m.players) in held and m.table)
    if table is None:
        tables = [m.table for m in matches if m.table is not None]
        count = f"all {len(tables)} tables" if len(tables) != 1 else "the 1 table"
        text = (f"New codes for {count} of round {rnd.number}; the slips already on the "
                "tables stop working." if coded else
                f"Codes for {count} of round {rnd.number}; none was printed before.")  # fmt: skip
        return SlipReprint(round=rnd.number, table=None, tables=tables, coded=coded,
                           replaces=bool(coded), text=text)  # fmt: skip
    match = next((m for m in matches if m.table == table), None)
    if match is None:
        raise InvalidCommand(f"round {rnd.number} has no table {table} with a match slip")
    who = " v ".join(name_of(names, p) for p in match.players)
    others = len(matches) - 1
    keep = f"; the other {others} tables keep theirs" if others else ""
    if table in coded:
        text = (f"New codes for table {table} of round {rnd.number} ({who}); the slip "
                f"already on table {table} stops working{keep}.")  # fmt: skip
    else:
        text = f"Codes for table {table} of round {rnd.number} ({who}){keep}."
    return SlipReprint(round=rnd.number, table=table, tables=[table], coded=coded,
                       replaces=table in coded, text=text)  # fmt: skip
