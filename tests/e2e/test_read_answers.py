"""Cached reads as they are answered (commands/api/reads.py, commands/reads/cache.py):
gzipped for a client that takes it, a page of several models checked against the store
once, and what was computed answered without the tournament's lock, never past the seq
the store ends at."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from commands.api import reads
from commands.handler import Handler
from commands.models import parse_command
from commands.reads.cache import Query, ReadSide
from ledger.store import Recorded
from tests.e2e.test_read_cache import TABLES, Client, handler, report, started

__all__ = ["handler"]  # the fixture, used by name


def test_a_large_read_goes_out_gzipped_to_a_client_that_takes_gzip(handler: Handler) -> None:
    """The same JSON, gzipped once per entry, under an ETag of its own; a copy held under
    either tag is current; a small body, a client that does not take gzip (or refuses it
    with q=0) gets the plain bytes."""
    t, api = started(handler), Client(handler)
    path = f"/tournaments/{t}/log"
    plain = api.http.get(path, headers={**api.auth, "Accept-Encoding": "identity"})
    assert len(plain.content) >= reads.GZIP_FROM and "content-encoding" not in plain.headers
    for asked in ("gzip", "br;q=1, gzip;q=0.5", "*"):
        zipped = api.http.get(path, headers={**api.auth, "Accept-Encoding": asked})
        assert zipped.headers["Content-Encoding"] == "gzip", asked
        assert zipped.content == plain.content
        assert int(zipped.headers["Content-Length"]) < len(plain.content) // 2
        assert zipped.headers["ETag"] == plain.headers["ETag"][:-1] + '-gzip"'
        assert zipped.headers["Vary"] == plain.headers["Vary"] == "Accept-Encoding"
    for refused in ("gzip;q=0", "identity, *;q=0", "br"):
        answer = api.http.get(path, headers={**api.auth, "Accept-Encoding": refused})
        assert "content-encoding" not in answer.headers, refused
    for held in (plain.headers["ETag"], zipped.headers["ETag"]):
        again = api.http.get(path, headers={**api.auth, "Accept-Encoding": "gzip",
                                            "If-None-Match": held})  # fmt: skip
        assert (again.status_code, again.content) == (304, b"")
    small = api.http.get(f"/tournaments/{t}/players/p1",
                         headers={**api.auth, "Accept-Encoding": "gzip"})  # fmt: skip
    assert len(small.content) < reads.GZIP_FROM and "content-encoding" not in small.headers


def test_a_page_of_several_models_checks_the_store_once(
    handler: Handler, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the public page's five models are computed, a request for it reads the store
    once (the one check for newer events), not once per model."""
    t, api = started(handler), Client(handler)
    assert api.http.get(f"/t/{t}").status_code == 200
    calls: list[str] = []
    load = handler.store.load

    def counted(*args: Any, **kwargs: Any) -> list[Recorded]:
        calls.append(args[0])
        return load(*args, **kwargs)

    monkeypatch.setattr(handler.store, "load", counted)
    assert api.http.get(f"/t/{t}").status_code == 200
    assert calls == [t]


def test_a_computed_read_is_answered_while_a_command_holds_the_tournament(
    handler: Handler,
) -> None:
    """What was computed for the seq the store still ends at is answered without the
    tournament's lock (a command deciding, a slow computation); a newer event in the
    store, or a kept event that is no longer the stored one, is never answered from it."""
    t, side = started(handler), ReadSide(handler.folds)
    computed = side.get(t, Query("standings"))
    held, release = threading.Event(), threading.Event()

    def command() -> None:
        with handler.folds.lock(t):
            held.set()
            release.wait(10)

    holder = threading.Thread(target=command)
    holder.start()
    held.wait(10)
    try:
        assert side.cached(t, Query("standings")) is computed
        assert side.cached_many(t, [Query("standings"), Query("status")]) is None  # not computed
    finally:
        release.set()
        holder.join()
    other = Handler(handler.store)  # another process's write
    other.handle(parse_command(report(t, TABLES[0])))
    assert side.cached(t, Query("standings")) is None
    assert side.get(t, Query("standings")).seq == 12


def test_a_computed_read_reads_one_newer_event_at_most_to_know_it_is_stale(
    handler: Handler, monkeypatch: pytest.MonkeyPatch
) -> None:
    """However many events another process appended since, the check on the event loop
    reads one of them, not all: the computation in a worker thread reads the rest."""
    t, side = started(handler), ReadSide(handler.folds)
    side.get(t, Query("standings"))
    other = Handler(handler.store)
    for pair in TABLES:
        other.handle(parse_command(report(t, pair)))
    loaded: list[int] = []
    load = handler.store.load

    def counted(*args: Any, **kwargs: Any) -> list[Recorded]:
        found = load(*args, **kwargs)
        loaded.append(len(found))
        return found

    monkeypatch.setattr(handler.store, "load", counted)
    assert side.cached(t, Query("standings")) is None
    assert loaded == [1]


def test_a_group_commit_leaves_the_fold_known_at_its_new_seq(handler: Handler) -> None:
    """After commands over HTTP (decided and committed by the group commit, which
    evolves the kept fold itself), what is computed at the new seq is answered at once."""
    t, api = started(handler), Client(handler)
    for pair in TABLES[:2]:
        assert api.post(report(t, pair)).status_code == 200
    assert handler.folds.current_point(t) == (13, handler.store.head(t)[1])
