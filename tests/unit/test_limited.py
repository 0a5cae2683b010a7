"""SWU limited events (swu-1.4 §2.3.2, swu-1.0 §2.3.2): draft pods, the
deck-building phase, and Twin Suns refused; given events, when a command, then events."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from commands.decide import decide
from commands.errors import CommandError, InvalidCommand, RuleViolation, WrongPhase
from commands.models import parse_command
from commands.reads.views import json_of, status
from ledger.events import (
    ORGANIZER,
    DeckBuildingStarted,
    ListSubmitted,
    PlayerRegistered,
    PodsAssigned,
    RoundPaired,
    TournamentCreated,
)
from ledger.store import Recorded
from tests.builders import T0, Given, create, drop, pair, recorded, register, start

PLAYERS = tuple(f"p{i}" for i in range(1, 12))


def pods(t: str = "t1", **extra: Any) -> dict[str, Any]:
    return {"type": "assign_pods", "tournament": t, **extra}


def deckbuild(**extra: Any) -> dict[str, Any]:
    return {"type": "start_deck_building", "tournament": "t1", **extra}


def draft(*players: str, ruleset: str = "swu-1.4") -> Given:
    return Given(create(ruleset=ruleset, deck_format="draft"), *register(*(players or PLAYERS)))


def seated(event: PodsAssigned) -> list[str]:
    return [p for pod in event.pods for p in pod.players]


# Twin Suns: refused (swu-1.4 §2.3.1.2, §4.2 note) ------------------------------------------


@pytest.mark.parametrize("ruleset", ["swu-1.4", "swu-1.0"])
@pytest.mark.parametrize(
    "options", [{"format": "twin-suns"}, {"deck_format": "twin_suns"}, {"format": "Twin Suns"}]
)
def test_twin_suns_is_refused_at_creation_citing_swu_2_3_1_2_as_input_that_does_not_fit(
    ruleset: str, options: dict[str, Any]
) -> None:
    with pytest.raises(InvalidCommand) as refused:
        Given().when(create(ruleset=ruleset, **options))
    message = str(refused.value)
    assert message.startswith("create_tournament: Twin Suns is a multiplayer format")
    assert f"({ruleset} §2.3.1.2, §4.2 note)" in message
    assert "a document these regulations do not contain" in message and "\n" not in message
    assert refused.value.exit_code == 2  # as every option value a ruleset does not take


def test_switching_an_event_to_twin_suns_is_refused_too() -> None:
    g = Given(create(), *register("p1", "p2"))
    with pytest.raises(InvalidCommand, match=r"^change_options: Twin Suns is a multiplayer"):
        g.when({"type": "change_options", "tournament": "t1",
                "options": {"deck_format": "twin_suns"}})  # fmt: skip


def test_another_game_has_no_twin_suns_and_gets_the_usual_unknown_option_answer() -> None:
    with pytest.raises(InvalidCommand) as refused:
        Given().when(create(ruleset="xwing-2.0", format="twin-suns"))
    assert "Twin Suns" not in str(refused.value) and "no option 'format'" in str(refused.value)


def stored_twin_suns() -> Given:
    """A Twin Suns event stored before the refusal: events are facts, it still folds."""
    base: dict[str, Any] = {"tournament": "t1", "at": T0, "actor": ORGANIZER}
    g = Given()
    g.log = recorded([
        TournamentCreated(**base, name="Old", ruleset="swu-1.4", seed=1,
                          options={"deck_format": "twin_suns", "format": "bo3",
                                   "tier": "competitive", "compat": None}),
        *(PlayerRegistered(**base, player=p) for p in ("p1", "p2", "p3", "p4")),
    ])  # fmt: skip
    return g


def test_a_stored_twin_suns_event_folds_and_its_lists_follow_the_twin_suns_rules() -> None:
    g = stored_twin_suns()
    assert g.state.options["deck_format"] == "twin_suns" and len(g.state.players) == 4
    [event] = g.when({"type": "submit_list", "tournament": "t1", "player": "p1", "list": {
        "leader": "Han Solo | Worth the Risk", "base": "Echo Base",
        "deck": [{"card": f"Card {i}", "count": 1} for i in range(50)]}})  # fmt: skip
    assert isinstance(event, ListSubmitted)
    assert [(v.rule, v.section) for v in event.violations] == [("leaders", "swu-1.4 §2.3.1.2")]


def test_a_stored_twin_suns_event_is_not_paired_head_to_head() -> None:
    with pytest.raises(RuleViolation, match=r"Twin Suns is a multiplayer format \(swu-1.4"):
        stored_twin_suns().when(pair(["p1", "p2"], ["p3", "p4"]))


# draft pods (swu-1.4 §2.3.2.1) ---------------------------------------------------------------


def test_pods_seat_every_active_player_once_at_random_from_the_seed_given() -> None:
    g = draft()
    g.apply(drop("p11")[0])
    [event] = g.when(pods(pod_size=5, seed=42))
    assert isinstance(event, PodsAssigned) and (event.seed, event.pod_size) == (42, 5)
    assert sorted(seated(event)) == sorted(PLAYERS[:10])  # p11 dropped: no seat
    assert [(p.pod, len(p.players)) for p in event.pods] == [(1, 5), (2, 5)]
    assert event.pods == g.when(pods(pod_size=5, seed=42))[0].pods  # type: ignore[attr-defined]
    assert seated(event) != sorted(seated(event))  # shuffled, not registration order


def test_pods_default_to_eight_per_pod_and_a_seed_chosen_and_recorded() -> None:
    """swu-1.4 §2.3.2.1: "8 Spieler pro Gruppe werden empfohlen"."""
    g = draft(*(f"p{i}" for i in range(1, 17)))
    [event] = g.when(pods())
    assert isinstance(event, PodsAssigned)
    assert (event.pod_size, event.seed) == (8, g.seed) and [len(p.players) for p in event.pods] \
        == [8, 8]  # fmt: skip


def test_the_organizer_may_make_pods_larger_or_smaller_swu_2_3_2_1() -> None:
    g = draft()
    [one] = g.when(pods(pod_size=12, seed=1))
    [three] = g.when(pods(pod_size=4, seed=1))
    assert isinstance(one, PodsAssigned) and isinstance(three, PodsAssigned)
    assert [len(p.players) for p in one.pods] == [11]
    assert [len(p.players) for p in three.pods] == [4, 4, 3]


@pytest.mark.parametrize("fmt", ["premier", "sealed"])
def test_pods_are_for_draft_events_only_swu_2_3_2_1(fmt: str) -> None:
    g = Given(create(deck_format=fmt), *register("p1", "p2"))
    with pytest.raises(RuleViolation, match=rf"draft event \(swu-1.4 §2.3.2.1\); its deck_format "
                                            rf"is {fmt}"):  # fmt: skip
        g.when(pods())


def test_another_game_has_no_draft_pods() -> None:
    g = Given(create(ruleset="xwing-2.0"), *register("p1", "p2"))
    with pytest.raises(RuleViolation, match=r"\(swu-1.4 §2.3.2.1\); it runs xwing-2.0"):
        g.when(pods())


def test_pods_are_assigned_again_until_deck_building_starts_and_the_last_counts() -> None:
    g = draft("p1", "p2", "p3", "p4")
    g.apply(pods(seed=1))
    g.apply(register("p5")[0])  # a late registration
    g.apply(pods(seed=2, reason="p5 registered late"))
    assert g.state.pods is not None and sorted(seated(g.state.pods)) == ["p1", "p2", "p3", "p4",
                                                                          "p5"]  # fmt: skip
    assert g.state.pods_seq == len(g.log)
    g.apply(deckbuild())
    with pytest.raises(WrongPhase, match=r"^assign_pods: deck building started at 10:\d\d UTC"):
        g.when(pods(seed=3))


def test_pods_are_refused_once_round_1_is_paired() -> None:
    g = draft("p1", "p2", "p3", "p4")
    g.apply(pair(["p1", "p2"], ["p3", "p4"]))
    with pytest.raises(WrongPhase, match=r"^assign_pods: round 1 is paired \(stage swiss\)"):
        g.when(pods())


def test_a_pod_needs_two_players() -> None:
    with pytest.raises(RuleViolation, match=r"at least 2 players; 1 active"):
        draft("p1").when(pods())


@pytest.mark.parametrize("kind", [pods(), deckbuild()])
def test_only_the_organizer_seats_pods_and_starts_deck_building(kind: dict[str, Any]) -> None:
    g = draft("p1", "p2")
    with pytest.raises(RuleViolation, match=r"a judge may not .* \(only organizer\)"):
        g.when({**kind, "actor": {"role": "judge", "id": "AK"}})


def test_swiss_round_1_of_a_draft_ignores_the_pods_as_the_document_is_silent() -> None:
    with_pods, without = draft(), draft()
    with_pods.apply(pods(pod_size=4, seed=9))
    with_pods.apply(deckbuild())
    paired = [with_pods.when({"type": "pair_round", "tournament": "t1", "seed": 5}),
              without.when({"type": "pair_round", "tournament": "t1", "seed": 5})]  # fmt: skip
    first, second = (e[0] for e in paired)
    assert isinstance(first, RoundPaired) and isinstance(second, RoundPaired)
    assert first.pairings == second.pairings


# deck building (swu-1.4 §2.3.2) ----------------------------------------------------------------


def test_deck_building_lasts_the_documents_30_minutes_and_status_shows_its_end() -> None:
    """swu-1.4 §2.3.2: "Die Spieler haben 30 Minuten Zeit, ihr Deck zu bauen"."""
    g = Given(create(deck_format="sealed"), *register("p1", "p2"))
    assert "deck_building" not in json_of(status(g.state))
    [event] = g.apply(deckbuild())
    assert isinstance(event, DeckBuildingStarted) and event.minutes == 30
    shown = status(g.state).deck_building
    assert shown is not None and shown.started_at == event.at
    assert shown.ends_at == event.at + timedelta(minutes=30)
    assert json_of(status(g.state))["deck_building"] == {
        "started_at": event.at.isoformat().replace("+00:00", "Z"),
        "ends_at": (event.at + timedelta(minutes=30)).isoformat().replace("+00:00", "Z"),
        "minutes": 30}  # fmt: skip


def test_the_organizer_may_give_deck_building_another_length() -> None:
    [event] = Given(create(deck_format="sealed")).when(deckbuild(minutes=45))
    assert isinstance(event, DeckBuildingStarted) and event.minutes == 45


@pytest.mark.parametrize("fmt", [None, "premier"])
def test_constructed_events_have_no_deck_building_phase_swu_2_3_1(fmt: str | None) -> None:
    g = Given(create(**({"deck_format": fmt} if fmt else {})))
    with pytest.raises(RuleViolation, match=r"draft and sealed only \(swu-1.4 §2.3.2\); its "
                                            r"deck_format is premier"):  # fmt: skip
        g.when(deckbuild())


def test_a_draft_builds_decks_only_after_its_pods_are_assigned() -> None:
    g = draft("p1", "p2", "p3")
    with pytest.raises(WrongPhase, match=r"assign_pods first \(swu-1.4 §2.3.2.1\)"):
        g.when(deckbuild())
    g.apply(pods(seed=1))
    g.apply(register("p4")[0])
    with pytest.raises(RuleViolation, match=r"p4 has no seat in a pod .*assign_pods again"):
        g.when(deckbuild())


def test_deck_building_starts_once_and_before_round_1() -> None:
    g = Given(create(ruleset="swu-1.0", deck_format="sealed"), *register("p1", "p2"))
    g.apply(deckbuild(minutes=30))
    with pytest.raises(WrongPhase, match=r"started already at 10:\d\d UTC \(until 10:\d\d UTC\)"):
        g.when(deckbuild())
    late = Given(create(deck_format="sealed"), *register("p1", "p2"))
    late.apply(pair(["p1", "p2"]))
    late.apply(start())
    with pytest.raises(WrongPhase, match=r"round 1 is paired .*\(swu-1.4 §2.3.2\)"):
        late.when(deckbuild())


@pytest.mark.parametrize(
    "command",
    [
        pods(pod_size=1),
        pods(pod_size="eight"),
        deckbuild(minutes=0),
        deckbuild(minutes=181),
        pods(seats=3),
    ],
)
def test_malformed_limited_commands_are_input_that_does_not_fit(command: dict[str, Any]) -> None:
    with pytest.raises(InvalidCommand):
        parse_command(command)


def test_a_refused_limited_command_appends_nothing() -> None:
    g = draft("p1", "p2")
    before = len(g.log)
    with pytest.raises(CommandError):
        g.apply(deckbuild())
    assert len(g.log) == before
    assert decide(g.state, parse_command(pods(seed=1)), now=T0, seed=1)  # still decidable


def test_verify_draws_the_pods_again_from_their_seed_and_names_a_forged_seating() -> None:
    """Like a pairing, a pods_assigned records its seed so that an auditor re-derives it."""
    from replay.verify import check_pairings

    g = draft("p1", "p2", "p3", "p4", "p5")
    g.apply(pods(pod_size=2, seed=11))
    [check] = check_pairings(g.log)
    assert (check.kind, check.round, check.ok, check.detail) == ("pods", 0, True, "")
    assigned = g.log[-1].event
    assert isinstance(assigned, PodsAssigned)
    forged = assigned.model_copy(update={"pods": tuple(reversed(assigned.pods))})
    last = g.log[-1]
    [bad] = check_pairings([*g.log[:-1], Recorded(last.seq, last.position, forged)])
    assert not bad.ok and bad.detail.startswith("the draw from seed 11 would seat")
