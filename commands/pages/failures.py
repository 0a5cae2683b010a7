"""The pages a failure answers on the faces people read: what happened, in the face's
own words and style, and what to do. The application decides which face a request
belongs to and which status an error is (``commands.web.app``); this module holds what
they share, ``Failure``, and the players' pages (the public page, the projector's clock,
the slip page), in English or German. The console renders the same ``Failure`` for
organizers (``commands.console.failures``).

A damaged log (an integrity error) names its seq: the first event that is damaged,
missing or out of place; the page names the event too, by its name while its first
event can still be read, else by its id. Everything before it is intact, so the last good seq is the
one before, which ``tledger replay T --until N`` and the audit page show. A page for
players says that results cannot be taken now and to tell the organizer; it refreshes
itself (a ``meta`` refresh, no script), so a projector or a phone left on it comes
back by itself once the store is repaired.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from commands.pages.render import labels, render

Kind = Literal["damaged", "not_found", "too_many", "unavailable", "forbidden", "bad_request"]
#: seconds before a players' page of a passing failure loads its address again
REFRESH = 30


@dataclass(frozen=True, slots=True)
class Failure:
    """One failed request as a face shows it: its status, what kind of failure, the
    error's one line, and for a damaged log the tournament, the first damaged seq and
    the event's name when it can still be read (``event``)."""

    status: int
    kind: Kind
    message: str
    tournament: str | None = None
    seq: int | None = None
    retry_after: str | None = None
    event: str | None = None

    @property
    def named(self) -> str | None:
        """What the page calls the event: its name, else its id (None: no event)."""
        return self.event or self.tournament

    @property
    def last_good(self) -> int:
        """The last seq before the damage (0: the first event is damaged)."""
        return max((self.seq or 1) - 1, 0)


def kind_of(status: int, damaged: bool) -> Kind:
    """The kind of failure a status is (a damaged log is told apart by its error)."""
    if damaged:
        return "damaged"
    if status == 404:
        return "not_found"
    if status == 429:
        return "too_many"
    if status in (401, 403):
        return "forbidden"
    if status >= 500:
        return "unavailable"
    return "bad_request"


LABELS: dict[str, dict[str, str]] = {
    "damaged": {"en": "The results record of this event is damaged",
                "de": "Die Ergebnisaufzeichnung dieses Turniers ist beschädigt"},
    "damaged_help": {
        "en": "Nothing is shown or taken until the organizer repairs it: please tell the "
              "organizer or a judge. This page comes back by itself once it is repaired.",
        "de": "Bis die Turnierleitung sie repariert, wird nichts angezeigt oder angenommen: "
              "bitte sag der Turnierleitung oder einem Schiedsrichter Bescheid. Diese Seite "
              "lädt sich danach von selbst neu.",
    },
    "damaged_at": {"en": "Damaged at seq {seq}", "de": "Beschädigt bei Seq {seq}"},
    "for_organizer": {"en": "For the organizer", "de": "Für die Turnierleitung"},
    "intact": {"en": "Everything up to seq {good} is intact.",
               "de": "Bis Seq {good} ist alles unversehrt."},
    "restore": {"en": "Restore the store from an export or a backup.",
                "de": "Stelle den Speicher aus einem Export oder einer Sicherung wieder her."},
    "replay": {"en": "The event as it stood before the damage:",
               "de": "Das Turnier, wie es vor dem Schaden stand:"},
    "verify": {"en": "Verify on the console", "de": "Auf der Konsole prüfen"},
    "not_found": {"en": "There is nothing here", "de": "Hier gibt es nichts"},
    "not_found_help": {"en": "Check the address, or ask the organizer for it.",
                       "de": "Prüfe die Adresse oder frag die Turnierleitung danach."},
    "too_many": {"en": "Too many requests from this device",
                 "de": "Zu viele Anfragen von diesem Gerät"},
    "too_many_help": {"en": "Wait a moment, then try again.",
                      "de": "Warte einen Moment und versuch es dann noch einmal."},
    "unavailable": {"en": "The results are not available right now",
                    "de": "Die Ergebnisse sind gerade nicht erreichbar"},
    "unavailable_help": {"en": "This page tries again by itself. If it stays, tell the "
                               "organizer.",
                         "de": "Diese Seite versucht es von selbst noch einmal. Wenn es so "
                               "bleibt, sag der Turnierleitung Bescheid."},
    "forbidden": {"en": "This is not open to you", "de": "Das ist für dich nicht offen"},
    "forbidden_help": {"en": "Ask the organizer or a judge.",
                       "de": "Frag die Turnierleitung oder einen Schiedsrichter."},
    "bad_request": {"en": "That request was not understood",
                    "de": "Diese Anfrage wurde nicht verstanden"},
    "bad_request_help": {"en": "Go back and try again.",
                         "de": "Geh zurück und versuch es noch einmal."},
    "error": {"en": "Error {status}", "de": "Fehler {status}"},
}  # fmt: skip


def failure_page(failure: Failure, lang: str, projector: bool = False) -> str:
    """The players' page of ``failure`` in ``lang``; it loads its address again after a
    while when the failure may pass (a damaged log, an unavailable store, a wait). On
    the projector (``projector``) its type is sized to be read across the room, as the
    clock's is."""
    refresh = None
    if failure.kind in ("damaged", "unavailable", "too_many"):
        wait = failure.retry_after or ""
        refresh = int(wait) if wait.isdigit() else REFRESH
    # the command in parts that never break inside (a phone is narrow, "--until" no word)
    replay = ["tledger replay", failure.tournament or "T", f"--until {failure.last_good}"]
    return render("failure.html.j2", lang=lang, t=labels(LABELS, lang), failure=failure,
                  refresh=refresh, replay=replay, projector=projector)  # fmt: skip
