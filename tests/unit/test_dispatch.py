"""Exhaustive dispatch: every command and event of the unions is wired into
decide, evolve and the role table, and every ruleset describes its own tiebreakers, so
that a new one fails a test (or mypy) instead of a lookup at run time."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from typing import Any, get_args

import pytest
from rich.console import Console

from commands.cli import grids
from commands.decide import decide
from commands.errors import CommandError
from commands.models import COMMAND_CLASSES, COMMAND_TYPES, Command, CommandBase, parse_command
from commands.reads.models import Standings
from commands.roles import SENDERS, SENDERS_OF
from ledger.events import (
    ORGANIZER,
    AutomaticResultWithdrawn,
    CutMade,
    DeckBuildingStarted,
    DeckCheckRecorded,
    DisputedReport,
    Event,
    EventBase,
    ListCorrected,
    ListsLocked,
    ListSubmitted,
    MatchResult,
    OptionsChanged,
    PairingsRevised,
    PenaltyIssued,
    PlayerDisqualified,
    PlayerDropped,
    PlayerRegistered,
    PlayerReinstated,
    PlayerRejoined,
    Pod,
    PodsAssigned,
    RegistrationWithdrawn,
    ResultCorrected,
    ResultReported,
    RoundPaired,
    RoundStarted,
    Table,
    TeamRegistered,
    TimeExtensionGranted,
    TournamentCreated,
    TournamentFinished,
    TournamentReopened,
)
from ledger.list_events import ViolationCount
from projections.rulesets import RULESETS, Outcome, ruleset
from projections.state import TournamentState
from tests.builders import Given, create, state_of

AT = datetime(2026, 1, 10, 10, 0, tzinfo=UTC)
EVENT_CLASSES: tuple[type[EventBase], ...] = get_args(get_args(Event)[0])

#: One well-formed command of every type (the test below fails until a new type has one).
SAMPLES: dict[str, dict[str, Any]] = {
    "create_tournament": {"name": "Again", "ruleset": "swu-1.4"},
    "register_player": {"player": "p9", "name": "Nine"},
    "register_team": {"team": "x9", "name": "Nine", "members": [{"player": "m1", "name": "M"},
                                                                 {"player": "m2"}]},
    "drop_player": {"player": "p1"},
    "rejoin_player": {"player": "p1"},
    "pair_round": {},
    "start_round": {},
    "report_result": {"round": 1, "players": ["p1", "p2"], "result": {"games": [2, 0],
                                                                      "draws": 0}},
    "correct_result": {"round": 1, "players": ["p1", "p2"], "result": {"games": [0, 2],
                                                                       "draws": 0},
                       "reason": "slip filled in reverse"},
    "disqualify_player": {"player": "p1", "reason": "aggressive behaviour"},
    "issue_penalty": {"player": "p1", "round": 1, "penalty": "warning",
                      "infraction": "slow play"},
    "record_deck_check": {"player": "p1", "round": 1, "timing": "after_match",
                          "outcome": "legal", "minutes": 4},
    "grant_time_extension": {"round": 1, "players": ["p1", "p2"], "minutes": 5},
    "make_cut": {"size": 2},
    "finish_tournament": {},
    "reinstate_player": {"player": "p1", "reason": "dropped the wrong player"},
    "reopen_tournament": {"reason": "finished by mistake"},
    "withdraw_registration": {"player": "p1", "reason": "registered twice"},
    "change_options": {"options": {"rounds": 5}},
    "submit_list": {"player": "p1", "list": {"leader": "Vader | Dark Lord", "base": "Echo Base",
                                             "deck": [{"card": "TIE Fighter", "count": 3}]}},
    "lock_lists": {},
    "correct_list": {"player": "p1", "list": {"leader": "Vader | Dark Lord"},
                     "reason": "wrong deck box"},
    "assign_pods": {"pod_size": 8, "seed": 3},
    "start_deck_building": {"minutes": 30},
}  # fmt: skip


def sample(kind: str) -> Command:
    return parse_command({"type": kind, "tournament": "t1", **SAMPLES[kind]})


def command_type(model: type[CommandBase]) -> str:
    return str(get_args(model.model_fields["type"].annotation)[0])


# the unions ----------------------------------------------------------------------


def test_every_command_model_is_in_the_command_union() -> None:
    assert set(CommandBase.__subclasses__()) == set(COMMAND_CLASSES)
    assert tuple(command_type(c) for c in COMMAND_CLASSES) == COMMAND_TYPES


def test_every_event_model_is_in_the_event_union() -> None:
    assert set(EventBase.__subclasses__()) == set(EVENT_CLASSES)


def test_every_command_type_has_a_sample_here() -> None:
    assert set(SAMPLES) == set(COMMAND_TYPES)


# decide --------------------------------------------------------------------------

STATES = {
    "fresh": lambda: TournamentState(),
    "created": lambda: Given(create()).state,
    "finished": lambda: Given(create(), {"type": "finish_tournament", "tournament": "t1"}).state,
}


@pytest.mark.parametrize("state_name", list(STATES))
@pytest.mark.parametrize("kind", COMMAND_TYPES)
def test_decide_answers_every_command_type_with_events_or_a_named_error(
    kind: str, state_name: str
) -> None:
    state = STATES[state_name]()
    try:
        events = decide(state, sample(kind), now=AT, seed=1)
    except CommandError:
        return
    assert events and all(isinstance(e, EVENT_CLASSES) for e in events)


def test_every_command_type_reaches_its_own_decider_once_the_tournament_exists() -> None:
    """Past the common checks, no command falls through the dispatch (assert_never)."""
    for kind in COMMAND_TYPES:
        try:
            decide(Given(create()).state, sample(kind), now=AT, seed=1)
        except CommandError as exc:
            assert "unknown tournament" not in str(exc)


# evolve --------------------------------------------------------------------------


def one_of_each_event() -> list[EventBase]:
    base: dict[str, Any] = {"tournament": "t1", "at": AT, "actor": ORGANIZER}
    won, lost = MatchResult(games=(2, 0), draws=0), MatchResult(games=(0, 2), draws=0)
    tables_1 = (Table(table=1, players=("p1", "p2")), Table(table=2, players=("p3", "p4")))
    return [
        TournamentCreated(**base, name="All", ruleset="swu-1.4", options={}, seed=1),
        *(PlayerRegistered(**base, player=p) for p in ("p1", "p2", "p3", "p4", "p5", "p6")),
        RegistrationWithdrawn(**base, player="p6", reason="registered twice"),
        OptionsChanged(**base, options={"rounds": 3}, effective={"rounds": 3}),
        PlayerDropped(**base, player="p5"),
        PlayerReinstated(**base, player="p5", reason="dropped the wrong player"),
        PlayerDropped(**base, player="p5"),
        PlayerRejoined(**base, player="p5"),
        PlayerDropped(**base, player="p5"),
        ListSubmitted(**base, player="p1", list_hash="h1",
                      violations=(ViolationCount(rule="base", section="swu-1.4 §2.3.1.1",
                                                 count=1),)),
        ListsLocked(**base, missing=("p2",)),
        ListCorrected(**base, player="p1", list_hash="h2",
                      previous_hash="h1", reason="wrong box"),
        PodsAssigned(**base, pod_size=8, seed=3, engine="tledger-pods-1",
                     pods=(Pod(pod=1, players=("p1", "p2", "p3", "p4")),)),
        DeckBuildingStarted(**base, minutes=30),
        RoundPaired(**base, round=1, method="manual", pairings=tables_1),
        PairingsRevised(**base, round=1, seed=1, engine="test", reason="a test",
                        replaced=(tables_1[1],), tables=(Table(table=2, players=("p4", "p3")),)),
        AutomaticResultWithdrawn(**base, round=1, players=("p4", "p3"), player="p3",
                                 reason="dropped the wrong player"),
        RoundStarted(**base, round=1),
        TimeExtensionGranted(**base, round=1, players=("p1", "p2"), minutes=5),
        DeckCheckRecorded(**base, player="p1", round=1, timing="after_match", outcome="legal",
                          minutes=3),
        ResultReported(**base, round=1, players=("p1", "p2"), result=won),
        ResultReported(**{**base, "actor": {"role": "player", "id": "p3"}}, round=1,
                       players=("p3", "p4"), result=lost),
        ResultReported(**base, round=1, players=("p3", "p4"), result=won,
                       disputed=(DisputedReport(seq=13, player="p3", result=lost),)),
        ResultCorrected(**base, round=1, players=("p1", "p2"), result=lost, previous=won,
                        timing="next_round_unpaired"),
        PenaltyIssued(**base, player="p3", round=1, penalty="warning", infraction="slow play"),
        PlayerDisqualified(**base, player="p4", reason="aggressive behaviour"),
        TeamRegistered(**base, team="x9", members=("m1", "m2")),
        CutMade(**base, size=2, seeds=("p2", "p3")),
        TournamentFinished(**base, without_cut="the venue closed"),
        TournamentReopened(**base, reason="finished by mistake"),
        TournamentFinished(**base),
    ]  # fmt: skip


def test_the_sample_log_holds_every_event_type() -> None:
    assert {type(e) for e in one_of_each_event()} == set(EVENT_CLASSES)


def test_evolve_applies_every_event_type() -> None:
    state = state_of(one_of_each_event())
    assert state.seq == len(one_of_each_event())
    match = state.rounds[0].match_of("p1", "p2")
    assert match is not None and match.status == "confirmed" and match.extension_minutes == 5
    assert match.result == MatchResult(games=(0, 2), draws=0)
    assert state.rounds[0].match_of("p3", "p4") is not None
    assert state.players["p5"].dropped and state.players["p4"].disqualified
    assert [p.infraction for p in state.players["p3"].penalties] == ["slow play"]
    assert len(state.deck_checks) == 1 and state.cut is not None and state.finished
    assert "p6" not in state.players and state.options == {"rounds": 3}
    assert state.players["p5"].reinstated == [1]
    assert state.lists_locked and state.lists["p1"].violations == ()  # the correction's
    assert state.lists["p1"].corrected and state.lists["p1"].hash == "h2"
    assert state.pods is not None and state.pods.pods[0].players == ("p1", "p2", "p3", "p4")
    assert state.deck_building is not None and state.deck_building.minutes == 30


# the role table ------------------------------------------------------------------


def test_the_role_table_names_exactly_the_command_models() -> None:
    assert set(SENDERS_OF) == set(COMMAND_CLASSES)
    assert set(SENDERS) == set(COMMAND_TYPES)


def test_the_organizer_may_send_every_command_and_a_reader_none() -> None:
    assert all("organizer" in roles for roles in SENDERS.values())
    assert not any("reader" in roles for roles in SENDERS.values())


def test_players_report_results_and_submit_lists_and_scorekeepers_only_report() -> None:
    sent = {role: {kind for kind, roles in SENDERS.items() if role in roles}
            for role in ("player", "scorekeeper")}  # fmt: skip
    assert sent == {"player": {"report_result", "submit_list"}, "scorekeeper": {"report_result"}}


def test_judges_may_report_correct_penalize_check_extend_and_disqualify() -> None:
    judged = {kind for kind, roles in SENDERS.items() if "judge" in roles}
    assert judged == {"report_result", "correct_result", "issue_penalty", "record_deck_check",
                      "grant_time_extension", "disqualify_player", "correct_list"}  # fmt: skip


# tiebreakers -----------------------------------------------------------------------


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_every_ruleset_labels_its_tiebreakers_apart_and_cites_its_own_sections(
    ruleset_id: str,
) -> None:
    rules = ruleset(ruleset_id)
    assert len({t.label for t in rules.tiebreakers}) == len(rules.tiebreakers)
    assert all(t.section.startswith(f"{ruleset_id} ") for t in rules.tiebreakers)


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_every_ruleset_scores_exactly_the_tiebreakers_it_describes(ruleset_id: str) -> None:
    a = Outcome("b", "win", 3, games_won=2, mov=10)
    b = Outcome("a", "loss", 0, games_lost=2, mov=-10)
    scores = ruleset(ruleset_id).scores({"a": [a], "b": [b]})
    assert all(tuple(s.tiebreakers) == ruleset(ruleset_id).tiebreaker_keys
               for s in scores.values())  # fmt: skip


def printed(show: Any, view: Standings) -> str:
    out = io.StringIO()
    original = grids.console
    grids.console = Console(file=out, width=200)
    try:
        show(view)
    finally:
        grids.console = original
    return out.getvalue()


def standings(ruleset_id: str, tiebreakers: dict[str, float]) -> Standings:
    row = {
        "rank": 1,
        "player": "p1",
        "name": "Ada",
        "points": 3,
        "dropped": False,
        "record": {"wins": 1, "losses": 0, "draws": 0},
        "tiebreakers": tiebreakers,
    }
    return Standings.model_validate(
        {"tournament": "t1", "ruleset": ruleset_id, "seq": 9, "head": "h", "standings": [row]}
    )


def test_standings_tables_show_the_rulesets_labels_and_percentages() -> None:
    text = printed(grids.show_standings,
                   standings("swu-1.4", {"omw": 5 / 9, "gw": 7 / 9, "ogw": 0.5}))  # fmt: skip
    assert "OMW%" in text and "OGW%" in text and "55.56%" in text and "50.00%" in text


def test_standings_tables_show_mov_and_sos_as_numbers() -> None:
    text = printed(grids.show_standings, standings("xwing-2.0", {"mov": 250, "sos": 0.5}))
    assert "MoV" in text and "SoS" in text and "250" in text and "0.5000" in text
    assert "%" not in text
