"""The report page of a match slip: what a player sees on a phone after scanning the
slip's QR code, in English or German.

It renders the ``MatchSlip`` read model (commands/reads/slipmatch.py) and nothing else:
the event, round, table, both names, where the result stands and a form in the
ruleset's shape. The page works offline at a venue (its stylesheet and a small script
that only shows and hides parts are this server's files, ``static/slip.css`` and
``static/slip.js``; nothing from the internet, nothing inline) and at 360 px (big
touch targets, no horizontal scrolling). Its labels live here: each face keeps its own
(commands/pages/render.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from commands.pages.render import LANGS, labels, render
from commands.reads.papermodels import MatchSlip
from commands.reads.relayed import RelayState
from commands.text.slipform import fields_of

Notice = Literal["unknown", "gone", "too_many", "busy"]

LABELS: dict[str, dict[str, str]] = {
    "title": {"en": "Report your result", "de": "Ergebnis melden"},
    "round": {"en": "Round", "de": "Runde"},
    "table": {"en": "Table", "de": "Tisch"},
    "vs": {"en": "vs", "de": "gegen"},
    "missing": {"en": "No result yet", "de": "Noch kein Ergebnis"},
    "unconfirmed": {"en": "Waiting for {name} to confirm",
                    "de": "Wartet auf die Bestätigung von {name}"},
    "disputed": {"en": "Your reports differ: a judge will decide",
                 "de": "Eure Meldungen weichen ab: die Schiedsrichter entscheiden"},
    "confirmed": {"en": "Confirmed", "de": "Bestätigt"},
    "thanks": {"en": "Thanks — waiting for {name} to confirm",
               "de": "Danke – wartet auf die Bestätigung von {name}"},
    "thanks_confirmed": {"en": "Thanks — the result is confirmed",
                         "de": "Danke – das Ergebnis ist bestätigt"},
    "locked": {"en": "This result is confirmed; ask a judge to correct it.",
               "de": "Dieses Ergebnis ist bestätigt; für eine Korrektur frag die Schiedsrichter."},
    "not_started": {"en": "The round has not started yet: report when it has.",
                    "de": "Die Runde hat noch nicht begonnen: melde danach."},
    "finished": {"en": "The tournament is over; ask a judge.",
                 "de": "Das Turnier ist vorbei; frag die Schiedsrichter."},
    "reported": {"en": "{name} reported", "de": "{name} meldet"},
    "confirm": {"en": "I am {name}: confirm", "de": "Ich bin {name}: bestätigen"},
    "other": {"en": "Something wrong? Report what you saw",
              "de": "Stimmt etwas nicht? Melde, was du gesehen hast"},
    "i_am": {"en": "I am", "de": "Ich bin"},
    "you_are": {"en": "Your code, {name}", "de": "Dein Code, {name}"},
    "your_turn": {"en": "{name} reported: confirm if it is right",
                  "de": "{name} hat gemeldet: bestätige, wenn es stimmt"},
    "own_code": {"en": "{name} confirms with the code on their own half of the slip.",
                 "de": "{name} bestätigt mit dem Code auf der eigenen Hälfte des Zettels."},
    "change": {"en": "Something wrong? Report again", "de": "Stimmt etwas nicht? Neu melden"},
    "games_won": {"en": "Games won", "de": "Gewonnene Spiele"},
    "draws": {"en": "Drawn games", "de": "Unentschiedene Spiele"},
    "points": {"en": "Victory points", "de": "Siegpunkte"},
    "final_salvo": {"en": "Equal points: who won the final salvo?",
                    "de": "Gleiche Punkte: wer hat die finale Salve gewonnen?"},
    "second_player": {"en": "Equal points: who was the second player?",
                      "de": "Gleiche Punkte: wer war der zweite Spieler?"},
    "table_tie": {"en": "Level on games: who won at the table?",
                  "de": "Gleich viele Spiele: wer hat am Tisch gewonnen?"},
    "base_hp": {"en": "Base HP", "de": "Basis-LP"},
    "initiative": {"en": "Initiative", "de": "Initiative"},
    "game": {"en": "Game {n}", "de": "Spiel {n}"},
    "draw": {"en": "Draw", "de": "Remis"},
    "no_show": {"en": "Did not show up", "de": "Nicht erschienen"},
    "nobody": {"en": "We both played", "de": "Wir haben beide gespielt"},
    "no_show_of": {"en": "{name} did not show up", "de": "{name} ist nicht erschienen"},
    "drawn": {"en": "{n} drawn", "de": "{n} unentschieden"},
    "winner": {"en": "winner {name}", "de": "Sieger {name}"},
    "conceded": {"en": "{name} conceded", "de": "{name} hat aufgegeben"},
    "intentional_draw": {"en": "Intentional draw", "de": "Einvernehmliches Unentschieden"},
    "double_loss": {"en": "Double loss", "de": "Doppelte Niederlage"},
    "submit": {"en": "Submit result", "de": "Ergebnis senden"},
    "not_sent": {"en": "Not sent:", "de": "Nicht gesendet:"},
    "unknown": {"en": "No match has this code.", "de": "Zu diesem Code gibt es kein Spiel."},
    "unknown_help": {
        "en": "Check the code on your slip and type it again. A reprinted slip has a new "
              "code: the old one no longer works.",
        "de": "Prüfe den Code auf deinem Zettel und tippe ihn noch einmal. Ein neu "
              "gedruckter Zettel hat einen neuen Code: der alte gilt nicht mehr.",
    },
    "gone": {"en": "This slip's match was paired again.",
             "de": "Das Spiel dieses Zettels wurde neu gepaart."},
    "gone_help": {"en": "Ask for your new slip.", "de": "Frag nach deinem neuen Zettel."},
    "too_many": {"en": "Too many wrong codes from this device.",
                 "de": "Zu viele falsche Codes von diesem Gerät."},
    "too_many_help": {"en": "Wait a minute, then try again.",
                      "de": "Warte eine Minute und versuch es dann noch einmal."},
    "busy": {"en": "This code was used too often just now.",
             "de": "Dieser Code wurde gerade zu oft benutzt."},
    "busy_help": {"en": "Wait a few seconds, then try again.",
                  "de": "Warte ein paar Sekunden und versuch es dann noch einmal."},
    "code": {"en": "Code from your slip", "de": "Code von deinem Zettel"},
    "open": {"en": "Open", "de": "Öffnen"},
    "other_lang": {"en": "Deutsch", "de": "English"},
    "log": {"en": "Log", "de": "Log"},
    "relay_pending": {"en": "Sent — waiting for the venue to receive it",
                      "de": "Gesendet – wartet auf den Empfang beim Veranstalter"},
    "relay_applied": {"en": "Received by the venue", "de": "Beim Veranstalter eingegangen"},
    "relay_refused": {"en": "The venue refused your report:",
                      "de": "Der Veranstalter hat deine Meldung abgelehnt:"},
}  # fmt: skip


def language(requested: str | None, accept: str | None) -> str:
    """``?lang=`` when it names a language of the page, else the first of the phone's
    ``Accept-Language`` (by its q values) that the page has, else English."""
    if requested in LANGS:
        return str(requested)
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((accept or "").split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        ranked.append((-quality, index, tag.strip().lower().split("-")[0]))
    return next((tag for q, _, tag in sorted(ranked) if q < 0 and tag in LANGS), "en")


def report_page(
    slip: MatchSlip, lang: str, *, holder: str | None = None, nonce: str, posted: bool = False,
    error: str | None = None, values: Mapping[str, str] | None = None,
    relayed: RelayState | None = None, again: str | None = None,
) -> str:  # fmt: skip
    """The page of a slip's match as the code's ``holder`` sees it: its state, the one-tap
    confirmation of the opponent's waiting report, and the form, which reports as the
    holder. A code without a holder (issued before players held their own) reports as
    either player, chosen on the form, and confirms whoever is awaited. ``posted``: this
    answers the reporter's own submission; ``error``: why it was not taken; ``values``:
    what was submitted (kept in the form); ``relayed``: on a hosted mirror, where the
    code's last report to the venue stands (a page waiting for the venue reloads
    ``again``, its own address, every two seconds)."""
    waiting = slip.reports[0] if slip.state == "unconfirmed" and slip.reports else None
    mine = waiting is not None and holder is not None and slip.awaiting != holder
    confirm = fields_of(waiting.result, slip) if waiting is not None and not mine else None
    return render("slip_report.html.j2", lang=lang, other_lang=other(lang),
                  t=labels(LABELS, lang), slip=slip, names=slip.names, nonce=nonce,
                  holder=holder, posted=posted, error=error, values=dict(values or {}),
                  confirm=confirm, mine=mine, notice=None, relayed=relayed,
                  again=again)  # fmt: skip


def notice_page(lang: str, notice: Notice) -> str:
    """An unknown, replaced or mistyped code; a match paired again; too many guesses; a
    code used too often: what happened and what to do, and a field to type the code
    again. Nothing about any other match."""
    return render("slip_report.html.j2", lang=lang, other_lang=other(lang),
                  t=labels(LABELS, lang), slip=None, notice=notice, relayed=None)  # fmt: skip


def other(lang: str) -> str:
    return "de" if lang == "en" else "en"
