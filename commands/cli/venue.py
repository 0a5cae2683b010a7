"""``tledger serve --venue``: the addresses phones on the venue's network reach this
machine at, found without asking the internet, and what ``serve`` prints about them.

The addresses come from two local questions, neither of which sends a packet: which
address the system would send from towards a private network (a UDP socket
"connected" to an address of each private range: connecting a datagram socket only
picks a route), and the addresses the machine's own name resolves to. Loopback,
link-local and unspecified addresses are left out: no phone reaches them. Private
addresses (RFC 1918 and kin) come first, the one the default route uses first of all;
``--venue`` serves on the first one, ``--venue-address`` names another.
"""

from __future__ import annotations

import ipaddress
import socket
import sys
from collections.abc import Callable, Iterable
from typing import TextIO

import segno

#: an address of each private IPv4 range (RFC 1918) to ask the routing table about; no
#: packet is sent to any of them
PROBES = ("10.255.255.255", "172.31.255.255", "192.168.255.255")

#: the one line ``serve`` says when it listens beyond loopback
DECISION = ("binding beyond loopback is a decision: anyone on this network can open the "
            "public pages and the slip pages, and the console's sign-in page")  # fmt: skip


def routed(probe: str) -> str | None:
    """The local address the system would send from towards ``probe`` (None: no route)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            udp.connect((probe, 9))
            address: str = udp.getsockname()[0]
            return address
    except OSError:
        return None


def named() -> list[str]:
    """The IPv4 addresses the machine's own host name resolves to (none when it does not)."""
    try:
        found = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return [str(info[4][0]) for info in found]


def reachable(candidates: Iterable[str]) -> list[str]:
    """The addresses among ``candidates`` a phone on the network could reach, each once,
    private ones first, in the order found."""
    seen: list[str] = []
    for text in candidates:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            continue
        bad = address.is_loopback or address.is_link_local or address.is_unspecified
        if not bad and text not in seen:
            seen.append(text)
    return sorted(seen, key=lambda a: not ipaddress.ip_address(a).is_private)


def venue_addresses(route: Callable[[str], str | None] = routed,
                    names: Callable[[], list[str]] = named) -> list[str]:  # fmt: skip
    """This machine's addresses on the venue network, best first (empty: none found)."""
    return reachable([*(route(p) or "" for p in PROBES), *names()])


def base_url_of(host: str, port: int) -> str:
    """``http://HOST:PORT``, an IPv6 address in brackets."""
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def terminal_qr(url: str, out: TextIO | None = None) -> None:
    """A QR code of ``url`` drawn in the terminal, for a phone to scan off the screen
    (two modules per character cell, so it fits an 80-column window)."""
    stream = out or sys.stdout
    segno.make_qr(url, error="m").terminal(out=stream, compact=True)
    stream.flush()
