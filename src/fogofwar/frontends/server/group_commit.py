"""Group commit: the events that arrive while a commit is under way share the next transaction and its fsync.

Each game commits one change at a time (its lock), but many games commit at once. Instead of one transaction
(and one fsync) each, the appends queue here; a flusher takes everything queued, writes it with
`Store.append_batch` in a writer thread, and wakes each waiting game with its own result. Nobody is answered
before the transaction holding its events has committed, so an acknowledged action is durable as before; under
load the commits per second stay what the disk allows while the events per commit grow. As many flushers run at
once as the store has writers (`store.WRITERS`: one a process, on SQLite and PostgreSQL alike).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from fogofwar.frontends.server.store import Append, Store, StoreError

MAX_BATCH = 256
"""Most games in one transaction: bounds the time one commit holds the database's write lock."""

Run = Callable[[Callable[[list[Append]], list[float | StoreError]], list[Append]], Awaitable[list[float | StoreError]]]
"""How a batch is written off the event loop (the manager's writer threads)."""


@dataclass
class GroupCommit:
    store: Store
    run: Run
    flushers: int = 1
    _queue: list[tuple[Append, asyncio.Future[float]]] = field(default_factory=list)
    _active: int = 0
    batches: int = 0
    """Transactions written (for tests and benchmarks: batches < appends means commits were shared)."""

    async def append(self, item: Append) -> float:
        """Store one game's events with whatever else is queued; their time stamp once committed, or the
        `StoreError` (or the database's error) of that game's append."""
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self._queue.append((item, future))
        if self._active < self.flushers:
            self._active += 1
            asyncio.ensure_future(self._flush())
        return await future

    async def _flush(self) -> None:
        try:
            while self._queue:
                batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
                self.batches += 1
                try:
                    results = await self.run(self.store.append_batch, [item for item, _ in batch])
                except Exception as exc:  # nothing of the batch was stored: each game is told so
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(exc)
                    continue
                for (_, future), result in zip(batch, results, strict=True):
                    if future.done():  # its game stopped waiting (cancelled): the events are stored all the same
                        continue
                    if isinstance(result, StoreError):
                        future.set_exception(result)
                    else:
                        future.set_result(result)
        finally:
            self._active -= 1
