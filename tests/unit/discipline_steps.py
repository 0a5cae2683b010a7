"""Given/when/then steps shared by the discipline tests: a running round, the commands
of drops, penalties, deck checks and time extensions, and ``then``, which compares a
command's events exactly except for ``at`` (the builders' clock)."""

from __future__ import annotations

from typing import Any

from ledger.events import (
    ORGANIZER,
    Actor,
    EventBase,
    MatchResult,
    PenaltyIssued,
    ResultCorrected,
    ResultReported,
    RoundPaired,
    Table,
)
from projections.standings import standings
from tests.builders import T0, Given, create, pair, recorded, register, start

T = "t1"
AT: dict[str, Any] = {"tournament": T, "at": T0, "actor": ORGANIZER}
JUDGE = Actor(role="judge", id="j1")
TWO_TABLES = (["p1", "p2"], ["p3", "p4"])


# builders --------------------------------------------------------------------
def running(*tables: list[str], rules: str = "swu-1.4", **options: Any) -> Given:
    """Players registered, round 1 paired as given (default p1 v p2, p3 v p4) and started."""
    tables = tables or TWO_TABLES
    players = [p for table in tables for p in table]
    return Given(create(ruleset=rules, **options), *register(*players), pair(*tables), start())


def drop(player: str, **extra: Any) -> dict[str, Any]:
    return {"type": "drop_player", "tournament": T, "player": player, **extra}


def rejoin(player: str) -> dict[str, Any]:
    return {"type": "rejoin_player", "tournament": T, "player": player}


def disqualify(player: str, reason: str = "cheating") -> dict[str, Any]:
    return {"type": "disqualify_player", "tournament": T, "player": player, "reason": reason}


def penalty(
    player: str, rnd: int, kind: str, infraction: str = "marked cards", **extra: Any
) -> dict[str, Any]:
    return {"type": "issue_penalty", "tournament": T, "player": player, "round": rnd,
            "penalty": kind, "infraction": infraction, **extra}  # fmt: skip


def deck_check(
    player: str, rnd: int, timing: str, outcome: str = "legal", minutes: int = 6
) -> dict[str, Any]:
    return {"type": "record_deck_check", "tournament": T, "player": player, "round": rnd,
            "timing": timing, "outcome": outcome, "minutes": minutes}  # fmt: skip


def extend(rnd: int, a: str, b: str, minutes: int, reason: str | None = None) -> dict[str, Any]:
    return {"type": "grant_time_extension", "tournament": T, "round": rnd, "players": [a, b],
            "minutes": minutes, "reason": reason}  # fmt: skip


def as_actor(command: dict[str, Any], role: str, actor_id: str) -> dict[str, Any]:
    return {**command, "actor": {"role": role, "id": actor_id}}


def auto_pair(seed: int = 3) -> dict[str, Any]:
    return {"type": "pair_round", "tournament": T, "seed": seed}


def append_events(given: Given, *events: EventBase) -> None:
    """Literal events after the commands (for facts no command can make yet, e.g. a cut)."""
    given.log += recorded(list(events), start=len(given.log) + 1, prev=given.log[-1].event.hash)


def elimination_round(number: int, *tables: tuple[str, str]) -> RoundPaired:
    pairings = tuple(Table(table=i, players=t) for i, t in enumerate(tables, start=1))
    return RoundPaired(**AT, round=number, stage="elimination", method="manual",
                       pairings=pairings)  # fmt: skip


def games(a: int, b: int, draws: int = 0) -> MatchResult:
    return MatchResult(games=(a, b), draws=draws)


def dump(event: EventBase) -> dict[str, Any]:
    return event.model_dump(mode="json", exclude={"at"})


def then(events: list[EventBase], *expected: EventBase) -> None:
    """The command's events are exactly ``expected`` and share one timestamp."""
    assert [dump(e) for e in events] == [dump(e) for e in expected]
    assert len({e.at for e in events}) <= 1


def match(given: Given, rnd: int, a: str, b: str) -> Any:
    found = given.state.round(rnd).match_of(a, b)  # type: ignore[union-attr]
    assert found is not None
    return found


def points(given: Given) -> dict[str, float]:
    return {s.player: s.scores.points for s in standings(given.state)}


def records(given: Given) -> dict[str, tuple[int, int, int]]:
    return {
        s.player: (s.scores.record.wins, s.scores.record.losses, s.scores.record.draws)
        for s in standings(given.state)
    }


def forfeit(a: str, b: str, result: MatchResult, reason: str, rnd: int = 1) -> ResultReported:
    return ResultReported(**AT, round=rnd, players=(a, b), result=result, reason=reason)


def issued(player: str, rnd: int, kind: str, infraction: str = "marked cards",
           points: float | None = None) -> PenaltyIssued:  # fmt: skip
    return PenaltyIssued(**AT, player=player, round=rnd, penalty=kind, infraction=infraction,
                         points=points)  # fmt: skip


def corrected(a: str, b: str, new: MatchResult, previous: MatchResult, reason: str,
              timing: str = "next_round_unpaired", rnd: int = 1) -> ResultCorrected:  # fmt: skip
    return ResultCorrected(**AT, round=rnd, players=(a, b), result=new, previous=previous,
                           reason=reason, timing=timing)  # fmt: skip
