"""The public page's words in English and German (the regulations and many events are
German), and which of the two a visitor gets: ``?lang=`` when given, else the first of
en and de their browser's ``Accept-Language`` names, else English.

The names of elimination rounds come from ``projections.round_names`` in English; the
German page says the plain ones in German (final, semifinal, quarterfinal, round of N)
and leaves the others, which carry the regulation's own terms, as they are.
"""

from __future__ import annotations

import re

from commands.pages.render import LANGS, labels

# fmt: off
PUBLIC_LABELS: dict[str, dict[str, str]] = {
    "where": {"en": "Where do I play?", "de": "Wo spiele ich?"},
    "search_hint": {"en": "Name or number", "de": "Name oder Nr."},
    "find": {"en": "Find", "de": "Suchen"},
    "clear": {"en": "Show all", "de": "Alle zeigen"},
    "nobody": {"en": "Nobody found for", "de": "Niemand gefunden für"},
    "pairings": {"en": "Pairings", "de": "Paarungen"},
    "standings": {"en": "Standings", "de": "Rangliste"},
    "bracket": {"en": "Bracket", "de": "Turnierbaum"},
    "round": {"en": "Round", "de": "Runde"},
    "of": {"en": "of", "de": "von"},
    "table": {"en": "Table", "de": "Tisch"},
    "bye": {"en": "Bye", "de": "Freilos"},
    "versus": {"en": "vs", "de": "gegen"},
    "chooses_initiative": {"en": "chooses initiative", "de": "bestimmt die Initiative"},
    "initiative_tie": {"en": "Tie: decide at random who chooses initiative",
                       "de": "Gleichstand: auslosen, wer die Initiative bestimmt"},
    "not_paired": {"en": "The pairings are not out yet.",
                   "de": "Die Paarungen stehen noch nicht fest."},
    "rank": {"en": "Rank", "de": "Platz"},
    "player": {"en": "Player", "de": "Spieler"},
    "points": {"en": "Points", "de": "Punkte"},
    "points_short": {"en": "pts", "de": "Pkt."},
    "record": {"en": "W-L-D", "de": "S-N-U"},
    "dropped": {"en": "dropped", "de": "ausgestiegen"},
    "players": {"en": "players", "de": "Spieler"},
    "seeds": {"en": "Seeds", "de": "Setzliste"},
    "winner": {"en": "winner", "de": "Sieger"},
    "champion": {"en": "Champion", "de": "Turniersieger"},
    "teams": {"en": "teams", "de": "Teams"},
    "decided_base_hp": {"en": "level: won on base HP", "de": "Gleichstand: Sieg über Basis-LP"},
    "decided_initiative": {"en": "level: won on initiative",
                           "de": "Gleichstand: Sieg über Initiative"},
    "decided_final_salvo": {"en": "level: won by final salvo",
                            "de": "Gleichstand: Sieg durch Finale Salve"},
    "decided_second_player": {"en": "level: the second player wins",
                              "de": "Gleichstand: der zweite Spieler gewinnt"},
    "head": {"en": "Log head (a witness: photograph it to check the log later)",
             "de": "Stand des Protokolls (ein Zeuge: fotografieren, um das Protokoll "
                   "später zu prüfen)"},
    "live": {"en": "Updates itself", "de": "Aktualisiert sich selbst"},
    "polling": {"en": "Updates every 30 seconds", "de": "Aktualisiert sich alle 30 Sekunden"},
    "stage_registration": {"en": "Registration", "de": "Anmeldung"},
    "stage_swiss": {"en": "Swiss rounds", "de": "Schweizer System"},
    "stage_cut": {"en": "Top cut made", "de": "Top-Cut steht fest"},
    "stage_elimination": {"en": "Elimination rounds", "de": "K.-o.-Runden"},
    "stage_finished": {"en": "Finished", "de": "Beendet"},
    "state_paired": {"en": "paired", "de": "gepaart"},
    "state_started": {"en": "under way", "de": "läuft"},
    "state_complete": {"en": "complete", "de": "abgeschlossen"},
    "closed": {"en": "This tournament has no public page.",
               "de": "Dieses Turnier hat keine öffentliche Seite."},
    "closed_hint": {"en": "Ask the organizer for the pairings.",
                    "de": "Die Paarungen gibt es bei der Turnierleitung."},
    "language": {"en": "Deutsch", "de": "English"},
    "clock": {"en": "Clock", "de": "Rundenuhr"},
    "ends": {"en": "ends", "de": "endet"},
    "ends_at": {"en": "Round ends", "de": "Rundenende"},
    "left": {"en": "left", "de": "übrig"},
    "time_up": {"en": "Time!", "de": "Zeit!"},
    "over_time": {"en": "over time", "de": "Zeit abgelaufen"},
    "no_limit": {"en": "No time limit", "de": "Kein Zeitlimit"},
    "not_started": {"en": "Not started yet", "de": "Noch nicht gestartet"},
    "minutes": {"en": "minutes", "de": "Minuten"},
    "minutes_short": {"en": "min", "de": "Min."},
    "extended": {"en": "Tables with extra time", "de": "Tische mit Zeitverlängerung"},
    "no_extended": {"en": "No table has extra time.", "de": "Kein Tisch hat Zeitverlängerung."},
}
# fmt: on

#: German for the plain names of elimination rounds (``projections.round_names``)
ROUND_NAMES_DE = {"final": "Finale", "semifinal": "Halbfinale", "quarterfinal": "Viertelfinale",
                  "elimination": "K.-o.-Runde"}  # fmt: skip
ROUND_OF = re.compile(r"round of (\d+)")


def public_labels(lang: str) -> dict[str, str]:
    """The page's labels in ``lang`` (every key in both languages: checked here)."""
    return labels(PUBLIC_LABELS, lang)


def round_name(name: str, lang: str) -> str:
    """An elimination round's name as the page's language says it."""
    if lang != "de":
        return name
    found = ROUND_OF.fullmatch(name)
    if found:
        return f"Runde der letzten {found.group(1)}"
    return ROUND_NAMES_DE.get(name, name)


def language(asked: str | None, accept_language: str | None) -> str:
    """``?lang=`` when given (checked by the route), else the ``Accept-Language`` entry
    with the highest weight that is en or de (RFC 9110 §12.5.4), else English."""
    if asked in LANGS:
        return asked
    best, weight = "en", 0.0
    for part in (accept_language or "").split(","):
        tag, _, params = part.strip().partition(";")
        primary = tag.strip().lower().split("-")[0]
        q = params.strip().removeprefix("q=") if params.strip().startswith("q=") else "1"
        try:
            value = float(q)
        except ValueError:
            continue
        if primary in LANGS and value > weight:
            best, weight = primary, value
    return best
