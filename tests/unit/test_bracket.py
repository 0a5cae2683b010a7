"""Cuts and elimination brackets: single, double, uneven cuts, drops, corrections.

swu-1.4 §4.1.2, swu-1.0 §4.1.2-4, xwing-2.0/armada-2.0 "K.-o.-Runden", lcg-2.1d
"Finalrunden". Events run through the real handler on a memory store.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from itertools import count
from typing import Any

import pytest

from commands.cut import uneven_playoff
from commands.errors import CommandError, RuleViolation, WrongPhase
from commands.handler import Handler
from commands.models import parse_command
from ledger.events import ORGANIZER, CutMade, PairingsRevised
from ledger.url import open_store
from projections.bracket import bracket_size, build
from projections.elimination import ENGINE
from projections.rulesets.base import Record, Scores
from projections.standings import Standing, standings
from projections.state import TournamentState
from tests.plain_views import bracket_view, status_view

T = "t1"


class Event:
    """A tournament driven through the handler with a fixed clock and seeds."""

    def __init__(self, ruleset: str = "swu-1.4", players: int = 8, **options: Any) -> None:
        seeds = count(1)
        self.handler = Handler(open_store(f"memory://{uuid.uuid4().hex}"),
                               clock=lambda: datetime(2026, 5, 1, tzinfo=UTC),
                               seeds=lambda: next(seeds))  # fmt: skip
        self.ruleset = ruleset
        self.do(type="create_tournament", name="Cut", ruleset=ruleset, options=options)
        self.players = [f"p{i:02d}" for i in range(1, players + 1)]
        for p in self.players:
            self.do(type="register_player", player=p)

    def do(self, **command: Any) -> Any:
        return self.handler.handle(parse_command({"tournament": T, **command}))

    @property
    def state(self) -> TournamentState:
        return self.handler.folds.state(T)

    def win(self, a: str, b: str, rnd: int, winner: str) -> None:
        """Report ``winner`` beating the other player, in the ruleset's shape."""
        loser = b if winner == a else a
        result: dict[str, Any] = {
            "swu-1.4": {"games": [2, 0], "draws": 0}, "swu-1.0": {"games": [2, 0], "draws": 0},
            "xwing-2.0": {"points": [100, 20]}, "armada-2.0": {"points": [300, 20]},
            "lcg-2.1d": {"game_results": [winner] * (1 if self.state.cut else 2)},
        }[self.ruleset]  # fmt: skip
        self.do(type="report_result", round=rnd, players=[winner, loser], result=result)

    def swiss_in_order(self, rounds: int = 1) -> None:
        """Swiss rounds in which the lower player number always wins (p01 best)."""
        for _ in range(rounds):
            self.do(type="pair_round", seed=1)
            self.do(type="start_round")
            rnd = self.state.current
            assert rnd is not None
            for m in rnd.matches:
                if len(m.players) == 2:
                    self.win(*m.players, rnd.number, winner=min(m.players))

    def play_round(self, pick: Any = min) -> list[tuple[str, ...]]:
        """Pair and play the next elimination round; ``pick`` chooses each winner."""
        self.do(type="pair_round")
        self.do(type="start_round")
        rnd = self.state.current
        assert rnd is not None and rnd.stage == "elimination"
        for m in rnd.matches:
            if len(m.players) == 2:
                self.win(*m.players, rnd.number, winner=pick(m.players))
        return [m.players for m in rnd.matches]

    def play_out(self, pick: Any = min) -> list[list[tuple[str, ...]]]:
        rounds = []
        while True:
            try:
                rounds.append(self.play_round(pick))
            except WrongPhase as exc:
                assert "bracket is complete" in str(exc)
                return rounds

    def seeds(self) -> list[str]:
        assert self.state.cut is not None
        return list(self.state.cut.seeds)


def cut_event(size: int, ruleset: str = "swu-1.4", **options: Any) -> Event:
    event = Event(ruleset, players=max(size * 2, 4), rounds=2, **options)
    event.swiss_in_order(2)
    event.do(type="make_cut", size=size)
    return event


@pytest.mark.parametrize("size", [4, 8, 16, 32, 64])
def test_single_elimination_pairs_1_v_n_and_keeps_seeds_apart_swu14_4_1_2(size: int) -> None:
    event = cut_event(size)
    seeds = event.seeds()
    rank = {p: i for i, p in enumerate(seeds, start=1)}
    rounds = event.play_out(pick=lambda ps: min(ps, key=rank.get))
    assert len(rounds) == size.bit_length() - 1
    for played in rounds:  # with the better seed always winning, r pairs i v M+1-i
        remaining = len(played) * 2
        assert sorted(tuple(sorted(rank[p] for p in m)) for m in played) == [
            (i, remaining + 1 - i) for i in range(1, remaining // 2 + 1)
        ]
    final = standings(event.state)
    assert final[0].player == seeds[0] and final[1].player == seeds[1]
    assert {s.player for s in final[2:4]} == set(seeds[2:4])  # semi-finalists by Swiss rank
    assert [s.player for s in final[2:4]] == sorted(seeds[2:4], key=rank.get)


@pytest.mark.parametrize("size", [4, 8, 16, 32, 64])
def test_double_elimination_has_a_lower_bracket_and_a_grand_final_lcg_finalrunden(
    size: int,
) -> None:
    event = cut_event(size, "lcg-2.1d")
    seeds = event.seeds()
    rank = {p: i for i, p in enumerate(seeds, start=1)}
    rounds = event.play_out(pick=lambda ps: min(ps, key=rank.get))
    matches = [m for r in rounds for m in r if len(m) == 2]
    assert len(matches) == 2 * size - 2  # every player but the champion loses twice; no reset
    view = bracket_view(event.state)
    lower = [tuple(m["players"]) for r in view["rounds"] for m in r["matches"]
             if m["bracket"] == "lower"]  # fmt: skip
    assert len(lower) == size - 2
    met_before = {frozenset(m) for m in matches if m not in lower}
    assert all(frozenset(m) not in met_before for m in lower[: len(lower) // 2])
    assert standings(event.state)[0].player == seeds[0]


def test_grand_final_reset_when_the_upper_bracket_player_loses_swu10_4_1_4() -> None:
    event = cut_event(4, "lcg-2.1d")
    seeds = event.seeds()
    rank = {p: i for i, p in enumerate(seeds, start=1)}

    def pick(players: tuple[str, ...]) -> str:
        best = min(players, key=rank.get)
        in_final = any(m.slot == "GF1" for m in event.state.current.matches)  # type: ignore[union-attr]
        return max(players, key=rank.get) if in_final else best

    rounds = event.play_out(pick)
    slots = [m.slot for r in event.state.rounds for m in r.matches if r.stage == "elimination"]
    assert "GF1" in slots and "GF2" in slots
    assert len([m for r in rounds for m in r if len(m) == 2]) == 2 * 4 - 1


@pytest.mark.parametrize(
    ("size", "tied", "expected"),
    [
        (16, range(14, 20), [(14, 19), (15, 18), (16, 17)]),  # swu-1.0 §4.1.2 example
        (16, range(15, 20), [(14, 19), (15, 18), (16, 17)]),  # 14th still plays
        (6, range(5, 9), [(5, 8), (6, 7)]),
        (12, range(12, 14), [(12, 13)]),
        (12, range(9, 13), []),  # the tied players end at the line: no playoff
        (4, range(1, 7), [(3, 6), (4, 5)]),  # six tied for four places: the best two are in
    ],
)
def test_uneven_cut_plays_off_the_tied_players_at_the_line_swu10_4_1_2(
    size: int, tied: range, expected: list[tuple[int, int]]
) -> None:
    def row(rank: int) -> Standing:
        wins = 3 if rank in tied else (4 if rank < min(tied) else 2)
        record = Record(wins, 5 - wins, 0)
        return Standing(rank, f"r{rank}", Scores(wins, record, {}, (wins,)), False)

    ranked = [row(r) for r in range(1, 25)]
    pairs = uneven_playoff(ranked, size)
    assert [(int(a[1:]), int(b[1:])) for a, b in pairs] == expected


def test_uneven_cut_winner_takes_the_better_seed_swu10_4_1_2() -> None:
    cut = CutMade(
        tournament=T, at=datetime(2026, 5, 1, tzinfo=UTC), actor=ORGANIZER, size=6,
        seeds=("a", "b", "c", "d", "e", "f"), playoff=(("e", "h"), ("f", "g")),
    )  # fmt: skip
    nodes = {n.id: n for n in build(cut, list(cut.seeds))}
    assert bracket_size(6) == 8
    assert nodes["P1"].sources[0].ref == "e" and nodes["P1"].sources[1].ref == "h"
    # seed 5's place (e's) is the winner of P1; bracket round 1 waits for the playoff
    sources = [s for n in nodes.values() if n.id.startswith("U1") for s in n.sources]
    assert any(s.kind == "winner" and s.ref == "P1" for s in sources)
    assert all(n.after == ("P1", "P2") for n in nodes.values() if n.id.startswith("U1"))


def test_uneven_cut_runs_end_to_end_swu10_4_1_2() -> None:
    event = Event("swu-1.0", players=12, rounds=1)
    event.swiss_in_order(1)
    event.do(type="make_cut", size=4)
    cut = event.state.cut
    assert cut is not None and len(cut.playoff) == 2  # six tied on 1-0 for four places
    playoff = event.play_round()
    assert {frozenset(m) for m in playoff} == {frozenset(p) for p in cut.playoff}
    rest = event.play_out()
    assert standings(event.state)[0].player in cut.seeds
    assert rest


def test_a_drop_mid_bracket_gives_the_next_opponent_a_bye_swu14_4_1_2() -> None:
    event = cut_event(8)
    seeds = event.seeds()
    event.play_round()
    event.do(type="drop_player", player=seeds[0])
    second = event.play_round()
    assert (seeds[0],) not in second
    assert any(len(m) == 1 for m in second)  # the dropped player's next opponent: a bye


def test_a_drop_during_an_elimination_match_records_it_as_lost() -> None:
    event = cut_event(4)
    seeds = event.seeds()
    event.do(type="pair_round")
    event.do(type="start_round")
    event.do(type="drop_player", player=seeds[0])
    [top] = [
        m for m in bracket_view(event.state)["rounds"][0]["matches"] if seeds[0] in m["players"]
    ]
    assert top["winner"] == seeds[3]


def test_a_qualified_player_who_drops_before_the_first_game_is_replaced_xwing_ko() -> None:
    event = cut_event(4, "xwing-2.0")
    seeds = event.seeds()
    ranked = [s.player for s in standings(event.state)]
    event.do(type="drop_player", player=seeds[1])
    first = event.play_round()
    players = {p for m in first for p in m}
    assert seeds[1] not in players and ranked[4] in players
    assert (seeds[0], ranked[4]) in first or (ranked[4], seeds[0]) in first  # lowest seed


def test_an_event_that_starts_with_elimination_gives_random_byes_xwing_ko() -> None:
    event = Event("xwing-2.0", players=6)
    event.do(type="make_cut")
    cut = event.state.cut
    assert cut is not None and cut.order == "random" and sorted(cut.seeds) == event.players
    first = event.play_round()
    assert sorted(len(m) for m in first) == [1, 1, 2, 2]
    tables = [m for m in event.state.current.matches]  # type: ignore[union-attr]
    games = [m for m in tables if len(m.players) == 2]
    assert [m.table for m in games] == [1, 2]
    second = event.play_round()
    assert len(second) == 2


def test_correcting_an_elimination_result_before_the_next_match_moves_the_bracket() -> None:
    event = cut_event(4)
    seeds = event.seeds()
    first = event.play_round()
    event.do(type="pair_round")  # the final, paired but not started
    winner_table = next(m for m in first if seeds[0] in m)
    outcome = event.do(type="correct_result", round=event.state.current.number - 1,  # type: ignore[union-attr]
                       players=list(winner_table), result={"games": [0, 2], "draws": 0},
                       reason="slip")  # fmt: skip
    kinds = [r.event.type for r in outcome.recorded]
    assert kinds == ["result_corrected", "pairings_revised"]
    revision = outcome.recorded[-1].event
    assert isinstance(revision, PairingsRevised) and revision.engine == ENGINE
    final = event.state.current.matches[0].players  # type: ignore[union-attr]
    assert seeds[0] not in final and seeds[3] in final


def test_a_correction_that_turns_a_bye_into_a_match_gives_it_a_table_swu14_5_8_2() -> None:
    """The semi-final winner dropped, so the final was published as a bye; the corrected
    winner is still in, so the final becomes a match on the next free table."""
    event = cut_event(4)
    seeds = event.seeds()
    first = event.play_round()
    event.do(type="drop_player", player=seeds[0])
    event.do(type="pair_round")
    final = event.state.current
    assert final is not None and [m.players for m in final.matches] == [(seeds[1],)]
    table = next(m for m in first if seeds[0] in m)
    outcome = event.do(type="correct_result", round=final.number - 1, players=list(table),
                       result={"games": [0, 2], "draws": 0}, reason="slip")  # fmt: skip
    revision = outcome.recorded[-1].event
    assert isinstance(revision, PairingsRevised)
    assert [(t.table, t.players) for t in revision.replaced] == [(None, (seeds[1],))]
    assert [(t.table, set(t.players)) for t in revision.tables] == [(1, {seeds[1], seeds[3]})]


def test_correcting_an_elimination_result_after_the_next_match_began_lets_it_stand() -> None:
    event = cut_event(4)
    seeds = event.seeds()
    first = event.play_round()
    event.do(type="pair_round")
    event.do(type="start_round")
    published = event.state.current.matches[0].players  # type: ignore[union-attr]
    table = next(m for m in first if seeds[0] in m)
    final = event.state.current
    assert final is not None
    outcome = event.do(type="correct_result", round=final.number - 1, players=list(table),
                       result={"games": [0, 2], "draws": 0}, reason="slip")  # fmt: skip
    [corrected] = outcome.recorded
    assert corrected.event.timing == "next_round_started"  # type: ignore[union-attr]
    assert event.state.current.matches[0].players == published  # type: ignore[union-attr]


def test_make_cut_rules() -> None:
    event = Event(players=8, rounds=2)
    event.swiss_in_order(1)
    with pytest.raises(WrongPhase, match="1 of 2 Swiss rounds"):
        event.do(type="make_cut", size=4)
    event = Event(players=8, rounds=1)
    event.swiss_in_order(1)
    with pytest.raises(RuleViolation, match="no top cut"):
        event.do(type="make_cut")
    with pytest.raises(RuleViolation, match="needs 16 active players"):
        event.do(type="make_cut", size=16)
    event.do(type="make_cut", size=4)
    assert status_view(event.state)["stage"] == "cut"
    with pytest.raises(WrongPhase, match="made already"):
        event.do(type="make_cut", size=4)
    with pytest.raises(CommandError, match="paired from the bracket"):
        event.do(type="pair_round", pairings=[["p01", "p02"]])


def test_bracket_view_has_the_contract_shape() -> None:
    event = cut_event(4)
    event.play_round()
    view = bracket_view(event.state)
    assert view["format"] == "single"
    [rnd] = view["rounds"]
    assert set(rnd) == {"round", "matches"}
    assert set(rnd["matches"][0]) == {"table", "players", "bracket", "winner"}
    assert rnd["matches"][0]["bracket"] == "upper" and rnd["matches"][0]["winner"] is not None


def test_finish_is_refused_while_the_bracket_has_no_champion_swu14_4_1_2() -> None:
    event = cut_event(4)
    with pytest.raises(WrongPhase, match="the bracket has no champion yet"):
        event.do(type="finish_tournament")
    event.play_round()  # the semifinals
    with pytest.raises(WrongPhase, match="no champion yet"):
        event.do(type="finish_tournament")
    event.play_out()
    [finished] = event.do(type="finish_tournament").recorded
    assert finished.event.type == "tournament_finished"
    assert status_view(event.state)["stage"] == "finished"
