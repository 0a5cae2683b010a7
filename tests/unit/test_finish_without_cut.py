"""The finish of an event whose rules or options call for a top cut (swu-1.4 §4.1.2 and
the rulesets' tables): refused while the cut is not made, unless the organizer gives the
reason for finishing without it, which the finish records; ``without_cut`` where no cut
is owed is refused. The lifecycle says the same as the decider. Given/when/then."""

from __future__ import annotations

import pytest

from commands.errors import InvalidCommand, RuleViolation, WrongPhase
from ledger.events import TournamentFinished
from projections.lifecycle import lifecycle
from tests.builders import Given, create, pair, register, report, start
from tests.unit.discipline_steps import AT, T, then

WON = {"games": [2, 0], "draws": 0}


def finish(without_cut: str | None = None) -> dict[str, object]:
    body: dict[str, object] = {"type": "finish_tournament", "tournament": T}
    return body if without_cut is None else {**body, "without_cut": without_cut}


def swiss_played(**options: object) -> Given:
    """Four players, the one Swiss round played."""
    return Given(create(rounds=1, **options), *register("p1", "p2", "p3", "p4"),
                 pair(["p1", "p2"], ["p3", "p4"]), start(),
                 report(1, "p1", "p2", **WON), report(1, "p3", "p4", **WON))  # fmt: skip


def test_a_finish_is_refused_while_the_cut_the_options_call_for_is_not_made() -> None:
    given = swiss_played(cut=2)
    with pytest.raises(RuleViolation) as refused:
        given.when(finish())
    assert str(refused.value) == (
        "this event calls for a top 2 cut (swu-1.4, 4 players) and it was not made: make "
        "the cut first, or finish without it giving a reason (without_cut)"
    )
    steps = lifecycle(given.state)
    assert not steps.finish.allowed and steps.finish_without_cut.allowed


def test_a_finish_without_the_cut_records_the_organizers_reason() -> None:
    then(swiss_played(cut=2).when(finish("the venue closed at 22:00")),
         TournamentFinished(**AT, without_cut="the venue closed at 22:00"))  # fmt: skip


def test_after_the_cut_the_finish_waits_for_the_champion_and_refuses_without_cut() -> None:
    given = swiss_played(cut=2)
    given.apply({"type": "make_cut", "tournament": T})
    with pytest.raises(WrongPhase, match="the bracket has no champion yet"):
        given.when(finish("no time"))
    given.apply({"type": "pair_round", "tournament": T})
    given.apply(start())
    given.apply(report(2, "p1", "p3", **WON))
    with pytest.raises(InvalidCommand, match="without_cut is for an event whose cut was not "
                                             "made"):  # fmt: skip
        given.when(finish("no time"))
    then(given.when(finish()), TournamentFinished(**AT))


def test_an_event_with_no_cut_owed_finishes_plainly_and_refuses_without_cut() -> None:
    given = swiss_played()  # swu-1.4 §4.5: four players, no top cut
    then(given.when(finish()), TournamentFinished(**AT))
    with pytest.raises(InvalidCommand, match="this one has none to make"):
        given.when(finish("no time"))


def test_without_cut_takes_a_reason_of_one_line() -> None:
    with pytest.raises(InvalidCommand, match="without_cut"):
        swiss_played(cut=2).when(finish(""))
