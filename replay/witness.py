"""Printed heads as witnesses: what the venue posted proves the log was not rewritten.

The chain alone proves that every stored event commits to all before it, but
not that the log is the one the venue saw: a log truncated at its tail, or one
rewritten from some event on and consistently re-hashed after it, verifies as a
chain. A head printed on a pairings or standings sheet and posted at the venue
(``seq 57 3fa2...``) is a witness from outside the store: the event at seq 57
of today's log must still have that hash. Witnesses are copied or scanned from
the printouts into a file, one per line, and checked here, after the chain.

Every face prints the whole head (64 hex digits). A witness may give a prefix of it
instead, of at least ``MIN_DIGITS``: 16 hex digits are 64 bits, more than enough to
tell a rewritten event from the printed one, while 12 or fewer are short enough that
a page printing only them would invite forgeries. A prefix must name one event of the
log, and its check says how many digits it compared.

Parsing and checking are pure: the file's bytes and the stored rows in,
a result per witness out. The shell reads the files and prints the results.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ledger.chain import GENESIS, check_stored
from ledger.errors import ChainBroken
from replay.errors import ReplayError

#: the hex digits of a whole head
FULL_DIGITS = 64
#: the fewest hex digits a witness may give: 64 bits of the head
MIN_DIGITS = 16
HASH = re.compile(r"[0-9a-fA-F]{%d,%d}" % (MIN_DIGITS, FULL_DIGITS))  # noqa: UP031
#: the UTF-8 byte order mark an editor on Windows may put before the first line
BOM = "\ufeff"


class MalformedWitness(ReplayError):
    """A witness file line that is neither blank, a comment, nor ``[seq] SEQ HASH``:
    input that does not fit (CLI exit 2), reported with its file and line."""


@dataclass(frozen=True, slots=True)
class Witness:
    """One printed head: the event at ``seq`` had ``hash`` (lower case) when printed;
    ``hash`` may be a prefix of the head (``MIN_DIGITS`` hex digits or more)."""

    source: str
    line: int
    seq: int
    hash: str


@dataclass(frozen=True, slots=True)
class WitnessCheck:
    """What today's log says to one witness; ``reason`` explains a failure."""

    witness: Witness
    ok: bool
    reason: str = ""
    named_by_file: bool = False

    @property
    def name(self) -> str:
        """``witness line 3 (seq 57)``, with the file when several files were given."""
        w = self.witness
        where = f"{w.source} line {w.line}" if self.named_by_file else f"line {w.line}"
        return f"witness {where} (seq {w.seq})"

    @property
    def digits(self) -> int:
        """How many hex digits of the head the witness gave, and so were compared."""
        return len(self.witness.hash)

    @property
    def verdict(self) -> str:
        """``ok``, with how many digits were compared when the witness gave a prefix."""
        if not self.ok:
            return f"CONTRADICTED: {self.reason}"
        return "ok" if self.digits == FULL_DIGITS else f"ok ({matched(self.digits)})"

    def message(self) -> str:
        if self.reason:
            return f"{self.name}: {self.reason}"
        return f"{self.name}: {self.verdict}"

    def as_json(self) -> dict[str, Any]:
        w = self.witness
        return {"file": w.source, "line": w.line, "seq": w.seq, "hash": w.hash, "ok": self.ok,
                "reason": self.reason or None, "digits": self.digits}  # fmt: skip


def matched(digits: int) -> str:
    return f"matched {digits} of {FULL_DIGITS} hex digits"


def parse_witnesses(data: bytes, source: str) -> list[Witness]:
    """Every witness of a file: ``SEQ HASH`` or ``seq SEQ HASH`` per line (as printouts
    print it), the hash 64 hex digits (or a prefix of at least 16) in either case; blank
    lines and ``#`` comments are skipped. A file with no witness at all is refused too:
    a check of nothing must not pass as a check."""
    found: list[Witness] = []
    for number, raw in enumerate(data.splitlines(), start=1):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise malformed(source, number, "not UTF-8 text") from None
        if number == 1:
            text = text.removeprefix(BOM)
        witness = parse_line(text, source, number)
        if witness is not None:
            found.append(witness)
    if not found:
        raise MalformedWitness(f"{source}: no witness in it (one 'seq SEQ HASH' per line)")
    return found


def parse_line(text: str, source: str, number: int) -> Witness | None:
    """One line: None when blank or a comment, else its witness (or MalformedWitness)."""
    words = text.split("#", 1)[0].split()
    if not words:
        return None
    if len(words) == 3 and words[0].lower() == "seq":
        words = words[1:]
    if len(words) != 2:
        raise malformed(source, number, f"expected 'seq SEQ HASH', got {text.strip()!r}")
    seq, digest = words
    if not (seq.isascii() and seq.isdigit()) or int(seq) < 1:
        raise malformed(source, number, f"seq must be a whole number from 1, got {seq!r}")
    if not HASH.fullmatch(digest):
        raise malformed(source, number,
                        f"a head hash is {FULL_DIGITS} hex digits, or the first {MIN_DIGITS} "
                        f"or more of them; got {len(digest)} characters {digest[:16]!r} "
                        "(copy the whole head as the page prints it)")  # fmt: skip
    return Witness(source, number, int(seq), digest.lower())


def malformed(source: str, number: int, detail: str) -> MalformedWitness:
    return MalformedWitness(f"witness file {source} line {number}: {detail}")


def chain_hashes(tournament: str, stored: Sequence[tuple[int, int, bytes]]) -> list[str]:
    """The hash of each event, seq 1 first, as far as the chain holds: the events from
    the first damaged one on are not evidence of anything."""
    hashes: list[str] = []
    head = GENESIS
    for row in stored:
        try:
            checked = check_stored(tournament, [row], after=len(hashes), head=head)
        except ChainBroken:
            break
        head = checked[0].hash
        hashes.append(head)
    return hashes


def check_witnesses(
    tournament: str, stored: Sequence[tuple[int, int, bytes]], witnesses: Sequence[Witness]
) -> list[WitnessCheck]:
    """Each witness against the log's event at its seq (in the witnesses' order)."""
    hashes = chain_hashes(tournament, stored)
    broken_at = len(hashes) + 1 if len(hashes) < len(stored) else None
    several = len({w.source for w in witnesses}) > 1
    return [check_one(w, hashes, len(stored), broken_at, several) for w in witnesses]


def check_one(
    w: Witness, hashes: Sequence[str], length: int, broken_at: int | None, several: bool
) -> WitnessCheck:
    def failed(reason: str) -> WitnessCheck:
        return WitnessCheck(w, False, reason, several)

    if broken_at is not None and w.seq >= broken_at:
        return failed(f"not checked: the chain breaks at seq {broken_at}, before this witness")
    if w.seq > length:
        return failed(f"the log ends at seq {length} — truncated, or the witness is from "
                      "another store (or its seq was mistyped)")  # fmt: skip
    have = hashes[w.seq - 1]
    if have.startswith(w.hash):
        also = [seq for seq, h in enumerate(hashes, start=1) if h.startswith(w.hash)]
        if len(also) > 1:  # 16 digits or more: only a forged log would get here
            return failed(f"the prefix {w.hash} begins the heads of seqs "
                          f"{', '.join(map(str, also))}: give more digits")  # fmt: skip
        return WitnessCheck(w, True, "", several)
    elsewhere = next((seq for seq, h in enumerate(hashes, start=1) if h.startswith(w.hash)),
                     None)  # fmt: skip
    hint = f" (that hash is this log's seq {elsewhere}: was the seq copied wrong?)" if elsewhere \
        else ""  # fmt: skip
    mine, theirs = shortened(have[: len(w.hash)], w.hash)
    checked = "" if len(w.hash) == FULL_DIGITS else f" ({len(w.hash)} of {FULL_DIGITS} " \
        "hex digits compared)"  # fmt: skip
    return failed(f"the log has {mine} there, the witness {theirs}{checked} — the log was "
                  f"rewritten after it was printed{hint}")  # fmt: skip


def shortened(a: str, b: str) -> tuple[str, str]:
    """Two different hashes cut to a length that still tells them apart (at least 12
    digits), so that a reader can find both on paper."""
    differ = next((i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y), len(a))
    keep = max(12, differ + 4)
    return (a, b) if keep >= len(a) else (a[:keep] + "...", b[:keep] + "...")


def first_contradicted(checks: Sequence[WitnessCheck]) -> WitnessCheck | None:
    """The failing witness of the lowest seq (then the first given): the earliest point
    at which today's log is known to differ from what was printed."""
    failing = [c for c in checks if not c.ok]
    return min(failing, key=lambda c: c.witness.seq) if failing else None
