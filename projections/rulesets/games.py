"""Best-of-N game counts: results of matches lost without play or by a game loss.

Shared by the SWU rulesets, whose results count game wins (``games``, ``draws``).
"""

from __future__ import annotations

from ledger.events import MatchResult, Stage


class BestOfGames:
    """Mixin for rulesets whose matches are won by the first to N game wins."""

    def wins_needed(self, stage: Stage) -> int:
        raise NotImplementedError

    def forfeit(self, players: tuple[str, str], loser: str, stage: Stage) -> MatchResult:
        """Lost without play: 0-2 in Bo3, 0-1 in Bo1 for ``loser`` (a no-show, a match loss)."""
        need = self.wins_needed(stage)
        return MatchResult(games=(0, need) if loser == players[0] else (need, 0), draws=0)

    def after_game_loss(
        self, players: tuple[str, str], result: MatchResult, penalized: str, stage: Stage
    ) -> MatchResult:
        """The opponent gains one game win (swu-1.4 §6: a game loss at the end of a match
        applies to the match just finished). Where that would give both players the
        match, the game loss replaces one of the penalized player's wins: 2-1 becomes
        1-2, 2-0 becomes 2-1; an intentional draw becomes 0-1."""
        need = self.wins_needed(stage)
        if need == 1:
            return self.forfeit(players, penalized, stage)
        games, draws = result.games or (0, 0), result.draws or 0
        mine, theirs = games if penalized == players[0] else games[::-1]
        theirs = min(theirs + 1, need)
        if mine >= need and theirs >= need:
            mine = need - 1
        ordered = (mine, theirs) if penalized == players[0] else (theirs, mine)
        return MatchResult(games=ordered, draws=draws)
