"""Finding people (commands/reads/people.py): names sorted and searched as people read them,
and a typed player turned into an id (an id wins, a unique name maps to its id, a
shared name is refused naming the ids, anything else is left for decide to refuse)."""

from __future__ import annotations

import pytest

from commands.errors import CommandError, Refused
from commands.reads.people import (
    AmbiguousName,
    folded,
    matches,
    named,
    resolve_player,
    sort_key,
    with_ids,
)
from ledger.store import PlayerEntry


def registry(**names: str) -> dict[str, PlayerEntry]:
    return {p: PlayerEntry("t1", p, name, None) for p, name in names.items()}


def by_name(*rows: tuple[str, str]) -> list[tuple[str, str]]:
    return sorted(rows, key=lambda r: sort_key(r[0], r[1]))


def test_an_accented_name_sorts_with_its_letter() -> None:
    rows = by_name(("Fay", "p1"), ("Élan", "p2"), ("Dana", "p3"), ("Zed", "p4"))
    assert [name for name, _ in rows] == ["Dana", "Élan", "Fay", "Zed"]


def test_case_does_not_move_a_name() -> None:
    rows = by_name(("bail", "p1"), ("Ada", "p2"), ("cody", "p3"), ("Boba", "p4"))
    assert [name for name, _ in rows] == ["Ada", "bail", "Boba", "cody"]


def test_ties_are_broken_by_the_name_as_written_then_by_the_id_as_people_count() -> None:
    rows = by_name(("Anna", "p17"), ("anna", "p9"), ("Anna", "p3"), ("Ánna", "p1"))
    # folded all equal "anna": then the raw name ("Anna" < "anna" < "Ánna"), then the id
    assert rows == [("Anna", "p3"), ("Anna", "p17"), ("anna", "p9"), ("Ánna", "p1")]


def test_folding_removes_marks_and_case_and_decomposes_ligatures() -> None:
    assert folded("Élan") == "elan"
    assert folded("ÅSA ØDEGÅRD") == "asa ødegard"  # Ø is a letter of its own, not a mark
    assert folded("Straße") == "strasse" and folded("ﬁnn") == "finn"
    assert folded("İlkay") == "ilkay"


def test_a_search_is_a_folded_substring_of_the_name_or_the_id() -> None:
    assert matches("elan", "Élan Dorr", "p2") and matches("DORR", "Élan Dorr", "p2")
    assert matches("p1", "Ada", "p17") and not matches("p3", "Ada", "p17")
    assert not matches("bail", "Élan Dorr", "p2")
    assert matches(None, "Ada", "p1") and matches("", "Ada", "p1") and matches("  ", "Ada", "p1")


def test_a_registered_id_wins_over_a_name() -> None:
    entries = registry(p1="p2", p2="Bail")  # p1's name is another player's id
    assert resolve_player(entries, "p2") == "p2"


def test_an_erased_players_id_still_wins_when_the_tournament_knows_it() -> None:
    entries = registry(p2="p1")  # p1 was erased; p2 is named like p1's id
    assert resolve_player(entries, "p1", known={"p1", "p2"}) == "p1"
    assert resolve_player(entries, "p1") == "p2"  # without the tournament's ids: the name


def test_a_unique_name_maps_to_its_id_whatever_its_accents_case_and_spaces() -> None:
    entries = registry(p1="Ada", p2="Élan Dorr")
    assert resolve_player(entries, "élan dorr") == "p2"
    assert resolve_player(entries, " ELAN DORR ") == "p2"
    assert resolve_player(entries, "Élan") == "Élan"  # a whole name, not a part of one


def test_a_name_of_several_players_is_refused_naming_their_ids() -> None:
    entries = registry(p17="Anna Berg", p3="Anna Berg", p4="anna berg", p5="Bail")
    with pytest.raises(AmbiguousName) as raised:
        resolve_player(entries, "Anna Berg")
    assert str(raised.value) == "'Anna Berg' names 3 players: p3, p4, p17; use an id"
    assert raised.value.players == ["p3", "p4", "p17"]
    assert isinstance(raised.value, Refused) and issubclass(AmbiguousName, CommandError)
    assert raised.value.exit_code == 1


def test_an_unknown_text_comes_back_unchanged_for_decide_to_refuse() -> None:
    assert resolve_player(registry(p1="Ada"), "Nobody") == "Nobody"


def test_namesakes_are_found_folded_and_leave_out_the_player_itself() -> None:
    entries = registry(p1="Anna Berg", p2="ANNA BÉRG", p3="Bail")
    assert named(entries, "anna berg") == ["p1", "p2"]
    assert named(entries, "Anna Berg", but="p1") == ["p2"]
    assert named(entries, "Cody") == []


def test_a_commands_player_fields_are_turned_into_ids() -> None:
    entries = registry(p1="Ada", p2="Bail", p3="Cody")
    result = {"games": [1, 1], "draws": 1, "winner": "BAIL", "decided_by": "initiative"}
    data = {"type": "report_result", "tournament": "t1", "round": 1, "players": ["ada", "Bail"],
            "result": result}  # fmt: skip
    assert with_ids(data, entries) == {
        **data, "players": ["p1", "p2"],
        "result": {"games": [1, 1], "draws": 1, "winner": "p2", "decided_by": "initiative"},
    }  # fmt: skip
    assert with_ids({"type": "drop_player", "player": "Cody"}, entries)["player"] == "p3"
    assert data["players"] == ["ada", "Bail"]  # the caller's data is left as it was


def test_values_of_another_type_are_left_for_validation() -> None:
    data = {"type": "drop_player", "player": 7, "players": "Ada", "result": ["Ada"]}
    assert with_ids(data, registry(p1="Ada")) == data
