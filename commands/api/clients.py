"""The address a request comes from, as every limit that counts per client reads it.

Behind a reverse proxy every request arrives from the proxy, and the proxy names the
client in ``X-Forwarded-For``. That header is the client's own text until a proxy the
organizer trusts wrote it, so it is read only when the connection comes from a proxy
named with ``tledger serve --trusted-proxy`` (an address or a network): walking the
header from its right end, each hop a trusted proxy added is passed over, and the
first hop that is not a trusted proxy is the client. Otherwise the connection's own
peer is the client, whatever the header says, so that a client cannot pick the address
its limits are counted against.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network, ip_address, ip_network

from fastapi import Request

from commands.api.deps import settings_of

Network = IPv4Network | IPv6Network
Address = IPv4Address | IPv6Address


def trusted_networks(texts: Iterable[str]) -> tuple[Network, ...]:
    """The organizer's ``--trusted-proxy`` values as networks (an address alone is a
    network of one); ValueError naming a value that is neither."""
    found = []
    for text in texts:
        try:
            found.append(ip_network(text.strip(), strict=False))
        except ValueError:
            raise ValueError(f"--trusted-proxy {text!r} is not an address or a network "
                             "(such as 10.0.0.5 or 10.0.0.0/24)") from None  # fmt: skip
    return tuple(found)


def client_address(request: Request) -> str:
    """The client's address: the peer, or behind trusted proxies the client they name."""
    peer = request.client.host if request.client else ""
    forwarded = request.headers.getlist("x-forwarded-for")
    return behind(peer, forwarded, settings_of(request).trusted_proxies)


def behind(peer: str, forwarded: Sequence[str], trusted: Sequence[Network]) -> str:
    """The first address, from the peer back along ``forwarded`` (the header's values in
    the order received, each a comma-separated list), that is not a trusted proxy; a
    hop that is no address ends the walk at the proxy that passed it on."""
    hops = [hop.strip() for value in forwarded for hop in value.split(",")]
    current = parsed(peer)
    if current is None:
        return peer
    while hops and is_trusted(current, trusted):
        before = parsed(hops.pop())
        if before is None:
            break
        current = before
    return str(current)


def parsed(text: str) -> Address | None:
    """An address as text, or None (an IPv4 address mapped into IPv6 is the IPv4 one)."""
    try:
        address = ip_address(text)
    except ValueError:
        return None
    mapped = address.ipv4_mapped if isinstance(address, IPv6Address) else None
    return mapped or address


def is_trusted(address: Address, trusted: Sequence[Network]) -> bool:
    return any(address.version == net.version and address in net for net in trusted)


def forwarded_scheme(peer: str, forwarded: Sequence[str], trusted: Sequence[Network]) -> str | None:
    """The scheme the client used, as a trusted proxy in front says it in
    ``X-Forwarded-Proto`` (its last value: the one the nearest proxy set), or None: from
    any other peer, or for a value other than ``http`` or ``https``."""
    current = parsed(peer)
    if current is None or not is_trusted(current, trusted) or not forwarded:
        return None
    scheme = forwarded[-1].split(",")[-1].strip().lower()
    return scheme if scheme in ("http", "https") else None
