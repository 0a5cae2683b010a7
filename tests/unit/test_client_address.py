"""The client's address that limits count against: the peer, unless the peer is a proxy
the organizer trusts, and then the first hop of ``X-Forwarded-For``, from its right end,
that no trusted proxy added; and the scheme, from a trusted proxy's ``X-Forwarded-Proto``
(TLS ends at the proxy)."""

from __future__ import annotations

import asyncio

import pytest
from starlette.types import Message, Receive, Scope, Send

from commands.api.clients import behind, forwarded_scheme, trusted_networks
from commands.api.guesses import counted_as
from commands.web.forwarded import ForwardedScheme

PROXIES = trusted_networks(["127.0.0.1", "10.0.0.0/24"])


@pytest.mark.parametrize(("peer", "forwarded", "client"), [
    ("203.0.113.5", ["198.51.100.1"], "203.0.113.5"),
    ("127.0.0.1", [], "127.0.0.1"),
    ("127.0.0.1", ["198.51.100.1"], "198.51.100.1"),
    ("127.0.0.1", ["6.6.6.6, 198.51.100.1"], "198.51.100.1"),
    ("127.0.0.1", ["6.6.6.6, 198.51.100.1, 10.0.0.9"], "198.51.100.1"),
    ("127.0.0.1", ["6.6.6.6", "198.51.100.1"], "198.51.100.1"),
    ("127.0.0.1", ["10.0.0.7, 10.0.0.9"], "10.0.0.7"),
    ("127.0.0.1", ["198.51.100.1, unknown"], "127.0.0.1"),
    ("::ffff:127.0.0.1", ["198.51.100.1"], "198.51.100.1"),
    ("testclient", ["198.51.100.1"], "testclient"),
])  # fmt: skip
def test_the_forwarded_client_counts_only_behind_a_trusted_proxy(
    peer: str, forwarded: list[str], client: str
) -> None:
    assert behind(peer, forwarded, PROXIES) == client


def test_no_trusted_proxy_means_the_peer_always_counts() -> None:
    assert behind("127.0.0.1", ["198.51.100.1"], ()) == "127.0.0.1"


def test_a_trusted_proxy_is_an_address_or_a_network() -> None:
    assert [str(n) for n in trusted_networks(["::1", " 10.1.2.3/16 "])] == ["::1/128",
                                                                         "10.1.0.0/16"]  # fmt: skip
    with pytest.raises(ValueError, match="'venue-router' is not an address or a network"):
        trusted_networks(["venue-router"])


def test_an_ipv6_address_counts_as_its_64_network_and_others_as_themselves() -> None:
    assert counted_as("2001:db8:5:7::1") == counted_as("2001:db8:5:7:ffff::9") == (
        "2001:db8:5:7::/64")  # fmt: skip
    assert counted_as("203.0.113.5") == "203.0.113.5"
    assert counted_as("testclient") == "testclient"


@pytest.mark.parametrize(("peer", "forwarded", "scheme"), [
    ("127.0.0.1", ["https"], "https"),
    ("127.0.0.1", ["HTTP"], "http"),
    ("127.0.0.1", ["http, https"], "https"),
    ("127.0.0.1", [], None),
    ("127.0.0.1", ["gopher"], None),
    ("203.0.113.5", ["https"], None),
    ("testclient", ["https"], None),
])  # fmt: skip
def test_the_forwarded_scheme_counts_only_from_a_trusted_proxy(
    peer: str, forwarded: list[str], scheme: str | None
) -> None:
    assert forwarded_scheme(peer, forwarded, PROXIES) == scheme


def scheme_seen(client: tuple[str, int], headers: list[tuple[bytes, bytes]]) -> str:
    """The scheme the application behind ``ForwardedScheme`` sees for one request."""
    seen: list[str] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        seen.append(scope["scheme"])

    async def nothing() -> Message:
        return {}

    async def drop(message: Message) -> None:
        return None

    scope: Scope = {"type": "http", "scheme": "http", "client": client, "headers": headers}
    asyncio.run(ForwardedScheme(app, PROXIES)(scope, nothing, drop))
    return seen[0]


def test_behind_a_trusted_tls_proxy_the_application_sees_https() -> None:
    proto = [(b"x-forwarded-proto", b"https")]
    assert scheme_seen(("127.0.0.1", 40000), proto) == "https"
    assert scheme_seen(("203.0.113.5", 40000), proto) == "http"
    assert scheme_seen(("127.0.0.1", 40000), []) == "http"
