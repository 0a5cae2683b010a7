"""Random Swiss events driven through the real ``decide``, round by round, for the
pairing property tests: a random ruleset, field size (odd and even) and number of
rounds, results with draws, drops and late registrations between rounds, every round
paired automatically with a seed drawn by hypothesis. Each automatic pairing is handed
to a check as an ``Attempt``: the tables (or the refusal) and what the test itself
knew before it, from its own bookkeeping of the log.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from commands.errors import RuleViolation
from ledger.events import RoundPaired
from ledger.store import Recorded
from projections.standings import ruleset_of, standings
from projections.state import TournamentState, evolve
from tests.builders import Given, create, register, report, start
from tests.unit.pairing_oracle import Pairs


class Live(Given):
    """``Given`` deciding on a state evolved event by event, as a long-running handler
    would; the checks compare it with a fresh fold of the log."""

    def __init__(self, *commands: dict[str, Any]) -> None:
        self.live = TournamentState()
        super().__init__(*commands)

    @property
    def state(self) -> TournamentState:
        return self.live

    def apply(self, command: dict[str, Any]) -> list[Any]:
        known = len(self.log)
        events = super().apply(command)
        for recorded in self.log[known:]:
            evolve(self.live, recorded)
        return events


@dataclass
class Attempt:
    """One automatic ``pair_round`` and what the oracle knew before it, from the log."""

    eligible: list[str]
    ranked: list[str]
    score: dict[str, float]
    met: dict[str, set[str]]
    had_bye: set[str]
    first_round: bool
    seed: int
    avoid: Pairs
    prefix: list[Recorded]
    event: Live
    paired: RoundPaired | None = None
    refused: RuleViolation | None = None


@dataclass
class Tracker:
    """The test's own bookkeeping of who may play: registrations, drops, earlier rounds."""

    registered: list[str] = field(default_factory=list)
    dropped: set[str] = field(default_factory=set)
    rounds: list[Pairs] = field(default_factory=list)
    byes: set[str] = field(default_factory=set)

    @property
    def active(self) -> list[str]:
        return [p for p in self.registered if p not in self.dropped]

    def attempt(self, event: Live, seed: int, avoid: Pairs) -> Attempt:
        rules = ruleset_of(event.state)
        ranked = [s for s in standings(event.state) if s.player in self.active]
        met: dict[str, set[str]] = {p: set() for p in self.registered}
        for a, b in [*(match for played in self.rounds for match in played), *avoid]:
            met[a].add(b)
            met[b].add(a)
        return Attempt(
            eligible=self.active,
            ranked=[s.player for s in ranked],
            score={s.player: rules.pairing_score(s.scores) for s in ranked},
            met=met,
            had_bye=set(self.byes),
            first_round=not self.rounds,
            seed=seed,
            avoid=avoid,
            prefix=list(event.log),
            event=event,
        )

    def record(self, paired: RoundPaired) -> None:
        self.rounds.append(pairs_of(paired))
        self.byes |= {t.players[0] for t in paired.pairings if len(t.players) == 1}


#: Swiss results with wins, losses and draws (swu-1.0: double losses instead of draws).
RESULTS: dict[str, list[dict[str, Any]]] = {
    "swu-1.4": [
        {"games": [2, 0], "draws": 0},
        {"games": [2, 1], "draws": 0},
        {"games": [0, 2], "draws": 0},
        {"games": [1, 2], "draws": 1},
        {"games": [1, 1], "draws": 1},
        {"games": [0, 0], "draws": 1},
        {"intentional_draw": True},
    ],
    "swu-1.0": [
        {"games": [2, 0], "draws": 0},
        {"games": [2, 1], "draws": 0},
        {"games": [0, 2], "draws": 0},
        {"games": [1, 2], "draws": 1},
        {"games": [1, 1], "draws": 0},
        {"double_loss": True},
    ],
}
#: lcg-2.1d games by who won each: 6:0, 4:1, 3:3, 2:2, 1:4 or 0:6 in a match.
LCG_GAMES = ("first", "second", "draw")


def random_result(chance: random.Random, rules: str, players: tuple[str, ...]) -> dict[str, Any]:
    if rules == "lcg-2.1d":
        names = {"first": players[0], "second": players[1], "draw": "draw"}
        return {"game_results": [names[chance.choice(LCG_GAMES)] for _ in range(2)]}
    return chance.choice(RESULTS[rules])


def draw_avoid(data: st.DataObject, players: list[str]) -> Pairs:
    """A few pairs to keep apart in round 1 (``pair_round``'s ``avoid``: friends who came
    together), sometimes none."""
    two = st.lists(st.sampled_from(players), min_size=2, max_size=2, unique=True)
    pairs = st.lists(two.map(lambda p: (p[0], p[1])), max_size=3)
    return tuple(data.draw(pairs, label="avoid"))


#: An event's ruleset, players at round 1 and Swiss rounds.
Shape = tuple[str, int, int]


def shapes(largest: int) -> st.SearchStrategy[Shape]:
    """Fields of 2 to ``largest`` players (odd and even) over 1 to 6 rounds."""
    rulesets = st.sampled_from(["swu-1.4", "swu-1.0", "lcg-2.1d"])
    return st.tuples(rulesets, st.integers(2, largest), st.integers(1, 6))


def play_random_event(shape: Shape, data: st.DataObject, check: Callable[[Attempt], None]) -> None:
    """Run a random event round by round; ``check`` judges every automatic pairing.

    Random ruleset, field size (odd and even) and rounds; results with draws;
    drops and late registrations between rounds; every round paired with a
    seed drawn by hypothesis. A refused pairing ends the event.
    """
    rules, size, rounds = shape
    chance = data.draw(st.randoms(use_true_random=True), label="results")
    track = Tracker(registered=[f"p{n}" for n in range(1, size + 1)])
    event = Live(create(ruleset=rules, rounds=rounds), *register(*track.registered))
    for number in range(1, rounds + 1):
        seed = data.draw(st.integers(0, 2**32), label=f"seed of round {number}")
        avoid = draw_avoid(data, track.active) if number == 1 else ()
        attempt = track.attempt(event, seed, avoid)
        command: dict[str, Any] = {"type": "pair_round", "tournament": "t1", "seed": seed}
        if avoid:
            command["avoid"] = [list(p) for p in avoid]
        try:
            [paired] = event.apply(command)
        except RuleViolation as refused:
            attempt.refused = refused
            check(attempt)
            return
        assert isinstance(paired, RoundPaired)
        attempt.paired = paired
        check(attempt)
        track.record(paired)
        play_round(chance, event, rules, paired)
        between_rounds(data, event, track, number)


def play_round(chance: random.Random, event: Live, rules: str, paired: RoundPaired) -> None:
    event.apply(start())
    for t in paired.pairings:
        if len(t.players) == 2:
            event.apply(report(paired.round, *t.players, **random_result(chance, rules, t.players)))


def between_rounds(data: st.DataObject, event: Live, track: Tracker, number: int) -> None:
    """Late registrations (playing from the next round) and drops, keeping two players."""
    for n in range(data.draw(st.integers(0, 3), label="late entrants")):
        player = f"late{number}.{n}"
        event.apply(register(player)[0])
        track.registered.append(player)
    leaving = data.draw(
        st.lists(st.sampled_from(track.active), max_size=2, unique=True), label="drops"
    )
    for player in leaving[: max(0, len(track.active) - 2)]:
        event.apply({"type": "drop_player", "tournament": "t1", "player": player})
        track.dropped.add(player)


def pairs_of(paired: RoundPaired) -> Pairs:
    return tuple((t.players[0], t.players[1]) for t in paired.pairings if len(t.players) == 2)


def bye_of(paired: RoundPaired) -> str | None:
    byes = [t.players[0] for t in paired.pairings if len(t.players) == 1]
    assert len(byes) <= 1, f"more than one bye: {byes}"
    return byes[0] if byes else None
