"""A hosted mirror's write side: a venue's pushed events, checked and appended as stored.

The venue's ledger stays the only writer of its tournament. It pushes its log to a
mirror as the stored bytes exactly as written (the export's line format), after the
mirror's head, with the registry's names of the players those events register and
the ids of players whose names it erased (``tledger forget``). The mirror trusts
nothing it is sent: every event's hash must cover its bytes, every link must follow
the one before, the first to the head the batch names, which must be the mirror's own
head or an event the mirror holds with that very hash (a resent tail is compared
event by event and only what is new is appended, so a push cut off at any moment
resumes with no gap and no duplicate). A batch whose events differ from what the mirror
holds is a fork: refused, naming the seq and both hashes, and the mirror keeps its log.
The events and their names are appended in one transaction, or nothing is.

Who may push: a ``venue`` token. The first push of an id claims it for that token
(:mod:`ledger.mirror_rows`); another venue's push to it is refused, and so is a push to
a tournament the mirror holds of its own. A claimed tournament takes no commands on the
mirror: its commands go to its venue. Who holds an id is decided by the store, in the
transaction that appends to it, so a push and a command of the same new id can not
both win.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from commands.errors import CommandError
from commands.relay import PushedSlipCode, codes_of
from ledger.chain import GENESIS, Checked, check_stored
from ledger.errors import ChainBroken, Claimed, ConcurrencyConflict, NotClaimable
from ledger.events import to_json
from ledger.fields import Id, Name
from ledger.list_rows import hashes_to
from ledger.store import Claim, ListEntry, PlayerEntry, Store, TokenEntry
from ledger.versions import readable_version
from replay.rebuild import gc_paused

#: the most events one batch may carry (a client sends fewer; the body limit bounds bytes)
MAX_BATCH = 5000


class Head(BaseModel):
    """A tournament's last event on one side: its seq and hash."""

    model_config = ConfigDict(extra="forbid")

    seq: int = Field(ge=0)
    hash: str = Field(pattern="^[0-9a-f]{64}$")


class NameEntry(BaseModel):
    """A registry entry that travels with the event registering its player."""

    model_config = ConfigDict(extra="forbid")

    player: Id
    name: Name
    external_id: str | None = Field(default=None, max_length=200)


class PushedList(BaseModel):
    """A list the venue's ruleset publishes now, kept beside the event at ``seq`` that
    commits to it by ``list_hash`` (salted with ``salt``, hex)."""

    model_config = ConfigDict(extra="forbid")

    seq: int = Field(ge=1)
    player: Id
    list_hash: str
    list: dict[str, Any]
    salt: str = ""


class PushBody(BaseModel):
    """``POST /tournaments/{t}/push``: events after ``after`` (null: from the first),
    each the stored line exactly as the export writes it; the names of the players they
    register; the players the venue erased (``forgotten``); the lists its ruleset
    publishes now (``lists``: the others stay at the venue); the hashes of its slip
    codes (``slip_codes``), so that the mirror's slip page checks them as the venue's
    does (:mod:`commands.relay`)."""

    model_config = ConfigDict(extra="forbid")

    after: Head | None = None
    events: list[str] = Field(default_factory=list, max_length=MAX_BATCH)
    names: list[NameEntry] = Field(default_factory=list)
    forgotten: list[Id] = Field(default_factory=list)
    lists: list[PushedList] = Field(default_factory=list)
    slip_codes: list[PushedSlipCode] = Field(default_factory=list, max_length=MAX_BATCH)


class PushRefused(CommandError):
    """A bad batch: nothing appended (422)."""

    http_status = 422


class PushConflict(CommandError):
    """The batch does not follow the mirror's log: a gap, a fork, a tournament of the
    mirror's own (409)."""

    http_status = 409


class Fork(PushConflict):
    """The venue's event at ``seq`` is not the one the mirror holds."""

    def __init__(self, seq: int, venue: str, mirror: str) -> None:
        super().__init__(f"fork at seq {seq}: the venue's event has hash {venue}, "
                         f"the mirror's {mirror}; the mirror keeps its log")  # fmt: skip
        self.seq, self.venue, self.mirror = seq, venue, mirror


class NotYours(CommandError):
    """The token may not push this tournament (403)."""

    http_status = 403


@dataclass(frozen=True, slots=True)
class Pushed:
    """What a push did: the mirror's new head, the events appended, names erased."""

    seq: int
    hash: str
    appended: int
    erased: int


def registered_in(data: dict[str, Any]) -> list[str]:
    """The ids whose names a stored event registers: a player; a team and its members."""
    if data.get("type") == "player_registered":
        return [str(data.get("player"))]
    if data.get("type") == "team_registered":
        return [str(data.get("team")), *(str(m) for m in data.get("members") or ())]
    return []


def checked_batch(tournament: str, after: Head, lines: Sequence[str]) -> list[Checked]:
    """The batch's events checked as every read checks stored bytes (seqs on from
    ``after``, each hash over its bytes, each link to the one before, the first to
    ``after``), each of a type and version this mirror reads: the bytes are appended as
    they are, and the mirror's reads parse them."""
    rows = [(after.seq + i, 0, line.encode()) for i, line in enumerate(lines, start=1)]
    try:
        checked = check_stored(tournament, rows, after.seq, after.hash)
    except ChainBroken as exc:
        raise PushRefused(f"broken chain at seq {exc.seq}: {exc.detail}") from None
    for c in checked:
        kind, version = c.data.get("type"), c.data.get("version")
        if not readable_version(kind, version):
            raise PushRefused(f"seq {c.seq}: this mirror does not read events of type "
                              f"{kind!r} version {version!r}")  # fmt: skip
    return checked


def checked_holder(store: Store, tournament: str, token: TokenEntry
                   ) -> tuple[bool, tuple[int, str]]:  # fmt: skip
    """Whether the venue token may push ``tournament``: its own claim (True), or an id
    with no events yet (False), which the push claims with its first events; and the
    mirror's head, read first. Read only to answer early: the append's transaction
    decides who holds the id (``Store.append_stored`` with a claim), whatever was read
    here. The head is read before the claim: a claim is written with the stream's first
    events, so events seen with no claim after them are the mirror's own."""
    head = store.head(tournament)
    holder = store.claimed_by(tournament)
    if holder is None and head[0] > 0:
        raise mirrors_own(tournament)
    if holder is not None and holder != token.token_id:
        raise claimed_by_another(tournament)
    return holder is not None, head


def mirrors_own(tournament: str) -> PushConflict:
    return PushConflict(f"tournament {tournament!r} is this mirror's own, "
                        "not mirrored from a venue")  # fmt: skip


def claimed_by_another(tournament: str) -> NotYours:
    return NotYours(f"tournament {tournament!r} is claimed by another venue")


def receive(
    store: Store, tournament: str, body: PushBody, token: TokenEntry, at: datetime
) -> Pushed:
    """Check a pushed batch and append what is new, with its names, atomically; then
    erase the names the venue erased. Raises PushRefused, PushConflict (Fork) or
    NotYours, with nothing appended. The first push of an id claims it in the
    transaction that appends its first events (or, with none, in one of its own): a
    command of the mirror's own creating the same id at the same moment either is
    appended first, and the push is refused as the mirror's own, or is refused."""
    with gc_paused():  # a batch's parsed events are thousands of objects alive at once
        return received(store, tournament, body, token, at)


def received(
    store: Store, tournament: str, body: PushBody, token: TokenEntry, at: datetime
) -> Pushed:
    after = body.after or Head(seq=0, hash=GENESIS)
    batch = checked_batch(tournament, after, body.events)
    registered = {p for c in batch for p in registered_in(c.data)}
    for entry in body.names:
        if entry.player not in registered:
            raise PushRefused(f"name entry for {entry.player!r}: no event of this batch "
                              "registers that player")  # fmt: skip
    names = [PlayerEntry(tournament, e.player, e.name, e.external_id) for e in body.names]
    holds, (seq, head) = checked_holder(store, tournament, token)
    lists = checked_lists(store, tournament, body.lists, batch)
    claim = Claim(tournament, token.token_id, at)
    appended = 0
    for attempt in range(3):
        if attempt:  # another writer appended first: who holds the id now?
            holds, (seq, head) = checked_holder(store, tournament, token)
        if after.seq > seq:
            raise PushConflict(f"gap: the mirror's head is seq {seq}, the batch follows seq "
                               f"{after.seq}; push the events after seq {seq}")  # fmt: skip
        check_overlap(store, tournament, after, batch, (seq, head))
        new = [(c, line) for c, line in zip(batch, body.events, strict=True) if c.seq > seq]
        if not new and holds:
            break
        stored = [(str(c.data.get("type")), line.encode()) for c, line in new]
        prev = str(new[0][0].data.get("prev_hash")) if new else head
        try:  # with nothing new, the claim alone
            store.append_stored(tournament, stored, seq, prev, players=names, claim=claim)
        except ConcurrencyConflict:
            continue  # another writer appended first: compare again
        except NotClaimable:
            raise mirrors_own(tournament) from None
        except Claimed:
            raise claimed_by_another(tournament) from None
        appended = len(new)
        if new:
            seq, head = new[-1][0].seq, new[-1][0].hash
        break
    else:
        raise PushConflict("the mirror's head kept moving under this push; ask for it again")
    if lists:
        store.put_lists(lists)
    if body.slip_codes:
        store.put_slip_codes(codes_of(tournament, body.slip_codes))
    erased = erase(store, tournament, body.forgotten)
    return Pushed(seq, head, appended, erased)


def check_overlap(
    store: Store, tournament: str, after: Head, batch: Sequence[Checked], head: tuple[int, str]
) -> None:
    """The event the batch follows and every event of it the mirror holds already
    (up to its ``head``) must be the mirror's own, hash for hash; else a Fork. A batch
    that follows the head itself (a push under way) is checked against the head alone."""
    seq = head[0]
    last = after.seq + len(batch)
    if seq == 0 or (after.seq == 0 and not batch):
        return
    if after.seq == seq:
        if after.hash != head[1]:
            raise Fork(after.seq, after.hash, head[1])
        return
    held = {r.seq: r.event.hash for r in store.load(
        tournament, after=max(after.seq - 1, 0), head=None, until=min(seq, last))}  # fmt: skip
    if after.seq > 0 and held.get(after.seq) != after.hash:
        raise Fork(after.seq, after.hash, held.get(after.seq, "(none)"))
    for checked in batch:
        mine = held.get(checked.seq)
        if mine is not None and mine != checked.hash:
            raise Fork(checked.seq, checked.hash, mine)


def committed_to(data: dict[str, Any]) -> str | None:
    """The hash of the list a stored event commits to (a submitted or corrected list, or
    what a deck check recorded as presented)."""
    if data.get("type") in ("list_submitted", "list_corrected"):
        return str(data.get("list_hash"))
    if data.get("type") == "deck_check_recorded" and data.get("presented_hash"):
        return str(data.get("presented_hash"))
    return None


def checked_lists(
    store: Store, tournament: str, lists: Sequence[PushedList], batch: Sequence[Checked]
) -> list[ListEntry]:
    """The pushed lists, each checked against the event at its seq (in the batch, or
    held here): that player's list event committing to that hash, which the list with
    its salt hashes to. The lists a venue keeps back never travel."""
    in_batch = {c.seq: c.data for c in batch}
    kept: list[ListEntry] = []
    for e in lists:
        data = in_batch.get(e.seq)
        if data is None:
            held = store.load(tournament, after=e.seq - 1, head=None, until=e.seq)
            data = to_json(held[0].event) if held else {}
        if (committed_to(data) != e.list_hash or data.get("player") != e.player
                or not hashes_to(e.list, e.salt, e.list_hash)):  # fmt: skip
            raise PushRefused(f"the list for seq {e.seq} is not the one its event commits to")
        kept.append(ListEntry(tournament, e.seq, e.player, e.list_hash, e.list, (), e.salt))
    return kept


def erase(store: Store, tournament: str, forgotten: Sequence[str]) -> int:
    """Erase, as ``tledger forget`` does, the names the venue erased: only rows the
    mirror still holds (an erasure pushed again costs nothing)."""
    if not forgotten:
        return 0
    held = store.players(tournament)
    return sum(store.forget(tournament, player) for player in forgotten if player in held)
