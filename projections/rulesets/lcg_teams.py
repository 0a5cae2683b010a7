"""lcg-2.1d "Team-Turniere (2 gegen 2)": the team format of the LCG regulation.

A team event is an ``lcg-2.1d`` tournament created with the option ``"team": true``
(``projections.rulesets.VARIANTS`` picks this class). Its competitors are teams: a team registers
with ``register_team`` (two members), and from then on the team id is what is
paired, reported, dropped, penalized and ranked, exactly where a player id stands
in a singles event.

What the document says:

- "Anmeldung": participants register as teams of two, formed before the event; the
  lists of all four decks (a light-side and a dark-side deck per member, marked who
  plays which) are handed in together at registration (``commands.teams``: one
  ``submit_list`` per team, both members' decks in it).
- "Turnierstruktur": Swiss for a number of rounds the organizer announces; the team
  with the most points wins. "Eine Finalrunde gibt es im Team-Turnier nicht": no
  cut, no double elimination. "Wenn zwei Teams am Ende gleich viele Punkte haben,
  kämpfen sie in einer Finalbegegnung um den Turniersieg": teams level on points at
  the end play a final match.
- "Wertung": "Das Zeitlimit pro Runde (zwischen 80 und 100 Minuten) wird vom TO zu
  Beginn des Turniers bekannt gegeben": the option ``round_minutes``, 80 to 100; a
  game that no team has won when time is up is a draw, "d.h. jedes Team erhält 2
  Punkte" (``draw_points`` 2).
- Everything the team section does not replace is the singles rule: pairing
  ("Setzung", by points and fold-wise), the standings ("Tabellen-Stärke": points,
  head to head, ``sos``, ``sos2``), a match of two games ("Begegnung").

Choices where the document is silent (each tested):

- A won game scores 3, a lost game 0: the team section replaces only the value of a
  draw, so the singles "Wertung" (win 3) stays in force for the rest. A match scores
  the sum (6:0, 5:2, 4:4, 3:3, 2:5, 0:6) and is won by the team with more game
  points, as in singles.
- A bye scores 6, two won games, and is not an opponent (as in singles).
- ``round_minutes`` defaults to 90, the middle of the document's range (the TO
  announces it; a ledger must have a value to run the clock). The final match is a
  "Begegnung" like every round, so it has the same limit; the singles' final-round
  times ("Finalrunden", 35 minutes and the final match without limit) are for
  single-game elimination rounds, which a team event does not have.
- The final match ("Finalbegegnung") is due when every announced Swiss round is
  played and the two best active teams have equal points; where more than two share
  the top score, the two best of them by the Tabellen-Stärke (head to head, ``sos``,
  ``sos2``, the recorded random key) play it. ``pair_round`` then records a cut of
  those two (``cut_made``, size 2, single) and pairs the match (``round_paired``,
  stage "elimination"), so the contract's stages, the bracket, ``verify`` and the
  ranking by elimination finish need nothing of their own; ``make_cut`` itself is
  refused ("Eine Finalrunde gibt es nicht").
- The final is a match like every round ("Begegnung"): two games, a drawn game
  allowed. More game points wins; a final level on game points (a game each, or two
  draws) goes to the team ranked higher after the Swiss rounds (its seed 1): the
  document names no further game, and the Swiss order is its own measure of the
  teams. The final decides ranks 1 and 2; as with every elimination result, its
  games add no points to the standings.
- ``finish_tournament`` is refused while that final is due and undecided; an event
  whose top team is alone on points finishes without one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from ledger.events import MatchResult, Stage
from ledger.list_events import Violation
from projections.errors import InvalidList, InvalidOptions, InvalidResult
from projections.rulesets.base import ResultForm, TeamFormat
from projections.rulesets.decklists import DeckList, LcgTeamList, as_shape
from projections.rulesets.lcg_2_1d import SWISS_GAMES, Lcg21d, check_team
from projections.rulesets.list_rules import lcg_team
from projections.rulesets.round_time import RoundTime

#: "Wertung": "Das Zeitlimit pro Runde (zwischen 80 und 100 Minuten)"; the default is
#: our choice (the middle), the organizer announces the real one
ROUND_MINUTES = (80, 100)
DEFAULT_ROUND_MINUTES = 90
#: "Wertung": a game unfinished at time is a draw, "jedes Team erhält 2 Punkte"
TEAM_DRAW_POINTS = 2
SECTION = "lcg-2.1d Team-Turniere"
NO_FINALS = (
    f'a team tournament has no final rounds ({SECTION}: "Eine Finalrunde gibt es im '
    'Team-Turnier nicht")'
)


class Lcg21dTeams(Lcg21d):
    team = TeamFormat(section=SECTION, no_finals=NO_FINALS)
    #: "Anmeldung": one list per team, each member's two decks under the member's id
    list_shape = LcgTeamList
    draw_points = TEAM_DRAW_POINTS
    option_choices: ClassVar[dict[str, tuple[Any, ...] | None]] = {
        "round_minutes": None,
        "team": (True, False),
    }
    option_ranges: ClassVar[dict[str, tuple[int, int, str]]] = {
        "round_minutes": (*ROUND_MINUTES, 'lcg-2.1d Team-Turniere "Wertung"')
    }
    defaults: ClassVar[dict[str, Any]] = {"round_minutes": DEFAULT_ROUND_MINUTES}
    result_shapes: ClassVar[tuple[frozenset[str], ...]] = (frozenset({"game_results"}),)
    final_sides = False
    bracket_terms: ClassVar[dict[str, str]] = {}

    @classmethod
    def normalize_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """No ``cut`` and no ``elimination``: teams level at the top play one final match."""
        check_team(options)
        for key in ("cut", "elimination"):
            if options.get(key):
                raise InvalidOptions(f"option {key!r}: {NO_FINALS}")
        return super(Lcg21d, cls).normalize_options(options)

    def read_list(
        self, data: dict[str, Any], kind: str = "submit_list", members: Sequence[str] = ()
    ) -> DeckList:
        """A team's list holds the decks of its two members, by id ("Anmeldung": "wer
        welches HS-Deck und DS-Deck verwenden wird"); ``members``: the team's, when known."""
        deck = as_shape(LcgTeamList, super().read_list(data, kind))
        named = sorted(deck.members)
        if members and named != sorted(members):
            raise InvalidList(
                f"{kind}: a team's list holds the decks of its members {', '.join(members)} "
                f"(got {', '.join(named)}; {SECTION}: Anmeldung)"
            )
        return deck

    def list_violations(self, deck: DeckList) -> tuple[Violation, ...]:
        """Each member's decks under the singles "Deckvoraussetzungen"."""
        return lcg_team(self.id, as_shape(LcgTeamList, deck))

    def round_time(self) -> RoundTime:
        """Every round and the final match: the announced team round time ("Wertung")."""
        minutes = self.options["round_minutes"]
        return RoundTime(minutes, minutes, minutes, 'lcg-2.1d Team-Turniere "Wertung"',
                         deck_check_extra=None)  # fmt: skip

    def check_result(self, players: tuple[str, str], result: MatchResult, stage: Stage) -> None:
        """Two games in every round and in the final match, a drawn game allowed."""
        assert result.game_results is not None
        if "draw" in players or "annulled" in players:
            raise InvalidResult(
                "a team id 'draw' cannot be told apart from a drawn game in game_results"
            )
        for game in result.game_results:
            if game not in ("draw", "annulled") and game not in players:
                raise InvalidResult(
                    f"game result {game!r} is neither a team of this match nor 'draw'"
                )
        self._check_swiss(result.game_results)

    def result_form(self, stage: Stage) -> ResultForm:
        """Two games, each won by a team or drawn, in the final match too ("Wertung")."""
        return ResultForm("game_winners", games=SWISS_GAMES, draws=True)

    def forfeit(self, players: tuple[str, str], loser: str, stage: Stage) -> MatchResult:
        """Lost without play: both games to the other team, in the final too."""
        winner = players[1] if loser == players[0] else players[0]
        return MatchResult(game_results=(winner,) * SWISS_GAMES)

    def winner(self, players: tuple[str, str], result: MatchResult) -> str | None:
        """Who takes the final match: more game points; level, ``players[0]``, which in
        the bracket is the team ranked higher after the Swiss rounds (seed 1). Only the
        final is asked (the bracket); a Swiss match's draw is an outcome, not this."""
        first, _ = self.outcomes(players, result)
        return players[1] if first.result == "loss" else players[0]
