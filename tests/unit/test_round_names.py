"""Elimination rounds by the names people call them (quarterfinal, semifinal, final, so an
80-column terminal reads like the room talks): the pure naming of bracket slots, and the
bracket read model's names, seeds, results and champion (never in the contract's JSON)."""

from __future__ import annotations

from typing import Any

import pytest

from commands.reads.views import bracket, json_of
from ledger.events import CutMade
from projections.bracket import build
from projections.round_names import players_left_name, round_name, slot_names
from tests.builders import T0
from tests.unit.test_bracket import Event, cut_event


def cut(size: int, fmt: str = "single", playoff: tuple[tuple[str, str], ...] = ()) -> CutMade:
    seeds = tuple(f"s{i}" for i in range(1, size + 1))
    return CutMade(tournament="t", at=T0, actor={"role": "organizer", "id": "local"},
                   size=size, seeds=seeds, playoff=playoff, format=fmt)  # type: ignore[arg-type]  # fmt: skip


def names_by_round(size: int, fmt: str = "single", **terms: str) -> dict[str, set[str]]:
    """Slot names grouped by the slot's part and round ("U1", "L2", "GF")."""
    made = cut(size, fmt)
    named = slot_names(build(made, list(made.seeds)), terms)
    grouped: dict[str, set[str]] = {}
    for slot, name in named.items():
        grouped.setdefault(slot.split("-")[0], set()).add(name)
    return grouped


@pytest.mark.parametrize(
    ("players", "name"),
    [(2, "final"), (4, "semifinal"), (8, "quarterfinal"), (16, "round of 16"), (64, "round of 64")],
)
def test_a_round_is_named_by_the_players_left_in_it(players: int, name: str) -> None:
    assert players_left_name(players) == name


def test_a_top_8_plays_quarterfinals_semifinals_and_a_final() -> None:
    assert names_by_round(8) == {"U1": {"quarterfinal"}, "U2": {"semifinal"}, "U3": {"final"}}


def test_a_top_6_counts_from_the_end_of_its_bracket_of_8() -> None:
    assert names_by_round(6)["U1"] == {"quarterfinal"}


def test_double_elimination_names_upper_and_lower_rounds_and_the_grand_final() -> None:
    named = names_by_round(8, "double")
    assert named["U1"] == {"upper quarterfinal"} and named["U3"] == {"upper final"}
    assert named["L1"] == {"lower round 1"} and named["L4"] == {"lower final"}
    assert named["GF1"] == {"grand final"} and named["GF2"] == {"grand final, deciding match"}


def test_the_regulations_own_words_follow_the_name() -> None:
    named = names_by_round(4, "double", upper="Siegergruppe", grand_final="Final-Begegnung")
    assert named["U1"] == {"upper semifinal (Siegergruppe)"}
    assert named["GF1"] == {"grand final (Final-Begegnung)"}
    assert named["L1"] == {"lower round 1"}  # no word given: the name alone


def test_the_uneven_cut_playoff_comes_before_round_one_swu10_4_1_2() -> None:
    made = cut(4, playoff=(("s4", "s5"),))
    named = slot_names(build(made, list(made.seeds)), {"playoff": "uneven cut"})
    assert named["P1"] == "playoff (uneven cut)" and named["U1-1"] == "semifinal"


def test_a_round_holding_several_parts_joins_their_names_once() -> None:
    assert round_name(["upper semifinal", "upper semifinal", "lower round 1"]) == (
        "upper semifinal / lower round 1"
    )
    assert round_name([""]) == "elimination"


def played_bracket(size: int, ruleset: str = "swu-1.4", **options: Any) -> Any:
    event = cut_event(size, ruleset, **options)
    event.play_out()
    return event, bracket(event.state, {p: p.upper() for p in event.players})


def test_the_bracket_model_names_each_round_of_a_top_8() -> None:
    _, model = played_bracket(8)
    assert [r.name for r in model.rounds] == ["quarterfinal", "semifinal", "final"]
    assert [r.round for r in model.rounds] == [3, 4, 5]


def test_the_bracket_model_names_each_round_of_a_top_4() -> None:
    _, model = played_bracket(4)
    assert [r.name for r in model.rounds] == ["semifinal", "final"]


def test_the_bracket_model_names_double_elimination_with_the_lcg_words() -> None:
    _, model = played_bracket(4, "lcg-2.1d")
    assert model.rounds[0].name == "upper semifinal (Siegergruppe)"
    assert model.rounds[1].name == "upper final (Siegergruppe) / lower round 1 (Verlierergruppe)"
    assert model.rounds[-1].name.startswith("grand final")


def test_the_bracket_model_carries_seeds_results_and_the_champion() -> None:
    event, model = played_bracket(4)
    assert event.state.cut is not None
    assert [(s.seed, s.player) for s in model.seeds] == list(
        enumerate(event.state.cut.seeds, start=1)
    )
    first = model.rounds[0].matches[0]
    assert first.result is not None and first.winner in first.players
    winner_side = first.players.index(first.winner)
    assert first.result["games"][winner_side] == 2
    final = model.rounds[-1].matches[0]
    assert model.champion == final.winner and model.champion is not None
    assert model.names[model.champion] == model.champion.upper()


def test_the_contract_json_of_the_bracket_does_not_change() -> None:
    _, model = played_bracket(4)
    data = json_of(model)
    assert set(data) == {"format", "rounds"}
    assert set(data["rounds"][0]) == {"round", "matches"}
    assert set(data["rounds"][0]["matches"][0]) == {"table", "players", "bracket", "winner"}


def test_seeds_name_the_playoff_of_an_uneven_cut_swu10_4_1_2() -> None:
    event = Event("swu-1.0", players=12, rounds=1)
    event.swiss_in_order(1)
    event.do(type="make_cut", size=4)
    cut_made = event.state.cut
    assert cut_made is not None and len(cut_made.playoff) == 2
    model = bracket(event.state, {})
    playoff = {s.player: s.playoff for s in model.seeds if s.playoff}
    assert playoff == dict(cut_made.playoff)
    event.play_round()
    assert bracket(event.state, {}).rounds[0].name == "playoff (uneven cut)"
