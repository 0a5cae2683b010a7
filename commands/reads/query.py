"""What a reader asks the read side for (``commands.reads.cache``): a read model of the
fold (``Query``) or a page of the log (``LogQuery``); each query's ``key`` is part of
its cache key and ETag, so two queries with one key are one entry.
"""

from __future__ import annotations

from dataclasses import MISSING, Field, dataclass, field, fields
from typing import Literal

import orjson

from commands.reads.logfilter import LogFilter

LOG_PAGE = 1000
StateView = Literal[
    "status",
    "standings",
    "pairings",
    "bracket",
    "outstanding",
    "player",
    "players",
    "slip",
    "queue",
    "explain",
    "pods",
    "clock",
    "lifecycle",
]


@dataclass(frozen=True, slots=True)
class Query:
    """A read model of the fold: which one, and its round, player or search."""

    view: StateView
    round: int | None = None
    player: str | None = None
    search: str | None = None
    #: a match slip's two players (view "slip", with ``round``)
    players: tuple[str, str] | None = None
    #: the status's tables over time (``clockviews.late``): part of the key and ETag
    late: tuple[tuple[str, ...], ...] = ()

    @property
    def key(self) -> str:
        return key_of(self)


@dataclass(frozen=True, slots=True)
class LogQuery:
    """A page of the log: the events after seq ``after_seq``, at most ``limit`` of them;
    with a filter (``keep``), at most ``limit`` of the events it keeps."""

    after_seq: int = 0
    limit: int = LOG_PAGE
    keep: LogFilter = field(default_factory=LogFilter)

    @property
    def key(self) -> str:
        return "log" + key_of(self)


def key_of(query: Query | LogQuery) -> str:
    """A query's cache key (and its part of the ETag): each of its fields that differs
    from the field's default, by name. It is derived from the fields themselves, so a
    field added to a query is part of its key at once and two queries that differ in
    any field never share an entry."""
    asked = {f.name: value for f in fields(query)
             if (value := getattr(query, f.name)) != default_of(f)}  # fmt: skip
    return orjson.dumps(asked).decode()


def default_of(field: Field[object]) -> object:
    if field.default_factory is not MISSING:
        return field.default_factory()
    return field.default
