"""Star Wars: Unlimited Tournament Regulations v1.0 (``swu-1.0``), Swiss and top cut.

- No draws, ever (§4.2.2, §4.3.2): a Bo1 game unfinished after the last action
  phase, or a Bo3 match tied on game wins at time, is a loss for both players
  (a double loss). A drawn game (both bases destroyed at once) counts for
  nobody (§4.3.2). ``draws`` counts drawn games, including the game unfinished
  at time, as in swu-1.4; ``{"double_loss": true}`` records a double loss
  directly (Swiss only).
- Points are match wins; a bye "is treated as if they had won their match"
  (§4.1.1): one won match, not an opponent.
- Standings by win/loss ratio, then the tiebreakers of §5.6: opponents'
  win/loss ratios, then opponents' opponents' win/loss ratios; then random from
  the tournament's recorded seed (the standings projection adds it).
- Rounds by players present at round 1: §4.2.3 (single game) and §4.3.3
  (best of three, the same rounds); top cut only in Bo3 events (§4.2.3: "there
  will be no top cut" for single game events; cut sizes in the §4.3.3 table).
- Elimination matches are always best of three (§4.1.3).
- Round time (``round_time``): single game 25 minutes (§4.2.1), best of three 55
  minutes (§4.3.1); v1.0 has no longer top-cut round (swu-1.4 §4.3.1 adds one), so
  elimination rounds, the final included, are Bo3 rounds of 55 minutes.

Choices where the document is silent or loose (each tested):

- Win/loss ratio ``wl`` = match wins / matches played, byes counting as won
  matches (§4.1.1). §5.6 describes the ratio as "X-Y" (wins versus losses).
  Because a v1.0 match has no draws, wins / (wins + losses) is a strictly
  increasing function of wins / losses, so it orders players exactly as the
  document's ratio while staying finite for an unbeaten player.
- ``owl`` = the mean of the opponents' ``wl``; ``oowl`` = the mean over the
  opponents of their ``owl``. §5.6 names "the win/loss ratios of the
  opponents" without saying how to combine them; a mean (not a sum) keeps a
  player who met fewer opponents (a bye, a late entry) comparable. The
  player's own matches count in their opponents' ``owl``, as in the usual
  definition of opponents' opponents.
- No floor: v1.0 has no "33%" rule (that arrives in v1.4 §5.7), so ratios are
  used as they are, unrounded.
- Opponents exclude byes (a bye has no ratio); a dropped player still counts
  as an opponent with the record they finished with. An unpaired outcome (a
  missed round) is not a match played. A player with no match has 0 everywhere.
- ``Scores.key`` = (wl, owl, oowl): §4.1.1 ranks "who has the highest
  win/loss ratio" and §5.6 breaks ties in that order. The ratio, not the
  number of wins, leads: with a late entrant or an early drop, 3-0 ranks above
  4-1, as the document's words say.
- Elimination, level on game wins at time: §4.3.2's double loss would leave
  nobody to advance, so the result must name the ``winner`` and
  ``decided_by`` (``base_hp`` or ``initiative``), the procedure of the
  successor document (swu-1.4 §4.3.2); a ``double_loss`` is refused there.
- A single game match is exactly one game (§4.2): one win, or one drawn or
  unfinished game (a double loss).
- ``tier`` (casual/competitive, §2.2) is recorded but does not change the
  tables: v1.0 ties the top cut to the match format, not the tier. §4.3 says
  competitive events use best of three; a Bo1 competitive event is not refused
  (the organizer's call, as in swu-1.4).
- Deck checks: v1.0 §6 speaks of marked cards, proxies and altered cards, not of
  time. A check during a match gives back the time it took plus 3 minutes for
  shuffling, the procedure of the successor document (swu-1.4 §6), as for ties in
  elimination above.
- Fewer than 4 players (the table starts at 4): ceil(log2(players)) rounds.
- The uneven cut (§4.1.2) belongs to ``make_cut``, not to this table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from statistics import fmean
from typing import Any, ClassVar

from ledger.events import MatchResult, Stage
from projections.errors import InvalidResult
from projections.rulesets.base import (
    MatchOutcome,
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

#: §4.2.3 and §4.3.3: (players up to, Swiss rounds, top cut in Bo3); 2049+: 12 rounds, top 64.
ROUNDS_AND_CUT = ((8, 3, 0), (16, 4, 4), (32, 5, 4), (64, 6, 8), (128, 7, 8), (256, 8, 16),
                  (512, 9, 16), (1024, 10, 32), (2048, 11, 32))  # fmt: skip
BEYOND_ROUNDS, BEYOND_CUT = 12, 64
TABLE_START = 4
LEVEL_DECIDERS = ("base_hp", "initiative")


class Swu10(BestOfGames, SwuDecks):
    #: §4.1.2: players tied on record across the cut line play an extra round.
    uneven_cut = True
    id = "swu-1.0"
    #: §4.1.4 names the double-elimination brackets; §4.1.2 the playoff's reason.
    bracket_terms: ClassVar[dict[str, str]] = {
        "upper": "main bracket", "lower": "secondary bracket", "playoff": "uneven cut"}  # fmt: skip
    tiebreakers = (
        Tiebreaker("wl", "W/L", "swu-1.0 §5.6", "percentage",
                   "match wins / matches played, a bye a won match"),
        Tiebreaker("owl", "Opp W/L", "swu-1.0 §5.6", "percentage",
                   "mean of the opponents' win/loss ratios"),
        Tiebreaker("oowl", "Opp Opp W/L", "swu-1.0 §5.6", "percentage",
                   "mean of the opponents' owl"),
    )  # fmt: skip
    option_choices: ClassVar[dict[str, tuple[Any, ...] | None]] = {
        "format": ("bo3", "bo1"),
        "tier": ("competitive", "casual"),
        # the deck-building format lists are checked against (§2.3; projections.rulesets.list_rules)
        "deck_format": tuple(f.name for f in SWU_FORMATS),
    }
    #: §3.1.3 (at competitive tier), §7.1, §4.4.1
    list_schedule = ListSchedule("swu-1.0 §3.1.3", "swu-1.0 §7.1", "swu-1.0 §4.4.1")
    #: §6 is silent on time: the successor's procedure (module docstring)
    deck_check = DeckCheck("swu-1.4 §6")
    #: an elimination match level on games, at the table (module docstring)
    tie_procedure = "table"
    defaults: ClassVar[dict[str, Any]] = {"format": "bo3", "tier": "competitive"}
    result_shapes = (
        frozenset({"games", "draws"}),
        frozenset({"games", "draws", "winner", "decided_by"}),
        frozenset({"double_loss"}),
    )

    def best_of(self, stage: Stage = "swiss") -> int:
        """Games a match is played to: the ``format`` in Swiss, always 3 in elimination (§4.1.3)."""
        return 3 if stage == "elimination" or self.options["format"] == "bo3" else 1

    # results -----------------------------------------------------------------
    def check_result(self, players: tuple[str, str], result: MatchResult, stage: Stage) -> None:
        if result.double_loss is not None:
            self._check_double_loss(result, stage)
            return
        assert result.games is not None and result.draws is not None
        self._check_games(result.games, result.draws, self.best_of(stage))
        level = result.games[0] == result.games[1]
        if result.winner is not None:
            self._check_table_decision(result, stage, level)
        elif stage == "elimination" and level:
            raise InvalidResult(
                "an elimination match level on game wins needs a winner and decided_by "
                "(base_hp or initiative): swu-1.0 §4.3.2 would give both players a loss, "
                "which leaves nobody to advance"
            )

    def _check_double_loss(self, result: MatchResult, stage: Stage) -> None:
        if result.double_loss is not True:
            raise InvalidResult("double_loss must be true when given")
        if stage != "swiss":
            raise InvalidResult(
                "a double loss is recorded in Swiss rounds only; an elimination match "
                "needs a winner (swu-1.0 §4.1.3)"
            )

    def _check_games(self, games: tuple[int, int], draws: int, best_of: int) -> None:
        if best_of == 1:
            if sum(games) + draws != 1:
                raise InvalidResult(
                    f"games {list(games)} with draws {draws} is impossible in a single game "
                    "match: it is one game, won by one player or unfinished (a double loss), "
                    "swu-1.0 §4.2.2"
                )
            return
        if max(games) > 2 or min(games) >= 2:
            raise InvalidResult(
                f"games {list(games)} is impossible in Bo3: a match ends when a player has "
                "2 game wins, swu-1.0 §4.3.2"
            )
        if sum(games) + draws == 0:
            raise InvalidResult(
                "a result needs at least one game won or drawn; report "
                '{"double_loss": true} for a match without a game, swu-1.0 §4.3.2'
            )

    def _check_table_decision(self, result: MatchResult, stage: Stage, level: bool) -> None:
        if stage != "elimination" or not level:
            raise InvalidResult(
                "winner and decided_by are given only for an elimination match level on game "
                "wins at time; in Swiss such a match is a loss for both players, swu-1.0 §4.3.2"
            )
        if result.decided_by not in LEVEL_DECIDERS:
            raise InvalidResult("decided_by must be base_hp or initiative (swu-1.4 §4.3.2)")

    def outcomes(self, players: tuple[str, str], result: MatchResult) -> tuple[Outcome, Outcome]:
        a, b = players
        if result.double_loss:
            return Outcome(b, "loss", 0), Outcome(a, "loss", 0)
        assert result.games is not None and result.draws is not None
        (wa, wb), d = result.games, result.draws
        first, second = self._results(players, result)
        return (
            Outcome(b, first, int(first == "win"), wa, wb, d),
            Outcome(a, second, int(second == "win"), wb, wa, d),
        )

    @staticmethod
    def _results(
        players: tuple[str, str], result: MatchResult
    ) -> tuple[MatchOutcome, MatchOutcome]:
        """More game wins wins; level at time is a loss for both (§4.2.2, §4.3.2)."""
        assert result.games is not None
        wa, wb = result.games
        if result.winner is not None:
            return ("win", "loss") if result.winner == players[0] else ("loss", "win")
        if wa == wb:
            return "loss", "loss"
        return ("win", "loss") if wa > wb else ("loss", "win")

    def result_form(self, stage: Stage) -> ResultForm:
        """Game wins of the match (elimination always Bo3, §4.1.3) and its drawn games
        (§4.3.2); in elimination a match level on games names who won it at the table."""
        return ResultForm("games", games=self.best_of(stage), draws=True,
                          tie_winner=stage == "elimination")  # fmt: skip

    def wins_needed(self, stage: Stage) -> int:
        return 2 if self.best_of(stage) == 3 else 1

    def round_time(self) -> RoundTime:
        """§4.2.1 (single game 25), §4.3.1 (best of three 55, elimination included)."""
        swiss = 55 if self.best_of("swiss") == 3 else 25
        return RoundTime(swiss, 55, 55, "swu-1.0 §4.2.1, §4.3.1")

    def bye(self) -> Outcome:
        """A bye is a won match (§4.1.1): 2-0 in Bo3, 1-0 in a single game event."""
        return Outcome(None, "win", 1, games_won=2 if self.best_of() == 3 else 1)

    # standings ---------------------------------------------------------------
    @staticmethod
    def win_loss_ratio(outcomes: Sequence[Outcome]) -> float:
        """Match wins / matches played, byes as won matches (§5.6 item 1, §4.1.1)."""
        played = [o for o in outcomes if not o.unpaired]
        if not played:
            return 0.0
        return sum(o.result == "win" for o in played) / len(played)

    def explain_opponent(self, outcomes: Sequence[Outcome]) -> dict[str, float | bool]:
        """The opponent's win/loss ratio."""
        return {"wl": self.win_loss_ratio(outcomes)}

    @staticmethod
    def opponents(outcomes: Sequence[Outcome]) -> list[str]:
        """Every opponent met, once per match; a bye is not an opponent."""
        return [o.opponent for o in outcomes if o.opponent is not None]

    def pairing_score(self, scores: Scores) -> float:
        """Players are paired by win/loss ratio (§4.1.1), not by wins alone."""
        return scores.tiebreakers["wl"]

    def scores(self, records: Mapping[str, Sequence[Outcome]]) -> dict[str, Scores]:
        wl = {p: self.win_loss_ratio(o) for p, o in records.items()}
        met = {p: self.opponents(o) for p, o in records.items()}
        owl = {p: fmean(wl[o] for o in opps) if opps else 0.0 for p, opps in met.items()}
        out: dict[str, Scores] = {}
        for player, outcomes in records.items():
            opps = met[player]
            oowl = fmean(owl[o] for o in opps) if opps else 0.0
            tiebreakers = {"wl": wl[player], "owl": owl[player], "oowl": oowl}
            wins = sum(o.points for o in outcomes)
            key = (wl[player], owl[player], oowl)
            out[player] = Scores(wins, record_of(outcomes), tiebreakers, key)
        return out

    # tables ------------------------------------------------------------------
    def table_rounds(self, players: int) -> int:
        """§4.2.3 / §4.3.3 (the same rounds); below the table's 4 players, ceil(log2)."""
        if players < TABLE_START:
            return ceil_log2(players)
        return by_table([(upper, r) for upper, r, _ in ROUNDS_AND_CUT], players, BEYOND_ROUNDS)

    def table_cut(self, players: int) -> int:
        """§4.3.3 for best of three; single game events have no top cut (§4.2.3)."""
        if self.options["format"] != "bo3":
            return 0
        return by_table([(upper, c) for upper, _, c in ROUNDS_AND_CUT], players, BEYOND_CUT)
