"""Moving a tournament between stores: export to JSON Lines, import with the chain verified.

The first line is a header with the export format, the tournament id and the
player registry (names and external ids: personal data, so an erased player is
simply not in it); every further line is one event in its stored canonical
bytes, so the chain can be checked byte for byte on the other side.
"""

from __future__ import annotations

from collections.abc import Sequence

import orjson

from ledger.chain import verify_stored
from ledger.errors import ConcurrencyConflict, InvalidExport
from ledger.events import loads
from ledger.store import PlayerEntry, Store

FORMAT = "tledger-export/1"


def export_lines(store: Store, tournament: str) -> list[bytes]:
    players = [
        {"player": e.player, "name": e.name, "external_id": e.external_id}
        for e in sorted(store.players(tournament).values(), key=lambda e: e.player)
    ]
    header = orjson.dumps({"format": FORMAT, "tournament": tournament, "players": players})
    return [header, *(data for _, _, data in store.load_raw(tournament))]


def import_lines(store: Store, lines: Sequence[bytes]) -> tuple[str, int]:
    """Verify the export's chain, then append it whole to an empty stream of ``store``."""
    lines = [line for line in lines if line.strip()]
    if not lines:
        raise InvalidExport("the file is empty")
    try:
        header = orjson.loads(lines[0])
    except orjson.JSONDecodeError:
        raise InvalidExport("the first line is not a tledger export header") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise InvalidExport(f"the first line does not name the format {FORMAT!r}")
    tournament = str(header["tournament"])
    stored = [(seq, 0, line) for seq, line in enumerate(lines[1:], start=1)]
    verify_stored(tournament, stored)
    events = [loads(data) for _, _, data in stored]
    try:
        store.append(tournament, events, expected_version=0)
    except ConcurrencyConflict:
        raise InvalidExport(f"tournament {tournament!r} exists in this store already") from None
    store.put_players([
        PlayerEntry(tournament, p["player"], p["name"], p.get("external_id"))
        for p in header.get("players", [])
    ])  # fmt: skip
    return tournament, len(events)
