"""The supervisor of `fogofwar serve --workers N`: one small process that owns the listening socket, starts N
worker processes (worker.py: the whole app each, on the same database) and hands every new connection to the
worker that owns its game.

Why processes, and why routing by game: one Python process serves from one core (the event loop, JSON, the
engine all hold the GIL), so more cores need more processes. A game's live state (its lock, its connections,
its computer player, its clock) must be in exactly one of them, or two processes would play the same game from
two copies. So each game has one owner (routing.py: rendezvous hashing of the game id over the worker slots),
and each connection goes to the owner of the game its first request names; requests that name no game go to
the workers in turn.

For each accepted connection the supervisor peeks at the request line (front_door.py: the bytes stay in the
kernel for the worker, bounded in size and time), then passes the socket to the worker over a Unix socket
(handoff.py) and closes its own copy: it never reads or writes a byte of a routed connection.

A worker that dies (killed, crashed) is replaced in its slot by the spare, a worker process started beforehand that
has done its imports and waits for a slot (a second saved): the slot's games reload from their logs
in the new worker on their next request, and the connections that arrive meanwhile wait for it (at most
`RESTART_WAIT` seconds, then 503). Its clients' connections closed with it; the browser reconnects by itself.
Nothing acknowledged is lost: an action is acknowledged only once its event is committed (manager.py), and a
late commit of the dead worker is caught by the log's sequence check (manager.GameManager._reload).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import sys
import time
from collections import deque
from collections.abc import Callable, Coroutine
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from fogofwar.frontends.server.front_door import Router, refuse
from fogofwar.frontends.server.handoff import PING, READY, WARM, WorkerSettings, channel_pair, send_connection
from fogofwar.frontends.server.limits import Limits

log = logging.getLogger("fogofwar.frontends.server.supervisor")

RESTART_WAIT = 20.0
"""Seconds a connection waits for its worker to start (or start again) before it is answered 503."""
RESTART_BACKOFF = (0.1, 0.5, 1.0, 2.0, 5.0)
"""Seconds before starting a worker again after its 1st, 2nd, ... death in a row (one that served a while
starts its count again)."""
STEADY_SECONDS = 30.0
"""A worker that served this long before it died is restarted at once: its death was not its start's fault."""
HANG_SECONDS = 30.0
"""A ready worker whose event loop has not answered a ping for this long is hung (a deadlock, a loop that never
yields): it is killed, and replaced as a dead one. Far above any pause of a loaded loop."""
PING_SECONDS = 5.0
"""How often the supervisor pings its ready workers."""
STOP_SECONDS = 15.0
"""A worker told to stop that has not stopped by then is killed."""
ACCEPT_BATCH = 64
STARTUP_FAILURE = 3
"""The exit status when a worker cannot start at all (uvicorn's own for a failed startup)."""


def say(text: str) -> None:
    """One line on stderr for whoever runs the server (tests read the workers' pids from these)."""
    print(f"fogofwar: {text}", file=sys.stderr, flush=True)


@dataclass(eq=False)
class Slot:
    """One worker slot: its current process, the channel to it and the connections waiting for it."""

    index: int
    proc: asyncio.subprocess.Process | None = None
    channel: socket.socket | None = None
    ready: bool = False
    ever_ready: bool = False
    """A worker of this slot has started once: a later death is restarted, not taken as a bad configuration."""
    started: float = 0.0
    answered: float = 0.0
    """When its worker last said something (ready, or an answer to a ping), in loop time."""
    deaths: int = 0
    """Deaths in a row (see RESTART_BACKOFF)."""
    waiting: deque[tuple[float, socket.socket]] = field(default_factory=deque)
    """Connections (with their loop-time deadline) waiting for this slot's worker to be ready."""
    outbox: deque[socket.socket] = field(default_factory=deque)
    """Connections for the ready worker whose channel was full: sent once it is writable."""


@dataclass(eq=False)
class Spare:
    """A worker process that has started and waits for a slot; `warm` comes true once its imports are done."""

    proc: asyncio.subprocess.Process
    channel: socket.socket
    warm: asyncio.Future[bool]

    def heard(self) -> None:
        """Its word that it is warm, or its channel closing (it died waiting)."""
        try:
            data = self.channel.recv(64)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if data == WARM or not data:
            self.release(data == WARM)

    def release(self, warm: bool = False) -> None:
        """Stop listening to it here: it is given a slot (whose reader takes the channel over), or it is gone."""
        with suppress(ValueError, OSError):
            asyncio.get_running_loop().remove_reader(self.channel.fileno())
        if not self.warm.done():
            self.warm.set_result(warm)


class Supervisor:
    """The listening socket, the worker processes and the handoff between them (see the module doc)."""

    def __init__(
        self,
        listener: socket.socket,
        settings: Callable[[int], WorkerSettings],
        workers: int,
        limits: Limits | None = None,
    ) -> None:
        self.listener = listener
        self.settings = settings
        self.slots = [Slot(i) for i in range(workers)]
        self.router = Router(workers, self.dispatch, limits)
        self.max_waiting = self.router.max_heads
        self._turn = 0
        self._stopping = False
        self._done: asyncio.Future[int] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._spare: Spare | None = None

    # --- life cycle ----------------------------------------------------------------------------------
    async def run(self) -> int:
        """Serve until SIGINT or SIGTERM (0), or until a worker cannot start at all (STARTUP_FAILURE)."""
        loop = asyncio.get_running_loop()
        self._done = loop.create_future()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, self.stop)
        for slot in self.slots:
            await self._start(slot)
        self._spawn(self._keep_spare())
        self.listener.setblocking(False)
        loop.add_reader(self.listener.fileno(), self._accept)
        self._spawn(self._expire_waiting())
        self._spawn(self._watch_hangs())
        try:
            return await self._done
        finally:
            await self._shutdown()

    def stop(self, code: int = 0) -> None:
        if self._done is not None and not self._done.done():
            self._done.set_result(code)

    async def _shutdown(self) -> None:
        self._stopping = True
        loop = asyncio.get_running_loop()
        with suppress(ValueError, OSError):
            loop.remove_reader(self.listener.fileno())
        self.listener.close()
        self.router.close()
        for task in self._tasks:
            task.cancel()
        for slot in self.slots:
            for conn in [c for _, c in slot.waiting] + list(slot.outbox):
                refuse(conn, 503, "the server is stopping")
            slot.waiting.clear()
            slot.outbox.clear()
            if slot.proc is not None and slot.proc.returncode is None:
                with suppress(ProcessLookupError):
                    slot.proc.terminate()
        if self._spare is not None:  # it waits for its settings: closing its channel ends it
            spare, self._spare = self._spare, None
            spare.release()
            spare.channel.close()
            with suppress(ProcessLookupError):
                spare.proc.terminate()
            await spare.proc.wait()
        for slot in self.slots:
            if slot.proc is None:
                continue
            try:
                await asyncio.wait_for(slot.proc.wait(), STOP_SECONDS)
            except TimeoutError:
                with suppress(ProcessLookupError):
                    slot.proc.kill()
                await slot.proc.wait()
            self._close_channel(slot)

    def _spawn(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- workers -------------------------------------------------------------------------------------
    @staticmethod
    async def _process() -> tuple[asyncio.subprocess.Process, socket.socket]:
        """A new worker process and the supervisor's end of its channel: it imports the app, then waits for its
        settings."""
        mine, theirs = channel_pair()
        try:
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "fogofwar.frontends.server.worker",
                str(theirs.fileno()),
                pass_fds=(theirs.fileno(),),
            )
        finally:
            theirs.close()
        return proc, mine

    async def _start(self, slot: Slot) -> None:
        """Give the slot a worker: the spare if there is one (already past its imports), else a new process."""
        if self._spare is not None and self._spare.proc.returncode is None:
            spare, self._spare = self._spare, None
            spare.release()
            proc, mine = spare.proc, spare.channel
            self._spawn(self._keep_spare())
        else:
            proc, mine = await self._process()
        try:
            mine.sendall(self.settings(slot.index).encode())
        except OSError:  # the spare died waiting: a process of its own then
            mine.close()
            proc, mine = await self._process()
            mine.sendall(self.settings(slot.index).encode())
        mine.setblocking(False)
        slot.proc, slot.channel, slot.ready, slot.started = proc, mine, False, time.monotonic()
        asyncio.get_running_loop().add_reader(mine.fileno(), self._hear, slot)
        self._spawn(self._watch(slot, proc))

    async def _keep_spare(self) -> None:
        """Start a spare worker process, which imports the app and waits: a dead worker's successor then starts in
        a fraction of a second rather than after a second of imports. One that dies unused is started again."""
        while not self._stopping and self._spare is None:
            proc, mine = await self._process()
            spare = self._spare = Spare(proc, mine, asyncio.get_running_loop().create_future())
            mine.setblocking(False)
            asyncio.get_running_loop().add_reader(mine.fileno(), spare.heard)
            if await spare.warm and self._spare is spare:
                say(f"spare worker ready (pid {proc.pid})")
            await proc.wait()
            if self._spare is spare:  # died while still the spare
                self._spare = None
                spare.release()
                mine.close()
                say(f"the spare worker (pid {proc.pid}) exited with status {proc.returncode}; another in 5 s")
                await asyncio.sleep(5.0)
            else:
                return  # it became a slot's worker, whose watcher waits for it now

    def _hear(self, slot: Slot) -> None:
        """A message from a worker: READY, or the channel closing (the worker is gone or going)."""
        channel = slot.channel
        if channel is None:
            return
        try:
            data = channel.recv(64)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if data:
            slot.answered = asyncio.get_running_loop().time()
        if data == READY:
            slot.ready = slot.ever_ready = True
            pid = slot.proc.pid if slot.proc is not None else "?"
            say(f"worker {slot.index} ready (pid {pid})")
            self._flush(slot)
        elif not data:
            self._close_channel(slot)

    def _close_channel(self, slot: Slot) -> None:
        slot.ready = False
        if slot.channel is not None:
            loop = asyncio.get_running_loop()
            with suppress(ValueError, OSError):
                loop.remove_reader(slot.channel.fileno())
                loop.remove_writer(slot.channel.fileno())
            slot.channel.close()
            slot.channel = None
        while slot.outbox:  # not sent: they wait for the next worker of the slot
            self._wait(slot, slot.outbox.popleft())

    async def _watch(self, slot: Slot, proc: asyncio.subprocess.Process) -> None:
        """Wait for a worker's exit; start another in its slot unless the server is stopping."""
        code = await proc.wait()
        if self._stopping or slot.proc is not proc:
            return
        self._close_channel(slot)
        served = time.monotonic() - slot.started
        if not slot.ever_ready:
            say(f"worker {slot.index} (pid {proc.pid}) could not start (exit status {code}); stopping")
            self.stop(STARTUP_FAILURE)
            return
        slot.deaths = 1 if served > STEADY_SECONDS else slot.deaths + 1
        delay = RESTART_BACKOFF[min(slot.deaths, len(RESTART_BACKOFF)) - 1]
        say(f"worker {slot.index} (pid {proc.pid}) exited with status {code}; a new one starts in {delay:g} s")
        await asyncio.sleep(delay)
        if not self._stopping:
            await self._start(slot)

    # --- connections ---------------------------------------------------------------------------------
    def _accept(self) -> None:
        for _ in range(ACCEPT_BATCH):
            try:
                conn, addr = self.listener.accept()
            except BlockingIOError:
                return
            except OSError as exc:  # out of descriptors: stop accepting for a moment rather than spin
                log.warning("accept failed: %s", exc)
                loop = asyncio.get_running_loop()
                loop.remove_reader(self.listener.fileno())
                loop.call_later(0.1, self._resume_accepting)
                return
            conn.setblocking(False)
            self.router.accepted(conn, str(addr[0]) if isinstance(addr, tuple) else "")

    def _resume_accepting(self) -> None:
        if not self._stopping:
            asyncio.get_running_loop().add_reader(self.listener.fileno(), self._accept)

    def dispatch(self, index: int | None, conn: socket.socket) -> None:
        """Hand a routed connection to its slot's worker (`index` None: the next ready worker), or let it wait."""
        if index is None:
            index = self._next_ready()
        slot = self.slots[index]
        if slot.ready and not slot.outbox:
            self._send(slot, conn)
        elif slot.ready:
            slot.outbox.append(conn)
        else:
            self._wait(slot, conn)

    def _next_ready(self) -> int:
        count = len(self.slots)
        for step in range(count):
            index = (self._turn + step) % count
            if self.slots[index].ready:
                self._turn = index + 1
                return index
        self._turn += 1
        return (self._turn - 1) % count

    def _send(self, slot: Slot, conn: socket.socket) -> None:
        assert slot.channel is not None
        try:
            send_connection(slot.channel, conn)
        except BlockingIOError:
            slot.outbox.append(conn)
            asyncio.get_running_loop().add_writer(slot.channel.fileno(), self._flush, slot)
            return
        except OSError:  # the worker is dying: its successor will take it
            self._close_channel(slot)
            self._wait(slot, conn)
            return
        conn.close()  # the worker holds it now

    def _flush(self, slot: Slot) -> None:
        """Send what waits for a ready worker, until its channel is full."""
        if slot.channel is None or not slot.ready:
            return
        with suppress(ValueError, OSError):
            asyncio.get_running_loop().remove_writer(slot.channel.fileno())
        while slot.waiting and slot.ready:
            slot.outbox.append(slot.waiting.popleft()[1])
        while slot.outbox and slot.channel is not None:
            conn = slot.outbox.popleft()
            try:
                send_connection(slot.channel, conn)
            except BlockingIOError:
                slot.outbox.appendleft(conn)
                asyncio.get_running_loop().add_writer(slot.channel.fileno(), self._flush, slot)
                return
            except OSError:
                slot.outbox.appendleft(conn)
                self._close_channel(slot)
                return
            conn.close()

    def _wait(self, slot: Slot, conn: socket.socket) -> None:
        if sum(len(s.waiting) for s in self.slots) >= self.max_waiting:
            refuse(conn, 503, "the server is restarting and has too many connections waiting; try again shortly")
            return
        slot.waiting.append((asyncio.get_running_loop().time() + RESTART_WAIT, conn))

    async def _watch_hangs(self) -> None:
        """Ping every ready worker; kill one that has not answered for HANG_SECONDS (its watcher replaces it)."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(PING_SECONDS)
            now = loop.time()
            for slot in self.slots:
                if not slot.ready or slot.channel is None or slot.proc is None:
                    continue
                if now - slot.answered > HANG_SECONDS:
                    pid = slot.proc.pid
                    say(f"worker {slot.index} (pid {pid}) has not answered for {HANG_SECONDS:g} s; killing it")
                    slot.ready = False  # nothing more is handed to it
                    with suppress(ProcessLookupError):
                        slot.proc.kill()
                    continue
                with suppress(BlockingIOError, OSError):
                    slot.channel.send(PING)

    async def _expire_waiting(self) -> None:
        """Answer 503 to the connections that waited `RESTART_WAIT` seconds for a worker."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(0.5)
            now = loop.time()
            for slot in self.slots:
                while slot.waiting and slot.waiting[0][0] <= now:
                    refuse(slot.waiting.popleft()[1], 503, "the server is restarting; try again shortly")


def listen(host: str, port: int, backlog: int = 2048) -> socket.socket:
    """The public listening socket (IPv6 when `host` is an IPv6 address)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(backlog)
    return sock


def run(
    host: str,
    port: int,
    settings: Callable[[int], WorkerSettings],
    workers: int,
    limits: Limits | None = None,
) -> int:
    """Listen on host:port and serve with `workers` worker processes until stopped; returns the exit status."""
    listener = listen(host, port)
    supervisor = Supervisor(listener, settings, workers, limits)
    say(f"supervisor (pid {os.getpid()}) routes http://{host}:{port} to {workers} workers")
    return asyncio.run(supervisor.run())


__all__ = ["Supervisor", "listen", "run"]
