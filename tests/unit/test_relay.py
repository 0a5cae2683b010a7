"""A report relayed by a mirror is decided at the venue as the venue's slip page would
decide it: only a report of this tournament, under the mirror's id, through a code the
venue still holds for that match, as the code's holder; a reprinted slip's old code
reports nothing; the same report pulled again returns its first outcome."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from commands.folds import Folds
from commands.handler import Handler
from commands.models import parse_command
from commands.relay import Answer, apply_at_venue, relay_id
from commands.slipcodes import code_hash, issue_codes
from ledger.url import open_store

NOW = datetime(2026, 11, 28, 10, tzinfo=UTC)
WON = {"games": [2, 1], "draws": 0}


def venue() -> tuple[Handler, str, dict[str, str]]:
    handler = Handler(open_store(f"memory://{uuid.uuid4().hex}"), clock=lambda: NOW)
    t = "relayed"
    for command in (
        {"type": "create_tournament", "name": "Relay", "ruleset": "swu-1.4"},
        *({"type": "register_player", "player": p, "name": p.upper()} for p in ("p1", "p2")),
        {"type": "pair_round", "pairings": [["p1", "p2"]]},
        {"type": "start_round"},
    ):  # fmt: skip
        handler.handle(parse_command({"tournament": t, **command}))
    codes = issue_codes(handler.store, Folds(handler.store).state(t), 1, now=NOW)
    return handler, t, codes


def item(t: str, code: str, player: str = "p1", ident: str = "relay-0001", **over: Any
         ) -> dict[str, Any]:  # fmt: skip
    command = {"type": "report_result", "tournament": t, "round": 1, "players": ["p1", "p2"],
               "result": WON, "actor": {"role": "player", "id": player},
               "command_id": ident, **over}  # fmt: skip
    return {"id": ident, "code_hash": code_hash(code.replace("-", "")), "command": command}


def test_a_relayed_report_is_the_holder_s_and_is_applied_once() -> None:
    handler, t, codes = venue()
    first = apply_at_venue(handler, t, item(t, codes["p1"]))
    assert first == Answer(status="applied", seq=6)
    assert apply_at_venue(handler, t, item(t, codes["p1"])) == first
    assert handler.folds.state(t).seq == 6


def test_a_relayed_report_through_a_code_the_venue_no_longer_holds_is_refused() -> None:
    handler, t, codes = venue()
    issue_codes(handler.store, Folds(handler.store).state(t), 1, now=NOW)  # reprinted
    answer = apply_at_venue(handler, t, item(t, codes["p1"]))
    assert answer.status == "refused" and "reprinted slip" in (answer.reason or "")
    assert handler.folds.state(t).seq == 5


def test_a_relayed_report_is_refused_unless_it_is_the_holder_s_report_under_the_mirror_s_id(
) -> None:  # fmt: skip
    handler, t, codes = venue()
    as_opponent = apply_at_venue(handler, t, item(t, codes["p1"], player="p2"))
    assert as_opponent.status == "refused" and "as its holder" in (as_opponent.reason or "")
    other_id = item(t, codes["p1"])
    other_id["command"]["command_id"] = "relay-0002"
    assert apply_at_venue(handler, t, other_id).status == "refused"
    not_relayed = item(t, codes["p1"], ident="mine-1")
    assert apply_at_venue(handler, t, not_relayed).status == "refused"
    elsewhere = apply_at_venue(handler, "another", item(t, codes["p1"]))
    assert elsewhere.status == "refused"
    assert handler.folds.state(t).seq == 5


def test_a_resent_form_is_one_report_and_a_form_without_a_nonce_a_new_one() -> None:
    code = "a" * 64
    assert relay_id(code, "0123abcd", "x") == relay_id(code, "0123abcd", "y")
    assert relay_id(code, "0123abcd", "x") != relay_id("b" * 64, "0123abcd", "x")
    assert relay_id(code, None, "drawn") == "relay-drawn"
