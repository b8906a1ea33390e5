"""The garbage collector of a long-running server: short passes on a timer, no full pass in the middle of play.

CPython's collector stops the event loop while it walks the objects of the generations it collects. A worker with
a thousand live games holds about half a million of them (mostly each connection's coroutines, futures and
buffers). Under the default thresholds a full (generation 2) pass ran every few seconds and stopped the loop for
0.3-0.6 s, because every view a game replaces lives long enough to be promoted; and as those thresholds count
allocations net of frees, a server that replaces what it holds let the young generations grow to 50,000-80,000
objects between passes, 40-100 ms each. At human pace (`benchmarks/web_load.py --games 2000 --pace 3`) those
pauses were the whole move-latency tail. Almost nothing the server makes is cyclic garbage (a full pass under that
load freed a few hundred objects; the rest is freed by reference counting the moment it is dropped), so the server:

- freezes what exists once the app is built (modules, routes, the rules' tables: never garbage) out of every pass;
- turns automatic collection off and collects the young generations every `YOUNG_PASS_EVERY` seconds on a thread,
  each pass walking only what was made since the last one (a few milliseconds);
- runs a full pass every `FULL_PASS_EVERY` seconds, which bounds the little cyclic garbage that outlives a young
  pass (each logged with its duration).
"""

from __future__ import annotations

import gc
import logging
import threading
import time

log = logging.getLogger(__name__)

FULL_PASS_EVERY = 600.0
"""Seconds between the server's own full collections."""

YOUNG_PASS_EVERY = 0.05
"""Seconds between collections of the two young generations."""


class Collector:
    """Collects on a daemon thread: the young generations every `young` seconds, everything every `every` (None:
    never, for a short-lived process such as a benchmark's client)."""

    def __init__(self, young: float = YOUNG_PASS_EVERY, every: float | None = FULL_PASS_EVERY) -> None:
        self.young = young
        self.every = every
        self.last_full = time.monotonic()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="gc", daemon=True)

    def start(self) -> Collector:
        """Freeze what exists now (it lives as long as the process), turn automatic collection off, start the
        thread. Call it once the app is built, before serving."""
        gc.collect()
        gc.freeze()
        gc.disable()
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the thread and give collection back to the interpreter (tests)."""
        self._stop.set()
        self._thread.join()
        gc.unfreeze()
        gc.enable()

    def tick(self, now: float) -> int:
        """One pass at time `now` (time.monotonic): the generation collected (2 is a full pass)."""
        if self.every is not None and now - self.last_full >= self.every:
            self.last_full = now
            started = time.perf_counter()
            freed = gc.collect()
            log.info("full collection: %d objects freed in %.0f ms", freed, 1000 * (time.perf_counter() - started))
            return 2
        gc.collect(1)  # what was made since the last pass, once: what survives it is old until the next full pass
        return 1

    def _run(self) -> None:
        while not self._stop.wait(self.young):
            self.tick(time.monotonic())


def quiet_collector(every: float | None = FULL_PASS_EVERY) -> Collector:
    """The server's collector, started (see the module's docstring)."""
    return Collector(every=every).start()
