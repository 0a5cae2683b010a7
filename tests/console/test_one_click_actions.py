"""Actions that cannot simply be taken back ask first and name what they change: a drop
names the loss it records at an unstarted table, and a reinstatement before the round
starts withdraws it; a finish owed a cut is offered only with a reason; slips with new
report codes are reprinted for the round or for one table. Destructive buttons are
marked apart from the next step."""

from __future__ import annotations

from collections.abc import Callable

from fastapi.testclient import TestClient

from commands.handler import Handler
from tests.console.test_lifecycle import play_swiss
from tests.console.test_organizer import created, flash, registered, with_players

FSI, PDI = "\u2068", "\u2069"


def paired(console: TestClient) -> TestClient:
    assert "paired" in flash(console.post("/console/t/t1/round/pair", data={}))
    return console


def table_of(handler: Handler, player: str) -> tuple[int, str]:
    match = handler.folds.state("t1").rounds[-1].match_for(player)
    assert match is not None and match.table is not None
    return match.table, next(p for p in match.players if p != player)


def name_of(handler: Handler, player: str) -> str:
    return handler.store.players("t1")[player].name or player


def test_drop_asks_first_naming_the_automatic_result_and_nothing_is_appended(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    console = paired(with_players(sign_in()))
    listed = console.get("/console/t/t1/players").text
    assert 'class="button danger-link" href="/console/t/t1/players/p1/drop"' in listed
    before = handler.folds.state("t1").seq
    table, opponent = table_of(handler, "p1")
    page = console.get("/console/t/t1/players/p1/drop")
    assert page.status_code == 200
    won = f"This records {FSI}{name_of(handler, opponent)}{PDI}&#39;s 2-0 win at table {table}"
    assert won in page.text and "of round 1." in page.text
    assert "reinstating" in page.text and "withdraws this result" in page.text
    assert 'method="post" action="/console/t/t1/players/p1/drop"' in page.text
    assert 'class="danger"' in page.text
    assert handler.folds.state("t1").seq == before


def test_a_drop_undone_before_the_round_starts_puts_the_player_back_at_their_table(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    console = paired(with_players(sign_in()))
    table, opponent = table_of(handler, "p1")
    said = flash(console.post("/console/t/t1/players/p1/drop", data={}))
    assert f"{FSI}{name_of(handler, 'p1')}{PDI} dropped" in said, "the name, not the id"
    assert handler.folds.state("t1").rounds[0].match_for("p1").status == "confirmed"  # type: ignore[union-attr]
    asked = console.get("/console/t/t1/players/p1/reinstate").text
    assert f"This withdraws the loss recorded at the drop at table {table} of round 1" in asked
    assert 'name="reason" required' in asked
    answer = console.post("/console/t/t1/players/p1/reinstate", data={"reason": "wrong row"})
    assert f"{FSI}{name_of(handler, 'p1')}{PDI} reinstated" in flash(answer)
    match = handler.folds.state("t1").rounds[0].match_for("p1")
    assert match is not None and match.status == "pending" and match.table == table
    assert "p1" in match.players and opponent in match.players
    types = [r.event.type for r in handler.store.load("t1")][-2:]
    assert types == ["player_reinstated", "automatic_result_withdrawn"]


def test_disqualify_asks_for_the_reason_on_a_page_naming_the_loss(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    console = paired(with_players(sign_in()))
    console.post("/console/t/t1/round/start", data={})
    table, _ = table_of(handler, "p2")
    page = console.get("/console/t/t1/players/p2/disqualify").text
    assert f"win at table {table} of round 1" in page and "never reinstated" in page
    assert 'name="reason" required' in page and "withdraws this result" not in page
    answer = console.post("/console/t/t1/players/p2/disqualify", data={"reason": "cheating"})
    assert f"{FSI}{name_of(handler, 'p2')}{PDI} disqualified" in flash(answer)
    refused = console.get("/console/t/t1/players/p2/drop")
    assert refused.status_code == 303 and "disqualified" in flash(refused)


def test_a_drop_between_rounds_says_no_result_is_recorded_and_its_undoing_no_table(
    sign_in: Callable[..., TestClient],
) -> None:
    console = with_players(sign_in())
    page = console.get("/console/t/t1/players/p3/drop").text
    assert "No result is recorded" in page
    console.post("/console/t/t1/players/p3/drop", data={})
    asked = console.get("/console/t/t1/players/p3/reinstate").text
    assert "is paired again from round 1." in asked and "withdraws" not in asked


def test_finish_is_offered_without_the_cut_only_with_a_reason(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    console = sign_in()
    created(console, cut="4")
    registered(console)
    play_swiss(console, handler)
    page = console.get("/console/t/t1/finals").text
    assert "Finish the tournament" not in page and "No top 4 cut was made" in page
    assert 'name="without_cut" required' in page and 'class="danger"' in page
    assert "Make the cut" in page
    refused = console.post("/console/t/t1/finals/finish", data={})
    assert "calls for a top 4 cut" in flash(refused) and not handler.folds.state("t1").finished
    answer = console.post("/console/t/t1/finals/finish", data={"without_cut": "venue closes"})
    assert "tournament finished" in flash(answer)
    last = handler.store.load("t1")[-1].event
    assert last.type == "tournament_finished" and last.without_cut == "venue closes"  # type: ignore[union-attr]


def held(handler: Handler) -> dict[str, str]:
    """Each player's code hash in force for round 1."""
    return {e.player or "": e.code_hash for e in handler.store.slip_codes_of("t1", 1)}


def test_reprinting_slips_with_codes_is_confirmed_and_one_table_can_be_reprinted_alone(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    console = paired(with_players(sign_in()))
    first = console.get("/console/t/t1/round").text
    assert "Print slips with report codes" in first and "Reprint" not in first
    assert console.post("/console/t/t1/print/slips", data={}).status_code == 200
    codes = held(handler)
    assert len(codes) == 8
    page = console.get("/console/t/t1/round").text
    assert 'class="button danger-link" href="/console/t/t1/print/slips/confirm"' in page
    assert "/print/slips/confirm?table=2" in page and "Print slips with report codes" not in page
    whole = console.get("/console/t/t1/print/slips/confirm").text
    assert ("New codes for all 4 tables of round 1; the slips already on the tables stop "
            "working.") in whole  # fmt: skip
    assert 'action="/console/t/t1/print/slips?round=1"' in whole
    one = console.get("/console/t/t1/print/slips/confirm?table=2").text
    assert "New codes for table 2 of round 1 (" in one
    assert "the slip already on table 2 stops working; the other 3 tables keep theirs." in one
    assert held(handler) == codes  # asking changes nothing
    match = handler.folds.state("t1").rounds[0].matches[1]
    printed = console.post("/console/t/t1/print/slips?round=1&table=2", data={})
    assert printed.status_code == 200 and printed.text.count("/s/") == 2
    now = held(handler)
    assert {p for p in codes if now[p] != codes[p]} == set(match.players)
    missing = console.get("/console/t/t1/print/slips/confirm?table=9")
    assert missing.status_code == 303 and "round 1 has no table 9" in flash(missing)


def test_a_judge_disqualifies_from_the_player_page_through_the_confirmation(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    console = paired(with_players(sign_in()))
    console.post("/console/t/t1/round/start", data={})
    judge = sign_in("judge", "t1")
    player = judge.get("/console/t/t1/players/p3").text
    assert 'class="button danger-link" href="/console/t/t1/players/p3/disqualify' in player
    page = judge.get("/console/t/t1/players/p3/disqualify?from_page=player").text
    assert 'name="back" value="/console/t/t1/players/p3"' in page and "win at table" in page
    back = "/console/t/t1/players/p3"
    answer = judge.post(f"{back}/disqualify", data={"reason": "marked cards", "back": back})
    assert answer.headers["location"].startswith("/console/t/t1/players/p3?ok=")
    assert handler.folds.state("t1").players["p3"].disqualified
