"""Deck lists beside their events in every store (memory, SQLite, PostgreSQL).

The events commit to a list by its hash and name no card; the list and its full
violations are written to ``tledger_lists`` in the append's transaction (a refused
append leaves none), read back in seq order, exported with the tournament and
restored by an import, all or nothing, each checked against its event.

PostgreSQL runs when ``TLEDGER_TEST_POSTGRES`` names a database (CI sets it); each
test there gets a database of its own, dropped afterwards.
"""

from __future__ import annotations

import shutil
import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from commands.handler import Handler
from commands.models import parse_command
from ledger.chain import seal
from ledger.errors import ConcurrencyConflict, InvalidExport
from ledger.list_events import list_hash
from ledger.store import ListEntry, Store
from ledger.transfer import export_lines, import_lines
from ledger.url import open_store
from tests.builders import create, register
from tests.stores import KINDS, fresh_postgres_database, store_url

SHORT: dict[str, Any] = {"leader": "Luke Skywalker | Faithful Friend", "base": "Echo Base",
                         "deck": [{"card": "X-Wing", "count": 3}]}  # fmt: skip
#: as kept: the shape's JSON with its empty sections (projections.rulesets.decklists.stored)
STORED_SHORT = {**SHORT, "sideboard": []}
LEGAL: dict[str, Any] = {**SHORT, "deck": [{"card": f"Card {i}", "count": 2} for i in range(25)]}
GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "logs"


@pytest.fixture(params=["memory", *KINDS])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "memory":
        yield f"memory://{uuid.uuid4().hex}"
    elif request.param == "sqlite":
        yield store_url("sqlite", tmp_path, "lists.sqlite3")
    else:
        with fresh_postgres_database(store_url("postgres", tmp_path)) as own:
            yield own


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    opened = open_store(url)
    try:
        yield opened
    finally:
        opened.close()


def submit(t: str, player: str, data: dict[str, Any]) -> dict[str, Any]:
    return {"type": "submit_list", "tournament": t, "player": player, "list": data}


def with_lists(store: Store, t: str = "t1") -> Handler:
    """A tournament of two players, p1 with a list submitted twice, p2 with a short one."""
    handler = Handler(store)
    for command in [create(t), *register("p1", "p2", t=t), submit(t, "p1", SHORT),
                    submit(t, "p1", LEGAL), submit(t, "p2", SHORT)]:  # fmt: skip
        handler.handle(parse_command(command))
    return handler


def test_lists_are_kept_beside_their_events_in_seq_order_and_never_in_them(store: Store) -> None:
    with_lists(store)
    kept = store.lists("t1")
    events = {r.seq: r.event for r in store.load("t1")}
    assert [(e.seq, e.player) for e in kept] == [(4, "p1"), (5, "p1"), (6, "p2")]
    for entry in kept:
        assert entry.list_hash == getattr(events[entry.seq], "list_hash", None)
        assert list_hash(entry.list, entry.salt) == entry.list_hash != list_hash(entry.list)
    assert len({e.salt for e in kept}) == 3 and all(len(e.salt) == 32 for e in kept)
    assert kept[0].list == STORED_SHORT and kept[1].violations == ()
    assert kept[2].violations[0]["section"] == "swu-1.4 §2.3.1.1"
    assert "the draw deck has 3 cards" in kept[2].violations[0]["message"]
    assert all(b"X-Wing" not in data and b"Luke" not in data
               for _, _, data in store.load_raw("t1"))  # fmt: skip
    assert store.lists("another") == []


def test_a_refused_append_keeps_no_list(store: Store) -> None:
    handler = with_lists(store)
    state = handler.folds.state("t1")
    events = store.load("t1")
    again = seal([events[-1].event], events[-2].event.hash)  # seq 6 again: it exists
    loser = ListEntry("t1", 6, "p2", list_hash(LEGAL), LEGAL)
    with pytest.raises(ConcurrencyConflict):
        store.append("t1", again, expected_version=state.seq - 1, lists=[loser])
    assert store.lists("t1")[-1].list == STORED_SHORT
    assert store.lists("t1")[-1].list_hash == list_hash(STORED_SHORT, store.lists("t1")[-1].salt)


def test_an_export_carries_the_lists_and_an_import_restores_them(store: Store) -> None:
    source = open_store(f"memory://{uuid.uuid4().hex}")
    with_lists(source)
    lines = export_lines(source, "t1")
    header = orjson.loads(lines[0])
    assert [(e["seq"], e["player"]) for e in header["lists"]] == [(4, "p1"), (5, "p1"), (6, "p2")]
    assert [e["salt"] for e in header["lists"]] == [e.salt for e in source.lists("t1")]
    assert import_lines(store, lines) == ("t1", 6)
    assert store.lists("t1") == source.lists("t1")
    assert export_lines(store, "t1") == lines


def test_an_export_without_lists_keeps_the_header_it_always_had(store: Store) -> None:
    handler = Handler(store)
    for command in [create("t2"), *register("p1", t="t2")]:
        handler.handle(parse_command(command))
    assert "lists" not in orjson.loads(export_lines(store, "t2")[0])


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (lambda ls: ls[:2], "the export holds no list for the list event at seq 6"),
        (lambda ls: [*ls[:2], {**ls[2], "list": LEGAL}],
         "the header's list for seq 6 does not hash to its event's"),
        (lambda ls: [*ls[:2], {**ls[2], "list": LEGAL, "list_hash": list_hash(LEGAL)}],
         "the header's list for seq 6 is not the one its event names"),
        (lambda ls: [*ls, {**ls[2], "seq": 3}], "the header's list for seq 3 has no list event"),
        (lambda ls: [*ls, ls[2]], "the header holds two lists for seq 6"),
        (lambda ls: [{**ls[0], "list": "cards"}], "the header's lists are not a list of"),
        (lambda ls: [*ls[:2], {k: v for k, v in ls[2].items() if k != "salt"}],
         "the header's list for seq 6 does not hash to its event's"),
        (lambda ls: [*ls[:2], {**ls[2], "salt": ls[1]["salt"]}],
         "the header's list for seq 6 does not hash to its event's"),
        (lambda ls: [*ls[:2], {**ls[2], "salt": "not hex"}],
         "the header's list for seq 6 does not hash to its event's"),
        (lambda ls: [*ls[:2], {**ls[2], "salt": 7}], "the header's lists are not a list of"),
    ],
)  # fmt: skip
def test_an_import_whose_lists_do_not_match_its_events_imports_nothing(
    store: Store, damage: Any, said: str
) -> None:
    source = open_store(f"memory://{uuid.uuid4().hex}")
    with_lists(source)
    lines = export_lines(source, "t1")
    header = orjson.loads(lines[0])
    bad = orjson.dumps({**header, "lists": damage(header["lists"])})
    with pytest.raises(InvalidExport, match=said):
        import_lines(store, [bad, *lines[1:]])
    assert store.load("t1") == [] and store.lists("t1") == []
    assert import_lines(store, lines) == ("t1", 6)  # the same import can be tried again
    assert len(store.lists("t1")) == 3


def test_a_store_made_before_salts_gains_the_column_and_reads_its_lists_unsalted(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.sqlite3"
    shutil.copyfile(GOLDEN / "format-5" / "swu-1.4.sqlite3", path)
    with sqlite3.connect(path) as db:
        assert "salt" not in {r[1] for r in db.execute("PRAGMA table_info(tledger_lists)")}
    store = open_store(f"sqlite:///{path}")
    old = store.lists("swu-1-4")
    assert len(old) >= 11 and all(e.salt == "" for e in old)
    handler = Handler(store)
    for command in [create("t9"), *register("p1", t="t9"), submit("t9", "p1", LEGAL)]:
        handler.handle(parse_command(command))
    [new] = store.lists("t9")
    assert len(new.salt) == 32 and new.list_hash == list_hash(new.list, new.salt)
    store.close()
