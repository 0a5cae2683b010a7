"""Star Wars: Das Kartenspiel, Offizielle Turnierregeln 2.1D (``lcg-2.1d``).

- A match (Begegnung) is two games; the players switch sides for game 2
  ("Ablauf eines Turniers", "Prozedere vor einer Begegnung"). The result lists
  both games: ``{"game_results": [g1, g2]}``, each the winner's player id or
  ``"draw"`` (time-out without a winner, "Zeitlimit").
- Points ("Wertung"): per game win 3, draw 1, loss 0; the match scores the
  sum, so 6:0, 4:1, 3:3, 2:2 or 1:4. A match is a won match for the player with
  more game points (4:1 a win, 3:3 a draw); that is the record.
- Standings ("Tabellen-Stärke"): 1 tournament points; 2 head to head: every
  tied player who beat every other tied player goes first; 3 ``sos``, the sum
  of all opponents' tournament points; 4 ``sos2``, the sum of the opponents'
  ``sos``; then random from the tournament's recorded seed (the standings
  projection adds it). The head-to-head rule is a relation between players,
  not a per-player number, so it lives in the ``order`` hook.
- No rounds table: the organizer announces the number of rounds ("Ablauf
  eines Turniers": "nach einer zuvor festgelegten Anzahl von Turnierrunden");
  ``rounds`` defaults to ceil(log2(players)), an explicit ``rounds`` wins.
- Finals ("Finalrunden") are optional: only with a ``cut`` option (default 0,
  "normalerweise die Top-8 oder Top-16", announced before the event), double
  elimination ("Doppel-K.o.-System"), single games ("Einzelspiel-Runden"). An
  elimination result is one game with a winner: a time-out there is decided by
  the "Spielende durch Zeitablauf" count, so the ledger records its winner.
- Round time: the organizer announces it before the event ("Ablauf eines
  Turniers": "Runden von 70 Minuten (+/- 10 Minuten nach Ermessen des TOs)";
  "Zeitlimit": "zwischen 60 und 80 Minuten"): option ``round_minutes``, default
  70, from 60 to 80. Final rounds ("Finalrunden": "Runden von 35 Minuten (+/- 5
  Minuten [...])"): option ``final_minutes``, default 35, from 30 to 40. "Kein
  Spiel der Final-Begegnung hat ein Zeitlimit": the grand final and its deciding
  game have no end time.

Choices where the document is silent or loose (each tested):

- A bye scores 6 points, two won games (the common reading: Cryodex and FFG's
  forum ruling), and is not an opponent: it adds nothing to ``sos``.
- "Tied" means equal tournament points: the document ranks by points
  ("der Teilnehmer mit der höchsten Punktzahl") though the tie paragraph says
  "identischer Sieg/Niederlage-Statistik".
- "Beat" means won the match (more game points in it). With a rematch (manual
  pairings only) a player beat another when they won more of their matches.
  A player who did not meet every other tied player cannot go first.
- The tied players are placed one at a time and the rule starts again on
  those still tied after each placement: a player who beat every other
  remaining tied player goes next; when there is none, the best by ``sos``,
  ``sos2`` and random goes next. So of A, B, C tied where A beat B and C and B
  beat C, the order is A, B, C whatever their ``sos``; and where only A beat B
  (C met neither) and C has the best ``sos``, C goes first and then A, who beat
  B, goes before B. But where B leads on ``sos``, B goes first: with three
  tied and none who beat both others, the document turns to ``sos``.
- ``sos`` counts an opponent once per match played; a dropped opponent counts
  with the points they finished with. Unrounded; whole numbers here anyway.
- Deck checks are asked for after the match ("Decküberprüfung"), so a check never
  interrupts one and never extends a clock (``deck_check_extra`` None). "Das Spiel
  wird annulliert" does not say which game: we annul the games the offending player
  won in the match (a deck with an illegal card helped only there).
- Finals are double elimination by default and ``elimination: "single"`` is
  refused: the document names only "Doppel-K.o.-System" for them.
- A player id spelled ``"draw"`` cannot be told apart from a drawn game, so a
  result naming such a player is refused.

2 vs 2 team tournaments ("Team-Turniere") are this regulation with the option
``"team": true``: :mod:`projections.rulesets.lcg_teams` (``rulesets.VARIANTS``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import groupby
from typing import Any, ClassVar

from ledger.events import MatchResult, Stage
from ledger.list_events import Violation
from projections.errors import InvalidOptions, InvalidResult
from projections.rulesets.base import (
    MatchOutcome,
    Outcome,
    ResultForm,
    Ruleset,
    Scores,
    Tiebreaker,
    ceil_log2,
    record_of,
)
from projections.rulesets.deck_rules import DeckCheck, ListSchedule
from projections.rulesets.decklists import DeckList, LcgList, as_shape
from projections.rulesets.list_rules import lcg
from projections.rulesets.round_time import RoundTime

WIN_POINTS, DRAW_POINTS = 3, 1  # a lost game scores 0 ("Wertung")
DRAW = "draw"
#: A game voided by a deck check ("Decküberprüfung": "Das Spiel wird annulliert").
ANNULLED = "annulled"
SWISS_GAMES = 2
ELIMINATION_GAMES = 1
BYE_POINTS = 6


class Lcg21d(Ruleset):
    id = "lcg-2.1d"
    tiebreakers = (
        Tiebreaker("sos", "SoS", "lcg-2.1d Tabellen-Stärke", "number",
                   "sum of the opponents' tournament points"),
        Tiebreaker("sos2", "SoS2", "lcg-2.1d Tabellen-Stärke", "number",
                   "sum of the opponents' sos"),
    )  # fmt: skip
    list_shape: ClassVar[type[DeckList]] = LcgList
    #: the document is silent: lists are shown after the event, none exchanged before
    list_schedule = ListSchedule()
    #: "Decküberprüfung": after the match; an illegal card annuls the game and earns a
    #: warning; a deck that cannot be made legal disqualifies
    deck_check = DeckCheck("lcg-2.1d Decküberprüfung", after_match_only=True, annuls=True,
                           unfixable=True)  # fmt: skip
    #: ``"team": true`` selects the 2 vs 2 team format (``rulesets.VARIANTS``).
    option_choices: ClassVar[dict[str, tuple[Any, ...] | None]] = {
        "round_minutes": None,
        "final_minutes": None,
        "team": (True, False),
    }
    option_ranges: ClassVar[dict[str, tuple[int, int, str]]] = {
        "round_minutes": (60, 80, 'lcg-2.1d "Zeitlimit"'),
        "final_minutes": (30, 40, 'lcg-2.1d "Finalrunden"'),
    }
    defaults: ClassVar[dict[str, Any]] = {
        "elimination": "double",
        "round_minutes": 70,
        "final_minutes": 35,
    }
    result_shapes: ClassVar[tuple[frozenset[str], ...]] = (
        frozenset({"game_results"}),
        frozenset({"game_results", "light"}),
        frozenset({"game_results", "decided_by"}),
        frozenset({"game_results", "light", "decided_by"}),
    )
    pairing_method = "fold"
    #: points of a won and of a drawn game ("Wertung"); a lost game scores 0
    win_points: ClassVar[int] = WIN_POINTS
    draw_points: ClassVar[int] = DRAW_POINTS
    #: "Paarungen im Doppel-K.o.-System" and "Final-Begegnung" name the finals' parts.
    bracket_terms: ClassVar[dict[str, str]] = {
        "upper": "Siegergruppe",
        "lower": "Verlierergruppe",
        "grand_final": "Final-Begegnung",
    }
    #: "Strafen (z. B. Punktabzug)": the organizer sets the size.
    point_deductions = True
    final_sides = True

    @classmethod
    def normalize_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """Finals are double elimination ("Finalrunden: Doppel-K.o.-System")."""
        check_team(options)
        merged = super().normalize_options(options)
        if merged["elimination"] != "double":
            raise InvalidOptions(
                "lcg-2.1d finals are double elimination (Finalrunden: Doppel-K.o.-System); "
                "option 'elimination' must be 'double'"
            )
        return merged

    def round_time(self) -> RoundTime:
        """The announced round and final-round times; the final match has no limit."""
        return RoundTime(self.options["round_minutes"], self.options["final_minutes"], None,
                         'lcg-2.1d "Zeitlimit", "Finalrunden"', deck_check_extra=None)  # fmt: skip

    # results -----------------------------------------------------------------
    def check_result(self, players: tuple[str, str], result: MatchResult, stage: Stage) -> None:
        assert result.game_results is not None
        if DRAW in players or ANNULLED in players:
            raise InvalidResult(
                "a player id 'draw' cannot be told apart from a drawn game in game_results"
            )
        games = result.game_results
        for game in games:
            if game not in (DRAW, ANNULLED) and game not in players:
                raise InvalidResult(
                    f"game result {game!r} is neither a player of this match nor 'draw'"
                )
        if stage == "swiss":
            if result.light is not None or result.decided_by is not None:
                raise InvalidResult(
                    "light and decided_by are recorded for final games only (lcg-2.1d Finalrunden)"
                )
            self._check_swiss(games)
        else:
            self._check_elimination(games)
            if result.decided_by not in (None, "time_count"):
                raise InvalidResult(
                    "a final game is decided at time by the count (decided_by: time_count), "
                    "lcg-2.1d Spielende durch Zeitablauf"
                )
            if result.light is not None and result.light not in players:
                raise InvalidResult(f"light {result.light!r} is not a player of this match")

    def result_form(self, stage: Stage) -> ResultForm:
        """Each game's winner or a draw ("Zeitlimit"): two games in Swiss ("jede
        Begegnung besteht aus 2 Spielen"); in the finals one game that has a winner
        ("Einzelspiel-Runden", "Spielende durch Zeitablauf")."""
        if stage == "swiss":
            return ResultForm("game_winners", games=SWISS_GAMES, draws=True)
        return ResultForm("game_winners", games=ELIMINATION_GAMES)

    @staticmethod
    def _check_swiss(games: Sequence[str]) -> None:
        if len(games) != SWISS_GAMES:
            raise InvalidResult(
                f"a Swiss match is two games, one entry each; got {len(games)} "
                "(lcg-2.1d Ablauf eines Turniers: jede Begegnung besteht aus 2 Spielen)"
            )

    @staticmethod
    def _check_elimination(games: Sequence[str]) -> None:
        if len(games) != ELIMINATION_GAMES:
            raise InvalidResult(
                f"an elimination match is a single game, one entry; got {len(games)} "
                "(lcg-2.1d Finalrunden: Einzelspiel-Runden)"
            )
        if games[0] == DRAW:
            raise InvalidResult(
                "an elimination game has a winner: a time-out is decided by the count of "
                "lcg-2.1d Spielende durch Zeitablauf; report that player"
            )

    def outcomes(self, players: tuple[str, str], result: MatchResult) -> tuple[Outcome, Outcome]:
        a, b = players
        assert result.game_results is not None
        return (
            self.side(a, b, result.game_results),
            self.side(b, a, result.game_results),
        )

    def side(self, player: str, opponent: str, games: Sequence[str]) -> Outcome:
        """One player's match: the sum of 3/1/0 per game ("Wertung")."""
        won = sum(g == player for g in games)
        drawn = sum(g == DRAW for g in games)
        lost = sum(g == opponent for g in games)  # an annulled game counts for nobody
        mine = self.win_points * won + self.draw_points * drawn
        theirs = self.win_points * lost + self.draw_points * drawn
        result: MatchOutcome = "win" if mine > theirs else "loss" if mine < theirs else "draw"
        return Outcome(opponent, result, mine, won, lost, drawn)

    def forfeit(self, players: tuple[str, str], loser: str, stage: Stage) -> MatchResult:
        """Lost without play: every game of the match to the opponent."""
        winner = players[1] if loser == players[0] else players[0]
        games = SWISS_GAMES if stage == "swiss" else ELIMINATION_GAMES
        return MatchResult(game_results=(winner,) * games)

    def after_game_loss(
        self, players: tuple[str, str], result: MatchResult, penalized: str, stage: Stage
    ) -> MatchResult:
        """The opponent gets one game win: the first game the penalized player did not
        lose becomes the opponent's (the document names the sanction, "Spiel- und oder
        Paarungsverlust", not which game it takes: the common model of the Magic
        Infraction Procedure Guide decides)."""
        winner = players[1] if penalized == players[0] else players[0]
        games = list(result.game_results or ())
        for i, game in enumerate(games):
            if game != winner:
                games[i] = winner
                break
        return MatchResult(game_results=tuple(games))

    def annulled(self, result: MatchResult, player: str) -> MatchResult:
        """The games ``player`` won annulled ("Decküberprüfung": "Das Spiel wird
        annulliert"; which game is our choice, module docstring): they score nothing."""
        if result.game_results is None:
            return result
        games = tuple(ANNULLED if g == player else g for g in result.game_results)
        return result.model_copy(update={"game_results": games})

    def bye(self) -> Outcome:
        """Two won games, 6 points; not an opponent (the document is silent)."""
        return Outcome(None, "win", BYE_POINTS, games_won=SWISS_GAMES)

    def list_violations(self, deck: DeckList) -> tuple[Violation, ...]:
        """ "Deckvoraussetzungen" of both decks."""
        return lcg(self.id, as_shape(LcgList, deck))

    # standings ---------------------------------------------------------------
    def scores(self, records: Mapping[str, Sequence[Outcome]]) -> dict[str, Scores]:
        points = {p: sum(o.points for o in outs) for p, outs in records.items()}
        met = {p: opponents(outs) for p, outs in records.items()}
        sos = {p: sum(points[o] for o in opps) for p, opps in met.items()}
        out: dict[str, Scores] = {}
        for player, outcomes in records.items():
            sos2 = sum(sos[o] for o in met[player])
            tiebreakers = {"sos": sos[player], "sos2": sos2}
            key = (points[player], sos[player], sos2)
            out[player] = Scores(points[player], record_of(outcomes), tiebreakers, key)
        return out

    def order(
        self,
        ranked: list[str],
        scores: Mapping[str, Scores],
        records: Mapping[str, Sequence[Outcome]],
    ) -> list[str]:
        """Head to head within each group of equal points ("Tabellen-Stärke")."""
        beaten = beaten_by(records)
        ordered: list[str] = []
        for _, group in groupby(ranked, key=lambda p: scores[p].points):
            ordered.extend(head_to_head(list(group), beaten))
        return ordered

    # tables ------------------------------------------------------------------
    def table_rounds(self, players: int) -> int:
        """No table in the document: the organizer announces it; ceil(log2(players))."""
        return ceil_log2(players)


def check_team(options: Mapping[str, Any]) -> None:
    """``team`` is true or false, nothing else (1 is not true here)."""
    if "team" in options and not isinstance(options["team"], bool):
        raise InvalidOptions("option 'team' must be true or false")


def opponents(outcomes: Sequence[Outcome]) -> list[str]:
    """Every opponent met, once per match; a bye is not an opponent."""
    return [o.opponent for o in outcomes if o.opponent is not None]


def beaten_by(records: Mapping[str, Sequence[Outcome]]) -> dict[str, set[str]]:
    """Whom each player beat: won more of their matches against them than lost."""
    beaten: dict[str, set[str]] = {}
    for player, outcomes in records.items():
        net: dict[str, int] = {}
        for o in outcomes:
            if o.opponent is not None and o.result != "draw":
                net[o.opponent] = net.get(o.opponent, 0) + (1 if o.result == "win" else -1)
        beaten[player] = {q for q, n in net.items() if n > 0}
    return beaten


def head_to_head(tied: list[str], beaten: Mapping[str, set[str]]) -> list[str]:
    """Place the tied players one by one, best first.

    At each step a remaining player who beat every other remaining player goes
    first; when there is none, the best by ``sos``, ``sos2`` and the random key
    (the order ``tied`` arrives in) does, and the rule starts again on the rest.
    """
    remaining = list(tied)
    ordered: list[str] = []
    while remaining:
        others = len(remaining) - 1
        first = next(
            (
                p
                for p in remaining
                if len(beaten.get(p, ())) >= others
                and all(q in beaten[p] for q in remaining if q != p)
            ),
            remaining[0],
        )
        ordered.append(first)
        remaining.remove(first)
    return ordered
