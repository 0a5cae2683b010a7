"""The client's address that limits count against: the peer, unless the peer is a proxy
the organizer trusts, and then the first hop of ``X-Forwarded-For``, from its right end,
that no trusted proxy added."""

from __future__ import annotations

import pytest

from commands.api.clients import behind, trusted_networks
from commands.api.guesses import counted_as

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
