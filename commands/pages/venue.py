"""The venue a server runs for: its time zone and the address phones reach it at.

Both are inputs of the faces, set once by ``tledger serve`` (``--tz``, ``--venue``,
``--base-url``) and handed to every page that shows a time or prints an address: the
log's times are UTC, and the console, the public page, the projector's clock and the
printouts show them in the venue's zone, named ("14:05 CET"), so that a clock on the
wall, the console and a phone agree. Nothing in the core reads it.

A loopback address (127.0.0.1, ::1, localhost) reaches only the machine itself: a slip
whose QR code carries one opens nothing on a player's phone, so the console asks before
it prints codes for one (``loopback``).
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from commands.public_switch import page_path

#: where a machine names its zone when ``TZ`` does not (Debian: both; others: the link)
LOCALTIME, TIMEZONE = Path("/etc/localtime"), Path("/etc/timezone")


class UnknownZone(ValueError):
    """A time zone that is not an IANA name known here (one line, naming it)."""


@dataclass(frozen=True, slots=True)
class Venue:
    """The venue's time zone (``zone``, its IANA name ``zone_name``) and the base URL of
    this server on the venue network (``base_url``; None: the address a request came in
    on, as a browser on the laptop itself sees it)."""

    zone: tzinfo = UTC
    zone_name: str = "UTC"
    base_url: str | None = None

    def local(self, at: datetime) -> datetime:
        """``at`` (an aware time) in the venue's zone."""
        if at.tzinfo is None:
            raise ValueError("a time shown must carry its time zone")
        return at.astimezone(self.zone)

    def abbreviation(self, at: datetime) -> str:
        """The zone's short name at ``at`` ("CET", "CEST", "UTC"); its IANA name where the
        zone has no letters of its own ("+03" says nothing to a reader)."""
        short = self.local(at).tzname() or ""
        return short if short[:1].isalpha() else self.zone_name

    def time(self, at: datetime, seconds: bool = False) -> str:
        """A time of day as the venue's clocks show it, zone named: ``14:05 CET``."""
        shape = "%H:%M:%S" if seconds else "%H:%M"
        return f"{self.local(at).strftime(shape)} {self.abbreviation(at)}"

    def moment(self, at: datetime) -> str:
        """A date and time of day, zone named: ``2026-11-26 14:05 CET``."""
        return f"{self.local(at).strftime('%Y-%m-%d %H:%M')} {self.abbreviation(at)}"

    def public_url(self, tournament: str, base_url: str) -> str:
        """The public page's address under ``base_url``."""
        return f"{base_url.rstrip('/')}{page_path(tournament)}"


#: a venue in UTC with no address of its own: what a face shows when no venue was given
UTC_VENUE = Venue()


def zone_named(name: str) -> tuple[tzinfo, str]:
    """The zone of an IANA name (``Europe/Berlin``), or ``UnknownZone`` naming it."""
    try:
        return ZoneInfo(name), name
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise UnknownZone(
            f"unknown time zone {name!r} (an IANA name such as Europe/Berlin or UTC)"
        ) from None


def local_zone() -> tuple[tzinfo, str]:
    """The machine's own zone and its IANA name: ``TZ``, else the zone ``/etc/localtime``
    links to, else ``/etc/timezone``; else the offset the system gives now, named by it
    (a fixed offset: no daylight saving, but never a wrong name)."""
    candidates = [os.environ.get("TZ", "").lstrip(":")]
    with contextlib.suppress(OSError):
        target = str(LOCALTIME.resolve())
        candidates.append(target.split("zoneinfo/", 1)[1] if "zoneinfo/" in target else "")
    with contextlib.suppress(OSError):
        candidates.append(TIMEZONE.read_text(encoding="utf-8").strip())
    for name in filter(None, candidates):
        try:
            return zone_named(name)
        except UnknownZone:
            continue
    now = datetime.now().astimezone()
    assert now.tzinfo is not None
    return now.tzinfo, now.tzname() or "UTC"


def loopback(base_url: str) -> bool:
    """Whether ``base_url`` names this machine only (127.0.0.0/8, ::1, localhost): a
    phone that scans it reaches nothing."""
    host = (urlsplit(base_url).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
