"""Players' reports through a hosted mirror, relayed to the venue that decides them.

A mirrored tournament has one writer, its venue (:mod:`commands.mirror`). Its slips may
carry the mirror's address: the venue pushes the hashes of its slip codes (never a
code) with its events, so the mirror can check a code as the venue would. A player's
report on the mirror's slip page is checked there (the code, the guesses) and held,
pending, as the very command the venue's own slip page would send: the contract's
``report_result`` acted by the code's holder, with a command id the mirror draws. The
mirror appends nothing to the log it mirrors.

The venue's ``push`` pulls the pending reports in the order they came and decides each
as that player's report (:func:`apply_at_venue`): the code must still be the venue's
code of that match and holder (a reprinted slip's old code reports nothing), the
player's role must allow it, and the handler decides as for any player report. The
command id makes a report that is pulled again (an answer lost on the way) return its
first outcome instead of being applied twice. The venue answers the mirror for each
report, ``applied`` with its seq or ``refused`` with the reason (:func:`settle`), and the
player's page on the mirror shows it.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, model_validator

from commands.errors import CommandError, InvalidCommand
from commands.handler import Handler
from commands.models import ReportResult, parse_command
from commands.roles import Forbidden, Principal
from ledger.fields import MAX_ID, Id
from ledger.store import RelayedEntry, SlipCodeEntry, Store, TokenEntry

#: the command ids the mirror draws begin so
PREFIX = "relay-"
#: the longest reason a refusal keeps
MAX_REASON = 500


class PushedSlipCode(BaseModel):
    """A slip code's hash as the venue holds it (``commands.slipcodes``): the match it
    reports (the round, the holder and the opponent) and the holder; never the code."""

    model_config = ConfigDict(extra="forbid")

    code_hash: str = Field(pattern="^[0-9a-f]{64}$")
    round: int = Field(ge=1)
    players: tuple[Id, Id]
    player: Id | None = None
    issued_at: datetime


class Relayed(BaseModel):
    """A report the mirror holds for the venue: the command the venue decides (its
    ``command_id`` is ``id``), the slip code's hash it came through, when it came, and
    where it stands (``seq`` once applied, ``reason`` once refused)."""

    id: str
    tournament: str
    code_hash: str
    command: dict[str, Any]
    received_at: datetime
    status: Literal["pending", "applied", "refused"]
    seq: int | None = None
    reason: str | None = None


class Answer(BaseModel):
    """The venue's answer to one relayed report: ``applied`` at ``seq``, or ``refused``
    with its ``reason``."""

    model_config = ConfigDict(extra="forbid")

    status: Literal["applied", "refused"]
    seq: int | None = Field(default=None, ge=1)
    reason: str | None = Field(default=None, max_length=MAX_REASON)

    @model_validator(mode="after")
    def said(self) -> Answer:
        if self.status == "applied" and self.seq is None:
            raise ValueError("an applied report names its seq")
        if self.status == "refused" and not self.reason:
            raise ValueError("a refused report names its reason")
        return self


def codes_of(tournament: str, pushed: list[PushedSlipCode]) -> list[SlipCodeEntry]:
    """The pushed codes as the mirror keeps them (a new code of a match's holder replaces
    the old one, as at the venue)."""
    return [SlipCodeEntry(c.code_hash, tournament, c.round, c.players, c.issued_at, c.player)
            for c in pushed]  # fmt: skip


def relay_id(code_hash: str, nonce: str | None, draw: str) -> str:
    """The command id of a held report: from the form's nonce when it has one (a resent
    form is the same report, held once), else the mirror's ``draw``."""
    if nonce:
        return PREFIX + hashlib.sha256(f"{code_hash}:{nonce}".encode()).hexdigest()[:32]
    return PREFIX + draw


def hold(store: Store, code: SlipCodeEntry, command: ReportResult, ident: str,
         at: datetime) -> RelayedEntry:  # fmt: skip
    """Hold the report for the venue under the command id ``ident``; the held report
    (the first one, when the form was sent again)."""
    body = command.model_copy(update={"command_id": ident})
    data = orjson.dumps(body.model_dump(mode="json", exclude_none=True)).decode()
    entry = RelayedEntry(ident, code.tournament, code.code_hash, data, at)
    if not store.hold_relayed(entry):
        held = [e for e in store.relayed(code.tournament, code_hash=code.code_hash)
                if e.id == ident]  # fmt: skip
        return held[0] if held else entry
    return entry


def as_json(entry: RelayedEntry) -> dict[str, Any]:
    """A held report as the pull answers it."""
    return Relayed(id=entry.id, tournament=entry.tournament, code_hash=entry.code_hash,
                   command=orjson.loads(entry.command), received_at=entry.received_at,
                   status=entry.status, seq=entry.seq,
                   reason=entry.reason).model_dump(mode="json")  # fmt: skip


def settle(store: Store, tournament: str, ident: str, answer: Answer, at: datetime
           ) -> RelayedEntry | None:  # fmt: skip
    """Record the venue's answer to a pending report (a settled one stays as it is)."""
    return store.settle_relayed(tournament, ident, answer.status, answer.seq,
                                answer.reason, at)  # fmt: skip


def apply_at_venue(handler: Handler, tournament: str, item: dict[str, Any]) -> Answer:
    """Decide a report the mirror relayed as the venue's slip page would: the code still
    the venue's for that match and holder, the player's role checked, the handler
    deciding with the mirror's id as the command id (a report pulled again returns its
    first outcome). Applied at its seq, or refused with the reason."""
    try:
        command = checked_report(handler.store, tournament, item)
        player = command.actor.id if command.actor else None
        caller = Principal(TokenEntry(str(item.get("code_hash")), "slip", "player",
                                      tournament, player))  # fmt: skip
        caller.check(command)
        outcome = handler.handle(command)
    except (CommandError, Forbidden) as exc:
        return Answer(status="refused", reason=str(exc)[:MAX_REASON] or type(exc).__name__)
    return Answer(status="applied", seq=outcome.seq)


def checked_report(store: Store, tournament: str, item: dict[str, Any]) -> ReportResult:
    """The relayed command, if it is a report of this tournament by the holder of a code
    the venue holds for that match, under the mirror's id; else InvalidCommand or
    Forbidden naming why."""
    ident = str(item.get("id", ""))
    if not ident.startswith(PREFIX) or len(ident) > MAX_ID:
        raise InvalidCommand(f"a relayed report's id begins with {PREFIX!r}")
    command = parse_command(item.get("command"))
    if not isinstance(command, ReportResult) or command.tournament != tournament:
        raise Forbidden("a relayed report is a report_result of this tournament")
    if command.command_id != ident:
        raise InvalidCommand("a relayed report's command id is the mirror's id")
    code = store.slip_code(str(item.get("code_hash", "")))
    actor = command.actor
    if code is None or code.tournament != tournament:
        raise Forbidden("the slip's code is no longer the venue's: a reprinted slip has a "
                        "new code")  # fmt: skip
    if (actor is None or actor.role != "player" or code.round != command.round
            or set(code.players) != set(command.players)
            or actor.id not in code.players or code.player not in (None, actor.id)):  # fmt: skip
        raise Forbidden("this slip's code reports only its own match, as its holder")
    return command
