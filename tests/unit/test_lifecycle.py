"""What can happen next (``projections.lifecycle``), stage by stage: given events, then
the steps allowed and, for the others, the sentence their command is refused with."""

from __future__ import annotations

from typing import Any

import pytest

from commands.errors import WrongPhase
from projections.lifecycle import Lifecycle, lifecycle
from tests.builders import Given, create, drop, pair, register, report, start
from tests.unit.test_lcg_teams import ALONE, TIED, played
from tests.unit.test_limited import stored_twin_suns

STEPS = ("pair", "pair_by_hand", "start", "cut", "cut_sized", "finish", "finish_without_cut",
         "assign_pods", "start_deck_building")  # fmt: skip
FOUR = ("p1", "p2", "p3", "p4")
ROUND_1 = (["p1", "p2"], ["p3", "p4"])
ROUND_2 = (["p1", "p3"], ["p2", "p4"])


def then(given: Given, *allowed: str, **refused: str) -> Lifecycle:
    """The steps allowed are exactly ``allowed``; each step in ``refused`` is refused
    with exactly that sentence."""
    steps = lifecycle(given.state)
    assert [s for s in STEPS if getattr(steps, s).allowed] == [s for s in STEPS if s in allowed]
    assert {s: getattr(steps, s).reason for s in refused} == refused
    return steps


def registered(*players: str, **options: Any) -> Given:
    return Given(create(**options), *register(*(players or FOUR)))


def played_round(given: Given, number: int, tables: tuple[list[str], ...]) -> Given:
    """Round ``number`` paired by hand, started and every result confirmed (2-0)."""
    given.apply(pair(*tables))
    given.apply(start())
    for a, b in tables:
        given.apply(report(number, a, b, games=[2, 0], draws=0))
    return given


def swiss_played(**options: Any) -> Given:
    """Four players, both Swiss rounds of swu-1.4 §4.5 (3-4 players: 2 rounds) played."""
    return played_round(played_round(registered(**options), 1, ROUND_1), 2, ROUND_2)


def test_before_round_1_a_round_is_paired_or_the_cut_starts_an_elimination() -> None:
    then(registered(), "pair", "pair_by_hand", "cut", "cut_sized", "finish",
         start="no round is paired yet",
         assign_pods="assign_pods: draft pods are for a draft event (swu-1.4 §2.3.2.1); "
         "its deck_format is premier")  # fmt: skip


def test_a_lone_player_is_not_paired_automatically_nor_cut() -> None:
    then(registered("p1"), "pair_by_hand", "finish",
         pair="1 eligible player(s): a round needs at least two",
         cut="an elimination needs at least two players")  # fmt: skip


def test_a_paired_round_may_only_start() -> None:
    given = registered()
    given.apply(pair(*ROUND_1))
    waiting = "round 1 is not complete: table 1 (missing), table 2 (missing) still need a "
    then(given, "start",
         pair=waiting + "confirmed result before the next round is paired",
         cut="round 1 is not complete",
         finish=waiting + "confirmed result before the tournament is finished")  # fmt: skip


def test_a_round_under_way_allows_nothing_until_every_result_is_confirmed() -> None:
    given = registered()
    given.apply(pair(*ROUND_1))
    given.apply(start())
    given.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    then(given, start="round 1 has started already",
         pair_by_hand="round 1 is not complete: table 2 (missing) still needs a confirmed "
         "result before the next round is paired")  # fmt: skip


def test_a_complete_round_before_the_last_is_followed_by_the_next_or_the_finish() -> None:
    steps = then(played_round(registered(), 1, ROUND_1), "pair", "pair_by_hand", "finish",
                 cut="1 of 2 Swiss rounds are played; cut after the last")  # fmt: skip
    assert steps.pairing == "swiss" and steps.cut.refusal == "wrong_phase"


def test_after_the_last_swiss_round_no_round_is_drawn_and_a_cut_needs_a_size() -> None:
    steps = then(swiss_played(), "pair_by_hand", "cut_sized", "finish",
                 pair="all 2 Swiss rounds are paired",
                 cut="this event has no top cut (swu-1.4, 4 players at round 1); give a size "
                 "to cut anyway")  # fmt: skip
    assert (steps.pair.refusal, steps.cut.refusal) == ("wrong_phase", "rule_violation")


def test_the_deciders_refuse_with_the_lifecycles_sentence() -> None:
    given = swiss_played()
    with pytest.raises(WrongPhase, match=r"^all 2 Swiss rounds are paired$"):
        given.when({"type": "pair_round", "tournament": "t1"})


def test_after_the_last_swiss_round_the_rulesets_cut_is_made_or_the_finish_says_why_not() -> None:
    owed = (
        "this event calls for a top 2 cut (swu-1.4, 4 players) and it was not made: "
        "make the cut first, or finish without it giving a reason (without_cut)"
    )
    then(swiss_played(cut=2), "pair_by_hand", "cut", "cut_sized", "finish_without_cut", finish=owed)


def test_a_cut_larger_than_the_active_players_is_refused_and_one_of_a_size_given_is_not() -> None:
    given = swiss_played(cut=4)
    given.apply(drop("p4")[0])
    then(given, "pair_by_hand", "cut_sized", "finish_without_cut",
         cut="a top 4 cut needs 4 active players; 3 remain")  # fmt: skip


def test_after_the_cut_the_bracket_pairs_and_no_hand_does() -> None:
    given = swiss_played()
    given.apply({"type": "make_cut", "tournament": "t1", "size": 2})
    steps = then(given, "pair",
                 pair_by_hand="pair_round: elimination rounds are paired from the bracket",
                 cut="the cut is made already",
                 finish="the bracket has no champion yet: pair and play the elimination "
                 "rounds (pair_round) before finishing")  # fmt: skip
    assert steps.pairing == "bracket" and steps.pair_by_hand.refusal == "invalid_command"


def test_a_decided_bracket_is_finished() -> None:
    given = swiss_played()
    given.apply({"type": "make_cut", "tournament": "t1", "size": 2})
    [final] = given.apply({"type": "pair_round", "tournament": "t1"})
    a, b = final.pairings[0].players  # type: ignore[attr-defined]
    given.apply(start())
    given.apply(report(3, a, b, games=[2, 1], draws=0))
    then(given, "finish", pair=f"the bracket is complete ({a} won): finish it")


def test_a_finished_tournament_takes_no_step() -> None:
    given = swiss_played()
    given.apply({"type": "finish_tournament", "tournament": "t1"})
    done = "tournament 't1' is finished (reopen_tournament undoes a finish made in error)"
    then(given, **dict.fromkeys(STEPS, done))


# lcg-2.1d team events ("Team-Turniere") ---------------------------------------------------


def test_teams_level_at_the_top_pair_their_final_before_the_finish() -> None:
    steps = then(played(TIED), "pair", "pair_by_hand",
                 finish="A and C are level on points: pair_round pairs their final match "
                 "before the tournament finishes (lcg-2.1d Team-Turniere)")  # fmt: skip
    assert steps.pairing == "final"
    assert steps.cut.reason is not None and steps.cut.reason.startswith(
        "make_cut: a team tournament has no final rounds (lcg-2.1d Team-Turniere: "
    )


def test_a_team_alone_at_the_top_finishes_without_a_final() -> None:
    then(played(ALONE), "pair_by_hand", "finish",
         pair="all 2 Swiss rounds are paired and no team is level with the leader on points: "
         "finish the tournament (lcg-2.1d Team-Turniere: no final round)")  # fmt: skip


# SWU limited events (swu-1.4 §2.3.2) and Twin Suns (§2.3.1.2) ------------------------------


def test_a_draft_assigns_its_pods_then_builds_its_decks() -> None:
    given = registered(deck_format="draft")
    then(given, "pair", "pair_by_hand", "cut", "cut_sized", "finish", "assign_pods",
         start_deck_building="start_deck_building: a draft builds from the cards drafted in "
         "pods: assign_pods first (swu-1.4 §2.3.2.1)")  # fmt: skip
    given.apply({"type": "assign_pods", "tournament": "t1"})
    then(given, "pair", "pair_by_hand", "cut", "cut_sized", "finish", "assign_pods",
         "start_deck_building")  # fmt: skip
    given.apply(register("p5")[0])
    then(given, "pair", "pair_by_hand", "cut", "cut_sized", "finish", "assign_pods",
         start_deck_building="start_deck_building: p5 has no seat in a pod (registered "
         "after the pods were assigned): assign_pods again")  # fmt: skip


def test_a_sealed_event_has_no_pods_and_deck_building_ends_the_steps_before_round_1() -> None:
    given = registered(deck_format="sealed", ruleset="swu-1.0")
    then(given, "pair", "pair_by_hand", "cut", "cut_sized", "finish", "start_deck_building",
         assign_pods="assign_pods: draft pods are for a draft event (swu-1.0 §2.3.2.1); its "
         "deck_format is sealed")  # fmt: skip
    given.apply({"type": "start_deck_building", "tournament": "t1"})
    then(given, "pair", "pair_by_hand", "cut", "cut_sized", "finish",
         start_deck_building="start_deck_building: deck building started already at 10:05 "
         "UTC (until 10:35 UTC)")  # fmt: skip


def test_decks_are_built_before_round_1_and_by_swu_events_only() -> None:
    given = played_round(registered(deck_format="sealed"), 1, ROUND_1)
    assert lifecycle(given.state).start_deck_building.reason == (
        "start_deck_building: round 1 is paired (stage swiss); limited events build their "
        "decks before the first round (swu-1.4 §2.3.2)")  # fmt: skip
    assert lifecycle(registered(ruleset="xwing-2.0").state).start_deck_building.reason == (
        "start_deck_building: decks are built at the event in draft and sealed only "
        "(swu-1.4 §2.3.2); it runs xwing-2.0")  # fmt: skip


def test_a_stored_twin_suns_event_is_never_paired() -> None:
    steps = then(stored_twin_suns(), "cut", "cut_sized", "finish")
    assert steps.pair.refusal == steps.pair_by_hand.refusal == "rule_violation"
    assert steps.pair.reason == ("Twin Suns is a multiplayer format (swu-1.4 §2.3.1.2): this "
                                 "ledger pairs head-to-head matches only")  # fmt: skip
