"""The tournaments' face settings in every store (memory, SQLite, PostgreSQL): the public
page is on until an organizer turns it off; the switch is kept beside the log, never in
it; a store made before the table existed gains it when opened.

PostgreSQL runs when ``TLEDGER_TEST_POSTGRES`` names a database (CI sets it); the
shared database keeps rows of earlier runs, so every test uses fresh tournament ids
and deletes its rows afterwards.
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from commands.handler import Handler
from commands.models import parse_command
from ledger.store import Store, TournamentSettings
from ledger.url import open_store
from tests.public_event import clean_postgres
from tests.stores import KINDS, own_database, store_url

NOW = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)


@pytest.fixture(params=["memory", *KINDS])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "memory":
        return f"memory://{uuid.uuid4().hex}"
    return store_url(request.param, tmp_path, "settings.sqlite3")


@pytest.fixture
def tid(url: str) -> Iterator[str]:
    """A fresh tournament id; on PostgreSQL what the test wrote of it goes afterwards."""
    t = f"set-{uuid.uuid4().hex[:12]}"
    yield t
    clean_postgres(url, t, f"{t}-a", f"{t}-b")


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    opened = open_store(url)
    yield opened
    opened.close()


def test_a_tournament_never_set_has_its_public_page_on(store: Store, tid: str) -> None:
    assert store.tournament_settings(tid) == TournamentSettings(tid, public_page=True)


def test_turning_the_page_off_is_kept_with_who_and_when(store: Store, tid: str) -> None:
    store.put_tournament_settings(TournamentSettings(tid, False, NOW, "organizer:local"))
    assert store.tournament_settings(tid) == TournamentSettings(
        tid, public_page=False, changed_at=NOW, changed_by="organizer:local"
    )


def test_setting_again_replaces_the_row(store: Store, tid: str) -> None:
    later = datetime(2026, 11, 28, 10, 30, tzinfo=UTC)
    store.put_tournament_settings(TournamentSettings(tid, False, NOW, "organizer:local"))
    store.put_tournament_settings(TournamentSettings(tid, True, later, "organizer:AK"))
    assert store.tournament_settings(tid) == TournamentSettings(tid, True, later, "organizer:AK")


def test_settings_are_per_tournament(store: Store, tid: str) -> None:
    store.put_tournament_settings(TournamentSettings(f"{tid}-a", False, NOW, "organizer:local"))
    assert store.tournament_settings(f"{tid}-a").public_page is False
    assert store.tournament_settings(f"{tid}-b").public_page is True


def test_a_setting_is_no_event_and_changes_no_hash(url: str) -> None:
    """Nothing is appended anywhere: the tournament's log and the store's head stay (on
    PostgreSQL in a database of the test's own: tests beside it append to the shared one)."""
    with own_database(url) as own:
        store = open_store(own)
        handler = Handler(store)
        for command in ({"type": "create_tournament", "name": "S", "ruleset": "swu-1.4"},
                        {"type": "register_player", "player": "p1", "name": "Ada"}):  # fmt: skip
            handler.handle(parse_command({"tournament": "t1", **command}))
        before = store.load_raw("t1"), store.head_position()
        store.put_tournament_settings(TournamentSettings("t1", False, NOW, "organizer:local"))
        assert (store.load_raw("t1"), store.head_position()) == before
        store.close()


@pytest.mark.parametrize("kind", KINDS)
def test_another_process_sees_the_switch(kind: str, tmp_path: Path) -> None:
    url = store_url(kind, tmp_path, "shared.sqlite3")
    t = f"set-{uuid.uuid4().hex[:12]}"
    first, second = open_store(url), open_store(url)
    try:
        assert second.tournament_settings(t).public_page is True
        first.put_tournament_settings(TournamentSettings(t, False, NOW, "organizer:local"))
        assert second.tournament_settings(t).public_page is False
        first.put_tournament_settings(TournamentSettings(t, True, NOW, "organizer:local"))
        assert second.tournament_settings(t).public_page is True
    finally:
        clean_postgres(url, t)
        first.close()
        second.close()


def test_a_sqlite_store_made_before_the_table_gains_it_when_opened(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    open_store(url).close()
    with sqlite3.connect(tmp_path / "old.sqlite3") as db:
        db.execute("DROP TABLE tledger_tournament_settings")
    store = open_store(url)
    try:
        assert store.tournament_settings("t1").public_page is True
        store.put_tournament_settings(TournamentSettings("t1", False, NOW, "organizer:local"))
        assert store.tournament_settings("t1").public_page is False
    finally:
        store.close()
