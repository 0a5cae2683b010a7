"""The read models the printouts need beyond the contract's: the letterhead every page
carries, the pairings by name and a round's match slips.

Part of the one read layer (``commands.reads.views`` joins names and checks rounds the
same way): the printouts (``commands.pages.printouts``) render what these return and
compute nothing of their own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from commands.errors import InvalidCommand, WrongPhase
from commands.reads.models import Bracket, Pairings
from commands.reads.papermodels import Letterhead, Seat, Slips
from commands.reads.people import sort_key
from commands.reads.views import bracket, name_of, names_in, paired_round, pairing_table, pairings
from ledger.store import ListEntry
from projections.standings import ruleset_of
from projections.state import TournamentState


def letterhead(state: TournamentState) -> Letterhead:
    """The event's name and where it stands, from the same fold as the page's model."""
    current = state.current
    return Letterhead(
        tournament=state.id, name=state.name, ruleset=state.ruleset, stage=state.stage,
        round=current.number if current else 0, seq=state.seq, head=state.head,
    )  # fmt: skip


def seats(pairings: Pairings) -> list[Seat]:
    """Every paired player with their table and opponent, sorted by name as people read
    them (``commands.reads.people.sort_key``: "Élan" between "Dana" and "Fay"), so that a
    player finds their line on the wall without knowing their table."""
    names = pairings.names
    found = []
    for table in pairings.pairings:
        for player in table.players:
            opponent = next((p for p in table.players if p != player), None)
            found.append(Seat(
                player=player, name=name_of(names, player), table=table.table,
                opponent=opponent,
                opponent_name=name_of(names, opponent) if opponent is not None else None,
            ))  # fmt: skip
    found.sort(key=lambda s: sort_key(s.name, s.player))
    return found


def slips(state: TournamentState, round_number: int | None, names: Mapping[str, str],
          table: int | None = None) -> Slips:  # fmt: skip
    """The match slips of round ``round_number`` (the current round when None; a round
    never paired is refused): each two-player match in table order, with the result
    boxes of the ruleset's shape for the round's stage (``Ruleset.result_form``); with
    ``table``, that table's slip only (a table the round does not have is refused)."""
    rnd = paired_round(state, round_number)
    if rnd is None:
        raise WrongPhase("no round is paired yet: there are no match slips to print")
    matches = [m for m in rnd.matches if not m.is_bye and table in (None, m.table)]
    if table is not None and not matches:
        raise InvalidCommand(f"round {rnd.number} has no table {table} with a match slip")
    return Slips(
        tournament=state.id, round=rnd.number, stage=rnd.stage,
        form=ruleset_of(state).result_form(rnd.stage),
        matches=[pairing_table(m) for m in matches],
        names=names_in(names, (p for m in matches for p in m.players)),
    )  # fmt: skip


def printable_bracket(state: TournamentState, names: Mapping[str, str]) -> Bracket:
    """The bracket with its seeds, names and round names; refused before the cut, when
    there is no bracket to print."""
    if state.cut is None:
        raise WrongPhase("no cut has been made: there is no bracket to print")
    return bracket(state, names)


def wall_pairings(
    state: TournamentState, round_number: int | None, names: Mapping[str, str],
    lists: Sequence[ListEntry] = (), *, show_points: bool = True,
) -> Pairings:  # fmt: skip
    """The pairings of a round for the wall; a round never paired is refused, and so is
    a tournament with no round yet (an empty wall is no printout). With ``lists`` (the
    ``tledger_lists`` rows): who chooses initiative and, with ``show_points`` (a
    printout for an organizer or a judge), each player's declared list points (X-Wing,
    Armada), which are secret to everyone else until the lists are published."""
    if state.current is None:
        raise WrongPhase("no round is paired yet: there are no pairings to print")
    return pairings(state, round_number, names, lists=lists, show_points=show_points)
