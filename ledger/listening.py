"""Waiting for appends on PostgreSQL: LISTEN on the library's channel.

The library's PostgreSQL recorder runs ``NOTIFY`` on a channel named after its stored
events inside every transaction that inserts events, so a process that LISTENs learns
of every append by any process when it commits, without polling. The library's
own ``subscribe()`` also reads the notifications (unchecked, two threads per
subscription); a reader here only needs the wake-up, and reads and checks the
events itself (``Store.scan``).

The listening connection is its own, outside the library's pool: it is held as
long as the process tails the store, and the pool's few connections serve the
commands and reads.
"""

from __future__ import annotations

import time
from typing import Any

import psycopg
from psycopg import sql

#: the connection settings of the library's pool that a plain connection takes
CONNECTION_KEYS = ("dbname", "host", "port", "user", "password")
CONNECT_TIMEOUT = 5


class PostgresListener:
    """A LISTEN connection, opened on the first wait and reopened after a failure.

    Not thread-safe: one thread waits on it and closes it.
    """

    def __init__(self, pool_kwargs: dict[str, Any], channel: str) -> None:
        self._kwargs = {k: pool_kwargs[k] for k in CONNECTION_KEYS if k in pool_kwargs}
        self._channel = channel
        self._connection: psycopg.Connection[Any] | None = None

    def wait(self, timeout: float) -> bool:
        """True when a NOTIFY arrived within ``timeout`` seconds, or when the connection
        was (re)opened: appends made while nobody listened were not announced."""
        try:
            if self._connection is None:
                self._connection = self._connect()
                return True
            for _ in self._connection.notifies(timeout=timeout, stop_after=1):
                return True
            return False
        except psycopg.Error:
            self.close()
            time.sleep(timeout)  # the database is away: do not spin while it is
            return True

    def _connect(self) -> psycopg.Connection[Any]:
        connection = psycopg.connect(
            **self._kwargs, autocommit=True, connect_timeout=CONNECT_TIMEOUT
        )
        connection.execute(sql.SQL("LISTEN {0}").format(sql.Identifier(self._channel)))
        return connection

    def close(self) -> None:
        if self._connection is not None:
            connection, self._connection = self._connection, None
            connection.close()
