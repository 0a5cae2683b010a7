"""The public page's switch: ``/t/{tournament}`` is served without a token unless the
organizer turns it off for that tournament.

A face setting, kept in the store's settings records beside the log and never in it:
turning a page off changes no fact of the tournament and no hashed byte, so it is no
event. Who set it last and when are kept with it. Pure over the
store: the shell reads the clock and hands ``now`` in.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from urllib.parse import quote

from commands.errors import Refused, UnknownTournament
from ledger.events import Actor
from ledger.store import Store, TournamentSettings


class NotTheOrganizer(Refused):
    """Only an organizer decides whether the event's page is public (exit 1)."""

    def __init__(self, actor: Actor) -> None:
        super().__init__(f"only an organizer turns the public page on or off (not a {actor.role})")


def page_path(tournament: str) -> str:
    """Where ``tledger serve`` answers the tournament's public page."""
    return f"/t/{quote(tournament, safe='')}"


def known(store: Store, tournament: str) -> None:
    """UnknownTournament unless the store holds the tournament (its first event)."""
    if not store.load(tournament, until=1):
        raise UnknownTournament(tournament)


def public_state(store: Store, tournament: str) -> TournamentSettings:
    """The tournament's settings as stored (on, unless turned off)."""
    known(store, tournament)
    return store.tournament_settings(tournament)


def switch(store: Store, tournament: str, on: bool, actor: Actor, now: datetime
           ) -> TournamentSettings:  # fmt: skip
    """Turn the tournament's public page on or off, as ``actor`` at ``now``."""
    if actor.role != "organizer":
        raise NotTheOrganizer(actor)
    current = public_state(store, tournament)
    changed = dataclasses.replace(current, public_page=on, changed_at=now,
                                  changed_by=f"{actor.role}:{actor.id}")  # fmt: skip
    store.put_tournament_settings(changed)
    return changed
