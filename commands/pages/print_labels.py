"""The printouts' words in English and German (the regulations and many events are
German). Every key in both languages: ``render.labels`` refuses a set of labels with a
missing translation, so a German wall never shows a stray English word.

German follows the words of the German regulations where they have one
("Paarungen", "Freilos", "Tabellenstärke", "Finalrunden", "Setzung"), and the
usual words of German events otherwise ("Spielbericht", "Rangliste").
"""

from __future__ import annotations

import re

from commands.pages.render import labels

LABELS: dict[str, dict[str, str]] = {
    # every page
    "round": {"en": "Round", "de": "Runde"},
    "printed": {"en": "printed", "de": "gedruckt"},
    "witness": {"en": "Log head (for verify --witness)",
                "de": "Protokollstand (für verify --witness)"},
    "registration": {"en": "registration", "de": "Anmeldung"},
    "swiss": {"en": "Swiss", "de": "Schweizer System"},
    "cut": {"en": "cut made", "de": "Cut erfolgt"},
    "elimination": {"en": "elimination", "de": "K.-o.-Runden"},
    "finished": {"en": "finished", "de": "beendet"},
    "player": {"en": "Player", "de": "Spieler"},
    "table": {"en": "Table", "de": "Tisch"},
    "bye": {"en": "bye", "de": "Freilos"},
    # pairings
    "pairings": {"en": "Pairings", "de": "Paarungen"},
    "by_table": {"en": "By table", "de": "Nach Tisch"},
    "by_name": {"en": "By name", "de": "Nach Name"},
    "opponent": {"en": "Opponent", "de": "Gegner"},
    # who chooses initiative by list points (X-Wing, Armada); German as the regulations say it
    "initiative": {"en": "Initiative", "de": "Initiative"},
    "chooses_initiative": {"en": "chooses", "de": "bestimmt"},
    "initiative_tie": {"en": "tie: decide at random who chooses",
                       "de": "Gleichstand: auslosen, wer bestimmt"},
    "list_points_short": {"en": "pts", "de": "Pkt."},
    "squad_points": {"en": "squad points", "de": "Kommandopunkte"},
    "fleet_points": {"en": "fleet points", "de": "Flottenpunkte"},
    "initiative_legend": {
        "en": "Initiative: the player with fewer {points} chooses who has initiative; "
              "on a tie, decide at random who chooses. Points as declared on the lists.",
        "de": "Initiative: Wer weniger {points} hat, bestimmt, wer die Initiative hat; "
              "bei Gleichstand wird ausgelost, wer bestimmt. Punkte laut Liste."},
    # standings
    "standings": {"en": "Standings", "de": "Rangliste"},
    "rank": {"en": "#", "de": "Platz"},
    "points": {"en": "Points", "de": "Punkte"},
    "record": {"en": "W-L-D", "de": "S-N-U"},
    "record_means": {"en": "W-L-D: matches won, lost, drawn",
                     "de": "S-N-U: Begegnungen gewonnen, verloren, unentschieden"},
    "dropped": {"en": "dropped", "de": "ausgestiegen"},
    "tiebreakers": {"en": "Tiebreakers, in order", "de": "Feinwertungen, in dieser Reihenfolge"},
    "no_standings": {"en": "No players yet.", "de": "Noch keine Spieler."},
    # slips
    "slips": {"en": "Match slips", "de": "Spielberichte"},
    "slip": {"en": "Match slip", "de": "Spielbericht"},
    "signature": {"en": "Signature", "de": "Unterschrift"},
    "no_show": {"en": "No-show", "de": "Nicht erschienen"},
    "games_won": {"en": "Games won", "de": "Gewonnene Spiele"},
    "drawn_games": {"en": "Drawn games (incl. unfinished at time)",
                    "de": "Unentschiedene Spiele (auch bei Zeitablauf unbeendet)"},
    "victory_points": {"en": "Victory points", "de": "Siegpunkte"},
    "tie_winner": {"en": "Winner if level", "de": "Sieger bei Gleichstand"},
    "game": {"en": "Game", "de": "Spiel"},
    "draw": {"en": "Draw", "de": "Unentschieden"},
    "intentional_draw": {"en": "Intentional draw (no game played)",
                         "de": "Einvernehmliches Unentschieden (kein Spiel gespielt)"},
    "scan": {"en": "Yours alone: scan or open it to report or confirm the result. Cut off "
                   "your half and keep it.",
             "de": "Nur für dich: scannen oder öffnen, um zu melden oder zu bestätigen. "
                   "Abschneiden und behalten."},
    "no_slips": {"en": "No match to report in this round.",
                 "de": "In dieser Runde ist kein Ergebnis zu melden."},
    # bracket
    "bracket": {"en": "Bracket", "de": "Finalrunden"},
    "seeds": {"en": "Seeds", "de": "Setzliste"},
    "seed": {"en": "Seed", "de": "Setzplatz"},
    "playoff_against": {"en": "plays off against", "de": "Stechen gegen"},
    "champion": {"en": "Champion", "de": "Turniersieger"},
    "winner": {"en": "winner", "de": "Sieger"},
    "single": {"en": "single elimination", "de": "einfaches K.-o.-System"},
    "double": {"en": "double elimination", "de": "Doppel-K.-o.-System"},
    "to_play": {"en": "to be played", "de": "noch offen"},
    # draft pods (swu-1.4 §2.3.2.1: "Gruppe"; the German regulation seats "um einen Tisch")
    "pods": {"en": "Draft pods", "de": "Draft-Gruppen"},
    "pod": {"en": "Pod", "de": "Gruppe"},
    "seat": {"en": "Seat", "de": "Platz"},
    "players": {"en": "players", "de": "Spieler"},
    "pods_meta": {"en": "{count} pod(s) of about {size} players, assigned at random "
                        "(seq {seq}, seed {seed}).",
                  "de": "{count} Gruppe(n) mit etwa {size} Spielern, zufällig zugeteilt "
                        "(seq {seq}, Seed {seed})."},
    "pods_legend": {"en": "Sit in seat order round the table: seat 1 next to the last seat. "
                          "Packs pass left, then right, then left (swu-1.4 §2.3.2.1).",
                    "de": "Sitzt in Platzreihenfolge um den Tisch: Platz 1 neben dem letzten "
                          "Platz. Booster gehen nach links, dann rechts, dann links "
                          "(swu-1.4 §2.3.2.1)."},
    "no_pods": {"en": "No pods assigned yet.", "de": "Noch keine Gruppen zugeteilt."},
    # the welcome sheet at the door
    "welcome": {"en": "Welcome", "de": "Willkommen"},
    "wifi": {"en": "Wi-Fi", "de": "WLAN"},
    "welcome_scan": {"en": "Scan for pairings, standings and the round clock",
                     "de": "Scannen für Paarungen, Rangliste und Rundenuhr"},
    "welcome_or_open": {"en": "or open", "de": "oder öffnen"},
}  # fmt: skip

#: The bracket's round names (``projections.round_names``), phrase by phrase, longest
#: first; a regulation's own term in parentheses is kept as the regulation says it.
ROUND_WORDS_DE: tuple[tuple[str, str], ...] = (
    ("grand final, deciding match", "Finale, Entscheidungsspiel"),
    ("grand final", "Finale"),
    ("lower final", "Finale der unteren Gruppe"),
    ("lower round", "untere Gruppe, Runde"),
    ("upper quarterfinal", "obere Gruppe, Viertelfinale"),
    ("upper semifinal", "obere Gruppe, Halbfinale"),
    ("upper final", "obere Gruppe, Finale"),
    ("upper round of", "obere Gruppe, Runde der letzten"),
    ("quarterfinal", "Viertelfinale"),
    ("semifinal", "Halbfinale"),
    ("final", "Finale"),
    ("round of", "Runde der letzten"),
    ("playoff", "Stechen"),
    ("elimination", "K.-o.-Runde"),
)
_TERM = re.compile(r"^(?P<base>[^()]*?)(?P<term>\s*\([^()]*\))?$")


def print_labels(lang: str) -> dict[str, str]:
    """The printouts' labels in ``lang`` (en or de)."""
    return labels(LABELS, lang)


def round_title(name: str, lang: str) -> str:
    """A bracket round's name (``"semifinal"``, ``"upper final / lower round 2"``) in
    ``lang``; a name ``ROUND_WORDS_DE`` does not know stays as it is."""
    if lang != "de":
        return name
    return " / ".join(german_round(part) for part in name.split(" / "))


def german_round(part: str) -> str:
    found = _TERM.match(part)
    if found is None:
        return part
    base, term = found.group("base"), found.group("term") or ""
    for english, german in ROUND_WORDS_DE:
        if base == english or base.startswith(english + " "):
            return german + base[len(english) :] + term
    return part
