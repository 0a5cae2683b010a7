"""Match slip report codes: drawn from an alphabet without look-alikes, shown grouped,
accepted as people type them, stored only as hashes, one per player of a match, each
with its holder."""

from __future__ import annotations

import hashlib
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from commands.errors import InvalidCommand, WrongPhase
from commands.handler import Handler
from commands.models import parse_command
from commands.slipcodes import (
    ALPHABET,
    code_hash,
    hash_of,
    issue_codes,
    new_code,
    normalized,
    shown,
)
from ledger.store import SlipCodeEntry
from ledger.url import open_store

NOW = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)


def event(name: str, players: int, paired: bool = True) -> Handler:
    """A swu-1.4 event in a fresh memory store; round 1 paired in order (a bye last when
    the count is odd)."""
    handler = Handler(open_store(f"memory://{name}-{random.random()}"))
    ids = [f"p{i}" for i in range(1, players + 1)]
    commands: list[dict[str, Any]] = [
        {"type": "create_tournament", "name": "Slips", "ruleset": "swu-1.4"},
        *({"type": "register_player", "player": p} for p in ids),
    ]
    if paired:
        commands.append({"type": "pair_round",
                         "pairings": [ids[i : i + 2] for i in range(0, players, 2)]})  # fmt: skip
    for command in commands:
        handler.handle(parse_command({"tournament": "t", **command}))
    return handler


def test_the_alphabet_has_no_look_alikes() -> None:
    assert len(ALPHABET) == len(set(ALPHABET)) == 31
    assert not set("0O1IL") & set(ALPHABET)
    assert set(ALPHABET) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")


def test_a_code_is_eight_characters_of_the_alphabet_shown_in_two_groups() -> None:
    draws = iter("K7QX3MPA")
    code = new_code(lambda alphabet: next(draws))
    assert code == "K7QX-3MPA"
    codes = {new_code(random.Random(7).choice) for _ in range(3)}
    assert len(codes) == 1, "the draw is an input: the same draws give the same code"
    assert all(len(c) == 9 and c[4] == "-" for c in codes)
    assert all(ch in ALPHABET for c in codes for ch in c.replace("-", ""))


@pytest.mark.parametrize("typed", ["K7QX-3MPA", "k7qx-3mpa", "K7QX3MPA", "k7qx3mpa", " K7QX 3MPA "])
def test_a_code_is_accepted_in_either_case_with_or_without_the_dash(typed: str) -> None:
    assert normalized(typed) == "K7QX3MPA"
    assert hash_of(typed) == hashlib.sha256(b"K7QX3MPA").hexdigest() == code_hash("K7QX3MPA")
    assert shown("K7QX3MPA") == "K7QX-3MPA"


@pytest.mark.parametrize("typed", ["", "K7QX-3MP", "K7QX-3MPAA", "K7QX-3MP0", "O7QX-3MPA",
                                   "I7QX-3MPA", "K7QX-3MP!", "K7QX-3MPÄ"])  # fmt: skip
def test_a_mistyped_code_is_no_code(typed: str) -> None:
    assert normalized(typed) is None
    assert hash_of(typed) is None


def test_each_player_of_a_match_gets_a_code_of_their_own_in_table_order_and_a_bye_none() -> None:
    handler = event("order", 5)
    codes = issue_codes(handler.store, handler.folds.state("t"), 1, now=NOW,
                        draw=random.Random(1).choice)  # fmt: skip
    assert list(codes) == ["p1", "p2", "p3", "p4"]
    assert len(set(codes.values())) == 4
    opponent = {"p1": "p2", "p2": "p1", "p3": "p4", "p4": "p3"}
    for player, code in codes.items():
        entry = handler.store.slip_code(hash_of(code) or "")
        assert entry is not None
        assert (entry.tournament, entry.round, entry.player, entry.issued_at) == (
            "t", 1, player, NOW)  # fmt: skip
        assert entry.players == (player, opponent[player]), "the holder first"


def test_one_table_issued_again_replaces_its_codes_and_no_other_table_s() -> None:
    handler = event("table", 4)
    state = handler.folds.state("t")
    first = issue_codes(handler.store, state, 1, now=NOW, draw=random.Random(1).choice)
    table_2 = state.rounds[0].matches[1]
    second = issue_codes(handler.store, state, 1, now=NOW, draw=random.Random(2).choice,
                         table=table_2.table)  # fmt: skip
    assert set(second) == set(table_2.players)
    for player, code in first.items():
        kept = handler.store.slip_code(hash_of(code) or "") is not None
        assert kept == (player not in table_2.players)
    with pytest.raises(InvalidCommand, match="round 1 has no table 7 with a match slip"):
        issue_codes(handler.store, state, 1, now=NOW, table=7)


def test_only_the_hash_is_stored() -> None:
    handler = event("hash", 2)
    code = issue_codes(handler.store, handler.folds.state("t"), 1, now=NOW)["p1"]
    entry = handler.store.slip_code(code_hash(normalized(code) or ""))
    assert entry is not None
    assert code.replace("-", "") not in repr(entry)
    assert handler.store.slip_code(code.replace("-", "")) is None, "the code is not the key"


def test_issuing_again_replaces_each_player_s_code_and_the_old_one_stops_working() -> None:
    handler = event("again", 4)
    state = handler.folds.state("t")
    first = issue_codes(handler.store, state, 1, now=NOW, draw=random.Random(1).choice)
    later = NOW + timedelta(minutes=5)
    second = issue_codes(handler.store, state, 1, now=later, draw=random.Random(2).choice)
    for player in first:
        assert first[player] != second[player]
        assert handler.store.slip_code(hash_of(first[player]) or "") is None
        entry = handler.store.slip_code(hash_of(second[player]) or "")
        assert entry is not None and entry.issued_at == later and entry.player == player


def test_a_match_code_issued_before_players_held_their_own_is_replaced_by_theirs() -> None:
    handler = event("before", 2)
    old = SlipCodeEntry(code_hash("AAAAAAAA"), "t", 1, ("p1", "p2"), NOW)
    handler.store.put_slip_codes([old])
    assert handler.store.slip_code(old.code_hash) == old
    codes = issue_codes(handler.store, handler.folds.state("t"), 1, now=NOW)
    assert handler.store.slip_code(old.code_hash) is None
    assert [handler.store.slip_code(hash_of(codes[p]) or "") is not None for p in codes] == [
        True, True]  # fmt: skip


def test_a_code_another_player_holds_is_drawn_again() -> None:
    handler = event("collide", 4)
    state = handler.folds.state("t")
    repeated = iter("AAAAAAAA" * 2 + "BBBBBBBB" + "CCCCCCCC" * 2 + "DDDDDDDD")
    codes = issue_codes(handler.store, state, 1, now=NOW, draw=lambda _: next(repeated))
    assert codes == {"p1": "AAAA-AAAA", "p2": "BBBB-BBBB", "p3": "CCCC-CCCC", "p4": "DDDD-DDDD"}


def test_a_round_that_is_not_paired_gets_no_codes() -> None:
    handler = event("unpaired", 4, paired=False)
    with pytest.raises(WrongPhase, match="round 1 is not paired"):
        issue_codes(handler.store, handler.folds.state("t"), 1, now=NOW)
    paired = event("paired", 4)
    with pytest.raises(WrongPhase, match="round 2 is not paired"):
        issue_codes(paired.store, paired.folds.state("t"), 2, now=NOW)
