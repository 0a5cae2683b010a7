"""The events of SWU limited events (swu-1.4 §2.3.2, swu-1.0 §2.3.2): draft pods and
the deck-building phase.

In draft and sealed the decks are built at the event from the product the organizer
hands out, in 30 minutes (§2.3.2); in a draft the players first sit around a table as a
pod and pass cards left and right (§2.3.2.1), so who sits where in which pod is a fact
of the event, drawn at random from a recorded seed like a round's pairings: replay
never draws again, and an auditor can recompute the draw and compare.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ledger.event_base import EventBase, Frozen


class Pod(Frozen):
    """One draft pod (§2.3.2.1 "Gruppe"): its number and its players in seat order
    (``players[0]`` sits in seat 1, and so on round the table; the player after the
    last seat is seat 1 again), since the draft passes cards to the left and to the
    right."""

    pod: int = Field(ge=1)
    players: tuple[str, ...]


class PodsAssigned(EventBase):
    """The players of a draft event seated in pods at random from ``seed`` (``pod_size``:
    the size asked for; how the players split into pods: :mod:`projections.pods`). A
    later assignment replaces an earlier one (allowed until deck building starts);
    ``tledger verify`` draws again from the seed and compares."""

    type: Literal["pods_assigned"] = "pods_assigned"
    version: Literal[1] = 1
    pod_size: int
    seed: int
    #: the draw's version (``projections.pods.ENGINE``): ``verify`` re-derives the pods
    #: it can and names another version as such, as for pairings
    engine: str
    pods: tuple[Pod, ...]
    reason: str | None = None


class DeckBuildingStarted(EventBase):
    """The deck-building phase of a limited event began at ``at`` and lasts ``minutes``
    (the document's 30 unless the organizer gave another time, §2.3.2)."""

    type: Literal["deck_building_started"] = "deck_building_started"
    version: Literal[1] = 1
    minutes: int = Field(ge=1)
