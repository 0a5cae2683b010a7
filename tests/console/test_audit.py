"""The auditors' console pages: a player's history for escalation, the event's
history filtered and linked to past points, the tournament as known at a seq or a time,
a diff between two points, a player's tiebreakers explained, and verify with the
witnesses pasted from printouts."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote

from fastapi.testclient import TestClient

from commands.handler import Handler
from tests.console.judge_event import T, judge_event, reader_sees, refusal, send

Signer = Callable[..., TestClient]


def test_a_players_page_shows_earlier_penalties_for_escalation(
    sign_in: Signer, handler: Handler
) -> None:
    judge_event(handler)
    send(handler, type="issue_penalty", player="p1", round=1, penalty="warning",
         infraction="Tardiness")  # fmt: skip
    page = sign_in("judge").get(f"/console/t/{T}/players/p1")
    assert page.status_code == 200
    text = page.text
    assert "Ada Lovelace" in text and "Penalties (1)" in text
    assert "Round 1: warning" in text and "Tardiness" in text
    assert (
        "Ben Kenobi" in text and "disputed" in text and "Disqualify <bdi>Ada Lovelace</bdi>" in text
    )


def test_a_judge_disqualifies_from_the_players_page_and_a_reader_cannot(
    sign_in: Signer, handler: Handler
) -> None:
    reader, text = reader_sees(sign_in, handler, "/players/p2")
    assert "Disqualify" not in text
    answer = reader.post(f"/console/t/{T}/players/p2/disqualify", data={"reason": "x"})
    assert refusal(answer) == "a reader may not send disqualify_player"
    judge = sign_in("judge")
    here = f"/console/t/{T}/players/p2"
    answer = judge.post(f"{here}/disqualify", data={"reason": "Cheating", "back": here})
    assert answer.headers["location"].startswith(f"{here}?ok=")
    name = handler.store.players(T)["p2"].name
    assert f"{name}\u2069 disqualified" in unquote(answer.headers["location"])
    assert "Disqualified" in judge.get(f"/console/t/{T}/players/p2").text


def test_the_history_shows_every_event_with_actor_label_and_filters_by_player(
    sign_in: Signer, handler: Handler
) -> None:
    judge_event(handler)
    console = sign_in("judge")
    console.post(
        f"/console/t/{T}/judge/penalty",
        data={"player": "p3", "round": "1", "penalty": "warning", "infraction": "Slow play"},
    )
    page = console.get(f"/console/t/{T}/history")
    assert page.status_code == 200
    assert f'href="/console/t/{T}/audit?as_of=1"' in page.text
    assert "judge:" in page.text and "(<bdi>desk</bdi>)" in page.text  # the token's label
    assert "\u2068Ada Lovelace\u2069 v \u2068Ben Kenobi\u2069" in page.text  # names, not ids
    only = console.get(f"/console/t/{T}/history?player=p3&type=penalty_issued")
    assert "Slow play" in only.text and "register player" not in only.text
    assert "(<bdi>desk</bdi>)" in only.text
    wrong = console.get(f"/console/t/{T}/history?type=nonsense")
    assert "unknown event type" in wrong.text
    nobody = console.get(f"/console/t/{T}/history?player=p99")  # said, not an empty log
    assert nobody.status_code == 200 and "unknown player &#39;p99&#39;" in nobody.text


def test_the_tournament_as_known_at_a_seq_and_at_a_time(sign_in: Signer, handler: Handler) -> None:
    seqs = judge_event(handler)
    console = sign_in("reader")
    page = console.get(f"/console/t/{T}/audit?as_of={seqs['registered']}")
    assert f"As of seq {seqs['registered']}" in page.text and "registration" in page.text
    assert "Round 1 pairings" not in page.text
    now = handler.store.load(T)[-1].event.at.isoformat()
    later = console.get(f"/console/t/{T}/audit", params={"as_of": now})
    assert "Round 1 pairings" in later.text and "disputed" in later.text
    assert "Ada Lovelace" in later.text
    bad = console.get(f"/console/t/{T}/audit?as_of=999")
    assert "past the end of the log" in bad.text


def test_a_diff_shows_standings_moves_by_name(sign_in: Signer, handler: Handler) -> None:
    judge_event(handler)
    before = len(handler.store.load(T))
    console = sign_in("judge")
    console.post(
        f"/console/t/{T}/judge/result",
        data={"round": "1", "player_0": "p1", "player_1": "p2", "games_0": "2", "games_1": "1"},
    )
    page = console.get(f"/console/t/{T}/audit?a={before}&b={before + 1}")
    assert "Standings moves" in page.text and "Ada Lovelace" in page.text
    assert f"Seq {before} → {before + 1}" in page.text
    wrong = console.get(f"/console/t/{T}/audit?a=5&b=3")
    assert "must come before B" in wrong.text


def test_a_players_tiebreakers_are_explained(sign_in: Signer, handler: Handler) -> None:
    judge_event(handler)
    page = sign_in("reader").get(f"/console/t/{T}/audit?explain=p3")
    assert page.status_code == 200
    assert "Cyra Vale" in page.text and "OMW" in page.text and "swu-1.4" in page.text


def test_verify_checks_a_good_and_a_contradicted_witness(sign_in: Signer, handler: Handler) -> None:
    judge_event(handler)
    events = handler.store.load(T)
    good = f"seq 3 {events[2].event.hash}"
    bad = f"seq 4 {events[2].event.hash}"
    page = sign_in("reader").post(f"/console/t/{T}/audit/verify",
                                  data={"witnesses": f"{good}\n{bad}\n"})  # fmt: skip
    text = page.text
    assert page.status_code == 200 and "NOT verified" in text
    assert f"chain of {len(events)} events intact" in text
    assert "witness line 1 (seq 3): ok" in text
    assert "witness line 2 (seq 4): CONTRADICTED" in text and "was the seq copied wrong?" in text


def test_verify_without_witnesses_and_with_a_malformed_one(
    sign_in: Signer, handler: Handler
) -> None:
    judge_event(handler)
    console = sign_in("judge")
    page = console.post(f"/console/t/{T}/audit/verify", data={"witnesses": ""})
    assert ">Verified<" in page.text and "Round 1 (manual" in page.text
    page = console.post(f"/console/t/{T}/audit/verify", data={"witnesses": "seq x abc"})
    assert "witness file pasted line 1" in page.text
