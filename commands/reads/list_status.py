"""Who has submitted a list, and what rules each list breaks (shown by the console's
lists page): from the fold's lists (their events record the rules broken with section
and count, never the cards), so officials see it at any time without reading a list
itself."""

from __future__ import annotations

from collections.abc import Mapping

from commands.reads.models import ReadModel
from commands.reads.people import sort_key
from commands.reads.views import name_of
from projections.state import TournamentState


class ListRow(ReadModel):
    player: str
    name: str
    submitted: bool
    corrected: bool
    violations: list[str]


class ListStatus(ReadModel):
    tournament: str
    locked: bool
    submitted: int
    rows: list[ListRow]


def list_status(state: TournamentState, names: Mapping[str, str]) -> ListStatus:
    """Every active player's list state, by name."""
    rows = []
    for player in state.active_players:
        held = state.lists.get(player)
        broken = [f"{v.rule} ({v.section}) x{v.count}" for v in held.violations] if held else []
        rows.append(ListRow(player=player, name=name_of(names, player),
                            submitted=held is not None, corrected=bool(held and held.corrected),
                            violations=broken))  # fmt: skip
    rows.sort(key=lambda r: sort_key(r.name, r.player))
    return ListStatus(tournament=state.id, locked=state.lists_locked,
                      submitted=sum(r.submitted for r in rows), rows=rows)  # fmt: skip
