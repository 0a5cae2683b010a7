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
    """A stored event is damaged, missing or out of place: its bytes, its hash or its link.

    Every read checks what it reads, so this is what a damaged store answers
    (CLI exit 3, HTTP 503), naming the first bad seq, instead of serving the rest.
    """

    def __init__(self, tournament: str, seq: int, detail: str) -> None:
        super().__init__(f"integrity: seq {seq}: {detail} (tournament {tournament!r})")
        self.tournament = tournament
        self.seq = seq
        self.detail = detail


class StoreWentBack(ChainBroken):
    """The stored log no longer ends where this process last saw it: shorter (an older
    backup restored under a running server), or another event at that seq (rewritten).
    Nothing is appended on a decision made on facts the store no longer holds; the
    process drops what it kept and reloads the log with every check."""

    def __init__(self, tournament: str, seq: int, found: int | None = None) -> None:
        if found is None:
            ends = "no longer holds it"
        else:
            ends = f"ends at seq {found}" if found < seq else "holds another event there"
        super().__init__(
            tournament, seq,
            f"this process last saw the log end here, but the store now {ends} (restored "
            "from a backup or rewritten under a running server?); reloaded from the store",
        )  # fmt: skip
        self.found = found


class InvalidExport(LedgerError):
    """A file to import is not a tledger export (its first line names the format)."""


class StoreNotFound(LedgerError):
    """A read named a SQLite file that does not exist; nothing was created in its place
    (a typo in ``--store`` must not leave an empty store behind and report "unknown
    tournament")."""

    def __init__(self, path: str) -> None:
        super().__init__(f"no store at {path} (nothing created)")
        self.path = path


class ListDamaged(LedgerError):
    """A list kept beside its event (``tledger_lists``) is missing, names another player,
    or no longer hashes to the ``list_hash`` its event committed to. Like a
    broken chain, it names the seq and is served as an integrity failure (exit 3)."""

    def __init__(self, tournament: str, seq: int, detail: str) -> None:
        super().__init__(f"integrity: seq {seq}: {detail} (tournament {tournament!r})")
        self.tournament = tournament
        self.seq = seq
        self.detail = detail


class Claimed(LedgerError):
    """The tournament is mirrored from the venue whose token ``holder`` claimed it: the
    store appends no command of the mirror's own to it, nor another venue's push. Decided
    in the append's transaction, under the write lock, so no check made before it can
    let one through."""

    def __init__(self, tournament: str, holder: str) -> None:
        super().__init__(f"tournament {tournament!r} is mirrored from its venue")
        self.tournament = tournament
        self.holder = holder


class NotClaimable(LedgerError):
    """A venue's push to a tournament whose stream holds events of the mirror's own and no
    claim: it stays the mirror's, and the push appends nothing (decided, as ``Claimed``,
    in the append's transaction)."""

    def __init__(self, tournament: str) -> None:
        super().__init__(f"tournament {tournament!r} is this mirror's own")
        self.tournament = tournament
