"""Moving a tournament between stores: export to JSON Lines, import with the chain verified.

The first line is a header with the export format, the tournament id and the
player registry (names and external ids: personal data, so an erased player is
simply not in it); every further line is one event in its stored canonical
bytes, so the chain can be checked byte for byte on the other side.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson

from ledger.chain import Sealed, load_checked
from ledger.errors import ConcurrencyConflict, InvalidExport
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
    """Check the export's chain, then append its stored bytes unchanged, with the registry,
    in one transaction to an empty stream: on any failure nothing of the tournament
    remains, and the same import can be tried again."""
    lines = [line.strip() for line in lines if line.strip()]
    if not lines:
        raise InvalidExport("the file is empty")
    header = read_header(lines[0])
    tournament = header["tournament"]
    rows = [(seq, 0, line) for seq, line in enumerate(lines[1:], start=1)]
    if not rows:
        raise InvalidExport(f"the export of {tournament!r} holds no events")
    loaded = load_checked(tournament, rows)
    sealed = [Sealed(event, line) for (_, event), (_, _, line) in zip(loaded, rows, strict=True)]
    players = [PlayerEntry(tournament, p["player"], p["name"], p.get("external_id"))
               for p in header["players"]]  # fmt: skip
    try:
        store.append(tournament, sealed, expected_version=0, players=players)
    except ConcurrencyConflict:
        raise InvalidExport(f"tournament {tournament!r} exists in this store already") from None
    return tournament, len(sealed)


def read_header(line: bytes) -> dict[str, Any]:
    """The export's first line: its format, the tournament and the player registry."""
    try:
        header = orjson.loads(line)
    except orjson.JSONDecodeError:
        raise InvalidExport("the first line is not a tledger export header") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise InvalidExport(f"the first line does not name the format {FORMAT!r}")
    if not isinstance(header.get("tournament"), str) or not header["tournament"]:
        raise InvalidExport("the header names no tournament")
    players = header.get("players", [])
    valid = isinstance(players, list) and all(
        isinstance(p, dict) and isinstance(p.get("player"), str) and isinstance(p.get("name"), str)
        and isinstance(p.get("external_id"), str | None) for p in players
    )  # fmt: skip
    if not valid:
        raise InvalidExport("the header's players are not a list of {player, name, external_id}")
    return {"tournament": header["tournament"], "players": players}
