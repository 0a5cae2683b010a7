"""Which stored event types and versions this code reads: every model's newest version,
and every older one an upcaster lifts (``ledger.events.UPCASTERS``). A pair not here is
a log written by a newer tledger, refused before it is appended anywhere (a mirror's
pushed batch) rather than failing on the first read."""

from __future__ import annotations

from typing import get_args

from ledger.events import UPCASTERS, Event

#: the stored (type, version) pairs this version of the code reads: every model's newest
#: and every version an upcaster lifts (a pair not here is a log written by a newer one)
EVENT_VERSIONS: frozenset[tuple[str, int]] = frozenset(
    (model.model_fields["type"].default, model.model_fields["version"].default)
    for model in get_args(get_args(Event)[0])
)


def readable_version(kind: object, version: object) -> bool:
    """Whether stored JSON of this ``type`` and ``version`` is one this code reads."""
    return (kind, version) in EVENT_VERSIONS or (kind, version) in UPCASTERS
