"""Star Wars: Unlimited Turnierregeln v1.4 (``swu-1.4``), Premier Swiss and top cut.

- Match points win 3, draw 1, loss 0 (§5.7 item 1). A bye is a won match.
- Bo1 time-out without a winner is a draw (§4.2.2); in Bo3 a drawn game counts
  for nobody and play goes on; at time, more game wins wins the match, equal
  game wins draw it in Swiss (§4.3.2). ``draws`` counts drawn games, including
  the game unfinished at time.
- In elimination a match level on games is decided at the table by base HP,
  then initiative (§4.3.2): the result names the ``winner`` and ``decided_by``.
- Intentional draw: Swiss only (§4.4): a drawn match with no games played.
- Tiebreakers (§5.7): match points, OMW% (§5.7.1.1), GW% (§5.7.1.2), OGW%
  (§5.7.1.3), then random from the tournament's recorded seed. Every percentage
  below 33% counts as 33%; the official platform computes with exactly 1/3, as
  we do. The player's own GW% is floored too.
- Round time (``round_time``): Bo1 25 minutes (§4.2.1), Bo3 55 minutes, "beim
  Top-Cut [...] auf 75 Minuten verlängert" (§4.3.1): every elimination round of a
  Bo3 event, the final included. A deck check during a match gives back the time
  it took plus 3 minutes for shuffling (§6).
- Rounds and top cut by players present at round 1 (§4.5); top cuts only at
  competitive tier. Beyond the table (more than 409 players) we use swu-1.0's
  round count for that size and keep top 8 (our choice: the document stops there).

Where the document is silent (common convention, tested):
- A bye is not an opponent: it is left out of OMW% and OGW%. For GW% it is a
  2-0 win in Bo3 and 1-0 in Bo1.
- A dropped player still counts as an opponent with the record they finished with.
- A player with no match at all has every tiebreaker 0; a player whose matches
  had no games (intentional draws only) has the floor GW% of 1/3.

- A Bo1 event with a top cut (only by an explicit ``cut``: top cuts are competitive,
  and competitive is Bo3, §4.3) plays its elimination rounds in 25 minutes: the 75
  minutes of §4.3.1 extend the Bo3 round, and the match stays a single game.

Option ``compat: "melee.gg"`` reproduces the official platform's published
numbers: a drawn game is a game worth 0 game points (the document says 1), and
an intentional draw counts as three drawn games (published as 0-0-3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from statistics import fmean
from typing import Any, ClassVar

from ledger.events import MatchResult, Stage
from projections.errors import InvalidResult
from projections.rulesets.base import (
    Outcome,
    ResultForm,
    Scores,
    Tiebreaker,
    by_table,
    ceil_log2,
    record_of,
)
from projections.rulesets.deck_rules import DeckCheck, ListSchedule
from projections.rulesets.games import BestOfGames
from projections.rulesets.round_time import RoundTime
from projections.rulesets.swu_decks import SWU_FORMATS, SwuDecks

FLOOR = 1 / 3
ROUNDS_AND_CUT = ((2, 1, 0), (4, 2, 0), (8, 3, 0), (16, 4, 4), (32, 5, 8), (64, 6, 8),
                  (128, 7, 8), (227, 8, 8), (409, 9, 8))  # fmt: skip
#: swu-1.0 §4.2.3, used past the end of the v1.4 table.
SWU10_ROUNDS = ((8, 3), (16, 4), (32, 5), (64, 6), (128, 7), (256, 8), (512, 9), (1024, 10),
                (2048, 11))  # fmt: skip


class Swu14(BestOfGames, SwuDecks):
    id = "swu-1.4"
    tiebreakers = (
        Tiebreaker("omw", "OMW%", "swu-1.4 §5.7.1.1", "percentage",
                   "mean of the opponents' match-win % (match points / 3 x matches), each "
                   "floored at 1/3; byes are not opponents"),
        Tiebreaker("gw", "GW%", "swu-1.4 §5.7.1.2", "percentage",
                   "own game points / (3 x games), win 3, draw 1 (melee.gg: 0), floored at "
                   "1/3; a bye is a 2-0 win (1-0 in Bo1)"),
        Tiebreaker("ogw", "OGW%", "swu-1.4 §5.7.1.3", "percentage",
                   "mean of the opponents' game-win %, each floored at 1/3"),
    )  # fmt: skip
    option_choices: ClassVar[dict[str, tuple[Any, ...] | None]] = {
        "format": ("bo3", "bo1"),
        "tier": ("competitive", "casual"),
        # the deck-building format lists are checked against (§2.3; projections.rulesets.list_rules)
        "deck_format": tuple(f.name for f in SWU_FORMATS),
        "compat": (None, "melee.gg"),
    }
    #: §3.1.3 (at competitive tier), §7.1, §4.6.1
    list_schedule = ListSchedule("swu-1.4 §3.1.3", "swu-1.4 §7.1", "swu-1.4 §4.6.1")
    #: §6: before game 1, between games or after the match; an illegal deck, a game loss
    deck_check = DeckCheck("swu-1.4 §6")
    #: §4.3.2: an elimination match level on games, by base HP, then initiative
    tie_procedure = "table"
    defaults: ClassVar[dict[str, Any]] = {"format": "bo3", "tier": "competitive", "compat": None}
    result_shapes = (
        frozenset({"games", "draws"}),
        frozenset({"games", "draws", "winner", "decided_by"}),
        frozenset({"intentional_draw"}),
    )

    @property
    def best_of(self) -> int:
        return 3 if self.options["format"] == "bo3" else 1

    @property
    def melee(self) -> bool:
        return self.options.get("compat") == "melee.gg"

    def check_result(self, players: tuple[str, str], result: MatchResult, stage: Stage) -> None:
        if result.intentional_draw is not None:
            self._check_intentional_draw(result, stage)
            return
        assert result.games is not None and result.draws is not None
        self._check_games(result.games, result.draws)
        level = result.games[0] == result.games[1]
        if result.winner is not None:
            self._check_table_decision(players, result, stage, level)
        elif stage == "elimination" and level:
            raise InvalidResult(
                "an elimination match level on games needs a winner and decided_by "
                "(base_hp or initiative), swu-1.4 §4.3.2"
            )

    def _check_intentional_draw(self, result: MatchResult, stage: Stage) -> None:
        if result.intentional_draw is not True:
            raise InvalidResult("intentional_draw must be true when given")
        if stage != "swiss":
            raise InvalidResult("an intentional draw is allowed in Swiss rounds only, swu-1.4 §4.4")

    def _check_games(self, games: tuple[int, int], draws: int) -> None:
        wins_needed = self.wins_needed("swiss")
        if max(games) > wins_needed or min(games) >= wins_needed:
            raise InvalidResult(
                f"games {list(games)} is impossible in Bo{self.best_of}: "
                f"a match ends when a player has {wins_needed} game win(s), swu-1.4 §4.3.2"
            )
        if sum(games) + draws == 0:
            raise InvalidResult("a result needs at least one game won or drawn")
        if self.best_of == 1 and sum(games) + draws > 1 and sum(games) > 0 and draws > 0:
            raise InvalidResult("a Bo1 match is one game: either a win or a draw, swu-1.4 §4.2.2")

    def _check_table_decision(
        self, players: tuple[str, str], result: MatchResult, stage: Stage, level: bool
    ) -> None:
        if stage != "elimination" or not level:
            raise InvalidResult(
                "winner and decided_by are given only for an elimination match level on games "
                "at time, swu-1.4 §4.3.2"
            )
        if result.decided_by not in ("base_hp", "initiative"):
            raise InvalidResult("decided_by must be base_hp or initiative, swu-1.4 §4.3.2")

    def outcomes(self, players: tuple[str, str], result: MatchResult) -> tuple[Outcome, Outcome]:
        a, b = players
        if result.intentional_draw:
            drawn = 3 if self.melee else 0
            return (
                Outcome(b, "draw", 1, games_drawn=drawn),
                Outcome(a, "draw", 1, games_drawn=drawn),
            )
        assert result.games is not None and result.draws is not None
        (wa, wb), d = result.games, result.draws
        if result.winner is not None:
            first = "win" if result.winner == a else "loss"
        else:
            first = "win" if wa > wb else "loss" if wa < wb else "draw"
        second = {"win": "loss", "loss": "win", "draw": "draw"}[first]
        points = {"win": 3, "draw": 1, "loss": 0}
        return (
            Outcome(b, first, points[first], wa, wb, d),  # type: ignore[arg-type]
            Outcome(a, second, points[second], wb, wa, d),  # type: ignore[arg-type]
        )

    def result_form(self, stage: Stage) -> ResultForm:
        """Game wins of a Bo1 or Bo3 match and its drawn games (§4.2.2, §4.3.2); in
        elimination a match level on games names who won it at the table (§4.3.2); in
        Swiss the players may draw intentionally (§4.4)."""
        return ResultForm("games", games=self.best_of, draws=True,
                          tie_winner=stage == "elimination",
                          intentional_draw=stage == "swiss")  # fmt: skip

    def wins_needed(self, stage: Stage) -> int:
        return 2 if self.best_of == 3 else 1

    def round_time(self) -> RoundTime:
        """§4.2.1 (Bo1 25), §4.3.1 (Bo3 55, top cut 75); see the module docstring."""
        if self.best_of == 1:
            return RoundTime(25, 25, 25, "swu-1.4 §4.2.1")
        return RoundTime(55, 75, 75, "swu-1.4 §4.3.1")

    def bye(self) -> Outcome:
        return Outcome(None, "win", 3, games_won=2 if self.best_of == 3 else 1)

    # standings ---------------------------------------------------------------
    def explain_opponent(self, outcomes: Sequence[Outcome]) -> dict[str, float | bool]:
        """The opponent's match-win % before and after the floor, and their game-win %."""
        raw = sum(o.points for o in outcomes if not o.unpaired) / (3 * max(1, len(outcomes)))
        return {"match_win": raw, "match_win_counted": self.match_win_pct(outcomes),
                "game_win_counted": self.game_win_pct(outcomes),
                "floored": raw < FLOOR}  # fmt: skip

    def match_win_pct(self, outcomes: Sequence[Outcome]) -> float:
        """Match points / (3 x matches played), floored at 1/3 (§5.7.1)."""
        played = [o for o in outcomes if not o.unpaired]
        if not played:
            return 0.0
        return max(FLOOR, sum(o.points for o in played) / (3 * len(played)))

    def game_win_pct(self, outcomes: Sequence[Outcome]) -> float:
        """Game points / (3 x games played), win 3, draw 1 (melee.gg: 0), floored (§5.7.1)."""
        if not outcomes:
            return 0.0
        won = sum(o.games_won for o in outcomes)
        drawn = sum(o.games_drawn for o in outcomes)
        games = won + drawn + sum(o.games_lost for o in outcomes)
        if games == 0:
            return FLOOR
        game_points = 3 * won + (0 if self.melee else drawn)
        return max(FLOOR, game_points / (3 * games))

    def scores(self, records: Mapping[str, Sequence[Outcome]]) -> dict[str, Scores]:
        mw = {p: self.match_win_pct(o) for p, o in records.items()}
        gw = {p: self.game_win_pct(o) for p, o in records.items()}
        out: dict[str, Scores] = {}
        for player, outcomes in records.items():
            opponents = [o.opponent for o in outcomes if o.opponent is not None]
            omw = fmean(mw[o] for o in opponents) if opponents else 0.0
            ogw = fmean(gw[o] for o in opponents) if opponents else 0.0
            points = sum(o.points for o in outcomes)
            tiebreakers = {"omw": omw, "gw": gw[player], "ogw": ogw}
            out[player] = Scores(
                points, record_of(outcomes), tiebreakers, (points, omw, gw[player], ogw)
            )
        return out

    # tables ------------------------------------------------------------------
    def table_rounds(self, players: int) -> int:
        for upper, rounds, _ in ROUNDS_AND_CUT:
            if players <= upper:
                return rounds if players > 2 else ceil_log2(players)
        return by_table(SWU10_ROUNDS, players, beyond=12)

    def table_cut(self, players: int) -> int:
        if self.options["tier"] != "competitive":
            return 0
        return by_table([(upper, cut) for upper, _, cut in ROUNDS_AND_CUT], players, beyond=8)
