"""The tournament's players as one list: who is registered, under which name, and
whether they still play; the organizer's answer to "which seat was Élan again?". Built
from the same fold and the same registry names as standings, so a name shows here
exactly as it shows there ("(erased)" after ``tledger forget``).
"""

from __future__ import annotations

from collections.abc import Mapping

from commands.reads.models import PlayerRow, Players, PlayerStatus
from commands.reads.people import matches, sort_key
from commands.reads.views import name_of
from projections.state import Player, TournamentState


def players(state: TournamentState, names: Mapping[str, str], search: str | None = None) -> Players:
    """Every player sorted by name as people read them; with ``search``, only those whose
    name or id holds it (folded: "elan" finds "Élan")."""
    rows = [PlayerRow(player=p.id, name=name_of(names, p.id), status=status_of(p))
            for p in state.players.values()]  # fmt: skip
    found = [r for r in rows if matches(search, r.name, r.player)]
    found.sort(key=lambda r: sort_key(r.name, r.player))
    return Players(tournament=state.id, seq=state.seq, head=state.head, players=found)


def status_of(player: Player) -> PlayerStatus:
    """A disqualification outranks the drop it implies (a disqualified player is also
    out of the event, and may not rejoin)."""
    if player.disqualified:
        return "disqualified"
    return "dropped" if player.dropped else "active"
