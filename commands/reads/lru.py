"""A bounded cache shared by request threads: the read side's entries
(``commands.reads.cache``) and the public page's rendered pages are kept in one each."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")
#: serialized bytes one cache may hold (a 2,048-player standings is about 400 kB)
CACHE_BYTES = 64 * 1024 * 1024


class Lru(Generic[V]):
    """Values by key; the least recently used go past ``size`` entries or ``budget``
    bytes (as ``weight`` counts them). Safe to share between request threads."""

    def __init__(self, size: int, weight: Callable[[V], int] = lambda v: 0,
                 budget: int = CACHE_BYTES) -> None:  # fmt: skip
        self.size, self.weight, self.budget = size, weight, budget
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._bytes = 0
        self._guard = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self._guard:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: Hashable, value: V) -> None:
        with self._guard:
            old = self._items.pop(key, None)
            self._bytes -= self.weight(old) if old is not None else 0
            self._items[key] = value
            self._bytes += self.weight(value)
            while self._items and (len(self._items) > self.size or self._bytes > self.budget):
                self._bytes -= self.weight(self._items.popitem(last=False)[1])

    def __len__(self) -> int:
        return len(self._items)

    def held(self) -> list[Hashable]:
        with self._guard:
            return list(self._items)
