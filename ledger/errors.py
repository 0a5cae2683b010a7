"""Errors of the record. One root, ``LedgerError``; the CLI maps all of them to exit 3."""

from __future__ import annotations


class LedgerError(Exception):
    """Root of every store and integrity failure."""


class StoreURLError(LedgerError):
    """The store URL names no adapter we have, or is malformed."""


class ConcurrencyConflict(LedgerError):
    """Someone else appended to the stream first: reload, decide again, retry."""

    def __init__(self, tournament: str, expected_version: int) -> None:
        super().__init__(
            f"tournament {tournament!r} changed while appending at version {expected_version}"
        )
        self.tournament = tournament
        self.expected_version = expected_version


class StoreUnavailable(LedgerError):
    """The database could not be reached or refused the operation."""


class ChainBroken(LedgerError):
    """A stored event's hash does not match its bytes or its predecessor."""

    def __init__(self, tournament: str, seq: int, detail: str) -> None:
        super().__init__(f"tournament {tournament!r}: hash chain broken at seq {seq}: {detail}")
        self.tournament = tournament
        self.seq = seq


class InvalidExport(LedgerError):
    """A file to import is not a tledger export (its first line names the format)."""
