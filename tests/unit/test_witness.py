"""Printed heads as witnesses: a truncated or consistently re-hashed log
passes the chain check and fails the witness printed before it was changed."""

from __future__ import annotations

import pytest

from ledger.chain import GENESIS, Sealed, seal, verify_stored
from ledger.events import PlayerRegistered
from replay.witness import (
    MalformedWitness,
    Witness,
    check_witnesses,
    first_contradicted,
    parse_witnesses,
)
from tests.builders import Given, create, register

PLAYERS = [f"p{i}" for i in range(1, 10)]


def sealed() -> list[Sealed]:
    """Created and nine registrations: 10 events."""
    return seal([r.event for r in Given(create(), *register(*PLAYERS)).log], GENESIS)


def rows(log: list[Sealed]) -> list[tuple[int, int, bytes]]:
    return [(seq, seq, s.data) for seq, s in enumerate(log, start=1)]


def witness(log: list[Sealed], seq: int, line: int = 1) -> Witness:
    return Witness("heads.txt", line, seq, log[seq - 1].event.hash)


def rewritten_from(log: list[Sealed], seq: int) -> list[Sealed]:
    """The log with event ``seq`` changed (another player registered) and every later
    event re-hashed onto it: a consistent chain that tells another story."""
    events = [s.event for s in log]
    changed = events[seq - 1]
    assert isinstance(changed, PlayerRegistered)
    events[seq - 1] = changed.model_copy(update={"player": "p99"})
    return seal(events, GENESIS)


# parsing ------------------------------------------------------------------------


def test_a_witness_is_seq_and_hash_with_or_without_the_word_seq_as_printouts_print_it() -> None:
    digest = "3FA2" + "0" * 60
    text = f"\ufeff# posted at the venue\n\nseq 57 {digest}\n  12   {'ab' * 32}  # round 2\n"
    found = parse_witnesses(text.encode(), "heads.txt")
    assert found == [
        Witness("heads.txt", 3, 57, digest.lower()),
        Witness("heads.txt", 4, 12, "ab" * 32),
    ]


@pytest.mark.parametrize(
    ("line", "complaint"),
    [
        ("57", "expected 'seq SEQ HASH'"),
        ("seq 57 " + "a" * 64 + " extra", "expected 'seq SEQ HASH'"),
        ("head 57 " + "a" * 64, "expected 'seq SEQ HASH'"),
        ("seq x " + "a" * 64, "seq must be a whole number from 1, got 'x'"),
        ("seq 0 " + "a" * 64, "seq must be a whole number from 1"),
        ("seq -3 " + "a" * 64, "seq must be a whole number from 1"),
        (
            "seq 57 3fa2c91e",
            "a head hash is 64 hex digits, or the first 16 or more of them; got 8 characters",
        ),
        ("seq 57 3fa2c91e0a1b", "got 12 characters '3fa2c91e0a1b' (copy the whole head"),
        ("seq 57 " + "a" * 65, "got 65 characters"),
        ("seq 57 " + "g" * 64, "a head hash is 64 hex digits"),
    ],
)
def test_a_malformed_line_is_named_by_its_file_and_number(line: str, complaint: str) -> None:
    text = f"seq 1 {'a' * 64}\n{line}\n"
    with pytest.raises(MalformedWitness, match=r"witness file heads\.txt line 2: ") as caught:
        parse_witnesses(text.encode(), "heads.txt")
    assert complaint in str(caught.value) and "\n" not in str(caught.value)


def test_bytes_that_are_not_utf8_are_a_malformed_line() -> None:
    with pytest.raises(MalformedWitness, match="line 1: not UTF-8"):
        parse_witnesses(b"seq 1 \xff\n", "heads.txt")


def test_a_file_without_any_witness_is_refused_not_passed() -> None:
    with pytest.raises(MalformedWitness, match="no witness in it"):
        parse_witnesses(b"# nothing copied yet\n\n", "heads.txt")


# checking -----------------------------------------------------------------------


def test_witnesses_of_todays_log_hold() -> None:
    log = sealed()
    checks = check_witnesses("t1", rows(log), [witness(log, 3), witness(log, 10, line=2)])
    assert [c.ok for c in checks] == [True, True]
    assert first_contradicted(checks) is None
    assert checks[0].message() == "witness line 1 (seq 3): ok"


def test_a_truncated_log_verifies_as_a_chain_and_fails_the_witness_past_its_end() -> None:
    log = sealed()
    truncated = rows(log)[:7]
    assert verify_stored("t1", truncated) == log[6].event.hash  # the chain alone is content
    checks = check_witnesses("t1", truncated, [witness(log, 5), witness(log, 9, line=2)])
    assert [c.ok for c in checks] == [True, False]
    assert checks[1].message() == (
        "witness line 2 (seq 9): the log ends at seq 7 — truncated, or the witness is "
        "from another store (or its seq was mistyped)"
    )


def test_a_re_hashed_rewrite_after_the_witness_was_printed_verifies_but_fails_it() -> None:
    log = sealed()
    forged = rewritten_from(log, 4)
    assert verify_stored("t1", rows(forged)) == forged[-1].event.hash  # a consistent chain
    checks = check_witnesses("t1", rows(forged), [witness(log, 3), witness(log, 6, line=2)])
    assert [c.ok for c in checks] == [True, False]
    have, printed = forged[5].event.hash, log[5].event.hash
    assert checks[1].reason == (
        f"the log has {have[:12]}... there, the witness {printed[:12]}... — the log was "
        "rewritten after it was printed"
    )


def test_a_witness_cannot_speak_for_events_after_its_seq() -> None:
    """A head commits to the events up to it: a rewrite after it needs a later witness."""
    log = sealed()
    forged = rewritten_from(log, 8)
    [check] = check_witnesses("t1", rows(forged), [witness(log, 7)])
    assert check.ok


def test_a_witness_from_the_future_fails_as_truncation_and_says_both() -> None:
    log = sealed()
    future = Witness("heads.txt", 1, 57, "3fa2" + "0" * 60)
    [check] = check_witnesses("t1", rows(log), [future])
    assert not check.ok
    assert "the log ends at seq 10" in check.reason
    assert "truncated, or the witness is from another store" in check.reason


def test_a_hash_at_another_seq_of_the_log_is_pointed_out() -> None:
    log = sealed()
    swapped = Witness("heads.txt", 1, 4, log[2].event.hash)
    [check] = check_witnesses("t1", rows(log), [swapped])
    assert not check.ok and "that hash is this log's seq 3" in check.reason


def test_hashes_alike_at_the_start_are_shown_until_they_differ() -> None:
    log = sealed()
    real = log[1].event.hash
    typo = real[:40] + ("0" if real[40] != "0" else "1") + real[41:]
    [check] = check_witnesses("t1", rows(log), [Witness("h", 1, 2, typo)])
    assert f"the log has {real[:44]}... there, the witness {typo[:44]}..." in check.reason


def test_witnesses_past_a_broken_chain_are_not_checked() -> None:
    log = sealed()
    damaged = rows(log)
    seq, pos, data = damaged[5]
    damaged[5] = (seq, pos, data.replace(b'"p5"', b'"p7"'))
    checks = check_witnesses("t1", damaged, [witness(log, 5), witness(log, 8, line=2)])
    assert [c.ok for c in checks] == [True, False]
    assert checks[1].reason == "not checked: the chain breaks at seq 6, before this witness"


def test_the_first_contradicted_witness_is_the_earliest_in_the_log() -> None:
    log = sealed()
    forged = rewritten_from(log, 4)
    checks = check_witnesses(
        "t1", rows(forged),
        [witness(log, 9, line=1), witness(log, 2, line=2), witness(log, 5, line=3)],
    )  # fmt: skip
    first = first_contradicted(checks)
    assert first is not None and first.witness.line == 3


def test_with_several_files_a_witness_is_named_by_its_file_too() -> None:
    log = sealed()
    other = Witness("wall.txt", 1, 3, log[2].event.hash)
    checks = check_witnesses("t1", rows(log), [witness(log, 2), other])
    assert [c.name for c in checks] == [
        "witness heads.txt line 1 (seq 2)", "witness wall.txt line 1 (seq 3)"]  # fmt: skip
    want = {"file": "wall.txt", "line": 1, "seq": 3, "hash": other.hash, "ok": True}
    assert checks[1].as_json() == {**want, "reason": None, "digits": 64}


# a prefix of the head -------------------------------------------------------------


def test_a_prefix_of_16_digits_or_more_is_a_witness_that_says_how_many_it_compared() -> None:
    log = sealed()
    head = log[4].event.hash
    prefix = Witness("heads.txt", 1, 5, head[:16])
    longer = Witness("heads.txt", 2, 5, head[:40])
    short, more = check_witnesses("t1", rows(log), [prefix, longer])
    assert (
        short.ok and short.message() == "witness line 1 (seq 5): ok (matched 16 of 64 hex digits)"
    )
    assert more.verdict == "ok (matched 40 of 64 hex digits)"
    assert short.as_json()["digits"] == 16
    whole = check_witnesses("t1", rows(log), [witness(log, 5)])[0]
    assert whole.verdict == "ok" and whole.as_json()["digits"] == 64


def test_a_prefix_of_a_rewritten_event_fails_naming_the_digits_compared() -> None:
    log = sealed()
    forged = rewritten_from(log, 4)
    printed = Witness("heads.txt", 1, 6, log[5].event.hash[:16])
    check = check_witnesses("t1", rows(forged), [printed])[0]
    assert not check.ok
    assert "(16 of 64 hex digits compared) — the log was rewritten" in check.reason
    assert check.verdict.startswith("CONTRADICTED: the log has ")


def test_a_prefix_that_begins_two_heads_names_neither_ok() -> None:
    from replay.witness import check_one

    heads = ["ab" * 32, "ab" * 8 + "cd" * 24]
    check = check_one(Witness("heads.txt", 1, 1, "ab" * 8), heads, 2, None, False)
    assert not check.ok
    assert check.reason == f"the prefix {'ab' * 8} begins the heads of seqs 1, 2: give more digits"
