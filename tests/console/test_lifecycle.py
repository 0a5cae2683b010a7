"""The console offers the steps the tournament's lifecycle allows (``projections.lifecycle``),
the same answer the commands refuse by: after the last Swiss round of an event without a
top cut it offers the finish, or a cut of a size given, and no next round."""

from __future__ import annotations

from collections.abc import Callable

from fastapi.testclient import TestClient

from commands.handler import Handler
from tests.console.test_organizer import flash, with_players

ROUNDS = 3  # swu-1.4 §4.5: 5-8 players, 3 rounds, no top cut


def play_swiss(console: TestClient, handler: Handler) -> None:
    """Every planned Swiss round paired, started and every table's result entered."""
    for _ in range(ROUNDS):
        assert "paired" in flash(console.post("/console/t/t1/round/pair", data={}))
        assert "round started" in flash(console.post("/console/t/t1/round/start", data={}))
        for match in handler.folds.state("t1").rounds[-1].matches:
            answer = console.post("/console/t/t1/results",
                                  data={"table": str(match.table), "result": "2-0"})  # fmt: skip
            assert "error" not in flash(answer), flash(answer)


def test_after_the_last_swiss_round_the_round_page_offers_no_next_round(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    console = with_players(sign_in())
    play_swiss(console, handler)
    page = console.get("/console/t/t1/round").text
    assert f"Pair round {ROUNDS + 1}" not in page and "Pair by hand" in page
    assert "the Swiss rounds are played; finish" in page
    answer = console.post("/console/t/t1/round/pair", data={})
    assert f"all {ROUNDS} Swiss rounds are paired" in flash(answer)


def test_after_the_last_swiss_round_the_finish_and_a_cut_of_a_size_given_are_offered(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    console = with_players(sign_in())
    play_swiss(console, handler)
    page = console.get("/console/t/t1/finals").text
    assert "Finish the tournament" in page and "Pair the next elimination round" not in page
    assert (
        "this event has no top cut" in page
        and 'name="size" inputmode="numeric" size="4" required' in page
    )
    assert "cut made" in flash(console.post("/console/t/t1/finals/cut", data={"size": "4"}))
    page = console.get("/console/t/t1/finals").text
    assert "Make the cut" not in page and "Finish the tournament" not in page
    assert "Pair the next elimination round" in page
    assert "Pair round 4 from the bracket" in console.get("/console/t/t1/round").text


def test_a_round_under_way_is_neither_cut_nor_finished_nor_paired_again(
    sign_in: Callable[..., TestClient],
) -> None:
    console = with_players(sign_in())
    console.post("/console/t/t1/round/pair", data={})
    console.post("/console/t/t1/round/start", data={})
    finals = console.get("/console/t/t1/finals").text
    assert "Make the cut" not in finals and "Finish the tournament" not in finals
    page = console.get("/console/t/t1/round").text
    assert "Pair round 2" not in page and "Start round 1" not in page
    assert "Round 1 is under way: 4 results to enter" in page
