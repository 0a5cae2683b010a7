"""The per-tournament hash chain, over the bytes exactly as stored.

Each event's ``hash`` is SHA-256 over its canonical body: its JSON with sorted
keys, no whitespace, ``prev_hash`` included and ``hash`` left out. So every
event commits to the whole history before it, and the head hash printed with
standings is a value an auditor can later check the log against.

The body is made once, when an event is sealed for appending, and never again:
a model that gains a field or a version later cannot change what was hashed.
Two stored layouts exist, and both verify forever:

- format 2 (what every append writes now): the stored bytes are the body with the
  hash appended as its last member, ``...,"hash":"<64 hex>"}``. Verifying is
  byte slicing and one SHA-256: nothing is re-serialized.
- format 1 (the first logs): the stored bytes are the model's JSON in field
  order with ``hash`` in the middle. Its body is the stored JSON object without
  ``hash``, re-encoded with sorted keys; no model is involved, so it too stays
  checkable whatever the models become.

The link (``prev_hash``) and the tournament are read from the stored JSON.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from pydantic import ValidationError

from ledger.errors import ChainBroken
from ledger.events import Event, EventBase, parse, to_json

GENESIS = "0" * 64

#: The tail of a format-2 stored event: the hash as the object's last member.
_TAIL_KEY = b',"hash":"'
_TAIL_LENGTH = len(_TAIL_KEY) + 64 + len(b'"}')


@dataclass(frozen=True, slots=True)
class Sealed:
    """An event linked onto its chain, with the exact bytes that will be stored."""

    event: Event
    data: bytes


@dataclass(slots=True)
class Checked:
    """Stored bytes that passed the check: their seq, position and parsed JSON."""

    seq: int
    position: int
    data: dict[str, Any]
    hash: str


def body_of(event: EventBase) -> bytes:
    """The canonical body: sorted keys, no whitespace, without ``hash``."""
    data = to_json(event)
    data.pop("hash", None)
    return orjson.dumps(data, option=orjson.OPT_SORT_KEYS)


def stored_bytes(body: bytes, digest: str) -> bytes:
    """Format 2: the body with its hash appended as the last member."""
    return body[:-1] + b',"hash":"' + digest.encode() + b'"}'


def seal(events: Iterable[EventBase], prev_hash: str) -> list[Sealed]:
    """Link new events onto a chain whose head is ``prev_hash``; make their bytes once."""
    sealed: list[Sealed] = []
    for event in events:
        body = body_of(event.model_copy(update={"prev_hash": prev_hash, "hash": ""}))
        digest = hashlib.sha256(body).hexdigest()
        data = stored_bytes(body, digest)
        linked = event.model_copy(update={"prev_hash": prev_hash, "hash": digest})
        sealed.append(Sealed(linked, data))  # type: ignore[arg-type]
        prev_hash = digest
    return sealed


def is_format_2(data: bytes) -> bool:
    """Whether the hash is the stored object's last member (format 2). A format-1 event
    never ends so: its model put ``type`` and the event's fields after ``hash``."""
    return len(data) > _TAIL_LENGTH and data[-_TAIL_LENGTH:-66] == _TAIL_KEY and data[-2:] == b'"}'


def stored_hash(tournament: str | None, seq: int, data: bytes) -> tuple[dict[str, Any], str]:
    """Parse stored bytes and check that their hash covers them; (JSON, hash). The
    event must belong to ``tournament`` (``None``: read from the global sequence)."""
    where = tournament or "?"
    try:
        parsed = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise ChainBroken(where, seq, f"stored bytes unreadable: {exc}") from None
    if not isinstance(parsed, dict) or not isinstance(parsed.get("hash"), str):
        raise ChainBroken(where, seq, "stored bytes are not an event with a hash")
    if is_format_2(data):
        digest = hashlib.sha256(memoryview(data)[:-_TAIL_LENGTH])
        digest.update(b"}")
        claimed = data[-66:-2].decode()
    else:
        claimed = parsed.pop("hash")
        digest = hashlib.sha256(orjson.dumps(parsed, option=orjson.OPT_SORT_KEYS))
        parsed["hash"] = claimed
    if digest.hexdigest() != claimed:
        raise ChainBroken(where, seq, "hash does not match the stored bytes")
    if tournament is not None and parsed.get("tournament") != tournament:
        raise ChainBroken(
            tournament, seq, f"event belongs to tournament {parsed.get('tournament')!r}"
        )
    return parsed, claimed


def check_stored(
    tournament: str,
    rows: Iterable[tuple[int, int, bytes]],
    after: int = 0,
    head: str | None = GENESIS,
) -> list[Checked]:
    """Check stored events as they are read: seqs without gaps from ``after + 1``, bytes
    readable, every hash over its bytes and every link to the hash before it (the first
    link to ``head``; ``None`` when the event before is not at hand). Raises ChainBroken
    naming the first bad seq."""
    return list(each_checked(tournament, rows, after, head))


def each_checked(
    tournament: str,
    rows: Iterable[tuple[int, int, bytes]],
    after: int = 0,
    head: str | None = GENESIS,
) -> Iterator[Checked]:
    """:func:`check_stored` one event at a time: a reader of a long log that keeps only
    what it needs of each event holds no parsed copy of the whole log (thousands of
    dicts alive at once cost the garbage collector more than the hashing)."""
    expected, prev = after + 1, head
    for seq, position, data in rows:
        if seq != expected:
            raise ChainBroken(tournament, expected, f"event missing (next stored is seq {seq})")
        parsed, digest = stored_hash(tournament, seq, data)
        if prev is not None and parsed.get("prev_hash") != prev:
            raise ChainBroken(tournament, seq, "prev_hash does not match the previous event")
        yield Checked(seq, position, parsed, digest)
        expected, prev = seq + 1, digest


def event_of(tournament: str, checked: Checked) -> Event:
    """The current model of checked JSON; an event no model of this version takes (a
    newer version, an unknown type) is an integrity error at its seq, not a crash."""
    try:
        return parse(checked.data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ChainBroken(
            tournament, checked.seq, f"stored event does not fit its model: {where}: {first['msg']}"
        ) from None


def load_checked(
    tournament: str, rows: Sequence[tuple[int, int, bytes]], after: int = 0,
    head: str | None = GENESIS,
) -> list[tuple[Checked, Event]]:  # fmt: skip
    """Check and parse stored rows: what every read of a stream goes through."""
    return [(c, event_of(tournament, c)) for c in check_stored(tournament, rows, after, head)]


def verify_stored(tournament: str, stored: Sequence[tuple[int, int, bytes]]) -> str:
    """Check a whole stored log as an auditor does; the head hash, or ChainBroken."""
    head = GENESIS
    for checked in check_stored(tournament, stored):
        head = checked.hash
    return head


class Links:
    """Each tournament's last seq and hash met while reading the global sequence, so that
    every event read there must follow the one before it in its own stream, as a load of
    that stream checks it: a deleted, reordered or replaced event is an integrity error
    naming its seq, never a frame served. ``before(tournament, seq)`` gives the stored
    hash of an event the read has not met (the one before the first event of each
    tournament after the reader's cursor), or None when no such event is stored."""

    def __init__(self, before: Callable[[str, int], str | None]) -> None:
        self.before = before
        self.heads: dict[str, tuple[int, str]] = {}

    def meet(self, tournament: str, seq: int) -> None:
        """Learn the event before ``seq`` of ``tournament`` if the read has not met it
        (a store read: callers on an event loop run this in a worker thread)."""
        if tournament in self.heads or seq <= 1:
            return
        found = self.before(tournament, seq - 1)
        if found is None:
            raise ChainBroken(tournament, seq - 1, f"event missing (next stored is seq {seq})")
        self.heads[tournament] = (seq - 1, found)

    def follow(self, tournament: str, seq: int, prev_hash: str, digest: str) -> None:
        """Check that event ``seq`` follows the last one met of its tournament."""
        self.meet(tournament, seq)
        last, head = self.heads.get(tournament, (0, GENESIS))
        if seq != last + 1:
            raise ChainBroken(tournament, last + 1, f"event missing (next stored is seq {seq})")
        if prev_hash != head:
            raise ChainBroken(tournament, seq, "prev_hash does not match the previous event")
        self.heads[tournament] = (seq, digest)
