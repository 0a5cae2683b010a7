"""Moving a tournament between stores: export to JSON Lines, import with the chain verified.

The first line is a header with the export format, the tournament id and the
player registry (names and external ids: personal data, so an erased player is
simply not in it) and, when the tournament has any, its deck lists (``lists``: the
rows of ``tledger_lists``, each with the seq of the event that commits to it by
hash, and the hash's ``salt`` when it has one: a list recorded before salts has
none, then and now); every further line is one event in its stored canonical
bytes, so the chain can be checked byte for byte on the other side.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson

from ledger.chain import Sealed, load_checked
from ledger.errors import ConcurrencyConflict, InvalidExport
from ledger.events import DeckCheckRecorded, Event
from ledger.list_events import ListCorrected, ListSubmitted
from ledger.list_rows import hashes_to
from ledger.store import ListEntry, PlayerEntry, Store

FORMAT = "tledger-export/1"


def export_lines(store: Store, tournament: str) -> list[bytes]:
    players = [
        {"player": e.player, "name": e.name, "external_id": e.external_id}
        for e in sorted(store.players(tournament).values(), key=lambda e: e.player)
    ]
    head: dict[str, Any] = {"format": FORMAT, "tournament": tournament, "players": players}
    kept = [exported_list(e) for e in store.lists(tournament)]
    if kept:  # a tournament without lists exports the header it always had
        head["lists"] = kept
    header = orjson.dumps(head)
    return [header, *(data for _, _, data in store.load_raw(tournament))]


def exported_list(entry: ListEntry) -> dict[str, Any]:
    """A list as the header carries it; ``salt`` only where the list has one, so that a
    list recorded before salts exports as it always did."""
    kept = {"seq": entry.seq, "player": entry.player, "list_hash": entry.list_hash,
            "list": entry.list, "violations": list(entry.violations)}  # fmt: skip
    return kept | ({"salt": entry.salt} if entry.salt else {})


def import_lines(store: Store, lines: Sequence[bytes]) -> tuple[str, int]:
    """Check the export's chain, then append its stored bytes unchanged, with the registry
    and the lists (each checked against the event that commits to it), in one transaction
    to an empty stream: on any failure nothing of the tournament remains, and the same
    import can be tried again."""
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
    lists = list_entries(tournament, header["lists"], [event for _, event in loaded])
    try:
        store.append(tournament, sealed, expected_version=0, players=players, lists=lists)
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
    lists = header.get("lists", [])
    valid = isinstance(lists, list) and all(
        isinstance(e, dict) and isinstance(e.get("seq"), int) and isinstance(e.get("player"), str)
        and isinstance(e.get("list_hash"), str) and isinstance(e.get("list"), dict)
        and isinstance(e.get("violations", []), list) and isinstance(e.get("salt", ""), str)
        for e in lists
    )  # fmt: skip
    if not valid:
        raise InvalidExport("the header's lists are not a list of {seq, player, list_hash, "
                            "list, violations, salt}")  # fmt: skip
    return {"tournament": header["tournament"], "players": players, "lists": lists}


def list_entries(
    tournament: str, lists: Sequence[dict[str, Any]], events: Sequence[Event]
) -> list[ListEntry]:
    """The header's lists as entries, each matched with the event at its seq (a list
    event of that player committing to that hash, which the list hashes to; or a deck
    check committing to the list presented), and one for every such event: an import
    never leaves a list event without its list."""
    by_seq: dict[int, ListEntry] = {}
    for e in lists:
        seq = e["seq"]
        event = events[seq - 1] if 1 <= seq <= len(events) else None
        digest = committed(event)
        if event is None or digest is None:
            raise InvalidExport(f"the header's list for seq {seq} has no list event there")
        if seq in by_seq:
            raise InvalidExport(f"the header holds two lists for seq {seq}")
        if getattr(event, "player", None) != e["player"] or digest != e["list_hash"]:
            raise InvalidExport(f"the header's list for seq {seq} is not the one its event names")
        salt = e.get("salt", "")
        if not hashes_to(e["list"], salt, digest):
            raise InvalidExport(f"the header's list for seq {seq} does not hash to its event's")
        by_seq[seq] = ListEntry(tournament, seq, e["player"], e["list_hash"], e["list"],
                                tuple(e.get("violations", [])), salt)  # fmt: skip
    for seq, event in enumerate(events, start=1):
        if committed(event) is not None and seq not in by_seq:
            raise InvalidExport(f"the export holds no list for the list event at seq {seq}")
    return [by_seq[s] for s in sorted(by_seq)]


def committed(event: Event | None) -> str | None:
    """The hash of the list an event commits to (kept in ``tledger_lists`` at its seq):
    a submitted or corrected list, or what a deck check recorded as presented."""
    if isinstance(event, ListSubmitted | ListCorrected):
        return event.list_hash
    if isinstance(event, DeckCheckRecorded):
        return event.presented_hash
    return None
