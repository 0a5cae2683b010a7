"""The judges' console pages: the queue shows a dispute's two reports side by
side and a judge's result settles it (an official's report decides);
penalties, deck checks and time extensions are commands of the contract; a reader sees
the pages and acts on nothing."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote

from fastapi.testclient import TestClient

from commands.handler import Handler
from commands.reads.cache import ReadSide
from ledger.events import ResultReported
from tests.console.judge_event import T, judge_event, reader_sees, refusal

Signer = Callable[..., TestClient]


def test_the_queue_shows_the_dispute_first_with_both_reports(
    sign_in: Signer, handler: Handler
) -> None:
    judge_event(handler)
    page = sign_in("judge").get(f"/console/t/{T}/judge")
    assert page.status_code == 200
    text = page.text
    assert "1 disputed" in text and "2 missing" in text and "1 unconfirmed" in text
    assert text.index('id="table-1"') < text.index('id="table-2"')
    assert said("Ada Lovelace", "2 – 0", "Ben Kenobi", "Ada Lovelace") in text
    assert said("Ada Lovelace", "0 – 2", "Ben Kenobi", "Ben Kenobi") in text
    assert said("Cyra Vale", "2 – 1", "Dov Rask", "Cyra Vale") in text
    assert "Settle the dispute" in text


def said(first: str, score: str, second: str, by: str) -> str:
    """A report as the queue words it: names isolated, numbers in the table's order."""
    return f"\u2068{first}\u2069 {score} \u2068{second}\u2069, reported by \u2068{by}\u2069"


def test_the_tables_without_a_report_wait_behind_a_link_not_as_forms_at_round_start(
    sign_in: Signer, handler: Handler
) -> None:
    judge_event(handler)
    console = sign_in("judge")
    text = console.get(f"/console/t/{T}/judge").text
    assert 'id="table-3"' not in text and 'id="table-4"' not in text
    assert f'href="/console/t/{T}/judge?all=1">Show the 2 tables without a report' in text
    every = console.get(f"/console/t/{T}/judge?all=1").text
    order = [every.index(f'id="table-{n}"') for n in (1, 3, 4, 2)]
    assert order == sorted(order)
    assert "Show only disputes and reports waiting for confirmation" in every


def test_the_judge_page_is_headed_with_the_events_name(sign_in: Signer, handler: Handler) -> None:
    judge_event(handler)
    text = sign_in("judge").get(f"/console/t/{T}/judge").text
    assert f'<a href="/console/t/{T}"><bdi>Store Showdown</bdi></a>' in text
    assert "<title>Judge · \u2068Store Showdown\u2069" in text


def test_a_judges_result_settles_the_dispute_and_records_the_reports_it_went_against(
    sign_in: Signer, handler: Handler
) -> None:
    seqs = judge_event(handler)
    console = sign_in("judge")
    form = {"round": "1", "player_0": "p1", "player_1": "p2", "games_0": "2", "games_1": "1",
            "draws": "0", "back": f"/console/t/{T}/judge"}  # fmt: skip
    answer = console.post(f"/console/t/{T}/judge/result", data=form)
    assert answer.status_code == 303 and "ok=" in answer.headers["location"]
    last = handler.store.load(T)[-1]
    assert isinstance(last.event, ResultReported) and last.event.actor.role == "judge"
    assert [d.seq for d in last.event.disputed or ()] == [seqs["disputed"] - 1, seqs["disputed"]]
    page = console.get(answer.headers["location"])
    assert "table 1: judge&#39;s result recorded" in page.text
    assert 'id="table-1"' not in page.text and "0 disputed" in page.text


def test_a_result_the_ruleset_does_not_take_is_refused_with_its_line(
    sign_in: Signer, handler: Handler
) -> None:
    judge_event(handler)
    before = len(handler.store.load(T))
    form = {"round": "1", "player_0": "p1", "player_1": "p2", "games_0": "7", "games_1": "0"}
    answer = sign_in("judge").post(f"/console/t/{T}/judge/result", data=form)
    assert "error=" in answer.headers["location"]
    assert len(handler.store.load(T)) == before


def test_a_reader_sees_the_queue_without_forms_and_is_refused_if_it_posts(
    sign_in: Signer, handler: Handler
) -> None:
    console, text = reader_sees(sign_in, handler, "/judge")
    assert said("Ada Lovelace", "0 – 2", "Ben Kenobi", "Ben Kenobi") in text
    assert "Settle the dispute" not in text and "Issue penalty" not in text
    before = len(handler.store.load(T))
    form = {"round": "1", "player_0": "p1", "player_1": "p2", "games_0": "2", "games_1": "0"}
    answer = console.post(f"/console/t/{T}/judge/result", data=form)
    assert refusal(answer) == "a reader may not send report_result"
    answer = console.post(
        f"/console/t/{T}/judge/penalty",
        data={"player": "p1", "round": "1", "penalty": "warning", "infraction": "Tardiness"},
    )
    assert refusal(answer) == "a reader may not send issue_penalty"
    assert len(handler.store.load(T)) == before


def test_a_judge_grants_time_and_issues_a_penalty(sign_in: Signer, handler: Handler) -> None:
    judge_event(handler)
    console = sign_in("judge")
    answer = console.post(
        f"/console/t/{T}/judge/extension",
        data={"round": "1", "match": "p5 p6", "minutes": "5", "reason": "judge call"},
    )
    assert "ok=time+extension" in answer.headers["location"].replace("%20", "+")
    answer = console.post(
        f"/console/t/{T}/judge/penalty",
        data={
            "player": "p5",
            "round": "1",
            "penalty": "warning",
            "infraction": "Tardiness",
            "back": f"/console/t/{T}/players/p5",
        },
    )
    assert answer.headers["location"].startswith(f"/console/t/{T}/players/p5?ok=penalty")
    kinds = [r.event.type for r in handler.store.load(T)[-2:]]
    assert kinds == ["time_extension_granted", "penalty_issued"]


LIST_TEXT = ("Leader\n1 Luke Skywalker | Faithful Friend\nBase\n1 Echo Base\nDeck\n"
             + "".join(f"2 Card {i}\n" for i in range(24)) + "3 Card 99\n")  # fmt: skip


def deck_check(console: TestClient, presented: str) -> str:
    """Ada's deck check before game 1 with ``presented`` pasted; where the console answers."""
    form = {"player": "p1", "round": "1", "timing": "before_game_1", "outcome": "legal",
            "minutes": "4", "presented": presented}  # fmt: skip
    answer = console.post(f"/console/t/{T}/judge/deck-check", data=form)
    assert answer.status_code == 303
    return unquote(answer.headers["location"])


def test_a_deck_check_names_its_differences_from_the_presented_list(
    sign_in: Signer, handler: Handler
) -> None:
    judge_event(handler)
    location = deck_check(sign_in("judge"), LIST_TEXT)
    assert "differs from the locked list: deck missing 1, deck extra 1" in location, location
    assert "deck_check_recorded" in [r.event.type for r in handler.store.load(T)[-2:]]


def test_a_presented_list_that_does_not_read_is_refused_naming_the_line(
    sign_in: Signer, handler: Handler
) -> None:
    judge_event(handler)
    before = len(handler.store.load(T))
    location = deck_check(sign_in("judge"), "Leader\nnonsense here\n")
    assert "error=presented list: line 2" in location, location
    assert len(handler.store.load(T)) == before


def test_the_queue_is_a_read_model_of_the_read_side(handler: Handler) -> None:
    judge_event(handler)
    from commands.reads.auditmodels import JudgeQueue
    from commands.reads.cache import Query

    queue = ReadSide(handler.folds).get(T, Query("queue")).model
    assert isinstance(queue, JudgeQueue)
    assert [(t.table, t.state) for t in queue.tables] == [
        (1, "disputed"),
        (3, "missing"),
        (4, "missing"),
        (2, "unconfirmed"),
    ]
    assert [r.actor for r in queue.tables[0].reports] == ["p1", "p2"]
    assert all(r.at is not None for r in queue.tables[0].reports)
