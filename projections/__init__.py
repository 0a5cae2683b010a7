"""Pure folds over the log: tournament state, standings, pairings.

Nothing here touches a clock, a random source or the store: every input is an
event or an argument, so a replay of the same prefix gives the same answer.
"""

from projections.state import TournamentState, evolve, fold

__all__ = ["TournamentState", "evolve", "fold"]
