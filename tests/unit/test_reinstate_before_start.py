"""A drop made in error and undone before its round started: the loss recorded at the
drop is withdrawn with the reinstatement and the player plays at their table; once the
round has started, the loss stands (it was the official's fact, correct it if the match
was played). Given/when/then."""

from __future__ import annotations

from commands.reads.history import player_history
from ledger.events import AutomaticResultWithdrawn, PlayerDropped, PlayerReinstated
from projections.pairing import eligible_players
from tests.builders import Given, create, pair, register, start
from tests.unit.discipline_steps import AT, T, drop, forfeit, games, match, records, then

REASON = "dropped the wrong player"


def reinstate(player: str) -> dict[str, object]:
    return {"type": "reinstate_player", "tournament": T, "player": player, "reason": REASON}


def paired_not_started() -> Given:
    """Four players, round 1 paired (p1 v p2, p3 v p4) and not started."""
    return Given(create(), *register("p1", "p2", "p3", "p4"), pair(["p1", "p2"], ["p3", "p4"]))


def test_a_drop_before_the_round_starts_records_the_automatic_loss() -> None:
    then(paired_not_started().when(drop("p1")),
         PlayerDropped(**AT, player="p1"), forfeit("p1", "p2", games(0, 2), "dropped"))  # fmt: skip


def test_reinstating_before_the_round_starts_withdraws_the_automatic_loss() -> None:
    given = paired_not_started()
    given.apply(drop("p1"))
    then(given.when(reinstate("p1")),
         PlayerReinstated(**AT, player="p1", reason=REASON),
         AutomaticResultWithdrawn(**AT, round=1, players=("p1", "p2"), player="p1",
                                  reason=REASON))  # fmt: skip


def test_the_reinstated_player_is_back_at_their_table_with_no_result() -> None:
    given = paired_not_started()
    given.apply(drop("p1"))
    given.apply(reinstate("p1"))
    table = match(given, 1, "p1", "p2")
    assert table.status == "pending" and table.result is None and table.reports == []
    assert records(given)["p2"] == (0, 0, 0) and records(given)["p1"] == (0, 0, 0)
    assert not given.state.players["p1"].dropped and given.state.players["p1"].missed == []
    history = player_history(given.state, "p1", {})
    assert history.reinstated_in_rounds == [1] and not history.dropped
    given.apply(start())
    given.apply({"type": "report_result", "tournament": T, "round": 1, "players": ["p1", "p2"],
                 "result": {"games": [2, 1], "draws": 0}})  # fmt: skip
    assert records(given)["p1"] == (1, 0, 0)


def test_once_the_round_has_started_the_loss_stands() -> None:
    given = paired_not_started()
    given.apply(start())
    given.apply(drop("p1"))
    then(given.when(reinstate("p1")), PlayerReinstated(**AT, player="p1", reason=REASON))
    given.apply(reinstate("p1"))
    assert match(given, 1, "p1", "p2").status == "confirmed"
    assert "p1" in eligible_players(given.state)


def test_a_drop_between_rounds_has_no_loss_to_withdraw() -> None:
    given = Given(create(), *register("p1", "p2", "p3", "p4"))
    given.apply(drop("p1"))
    then(given.when(reinstate("p1")), PlayerReinstated(**AT, player="p1", reason=REASON))


def test_a_corrected_loss_or_an_opponent_gone_too_is_left_as_it_stands() -> None:
    """The withdrawal undoes only what the drop recorded: a correction since is the
    organizer's own decision, and a table whose opponent left too has no one to play."""
    corrected = paired_not_started()
    corrected.apply(drop("p1"))
    corrected.apply({"type": "correct_result", "tournament": T, "round": 1,
                     "players": ["p1", "p2"], "result": {"games": [1, 2], "draws": 0},
                     "reason": "they played"})  # fmt: skip
    then(corrected.when(reinstate("p1")), PlayerReinstated(**AT, player="p1", reason=REASON))
    both = paired_not_started()
    both.apply(drop("p1"))
    both.apply(drop("p2"))
    then(both.when(reinstate("p1")), PlayerReinstated(**AT, player="p1", reason=REASON))
