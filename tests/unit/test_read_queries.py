"""A read query's cache key (and its part of the ETag) comes from the query's own fields:
two queries that differ in any field never share an entry."""

from __future__ import annotations

from dataclasses import fields

from commands.reads.query import LogQuery, Query


def test_every_field_of_a_query_changes_its_key() -> None:
    plain = Query("pairings")
    given = {"round": 3, "player": "p1", "search": "ada", "players": ("p1", "p2"),
             "late": (("p1", "p2"),)}  # fmt: skip
    assert {f.name for f in fields(Query)} == {"view", *given}
    keys = {Query("pairings", **{name: value}).key for name, value in given.items()}  # type: ignore[arg-type]
    assert len(keys) == len(given) and plain.key not in keys


def test_a_query_with_only_defaults_is_keyed_by_its_view() -> None:
    assert Query("standings").key == '{"view":"standings"}'
    assert Query("standings", round=2).key != Query("standings").key
    assert LogQuery(after_seq=5).key != LogQuery(limit=5).key
