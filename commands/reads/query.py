"""What a reader asks the read side for (``commands.reads.cache``): a read model of the
fold (``Query``) or a page of the log (``LogQuery``); each query's ``key`` is part of
its cache key and ETag, so two queries with one key are one entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
        if self.late:
            return f"{self.view}?late={orjson.dumps(self.late).decode()}"
        if self.view == "clock":
            return f"clock?round={self.round or ''}"
        if self.view == "slip":
            return f"slip?round={self.round}&players={orjson.dumps(self.players).decode()}"
        if self.view == "pairings":
            searched = f"&search={self.search}" if self.search else ""
            return f"pairings?round={self.round or ''}{searched}"
        if self.view == "players":
            return f"players?search={self.search or ''}"
        if self.view == "explain":
            return f"explain/{self.player}"
        return f"players/{self.player}" if self.view == "player" else self.view


@dataclass(frozen=True, slots=True)
class LogQuery:
    """A page of the log: the events after seq ``after_seq``, at most ``limit`` of them;
    with a filter (``keep``), at most ``limit`` of the events it keeps."""

    after_seq: int = 0
    limit: int = LOG_PAGE
    keep: LogFilter = field(default_factory=LogFilter)

    @property
    def key(self) -> str:
        filtered = f"&{self.keep.key}" if self.keep.active else ""
        return f"log?after_seq={self.after_seq}&limit={self.limit}{filtered}"
