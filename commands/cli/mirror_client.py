"""The venue's side of the push protocol: ask a mirror for its head, send what follows.

Only the standard library speaks HTTP here (``urllib``), so a venue's laptop needs
nothing more than ``tledger``. The events travel as the venue's stored bytes exactly
(the export's lines), checked against the venue's own chain as they are read, with the
registry's names of the players they register and the ids of players whose names
``tledger forget`` erased (the mirror erases them too) and the hashes of its slip codes
(never a code). It pulls the players' reports the mirror holds and decides each at
the venue (:mod:`commands.relay`). A mirror that answers a
different hash for a seq the venue holds is a fork; :func:`first_difference` finds the
first differing seq by asking the mirror's head at earlier seqs (a chain is equal up to
a seq exactly when the hashes at that seq are equal).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import orjson

from commands.errors import WrongPhase
from commands.folds import Folds
from commands.handler import Handler
from commands.mirror import registered_in
from commands.reads.listviews import published_lists
from commands.relay import apply_at_venue
from ledger.chain import GENESIS, Checked, each_checked
from ledger.store import Store
from replay.rebuild import gc_paused

#: events per batch, and a bound on a batch's stored bytes (under the mirror's body limit)
BATCH = 1000
BATCH_BYTES = 4 * 1024 * 1024
TIMEOUT = 30.0


class Unreachable(Exception):
    """The mirror did not answer (refused, reset, timed out, 5xx): try again later."""


class Refused(Exception):
    """The mirror refused the request (4xx); ``status`` and its one-line error."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class Forked(Exception):
    """The venue's log and the mirror's differ at ``seq``."""

    def __init__(self, seq: int, venue: str, mirror: str) -> None:
        super().__init__(f"fork at seq {seq}: the venue's event has hash {venue}, "
                         f"the mirror's {mirror}")  # fmt: skip
        self.seq, self.venue, self.mirror = seq, venue, mirror


@dataclass(frozen=True, slots=True)
class Mirror:
    """A mirror's base URL and the venue token that pushes to it."""

    url: str
    token: str

    def call(self, method: str, path: str, body: bytes | None = None) -> Any:
        """One request; the JSON answer, or None for a 404. Raises Unreachable or Refused."""
        request = urllib.request.Request(
            self.url.rstrip("/") + path, data=body, method=method,
            headers={"Authorization": f"Bearer {self.token}",
                     "Content-Type": "application/json"},
        )  # fmt: skip
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as exc:
            if exc.code == 404:
                return None
            message = error_text(exc)
            if exc.code >= 500:
                raise Unreachable(f"HTTP {exc.code}: {message}") from None
            raise Refused(exc.code, message) from None
        except (urllib.error.URLError, OSError, ValueError) as exc:
            raise Unreachable(str(getattr(exc, "reason", exc))) from None

    def head(self, tournament: str, seq: int | None = None) -> tuple[int, str]:
        """The mirror's head of the tournament, or its event ``seq``; (0, genesis) when
        it holds none."""
        query = "" if seq is None else f"?seq={seq}"
        found = self.call("GET", f"/tournaments/{quote(tournament, safe='')}/head{query}")
        return (0, GENESIS) if found is None else (int(found["seq"]), str(found["hash"]))

    def relayed(self, tournament: str) -> list[dict[str, Any]]:
        """The players' reports the mirror holds for the venue, pending, in the order
        they came (none from a mirror without relayed reports)."""
        found = self.call("GET", f"/tournaments/{quote(tournament, safe='')}/relayed"
                          "?status=pending")  # fmt: skip
        return list(found) if isinstance(found, list) else []

    def answer(self, tournament: str, ident: str, body: dict[str, Any]) -> None:
        """The venue's answer to one relayed report: applied at a seq, or refused."""
        self.call("POST", f"/tournaments/{quote(tournament, safe='')}/relayed/"
                  f"{quote(ident, safe='')}", orjson.dumps(body))  # fmt: skip

    def push(self, tournament: str, body: dict[str, Any]) -> dict[str, Any]:
        found = self.call("POST", f"/tournaments/{quote(tournament, safe='')}/push",
                          orjson.dumps(body))  # fmt: skip
        if found is None:
            raise Refused(404, "the mirror has no push endpoint at this address")
        return dict(found)


def error_text(exc: urllib.error.HTTPError) -> str:
    """The error answer's one line (``{"error": ...}``), or its status."""
    try:
        return str(json.loads(exc.read())["error"])
    except (ValueError, KeyError, TypeError, OSError):
        return f"HTTP {exc.code} {exc.reason}"


@dataclass(frozen=True, slots=True)
class Row:
    """One venue event as a push sends it: its seq and hash, the ids it registers (whose
    names go with it) and its stored bytes."""

    seq: int
    hash: str
    registers: tuple[str, ...]
    data: bytes


@dataclass
class Venue:
    """The venue's tournament as the pusher keeps track of it: the ids its log registers
    (whose erased names travel) and the erasures already sent in this run."""

    store: Store
    tournament: str
    batch: int = BATCH
    registered: set[str] = field(default_factory=set)
    erased_sent: set[str] = field(default_factory=set)
    lists_sent: set[tuple[int, str]] = field(default_factory=set)
    learned: int = 0
    folds: Folds | None = None
    rounds: int = 0
    codes_sent: set[str] = field(default_factory=set)
    handler: Handler | None = None

    def note(self, checked: Checked) -> None:
        """Learn what an event of the log registers, and the rounds it names."""
        self.registered.update(registered_in(checked.data))
        number = checked.data.get("round")
        if isinstance(number, int) and number > self.rounds:
            self.rounds = number
        self.learned = checked.seq

    def slip_codes(self) -> list[dict[str, Any]]:
        """The hashes of the slip codes of the venue's rounds that this run has not sent
        (never a code): the mirror's slip page checks a code against them."""
        unsent: list[dict[str, Any]] = []
        for number in range(1, self.rounds + 1):
            for e in self.store.slip_codes_of(self.tournament, number):
                if e.code_hash not in self.codes_sent:
                    unsent.append({"code_hash": e.code_hash, "round": e.round,
                                   "players": list(e.players), "player": e.player,
                                   "issued_at": e.issued_at.isoformat()})  # fmt: skip
        return sorted(unsent, key=lambda c: (c["round"], c["issued_at"]))

    def relay(self, mirror: Mirror) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """Pull the players' reports the mirror holds, decide each at the venue as that
        player's report (commands.relay) in the order they came, and answer the mirror
        for each; the reports and the answers."""
        pending = mirror.relayed(self.tournament)
        if not pending:
            return []
        if self.handler is None:
            self.folds = self.folds or Folds(self.store)
            self.handler = Handler(self.store, folds=self.folds)
        done = []
        for item in pending:
            answer = apply_at_venue(self.handler, self.tournament, item)
            body = answer.model_dump(mode="json", exclude_none=True)
            mirror.answer(self.tournament, str(item.get("id")), body)
            done.append((item, body))
        return done

    def rows(self, after: int, head: str) -> list[Row]:
        """The venue's events after seq ``after``, checked against its own chain (the
        first must link to ``head``, the mirror's hash there: else a fork). Of each only
        what a push sends is kept, not its parsed JSON."""
        raw = self.store.load_raw(self.tournament, after)
        rows: list[Row] = []
        with gc_paused():  # every event parsed in turn: no collection for each thousand
            for c, (_, _, data) in zip(each_checked(self.tournament, raw, after, None), raw,
                                       strict=True):  # fmt: skip
                if not rows and after > 0 and c.data.get("prev_hash") != head:
                    raise Forked(after, self.hash_at(after), head)
                registers = tuple(registered_in(c.data))
                if c.seq > self.learned:
                    self.note(c)
                rows.append(Row(c.seq, c.hash, registers, data))
        return rows

    def hash_at(self, seq: int) -> str:
        """The venue's stored hash of its event ``seq`` (genesis for 0)."""
        if seq == 0:
            return GENESIS
        found = self.store.load(self.tournament, after=seq - 1, head=None, until=seq)
        return found[0].event.hash if found else "(none)"

    def learn(self, upto: int) -> None:
        """Learn the ids that the events up to seq ``upto`` register: those the mirror
        holds already, which this run does not send (the rest it learns as it reads them)."""
        if self.learned >= upto:
            return
        raw = [r for r in self.store.load_raw(self.tournament, self.learned) if r[0] <= upto]
        for c in each_checked(self.tournament, raw, self.learned, None):
            self.note(c)

    def erased(self) -> list[str]:
        """Registered ids the registry no longer names and this run has not sent."""
        named = self.store.players(self.tournament)
        return sorted(p for p in self.registered - self.erased_sent if p not in named)

    def published(self) -> list[dict[str, Any]]:
        """The lists the tournament's ruleset shows now (``commands.reads.listviews``) and
        this run has not sent: the others stay at the venue."""
        stored = self.store.lists(self.tournament)
        if not stored:
            return []
        if self.folds is None:
            self.folds = Folds(self.store)
        try:
            shown = self.folds.read(self.tournament,
                                    lambda state: published_lists(state, {}, stored))  # fmt: skip
        except WrongPhase:
            return []
        return [{"seq": e.seq, "player": e.player, "list_hash": e.list_hash, "list": e.list,
                 "salt": e.salt or ""} for e in shown.lists
                if (e.seq, e.list_hash) not in self.lists_sent]  # fmt: skip

    def batches(self, rows: Sequence[Row], after: tuple[int, str]) -> list[dict[str, Any]]:
        """Push bodies of the rows, in order: at most ``batch`` events and about BATCH_BYTES
        each, every one with the names of the players its events register."""
        named = self.store.players(self.tournament)
        bodies: list[dict[str, Any]] = []
        start = 0
        while start < len(rows):
            end, size = start, 0
            while end < len(rows) and end - start < self.batch and size < BATCH_BYTES:
                size += len(rows[end].data)
                end += 1
            part = rows[start:end]
            ids = {p for row in part for p in row.registers}
            names = [{"player": e.player, "name": e.name, "external_id": e.external_id}
                     for p, e in sorted(named.items()) if p in ids]  # fmt: skip
            follows = None if after[0] == 0 else {"seq": after[0], "hash": after[1]}
            events = [row.data.decode() for row in part]
            bodies.append({"after": follows, "events": events, "names": names})
            after = (part[-1].seq, part[-1].hash)
            start = end
        return bodies


def first_difference(venue: Venue, mirror: Mirror, upto: int) -> int | None:
    """The first seq (1..``upto``) where the venue's and the mirror's events differ, or
    None: equal hashes at a seq mean equal logs up to it, so the search halves."""
    if upto == 0 or venue.hash_at(upto) == mirror.head(venue.tournament, upto)[1]:
        return None
    low, high = 1, upto  # the first difference lies in [low, high]
    while low < high:
        middle = (low + high) // 2
        if venue.hash_at(middle) == mirror.head(venue.tournament, middle)[1]:
            low = middle + 1
        else:
            high = middle
    return low
