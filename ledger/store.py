"""The store port: what the rest of the ledger may ask of the record.

Two numbers, never confused: ``seq`` is an event's number within its
tournament (1, 2, 3, ... without gaps; the stream version), ``position`` is its
place in the store's global sequence (the integration cursor; increasing, with
possible gaps on PostgreSQL).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from ledger.errors import LedgerError
from ledger.events import Event, to_json

if TYPE_CHECKING:
    from ledger.chain import Sealed


@dataclass(frozen=True, slots=True)
class Recorded:
    """An event as stored: the fact plus its two numbers."""

    seq: int
    position: int
    event: Event

    def as_json(self) -> dict[str, Any]:
        """The event as its JSON model plus its ``seq`` and ``position``: one entry of
        ``tledger log --json``."""
        data = to_json(self.event)
        head = {"seq": self.seq, "position": self.position}
        head["type"], head["version"] = data.pop("type"), data.pop("version")
        return {**head, **data}


@dataclass(frozen=True, slots=True)
class PlayerEntry:
    """Personal data of one registered player, kept outside the hashed log."""

    tournament: str
    player: str
    name: str
    external_id: str | None


@dataclass(frozen=True, slots=True)
class ListEntry:
    """A deck, squad or fleet list kept beside the event at ``seq`` that commits to it by
    ``list_hash`` (:mod:`ledger.list_events`): the cards, the full violation messages
    and the hash's ``salt`` (hex; empty for a list recorded before salts), which
    readers of the log must not see before publication."""

    tournament: str
    seq: int
    player: str
    list_hash: str
    list: dict[str, Any]
    violations: tuple[dict[str, Any], ...] = ()
    salt: str = ""


@dataclass(frozen=True, slots=True)
class TokenEntry:
    """An API token as stored: only its hash, its role and its scope, plus who holds it
    (``label``, kept here and never in the hashed log), when it stops working
    (``expires_at``) and when it was revoked. Tokens made before labels and expiry
    existed have none of these, and no ``created_at``."""

    token_hash: str
    token_id: str
    role: str
    tournament: str | None
    player: str | None
    label: str | None = None
    expires_at: datetime | None = None
    revoked_at: datetime | None = None
    created_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class SlipCodeEntry:
    """A match slip's report code as stored: only its SHA-256, and the one match it
    reports (the code is good for that match and round only). A code is a
    credential, like a token, so it lives beside the events and never in them.

    ``player`` is the player who holds the code, printed on their half of the slip:
    the code reports as that player only, and ``players`` are then the holder and the
    opponent, in that order. A code issued before each player had their own has no
    ``player``: it reports as either player of its match, and ``players`` are the
    match's two players in table order."""

    code_hash: str
    tournament: str
    round: int
    players: tuple[str, str]
    issued_at: datetime
    player: str | None = None


@dataclass(frozen=True, slots=True)
class RelayedEntry:
    """A player's report held by a hosted mirror for the venue of a mirrored tournament
    (:mod:`ledger.relay_rows`): ``command`` is the JSON the venue decides (its
    ``command_id`` is ``id``), ``code_hash`` the slip code it came through; ``status``
    is ``pending`` until the venue answers ``applied`` (at its ``seq``) or ``refused``
    (with its ``reason``)."""

    id: str
    tournament: str
    code_hash: str
    command: str
    received_at: datetime
    status: str = "pending"
    reason: str | None = None
    seq: int | None = None
    settled_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """How a tournament's faces are set up, kept beside its log and not in it: a setting
    configures a face, not the tournament, so turning the public page off is no event
    and changes no hash. A tournament without a stored row has the defaults (the
    public page on); ``changed_at`` and ``changed_by`` (``role:id``) say who
    last set it and when."""

    tournament: str
    public_page: bool = True
    changed_at: datetime | None = None
    changed_by: str | None = None


@dataclass(frozen=True, slots=True)
class Claim:
    """Who appends to a tournament, as the append's transaction checks it on a hosted
    mirror (:mod:`ledger.mirror_rows`): a venue token's push (``token_id``, claiming at
    ``at`` an id no one holds yet, with its stream's first events), or a command of the
    mirror's own (``token_id`` None: refused once a venue claimed the id)."""

    tournament: str
    token_id: str | None = None
    at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Append:
    """One append of a group committed together (``Store.append_many``): what
    ``Store.append`` takes."""

    tournament: str
    events: Sequence[Sealed]
    expected_version: int
    players: Sequence[PlayerEntry] = ()
    lists: Sequence[ListEntry] = ()


class Listener(Protocol):
    """Wakes a reader of the global sequence when any process may have appended, so that
    a process tails the store once instead of polling it per reader."""

    def wait(self, timeout: float) -> bool:
        """Block until an append may have happened (True) or ``timeout`` seconds passed
        (False). True also after the listener lost and regained its connection: an
        append may have been missed meanwhile, so the reader reads once more."""

    def close(self) -> None: ...


class Store(Protocol):
    """Append-only streams, one per tournament, plus the player registry and the lists."""

    url: str

    def load(
        self, tournament: str, after: int = 0, head: str | None = ..., until: int | None = None
    ) -> list[Recorded]:
        """The tournament's events after seq ``after``, in seq order (empty: no such events);
        with ``until``, only those up to that seq (a past point reads only its prefix).

        Every event is checked as it is loaded: seqs without gaps, its bytes against its
        hash, its link to the one before (the first to ``head``, the hash of event
        ``after``; ``None`` when the caller does not have it). A damaged, deleted or
        reordered event raises ChainBroken naming its seq; nothing after it is served.
        With ``head``, the stored event ``after`` itself must still be the one with that
        hash, also when nothing follows it: a store that went back under a reader that
        kept what it read (an older backup restored, a rewritten tail) raises
        StoreWentBack naming the seq.
        """

    def load_many(
        self, wanted: Sequence[tuple[str, int, str | None]]
    ) -> list[list[Recorded] | LedgerError]:
        """``load(tournament, after, head)`` of several tournaments in one read, each
        checked as ``load`` checks it; in the order of ``wanted``, each one's events or
        its error (ChainBroken, StoreWentBack) in its place."""

    def load_raw(self, tournament: str, after: int = 0) -> list[tuple[int, int, bytes]]:
        """(seq, position, stored bytes) of every event (after seq ``after``), unchecked:
        what an auditor checks, and what a venue pushes to its mirror."""

    def append(
        self,
        tournament: str,
        events: Sequence[Sealed],
        expected_version: int,
        players: Sequence[PlayerEntry] = (),
        lists: Sequence[ListEntry] = (),
    ) -> list[Recorded]:
        """Append the sealed bytes atomically after ``expected_version`` events, with the
        registry entries of players they register and the lists they commit to in the
        same transaction, or write nothing and raise ConcurrencyConflict (another writer
        appended first), StoreWentBack (the stream no longer ends at the event
        ``expected_version`` whose hash the first new event links to) or Claimed (a
        venue claimed the tournament: on a hosted mirror it takes commands at its venue
        only, and the transaction checks it under the write lock)."""

    def append_many(self, appends: Sequence[Append]) -> list[list[Recorded] | LedgerError]:
        """Several appends, each made and checked as ``append`` makes it, committed together
        in one transaction (group commit: one commit for many writers). Each one's
        expected-version, tip and claim check is its own (SQLite: a savepoint each;
        PostgreSQL: every tip and claim read under the table lock before anything is
        written): one that fails writes nothing and has its error (ConcurrencyConflict,
        StoreWentBack, Claimed) in its place, and the others are written. The outcomes
        come in the order of ``appends``, and only once the transaction is committed;
        when the commit itself fails, StoreUnavailable is raised and nothing is written."""

    def append_stored(
        self,
        tournament: str,
        stored: Sequence[tuple[str, bytes]],
        expected_version: int,
        prev_hash: str,
        players: Sequence[PlayerEntry] = (),
        lists: Sequence[ListEntry] = (),
        claim: Claim | None = None,
    ) -> list[int]:
        """``append`` for stored bytes already checked against their hashes and links
        (their event types and the first one's ``prev_hash`` given beside them), as a
        mirror appends what a venue pushed: no model is built. Their positions.

        With a venue token's ``claim``, the same transaction decides who holds the
        tournament, under the store's write lock: the token's own claim goes on; an id
        no one claimed is claimed with these events, unless its stream holds events
        already (the mirror's own: ``NotClaimable``); another token's claim refuses it
        (``Claimed``). Nothing is written when it is refused, and a claim alone (no
        events: a venue's first push of nothing) is decided the same way."""

    def scan(
        self, position: int, limit: int, tournament: str | None = None
    ) -> tuple[list[tuple[str, Recorded]], int]:
        """The events among the next ``limit`` after ``position`` (only ``tournament``'s when
        given: a damaged event of another tournament does not stop its readers), and the
        last position scanned, from which a reader goes on."""

    def stream_after(self, tournament: str, position: int, limit: int) -> list[Recorded]:
        """Up to ``limit`` of the tournament's events after global ``position``, in seq
        order, found by the stream's own index (its length, not the global log's, bounds
        the work): what a tournament-scoped event stream catches up with. Checked as
        ``load`` checks them: seqs without gaps, bytes against hash, each link to the one
        before it (the first one's link is the caller's to check: it holds the event
        before, or does not)."""

    def head_position(self) -> int:
        """The last position of the global sequence (0 for an empty store): where a tail
        that only wants new events starts."""

    def listener(self) -> Listener | None:
        """A way to wait for appends by any process (PostgreSQL: LISTEN on the channel
        the library NOTIFYs in every insert), or None where there is none (SQLite,
        memory): readers of those poll."""

    def tournaments(self) -> list[str]:
        """Ids of every tournament in the store, in order of creation."""

    def players(self, tournament: str) -> dict[str, PlayerEntry]:
        """The registry entries of one tournament, by player id."""

    def forget(self, tournament: str, player: str) -> bool:
        """Erase one registry entry for good; True when there was one."""

    def lists(self, tournament: str) -> list[ListEntry]:
        """The lists kept beside the tournament's list events, in seq order, as stored
        (unchecked: :func:`ledger.list_rows.checked` compares them with the events)."""

    def put_lists(self, entries: Sequence[ListEntry]) -> None:
        """Keep lists beside list events stored before, all or none: what a mirror
        receives once the venue's ruleset publishes them (a list replaces the one kept
        for its seq)."""

    def put_token(self, entry: TokenEntry) -> None:
        """Record a new API token (its hash only)."""

    def token(self, token_hash: str) -> TokenEntry | None:
        """The token with this hash, if any (revoked and expired ones too: the caller
        says why it refuses them)."""

    def tokens(self, tournament: str | None = None) -> list[TokenEntry]:
        """Every token, or those that may act on ``tournament`` (scoped to it, or to every
        tournament), oldest first (tokens without ``created_at`` before the others)."""

    def revoke_token(self, token_id: str, at: datetime) -> bool:
        """Mark the token with this id revoked at ``at``; True when this call revoked it,
        False when there is no such token or it was revoked already (its first
        ``revoked_at`` stays)."""

    def put_slip_codes(self, entries: Sequence[SlipCodeEntry]) -> None:
        """Record match slips' codes (their hashes only), all or none; an entry for
        what has a code already (tournament, round and ``players`` in their order)
        replaces that code, which then stops working."""

    def slip_code(self, code_hash: str) -> SlipCodeEntry | None:
        """The slip code with this hash, if any (a replaced code is gone)."""

    def slip_codes_of(self, tournament: str, round_number: int) -> list[SlipCodeEntry]:
        """The codes in force for a round's slips (hashes only), so that reprinting them
        can say whose codes it replaces; in no particular order."""

    def tournament_settings(self, tournament: str) -> TournamentSettings:
        """The tournament's face settings: as last stored, else the defaults."""

    def put_tournament_settings(self, settings: TournamentSettings) -> None:
        """Store a tournament's face settings, replacing any stored before."""

    def head(self, tournament: str) -> tuple[int, str]:
        """The seq and hash of the tournament's last stored event, its bytes checked
        against the hash ((0, the genesis hash) for an empty stream): what a venue asks a
        mirror before it pushes."""

    def claimed_by(self, tournament: str) -> str | None:
        """The venue token that claimed the tournament, or None (it is not mirrored)."""

    def hold_relayed(self, entry: RelayedEntry) -> bool:
        """Hold a player's report for the venue (a mirror's side record); False when one
        with its id is held already (a resent form), which stays as it is."""

    def relayed(self, tournament: str, status: str | None = None,
                code_hash: str | None = None) -> list[RelayedEntry]:  # fmt: skip
        """The reports held for the tournament's venue in the order they came, of one
        ``status`` and one slip code when given."""

    def settle_relayed(self, tournament: str, ident: str, status: str, seq: int | None,
                       reason: str | None, at: datetime) -> RelayedEntry | None:  # fmt: skip
        """The venue's answer to a pending report: it becomes ``applied`` or ``refused``
        (an answer to a settled one changes nothing); the report as it stands, or None."""

    def close(self) -> None: ...
