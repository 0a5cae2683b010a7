"""The console's answer to a failed request: a page in the console's style for the
organizer, never a line of JSON. The application decides that a request is the
console's and which ``Failure`` an error is (``commands.web.app``); this renders it.

A damaged log names the first damaged seq and the way out: the History and Audit pages
still read the event up to the seq before it (``commands.console.history``,
``commands.console.audit``), Verify names what is wrong, ``tledger replay T --until N``
shows the event as it stood, and an export or a backup restores it (``tledger import``).
"""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import HTMLResponse

from commands.console.respond import page
from commands.pages.failures import Failure

TITLES = {
    "damaged": "The log of this event is damaged",
    "not_found": "Not found",
    "too_many": "Too many requests",
    "unavailable": "The store is unavailable",
    "forbidden": "Not allowed",
    "bad_request": "Bad request",
}


def failure_page(request: Request, failure: Failure, headers: dict[str, str] | None = None
                 ) -> HTMLResponse:  # fmt: skip
    """The failure's page with its status (and ``Retry-After`` when there is one)."""
    answer = page(request, None, "failure.html.j2", failure=failure, title=TITLES[failure.kind],
                  tournament=failure.tournament, event_name=failure.event)  # fmt: skip
    answer.status_code = failure.status
    answer.headers.update(headers or {})
    return answer
