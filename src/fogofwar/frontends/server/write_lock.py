"""One SQLite writer at a time across processes, queued on a file lock instead of SQLite's busy handler.

SQLite lets one connection write at a time. A writer that finds the database locked sleeps in SQLite's busy
handler (1, 2, 5, 10, 15, 20, 25 ... 100 ms, then tries again) instead of waking when the lock is free, so two
worker processes committing back to back (`fogofwar serve --workers N`, each with its own group commit) kept
each other waiting tens of milliseconds: on 5 closed-loop games, move p99 went from 13 ms with one process to
44-112 ms with two. An exclusive `flock` on a file beside the database, taken around each write transaction,
makes the other process's writer block in the kernel and wake as soon as the lock is released. Within one process
a thread lock comes first (flock does not tell apart two threads of one process). PostgreSQL needs none of this:
its writers wait on row locks.
"""

from __future__ import annotations

import fcntl
import logging
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.engine import make_url

log = logging.getLogger("fogofwar.frontends.server")

SUFFIX = "-writer.lock"


class WriteLock:
    """Held around each write transaction of a Store's hot paths (a no-op but for SQLite files)."""

    def __init__(self, url: str) -> None:
        self._thread_lock = threading.Lock()
        self._fd: int | None = None
        parsed = make_url(url)
        if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
            path = f"{parsed.database}{SUFFIX}"
            try:
                self._fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            except OSError as exc:  # a read-only directory: SQLite's own locking still keeps writes apart
                log.warning("no writer lock beside the database (%s): writers queue in SQLite's busy handler", exc)

    @property
    def shared(self) -> bool:
        """Whether writers of other processes queue on it (a SQLite file whose lock file could be opened)."""
        return self._fd is not None

    @contextmanager
    def held(self) -> Iterator[None]:
        if self._fd is None:  # PostgreSQL's writers run in parallel: nothing to hold
            yield
            return
        with self._thread_lock:
            fcntl.flock(self._fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(self._fd, fcntl.LOCK_UN)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


__all__ = ["WriteLock"]
