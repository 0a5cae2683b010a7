"""Wrong match slip codes, bounded so that guessing stays hopeless and a guesser cannot
lock out the players who hold a code.

A code is 8 characters of 31 (commands.slipcodes): what keeps guessing hopeless is how
many wrong codes the server looks up. A wrong code and a right one look the same until
the code is looked up, so a bound must refuse before the lookup, and it refuses by who
asks (the client's address, commands.api.clients):

- **Per address.** An address that tried ``slip_miss_burst`` wrong codes gets 429 before
  its next code is looked up, and then one more try every 1/``slip_misses_per_second``
  seconds. A guesser spends his own address's tries only.
- **All addresses together.** Wrong codes of every address share one budget
  (``slip_all_miss_burst``, refilled at ``slip_all_misses_per_second``). An address that
  guessed wrong within the hour must also fit in it, so once it is spent a guesser with
  many addresses gets at most one more try from each per hour: rotating addresses
  gains nothing worth having.
- **Never for others' guesses.** An address without a wrong code in the hour is always
  looked up: a valid code from it is never refused for wrong codes tried elsewhere.
- **IPv6.** A host picks any address of its /64 network, so a /64 counts as one address.

A valid code's own use, its page and its reports, is bounded per code
(commands.api.slips). Behind one shared address (a NAT) a guesser slows everyone
behind it, as nothing before the lookup tells his requests from theirs; a reverse
proxy named with ``--trusted-proxy`` is no such address.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from ipaddress import IPv6Address, ip_address, ip_network

from fastapi import Request

from commands.api.deps import settings_of
from commands.api.limits import RateLimiter, Settings

#: the key of the budget all addresses share
EVERYONE = "*"
#: how long an address that guessed wrong stays bound by the shared budget
MARKED_SECONDS = 3600.0
_CREATING = threading.Lock()


class GuessLimiter(RateLimiter):
    """A token bucket per key that is looked at before a code is looked up (``wait``)
    and spent only on a wrong code (``take``)."""

    def wait(self, key: str) -> float | None:
        """Seconds until ``key`` may try a code again; None when it may now."""
        now = self.clock()
        with self.guard:
            bucket = self.buckets.get(key)
            if bucket is None:
                return None
            tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.rate)
        return None if tokens >= 1 else (1 - tokens) / self.rate


class Guesses:
    """The wrong codes of this process: per address, all together, and which addresses
    guessed wrong within the hour. The clock is an input, so tests move time."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic):
        self.own = GuessLimiter(settings.slip_misses_per_second, settings.slip_miss_burst,
                                clock)  # fmt: skip
        self.shared = GuessLimiter(settings.slip_all_misses_per_second,
                                   settings.slip_all_miss_burst, clock)  # fmt: skip
        self.marked = GuessLimiter(1 / MARKED_SECONDS, 1, clock)

    def wait(self, address: str) -> float | None:
        """Seconds until ``address`` may have a code looked up; None when it may now."""
        key = counted_as(address)
        own = self.own.wait(key)
        if own is not None or self.marked.wait(key) is None:
            return own
        return self.shared.wait(EVERYONE)

    def miss(self, address: str) -> None:
        """A wrong code from ``address``: one try of its own and one of the shared budget
        spent, and the address bound by the shared budget for the hour."""
        key = counted_as(address)
        self.own.take(key)
        self.marked.take(key)
        self.shared.take(EVERYONE)


def counted_as(address: str) -> str:
    """The key an address is counted under: an IPv6 address's /64 network, else itself."""
    try:
        parsed = ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, IPv6Address):
        return str(ip_network(f"{parsed}/64", strict=False))
    return address


def guesses_of(request: Request) -> Guesses:
    """The application's wrong codes, counted from its first slip request on."""
    state = request.app.state
    with _CREATING:
        guesses: Guesses | None = getattr(state, "slip_guesses", None)
        if guesses is None:
            guesses = state.slip_guesses = Guesses(settings_of(request))
    return guesses
