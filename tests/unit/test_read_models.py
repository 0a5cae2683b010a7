"""The typed read models (commands/reads/models.py, views.py and history.py).

Their JSON is the contract: byte for byte what the plain-dict views gave before the
models existed. ``Before`` below is those views as they were (commands/reads/views.py
at 2fa9946), kept here as the oracle; every golden log and the swiss8 example are
compared at every seq.
"""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from functools import cache
from itertools import count
from pathlib import Path
from typing import Any

import orjson
import pytest

from commands.errors import WrongPhase
from commands.handler import Handler
from commands.models import parse_command
from commands.reads import views
from commands.reads.history import player_history
from commands.reads.models import ReadModel
from ledger.store import PlayerEntry, Recorded
from ledger.url import open_store
from projections.bracket import resolve
from projections.schedule import cut_size, players_present, rounds_planned
from projections.standings import ruleset_of, standings, swiss_standings
from projections.state import Match, TournamentState, fold
from tests.builders import Given, create, pair, register, report, start

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = sorted((ROOT / "tests" / "fixtures" / "logs").glob("*/*.sqlite3"))
SWISS8 = ROOT / "examples" / "swiss8.jsonl"
WON: dict[str, Any] = {"games": [2, 0], "draws": 0}


class Before:
    """The contract's views as they were: plain dicts built from the fold."""

    @staticmethod
    def number(value: float) -> int | float:
        return int(value) if float(value).is_integer() else value

    @staticmethod
    def status(state: TournamentState) -> dict[str, Any]:
        present, current = players_present(state), state.current
        return {
            "tournament": state.id, "ruleset": state.ruleset, "options": state.options,
            "stage": state.stage, "round": current.number if current else 0,
            "round_state": current.state if current else None,
            "rounds_planned": rounds_planned(state), "cut_size": cut_size(state),
            "players": len(state.players), "active_players": len(state.active_players),
            "seq": state.seq, "position": state.position, "head": state.head,
            "deck_checks": {"checked": len(state.deck_checks),
                            "target": max(1, present // 10) if present else 0},
        }  # fmt: skip

    @staticmethod
    def standings(state: TournamentState, names: Mapping[str, PlayerEntry]) -> dict[str, Any]:
        n = Before.number
        rows = [
            {"rank": s.rank, "player": s.player,
             "name": names[s.player].name if s.player in names else "(erased)",
             "points": n(s.scores.points),
             "record": {"wins": s.scores.record.wins, "losses": s.scores.record.losses,
                        "draws": s.scores.record.draws},
             "dropped": s.dropped,
             "tiebreakers": {k: n(v) for k, v in s.scores.tiebreakers.items()}}
            for s in standings(state)
        ]  # fmt: skip
        return {"tournament": state.id, "ruleset": state.ruleset, "seq": state.seq,
                "head": state.head, "standings": rows}  # fmt: skip

    @staticmethod
    def table(match: Match) -> dict[str, Any]:
        view: dict[str, Any] = {"table": match.table, "players": list(match.players)}
        for key in ("light", "chooses_side"):
            if getattr(match, key):
                view[key] = getattr(match, key)
        return view

    @staticmethod
    def pairings(state: TournamentState, number: int | None = None) -> dict[str, Any]:
        rnd = state.round(number) if number else state.current
        return {"round": rnd.number if rnd else number or 0,
                "stage": rnd.stage if rnd else state.stage, "seq": state.seq,
                "head": state.head,
                "pairings": [Before.table(m) for m in (rnd.matches if rnd else [])]}  # fmt: skip

    @staticmethod
    def bracket(state: TournamentState) -> dict[str, Any]:
        if state.cut is None:
            return {"format": None, "rounds": []}
        swiss = [s.player for s in swiss_standings(state)]
        resolved = resolve(state, ruleset_of(state), swiss).resolved
        rounds = [
            {"round": rnd.number, "matches": [
                {"table": m.table, "players": list(m.players), "bracket": m.bracket,
                 "winner": resolved[m.slot].winner if m.slot in resolved else None}
                for m in rnd.matches]}
            for rnd in state.rounds if rnd.stage == "elimination"
        ]  # fmt: skip
        return {"format": state.cut.format, "rounds": rounds}

    @staticmethod
    def log(tournament: str, events: Sequence[Recorded]) -> dict[str, Any]:
        return {"tournament": tournament, "events": [r.as_json() for r in events]}


def ticking() -> Any:
    """A clock that moves one minute per command (time is an input)."""
    minutes = count()
    return lambda: datetime(2026, 3, 1, 9, tzinfo=UTC) + timedelta(minutes=next(minutes))


@cache
def swiss8_store() -> tuple[Any, str]:
    handler = Handler(open_store(f"memory://{uuid.uuid4().hex}"), clock=ticking(), seeds=lambda: 8)
    for line in SWISS8.read_text(encoding="utf-8").splitlines():
        if line.strip():
            handler.handle(parse_command(orjson.loads(line)))
    return handler.store, "swiss8"


def golden_store(path: Path, tmp_path: Path) -> tuple[Any, str]:
    copy = tmp_path / "golden.sqlite3"
    shutil.copyfile(path, copy)
    store = open_store(f"sqlite:///{copy}")
    return store, store.tournaments()[0]


def assert_same_bytes(old: dict[str, Any], new: ReadModel, what: str) -> None:
    assert views.json_bytes(new) == orjson.dumps(old), what


def assert_models_match_the_reference(store: Any, tournament: str) -> None:
    events, entries = store.load(tournament), store.players(tournament)
    names = views.registered_names(entries)
    for seq in range(1, len(events) + 1):
        state, at = fold(events[:seq]), f"{tournament} at seq {seq}"
        assert_same_bytes(Before.standings(state, entries), views.standings(state, names), at)
        assert_same_bytes(Before.bracket(state), views.bracket(state, names), at)
        assert_same_bytes(Before.pairings(state), views.pairings(state, None, names), at)
        for rnd in state.rounds:
            assert_same_bytes(Before.pairings(state, rnd.number),
                              views.pairings(state, rnd.number, names), at)  # fmt: skip
        assert_same_bytes(Before.log(tournament, events[:seq]),
                          views.log_page(tournament, events[:seq]), at)  # fmt: skip
        status = views.json_of(views.status(state))
        assert list(status)[: len(Before.status(state))] == list(Before.status(state))
        assert {k: status[k] for k in Before.status(state)} == Before.status(state), at


@pytest.mark.parametrize("path", GOLDEN, ids=[f"{p.parent.name}/{p.stem}" for p in GOLDEN])
def test_every_golden_log_reads_byte_for_byte_as_before_at_every_seq(
    path: Path, tmp_path: Path
) -> None:
    assert_models_match_the_reference(*golden_store(path, tmp_path))


def test_the_swiss8_example_reads_byte_for_byte_as_before_at_every_seq() -> None:
    assert_models_match_the_reference(*swiss8_store())


def test_status_only_adds_the_tables_and_the_champion_after_the_old_fields() -> None:
    state = fold(swiss8_store()[0].load("swiss8"))
    status = views.json_of(views.status(state))
    assert list(status)[-1] == "tables" and "champion" not in status
    assert [t["state"] for t in status["tables"]] == ["confirmed"] * 4


def round_one(*commands: dict[str, Any]) -> TournamentState:
    """p1-p2, p3-p4, p5-p6, p7-p8 paired and started, p9 on a bye; then ``commands``."""
    tables = (["p1", "p2"], ["p3", "p4"], ["p5", "p6"], ["p7", "p8"], ["p9"])
    players = [f"p{n}" for n in range(1, 10)]
    return Given(create(), *register(*players), pair(*tables), start(), *commands).state


def self_report(a: str, b: str, by: str, **result: Any) -> dict[str, Any]:
    return {**report(1, a, b, **result), "actor": {"role": "player", "id": by}}


def test_each_table_of_the_round_says_where_its_result_stands() -> None:
    state = round_one(
        self_report("p3", "p4", "p3", **WON),
        self_report("p5", "p6", "p5", **WON), self_report("p5", "p6", "p6", **WON),
        self_report("p7", "p8", "p7", **WON), self_report("p7", "p8", "p8", games=[0, 2], draws=0),
    )  # fmt: skip
    tables = {t.table: (t.players, t.state) for t in views.status(state).tables}
    assert tables == {
        1: (["p1", "p2"], "missing"), 2: (["p3", "p4"], "unconfirmed"),
        3: (["p5", "p6"], "confirmed"), 4: (["p7", "p8"], "disputed"), None: (["p9"], "confirmed"),
    }  # fmt: skip


def test_outstanding_lists_only_the_tables_still_waiting_and_counts_every_state() -> None:
    state = round_one(report(1, "p1", "p2", **WON), self_report("p3", "p4", "p4", **WON))
    queue = views.outstanding(state)
    assert queue.counts == {"missing": 2, "unconfirmed": 1, "disputed": 0, "confirmed": 2}
    assert [(t.table, t.state) for t in queue.tables] == [
        (2, "unconfirmed"), (3, "missing"), (4, "missing")]  # fmt: skip


def test_a_round_that_was_never_paired_is_refused_not_shown_empty() -> None:
    with pytest.raises(WrongPhase, match="round 2 is not paired"):
        views.pairings(round_one(), 2)


def test_an_erased_player_shows_as_erased_in_every_model_that_names_players() -> None:
    state = round_one(report(1, "p1", "p2", **WON))
    names = {f"p{n}": f"Player {n}" for n in range(2, 10)}  # p1's entry was erased
    rows = {r.player: r.name for r in views.standings(state, names).standings}
    assert rows["p1"] == "(erased)" and rows["p2"] == "Player 2"
    assert views.pairings(state, 1, names).names["p1"] == "(erased)"
    assert player_history(state, "p2", names).matches[0].opponent_name == "(erased)"
    assert player_history(state, "p1", names).name == "(erased)"


def test_a_players_history_turns_each_result_to_the_players_side() -> None:
    state = round_one(
        report(1, "p1", "p2", games=[2, 1], draws=0),
        {"type": "issue_penalty", "tournament": "t1", "player": "p2", "round": 1,
         "penalty": "warning", "infraction": "slow play"},
        {"type": "record_deck_check", "tournament": "t1", "player": "p2", "round": 1,
         "timing": "after_match", "outcome": "legal", "minutes": 5},
        {"type": "drop_player", "tournament": "t1", "player": "p2"},
    )  # fmt: skip
    history = player_history(state, "p2", {"p1": "Ada", "p2": "Bail"})
    match = history.matches[0]
    assert (match.round, match.table, match.opponent, match.opponent_name) == (1, 1, "p1", "Ada")
    assert (match.state, match.result) == ("confirmed", {"games": [1, 2], "draws": 0})
    assert [(p.penalty, p.infraction) for p in history.penalties] == [("warning", "slow play")]
    assert [(d.outcome, d.minutes) for d in history.deck_checks] == [("legal", 5)]
    assert history.dropped and history.dropped_after_round == 1


def test_a_player_on_a_bye_has_a_confirmed_match_without_opponent() -> None:
    match = player_history(round_one(), "p9", {}).matches[0]
    assert (match.table, match.opponent, match.state, match.result) == (None, None, "confirmed",
                                                                        None)  # fmt: skip


def test_a_history_of_an_unknown_player_is_not_found() -> None:
    with pytest.raises(views.PlayerNotFound) as raised:
        player_history(round_one(), "p99", {})
    assert raised.value.http_status == 404


def test_a_log_page_says_where_the_next_page_starts_only_when_more_follow() -> None:
    events = swiss8_store()[0].load("swiss8")
    assert views.json_of(views.log_page("swiss8", events[:5], 5))["next_after_seq"] == 5
    assert "next_after_seq" not in views.json_of(views.log_page("swiss8", events[:5]))


def test_the_models_are_frozen_so_a_cached_model_cannot_change() -> None:
    status = views.status(round_one())
    with pytest.raises(ValueError, match="frozen"):
        status.seq = 99  # type: ignore[misc]
