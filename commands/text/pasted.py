"""What every list pasted into the console shares: its bound, its lines, and the ids
given to lines that name none.

A paste is bounded, so that one paste cannot hold the server: at most ``MAX_LINES``
lines (a field of 10,000 players, far above the largest events), refused as a whole
with one line saying so before any line is read. The ids given are seat numbers
(``p1``, ``p2``, ..., ``team1``, ...; never personal data), each one more than the
highest of its kind in use. The highest is counted once and carried forward, so a
paste of n lines costs n steps whatever the event already holds. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from commands.errors import InvalidCommand

MAX_LINES = 10_000


def lines_of(text: str, noun: str) -> list[str]:
    """The pasted text's lines (any line ending), or InvalidCommand when there are more
    than ``MAX_LINES`` (``noun``: what a line holds, for the message)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if len(lines) > MAX_LINES:
        raise InvalidCommand(f"a paste holds at most {MAX_LINES:,} lines (one {noun} a line); "
                             f"this one has {len(lines):,}: paste it in parts")  # fmt: skip
    return lines


class SeatNumbers:
    """The next free ids ``{prefix}1``, ``{prefix}2``, ... past every id in use."""

    def __init__(self, prefix: str, taken: Iterable[str]) -> None:
        self.prefix = prefix
        self.pattern = re.compile(re.escape(prefix) + r"(\d+)")
        self.highest = max((self.number(t) for t in taken), default=0)

    def number(self, ident: str) -> int:
        """The number of an id like ``{prefix}7``; 0 for any other id."""
        found = self.pattern.fullmatch(ident)
        return int(found.group(1)) if found else 0

    @property
    def free(self) -> str:
        """The next free id, not yet given."""
        return f"{self.prefix}{self.highest + 1}"

    def give(self) -> str:
        """The next free id, now in use."""
        self.highest += 1
        return f"{self.prefix}{self.highest}"

    def saw(self, ident: str) -> None:
        """An id now in use (a pasted line that names its own)."""
        self.highest = max(self.highest, self.number(ident))


def next_numbered(prefix: str, taken: Iterable[str]) -> str:
    """``prefix`` and one more than the highest number of an id like ``{prefix}7``."""
    return SeatNumbers(prefix, taken).free
