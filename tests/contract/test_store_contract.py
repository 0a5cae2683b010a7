"""One contract for every store adapter: memory, SQLite and PostgreSQL.

PostgreSQL runs when ``TLEDGER_TEST_POSTGRES`` names a database (CI sets it);
otherwise those tests skip with the reason.
"""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from commands.handler import Handler
from commands.models import parse_command
from ledger.chain import GENESIS, Sealed, seal
from ledger.errors import ChainBroken, ConcurrencyConflict, InvalidExport, StoreWentBack
from ledger.store import PlayerEntry, Store
from ledger.transfer import export_lines, import_lines
from ledger.url import open_store
from tests.builders import Given, create, register
from tests.chains import verify_chain

ROOT = Path(__file__).resolve().parents[2]


class StoreContract:
    """Behaviour every adapter must show. Subclasses say how to open one."""

    killable = True

    @pytest.fixture
    def url(self, tmp_path: Path) -> str:
        raise NotImplementedError

    @pytest.fixture
    def store(self, url: str) -> Iterator[Store]:
        store = open_store(url)
        yield store

    @pytest.fixture
    def tid(self) -> str:
        return f"t-{uuid.uuid4().hex[:12]}"

    def sample(self, tid: str, players: int = 3) -> list[Sealed]:
        names = [f"p{i}" for i in range(1, players + 1)]
        return seal([r.event for r in Given(create(tid), *register(*names, t=tid)).log], GENESIS)

    def test_appended_events_load_back_in_seq_order_with_increasing_positions(
        self, store: Store, tid: str
    ) -> None:
        events = self.sample(tid)
        out = store.append(tid, events, expected_version=0)
        loaded = store.load(tid)
        assert [r.seq for r in loaded] == [1, 2, 3, 4]
        assert [r.position for r in loaded] == [r.position for r in out]
        assert all(a.position < b.position for a, b in itertools.pairwise(loaded))

    def test_events_read_back_byte_identical_and_the_chain_verifies(
        self, store: Store, tid: str
    ) -> None:
        events = self.sample(tid)
        store.append(tid, events, expected_version=0)
        assert [data for _, _, data in store.load_raw(tid)] == [s.data for s in events]
        loaded = [r.event for r in store.load(tid)]
        assert loaded == [s.event for s in events]
        assert verify_chain(tid, loaded) == events[-1].event.hash

    def test_load_after_a_seq_returns_only_newer_events(self, store: Store, tid: str) -> None:
        events = self.sample(tid)
        store.append(tid, events, expected_version=0)
        assert [r.seq for r in store.load(tid, after=2, head=events[1].event.hash)] == [3, 4]

    def test_load_after_a_seq_checks_the_link_to_the_head_the_reader_holds(
        self, store: Store, tid: str
    ) -> None:
        store.append(tid, self.sample(tid), expected_version=0)
        with pytest.raises(StoreWentBack, match=r"integrity: seq 2: .* holds another event"):
            store.load(tid, after=2, head="f" * 64)

    def test_a_reader_past_the_stored_end_learns_that_the_store_went_back(
        self, store: Store, tid: str
    ) -> None:
        events = self.sample(tid)
        store.append(tid, events[:2], expected_version=0)
        with pytest.raises(StoreWentBack, match=r"integrity: seq 3: .* now ends at seq 2"):
            store.load(tid, after=3, head=events[2].event.hash)

    def test_an_append_decided_past_the_stored_end_appends_nothing(
        self, store: Store, tid: str
    ) -> None:
        """An older backup restored under a running writer: its next append would leave
        a gap in the log; it is refused instead."""
        events = self.sample(tid)
        store.append(tid, events[:2], expected_version=0)
        with pytest.raises(StoreWentBack, match=r"integrity: seq 3: .* now ends at seq 2"):
            store.append(tid, events[3:], expected_version=3)
        assert [r.seq for r in store.load(tid)] == [1, 2]

    def test_an_append_linked_to_another_event_than_the_stored_one_appends_nothing(
        self, store: Store, tid: str
    ) -> None:
        events = self.sample(tid)
        store.append(tid, events[:3], expected_version=0)
        forged = seal([events[3].event], "f" * 64)
        with pytest.raises(StoreWentBack, match=r"integrity: seq 3: .* holds another event"):
            store.append(tid, forged, expected_version=3)
        assert [r.seq for r in store.load(tid)] == [1, 2, 3]

    def test_append_with_a_stale_expected_version_fails_and_appends_nothing(
        self, store: Store, tid: str
    ) -> None:
        events = self.sample(tid)
        store.append(tid, events[:2], expected_version=0)
        with pytest.raises(ConcurrencyConflict):
            store.append(tid, events[1:], expected_version=1 - 1)
        assert [r.seq for r in store.load(tid)] == [1, 2]

    def test_unknown_tournament_loads_empty(self, store: Store) -> None:
        assert store.load(f"none-{uuid.uuid4().hex}") == []

    def test_global_sequence_reads_every_tournament_in_order_after_a_position(
        self, store: Store
    ) -> None:
        a, b = f"a-{uuid.uuid4().hex[:8]}", f"b-{uuid.uuid4().hex[:8]}"
        first = store.append(a, self.sample(a, 1), expected_version=0)
        store.append(b, self.sample(b, 1), expected_version=0)
        after = store.scan(first[0].position - 1, 100)[0]
        seen = [(t, r.seq) for t, r in after if t in (a, b)]
        assert seen == [(a, 1), (a, 2), (b, 1), (b, 2)]
        positions = [r.position for _, r in after]
        assert positions == sorted(positions)
        assert a in store.tournaments() and b in store.tournaments()

    def test_player_registry_keeps_names_out_of_the_log_and_forgets_them(
        self, store: Store, tid: str
    ) -> None:
        entry = PlayerEntry(tid, "p1", "Ada Lovelace", "UID-1")
        store.append(tid, self.sample(tid, 1), expected_version=0, players=[entry])
        assert store.players(tid)["p1"].name == "Ada Lovelace"
        assert all(b"Ada" not in data for _, _, data in store.load_raw(tid))
        assert store.forget(tid, "p1") is True
        assert store.players(tid) == {}
        assert store.forget(tid, "p1") is False

    def test_a_refused_append_writes_no_registry_entry(self, store: Store, tid: str) -> None:
        events = self.sample(tid, 1)
        store.append(tid, events, expected_version=0)
        loser = PlayerEntry(tid, "p1", "Refused Name", None)
        with pytest.raises(ConcurrencyConflict):
            store.append(tid, events[1:], expected_version=1, players=[loser])
        assert store.players(tid) == {}

    def test_an_import_is_atomic_and_can_be_retried(self, store: Store, tid: str) -> None:
        source = open_store(f"memory://{uuid.uuid4().hex}")
        handler = Handler(source)
        for command in [create(tid), *register("p1", "p2", t=tid)]:
            handler.handle(parse_command(command))
        lines = export_lines(source, tid)
        damaged = [*lines[:3], lines[3].replace(b'"p2"', b'"p3"')]
        with pytest.raises(ChainBroken, match="integrity: seq 3"):
            import_lines(store, damaged)
        assert store.load(tid) == [] and store.players(tid) == {}
        assert import_lines(store, lines) == (tid, 3)
        assert sorted(store.players(tid)) == ["p1", "p2"]
        with pytest.raises(InvalidExport, match="exists in this store already"):
            import_lines(store, lines)
        assert len(store.load(tid)) == 3

    def test_two_writers_racing_on_one_tournament_lose_nothing(self, url: str, tid: str) -> None:
        Handler(open_store(url)).handle(parse_command(create(tid)))
        errors: list[BaseException] = []

        def writer(prefix: str) -> None:
            handler = Handler(open_store(url))
            try:
                for i in range(25):
                    handler.handle(parse_command(register(f"{prefix}{i}", t=tid)[0]))
            except BaseException as exc:  # pragma: no cover - reported below
                errors.append(exc)

        threads = [threading.Thread(target=writer, args=(p,)) for p in ("a", "b")]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        loaded = open_store(url).load(tid)
        assert [r.seq for r in loaded] == list(range(1, 52))
        verify_chain(tid, [r.event for r in loaded])

    def test_a_process_killed_mid_append_leaves_a_readable_store(self, url: str, tid: str) -> None:
        if not self.killable:
            pytest.skip("a memory store lives in one process")
        script = textwrap.dedent(
            f"""
            from commands.handler import Handler
            from commands.models import parse_command
            from ledger.url import open_store
            h = Handler(open_store({url!r}))
            h.handle(parse_command({create(tid)!r}))
            i = 0
            while True:
                i += 1
                h.handle(parse_command({{"type": "register_player", "tournament": {tid!r},
                                          "player": f"p{{i}}", "name": "x"}}))
            """
        )
        proc = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT)
        store = open_store(url)
        deadline = time.monotonic() + 30
        while len(store.load(tid)) < 40 and time.monotonic() < deadline:
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        loaded = open_store(url).load(tid)
        assert len(loaded) >= 40
        assert [r.seq for r in loaded] == list(range(1, len(loaded) + 1))
        verify_chain(tid, [r.event for r in loaded])

    def test_sealing_onto_a_loaded_head_continues_the_chain(self, store: Store, tid: str) -> None:
        events = [s.event for s in self.sample(tid)]
        store.append(tid, seal(events[:2], GENESIS), expected_version=0)
        head = store.load(tid)[-1].event.hash
        store.append(tid, seal(events[2:], head), expected_version=2)
        assert verify_chain(tid, [r.event for r in store.load(tid)]) != GENESIS


class TestMemoryStore(StoreContract):
    killable = False

    @pytest.fixture
    def url(self, tmp_path: Path) -> str:
        return f"memory://{uuid.uuid4().hex}"


class TestSQLiteStore(StoreContract):
    @pytest.fixture
    def url(self, tmp_path: Path) -> str:
        return f"sqlite:///{tmp_path}/store.sqlite3"

    def test_forgotten_name_is_gone_from_the_database_file_and_its_log(
        self, url: str, tmp_path: Path
    ) -> None:
        store = open_store(url)
        handler = Handler(store)
        handler.handle(parse_command(create("t1")))
        handler.handle(parse_command({**register("p1")[0], "name": "Zebulon Quuxington"}))
        store.forget("t1", "p1")
        files = list(tmp_path.glob("store.sqlite3*"))
        assert files and all(b"Zebulon Quuxington" not in f.read_bytes() for f in files)


class TestPostgresStore(StoreContract):
    @pytest.fixture
    def url(self, tmp_path: Path) -> str:
        url = os.environ.get("TLEDGER_TEST_POSTGRES")
        if not url:
            pytest.skip("TLEDGER_TEST_POSTGRES is not set (CI sets it to the local PostgreSQL)")
        return url
