"""Rounds and cut by tournament structure, as X-Wing and Armada define them.

Both documents ("Turnierstrukturen") give a basic and an advanced table of
(registered players up to, Swiss rounds, cut) and an independent structure in
which the organizer announces rounds and cut (the ``rounds``/``cut`` options).
Below the advanced table's first row the basic row is used; below the basic
table's first row, ceil(log2(players)) rounds and no cut; independent without
announced values falls back to the basic rounds and no cut.
"""

from __future__ import annotations

from typing import Any, ClassVar

from projections.rulesets.base import by_table, ceil_log2

Rows = tuple[tuple[int, int, int], ...]


class StructureTables:
    """Mixin: ``table_rounds`` and ``table_cut`` from the class's structure tables."""

    #: (basic rows, basic beyond the last row, advanced rows, advanced beyond)
    tables: ClassVar[tuple[Rows, tuple[int, int], Rows, tuple[int, int]]]
    BASIC_FIRST_ROW: ClassVar[int] = 4
    ADVANCED_FIRST_ROW: ClassVar[int] = 9
    options: dict[str, Any]

    def structure_row(self, players: int) -> tuple[Rows, tuple[int, int]]:
        """The table and its beyond-the-end row for the structure (independent: basic)."""
        basic, basic_beyond, advanced, advanced_beyond = self.tables
        if self.options["structure"] == "advanced" and players >= self.ADVANCED_FIRST_ROW:
            return advanced, advanced_beyond
        return basic, basic_beyond

    def table_rounds(self, players: int) -> int:
        if players < self.BASIC_FIRST_ROW:
            return ceil_log2(players)
        table, (rounds, _) = self.structure_row(players)
        return by_table([(upper, r) for upper, r, _ in table], players, beyond=rounds)

    def table_cut(self, players: int) -> int:
        if players < self.BASIC_FIRST_ROW or self.options["structure"] == "independent":
            return 0
        table, (_, cut) = self.structure_row(players)
        return by_table([(upper, c) for upper, _, c in table], players, beyond=cut)
