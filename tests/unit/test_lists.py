"""Submitting, locking and correcting lists, and when they are shown (never to an opponent
before the rules allow)."""

from __future__ import annotations

import hashlib
import uuid
from typing import Any

import pytest

from commands.errors import CommandError, InvalidCommand, RuleViolation, WrongPhase
from commands.handler import SALT_BYTES, Handler
from commands.lists import list_entries
from commands.models import parse_command
from commands.reads.listviews import official_list, published_lists
from commands.roles import Forbidden, Principal
from ledger.errors import ListDamaged
from ledger.events import ListCorrected, ListsLocked, ListSubmitted, RoundStarted, to_json
from ledger.list_events import canonical, list_hash
from ledger.store import ListEntry, TokenEntry
from ledger.url import open_store
from tests.builders import Given, create, pair, register, report, start

LEGAL: dict[str, Any] = {
    "leader": "Darth Vader | Dark Lord of the Sith", "base": "Energy Conversion Lab",
    "deck": [{"card": f"Card {i}", "count": 2} for i in range(25)], "sideboard": [],
}  # fmt: skip
SHORT: dict[str, Any] = {**LEGAL, "deck": [{"card": "TIE Fighter", "count": 3}]}
PLAYER = {"role": "player", "id": "p1"}
JUDGE = {"role": "judge", "id": "AK"}


def submit(player: str, data: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "submit_list", "tournament": "t1", "player": player, "list": data, **extra}


def lock(**extra: Any) -> dict[str, Any]:
    return {"type": "lock_lists", "tournament": "t1", **extra}


def correct(
    player: str, data: dict[str, Any], reason: str = "wrong box", **extra: Any
) -> dict[str, Any]:
    return {"type": "correct_list", "tournament": "t1", "player": player, "list": data,
            "reason": reason, **extra}  # fmt: skip


def given(**options: Any) -> Given:
    return Given(create(**options), *register("p1", "p2", "p3", "p4"))


def kept_apply(g: Given, command: dict[str, Any], kept: list[ListEntry]) -> list[Any]:
    """Apply ``command`` and keep what the handler would write to ``tledger_lists``."""
    events = g.when(command)
    kept += list_entries(g.state, parse_command(command), events, g.state.seq + 1)
    return g.apply(command)


def test_a_submission_commits_to_the_list_by_hash_and_counts_its_violations() -> None:
    g = given()
    command = submit("p1", {**SHORT, "deck": [{"card": "TIE Fighter", "count": 3},
                                              {"card": "TIE Fighter", "count": 2}]})  # fmt: skip
    [event] = g.when(command)
    assert isinstance(event, ListSubmitted) and event.player == "p1"
    assert [(v.rule, v.section, v.count) for v in event.violations] == [
        ("deck_size", "swu-1.4 §2.3.1.1", 1), ("copies", "swu-1.4 §2.3.1.1", 1)]  # fmt: skip
    data = to_json(event)
    assert "list" not in data and "TIE Fighter" not in str(data) and "Darth" not in str(data)
    [entry] = list_entries(g.state, parse_command(command), [event], 7)
    assert (entry.seq, entry.player, entry.list_hash) == (7, "p1", event.list_hash)
    assert list_hash(entry.list) == event.list_hash and entry.list["leader"] == SHORT["leader"]
    assert [v["rule"] for v in entry.violations] == ["deck_size", "copies"]
    assert "TIE Fighter: 5 copies" in entry.violations[1]["message"]


SALT = bytes(range(16))


def test_a_list_is_committed_to_by_a_hash_salted_with_the_handlers_salt() -> None:
    g = Given(create(), *register("p1"), salt=SALT)
    [event] = g.apply(submit("p1", LEGAL))
    [entry] = g.lists
    assert isinstance(event, ListSubmitted) and entry.salt == SALT.hex()
    assert event.list_hash == hashlib.sha256(SALT + canonical(entry.list)).hexdigest()
    assert event.list_hash != list_hash(entry.list), "a guess of the list confirms nothing"


def test_the_same_list_is_told_apart_by_nobody_under_the_handlers_salts() -> None:
    handler = Handler(open_store(f"memory://{uuid.uuid4().hex}"))
    for command in (create(), *register("p1", "p2"), submit("p1", LEGAL), submit("p2", LEGAL)):
        handler.handle(parse_command(command))
    first, second = handler.store.lists("t1")
    assert first.list == second.list and first.salt != second.salt
    assert first.list_hash != second.list_hash and len(first.salt) == 2 * SALT_BYTES


def test_a_correction_to_the_list_in_force_is_refused_under_its_salt() -> None:
    g = Given(create(), *register("p1"), submit("p1", SHORT), lock(), salt=SALT)
    with pytest.raises(RuleViolation, match="is this list already"):
        g.when(correct("p1", SHORT))
    [fixed] = g.apply(correct("p1", LEGAL))
    assert isinstance(fixed, ListCorrected)
    assert fixed.list_hash == list_hash(g.lists[-1].list, SALT.hex())


def test_a_list_recorded_before_salts_is_read_and_shown_by_the_unsalted_rule() -> None:
    g = Given(create(rounds=1), *register("p1", "p2"), submit("p1", LEGAL))
    [entry] = g.lists
    assert entry.salt == "" and entry.list_hash == list_hash(entry.list)
    for command in (pair(["p1", "p2"]), start(), report(1, "p1", "p2", games=[2, 0], draws=0),
                    {"type": "finish_tournament", "tournament": "t1"}):  # fmt: skip
        g.apply(command)
    [shown] = published_lists(g.state, {}, g.lists).lists
    assert shown.salt is None and "salt" not in shown.model_dump(mode="json")
    assert shown.list_hash == g.state.lists["p1"].hash


def test_only_list_commands_keep_a_list() -> None:
    g = given()
    command = {"type": "drop_player", "tournament": "t1", "player": "p1"}
    assert list_entries(g.state, parse_command(command), g.when(command), 7) == []


def test_resubmission_before_locking_replaces_the_list() -> None:
    g, kept = given(), list[ListEntry]()
    kept_apply(g, submit("p1", SHORT), kept)
    kept_apply(g, submit("p1", LEGAL, actor=PLAYER), kept)
    held = g.state.lists["p1"]
    assert held.violations == () and held.seq == 7 and held.hash == kept[1].list_hash
    assert kept[1].list["deck"] == LEGAL["deck"]


def test_after_locking_a_submission_is_refused_and_a_judge_corrects_with_a_reason() -> None:
    g = given()
    g.apply(submit("p1", SHORT))
    [locked] = g.apply(lock())
    assert isinstance(locked, ListsLocked) and locked.missing == ("p2", "p3", "p4")
    with pytest.raises(WrongPhase, match="lists are locked: a judge corrects a list with "
                                         "correct_list and a reason"):  # fmt: skip
        g.when(submit("p1", LEGAL))
    previous = g.state.lists["p1"].hash
    [fixed] = g.apply(correct("p1", LEGAL, "list named the wrong deck", actor=JUDGE))
    assert isinstance(fixed, ListCorrected) and fixed.previous_hash == previous
    assert fixed.reason == "list named the wrong deck" and fixed.actor.role == "judge"
    assert g.state.lists["p1"].corrected and g.state.lists["p1"].hash == fixed.list_hash


def test_correction_rules() -> None:
    g = given()
    g.apply(submit("p1", SHORT))
    with pytest.raises(WrongPhase, match="not locked yet"):
        g.when(correct("p1", LEGAL))
    g.apply(lock())
    with pytest.raises(InvalidCommand, match="reason"):
        g.when({k: v for k, v in correct("p1", LEGAL).items() if k != "reason"})
    with pytest.raises(RuleViolation, match="is this list already"):
        g.when(correct("p1", SHORT))
    with pytest.raises(RuleViolation, match="a player may not correct a list"):
        g.when(correct("p1", LEGAL, actor=PLAYER))
    [late] = g.when(correct("p2", LEGAL))  # no list at locking: recorded, nothing replaced
    assert isinstance(late, ListCorrected) and late.previous_hash is None
    with pytest.raises(WrongPhase, match="locked already"):
        g.when(lock())


def test_who_may_submit() -> None:
    g = given()
    with pytest.raises(RuleViolation, match="only their own list"):
        g.when(submit("p2", LEGAL, actor=PLAYER))
    with pytest.raises(RuleViolation, match="a judge may not submit a list"):
        g.when(submit("p1", LEGAL, actor=JUDGE))
    with pytest.raises(CommandError, match="unknown player"):
        g.when(submit("p9", LEGAL))
    with pytest.raises(InvalidCommand, match=r"not a swu-1\.4 list: list\.faction"):
        g.when(submit("p1", {"faction": "Rebel Alliance"}))
    token = TokenEntry("h", "id", "player", "t1", "p1")
    Principal(token).check(parse_command(submit("p1", LEGAL, actor=PLAYER)))
    with pytest.raises(Forbidden, match="only their own list"):
        Principal(token).check(parse_command(submit("p2", LEGAL)))


def test_round_1_at_competitive_tier_locks_submitted_lists_before_it_starts() -> None:
    """swu-1.4 §3.1.3: at competitive tier lists are handed in before the event."""
    g = given()
    g.apply(submit("p1", LEGAL))
    g.apply(pair(["p1", "p2"], ["p3", "p4"]))
    locked, started = g.apply(start())
    assert isinstance(locked, ListsLocked) and isinstance(started, RoundStarted)
    assert locked.reason is not None and "swu-1.4 §3.1.3" in locked.reason
    assert locked.missing == ("p2", "p3", "p4") and g.state.lists_locked


@pytest.mark.parametrize(
    ("options", "lists"),
    [({"tier": "casual"}, True), ({}, False), ({"ruleset": "xwing-2.0"}, True)],
)
def test_no_automatic_lock_at_casual_tier_without_lists_or_outside_swu(
    options: dict[str, Any], lists: bool
) -> None:
    ruleset = options.pop("ruleset", "swu-1.4")
    g = Given(create(ruleset=ruleset, **options), *register("p1", "p2"))
    if lists:
        data = LEGAL if ruleset == "swu-1.4" else {"faction": "Rebel Alliance", "points": 0}
        g.apply(submit("p1", data))
    g.apply(pair(["p1", "p2"]))
    assert [type(e) for e in g.apply(start())] == [RoundStarted]
    assert not g.state.lists_locked


def played_to_cut(kept: list[ListEntry]) -> Given:
    g = given(rounds=1, cut=2)
    for p in ("p1", "p2", "p3"):
        kept_apply(g, submit(p, LEGAL if p != "p3" else SHORT), kept)
    g.apply(pair(["p1", "p2"], ["p3", "p4"]))
    g.apply(start())
    g.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    g.apply(report(1, "p3", "p4", games=[2, 0], draws=0))
    return g


def test_lists_are_shown_to_nobody_before_the_cut_then_the_cuts_then_all() -> None:
    kept: list[ListEntry] = []
    g = played_to_cut(kept)
    with pytest.raises(WrongPhase, match=r"after the event \(swu-1.4 §7.1\).*top cut's while "
                                         r"it runs \(swu-1.4 §4.6.1\)"):  # fmt: skip
        published_lists(g.state, {}, kept)
    g.apply({"type": "make_cut", "tournament": "t1"})
    cut = published_lists(g.state, {"p1": "Ada"}, kept)
    assert cut.scope == "top_cut" and cut.section == "swu-1.4 §4.6.1"
    seeds = g.state.cut.seeds if g.state.cut else ()
    assert [entry.player for entry in cut.lists] == [p for p in seeds if p in g.state.lists]
    g.apply({"type": "pair_round", "tournament": "t1"})
    g.apply(start())
    final = g.state.current.matches[0].players if g.state.current else ()
    g.apply(report(2, final[0], final[1], games=[2, 1], draws=0))
    g.apply({"type": "finish_tournament", "tournament": "t1"})
    after = published_lists(g.state, {"p1": "Ada"}, kept)
    assert after.scope == "event" and after.section == "swu-1.4 §7.1"
    assert [(e.player, e.name) for e in after.lists] == [("p1", "Ada"), ("p2", "p2"), ("p3", "p3")]
    assert after.lists[0].list_hash == g.state.lists["p1"].hash
    assert after.lists[2].list == kept[2].list and after.lists[2].list["deck"] == SHORT["deck"]


def test_an_official_sees_a_list_at_any_time_with_its_violations() -> None:
    kept: list[ListEntry] = []
    g = played_to_cut(kept)
    shown = official_list(g.state, "p3", {"p3": "Cy"}, kept)
    assert (shown.name, shown.seq, shown.locked, shown.corrected) == ("Cy", 8, True, False)
    assert shown.list["deck"] == SHORT["deck"] and shown.list_hash == g.state.lists["p3"].hash
    assert [v.section for v in shown.violations] == ["swu-1.4 §2.3.1.1"]
    assert "the draw deck has 3 cards" in shown.violations[0].message
    with pytest.raises(WrongPhase, match="p4 has no list"):
        official_list(g.state, "p4", {}, kept)
    with pytest.raises(CommandError, match="unknown player 'p9'"):
        official_list(g.state, "p9", {}, kept)


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (lambda e: None, "seq 8: the list of p3 is missing from tledger_lists"),
        (lambda e: ListEntry(e.tournament, e.seq, e.player, e.list_hash,
                             {**e.list, "base": "Echo Base"}),
         "seq 8: the stored list does not hash to its list_hash"),
        (lambda e: ListEntry(e.tournament, e.seq, "p1", e.list_hash, e.list),
         "seq 8: the stored list does not match the event's player and list_hash"),
    ],
)  # fmt: skip
def test_a_stored_list_that_does_not_match_its_event_is_an_integrity_error(
    damage: Any, said: str
) -> None:
    kept: list[ListEntry] = []
    g = played_to_cut(kept)
    g.apply({"type": "make_cut", "tournament": "t1"})
    assert kept[2].seq == 8 and kept[2].player == "p3"
    damaged = [*kept[:2], *([d] if (d := damage(kept[2])) is not None else [])]
    with pytest.raises(ListDamaged, match=f"integrity: {said}"):
        official_list(g.state, "p3", {}, damaged)
    assert g.state.cut is not None and "p3" in g.state.cut.seeds  # its list is shown now
    with pytest.raises(ListDamaged, match=f"integrity: {said}"):
        published_lists(g.state, {}, damaged)


def test_xwing_lists_are_shown_after_the_event_only() -> None:
    g = Given(create(ruleset="xwing-2.0"), *register("p1", "p2"))
    with pytest.raises(WrongPhase, match=r"lists are shown after the event; the tournament's "
                                         "stage is registration"):  # fmt: skip
        published_lists(g.state, {}, [])
