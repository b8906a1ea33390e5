"""One worker process of `fogofwar serve --workers N`: the whole app (FastAPI, its GameManager and group commit,
on the shared database) serving the connections its supervisor hands it (supervisor.py, handoff.py).

The worker listens on nothing. Each connection arrives as a file descriptor on the channel from the supervisor and
is given to uvicorn with `loop.connect_accepted_socket` and uvicorn's own HTTP protocol class (the project's
`GuardedH11Protocol`), so a handed connection is served exactly as one uvicorn accepted itself: the same limits,
keep-alive, websocket upgrade and graceful shutdown. The worker serves only the games it owns (`routing.Ownership`:
its slot among the workers); the app's `OwnerGuard` sends any other game's request back through the supervisor.

What this relies on inside uvicorn (pinned in requirements.txt; `check_uvicorn` runs at every start and in the
tests, and fails loudly if a new uvicorn changes it):
- `Server.startup(sockets=[])` runs the app's startup and listens on no socket (the path uvicorn takes for sockets
  handed to it, with none);
- the protocol factory of `Server.startup`: `config.http_protocol_class(config=, server_state=, app_state=,
  _loop=)`, with the server's `server_state` and `lifespan.state`.
"""

from __future__ import annotations

import asyncio
import inspect
import socket
import sys
from contextlib import suppress
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from fogofwar.frontends.server.app import create_app
from fogofwar.frontends.server.collector import quiet_collector
from fogofwar.frontends.server.handoff import (
    MAX_SETTINGS_BYTES,
    PONG,
    READY,
    WARM,
    WorkerSettings,
    receive,
)
from fogofwar.frontends.server.limits import Limits, uvicorn_options
from fogofwar.frontends.server.routing import Ownership, slots

PROTOCOL_ARGUMENTS = ("config", "server_state", "app_state", "_loop")


class UvicornChanged(RuntimeError):
    """The uvicorn installed no longer has what the worker's handoff uses."""


def check_uvicorn() -> None:
    """Fail at start, saying what changed, if uvicorn's internals the handoff uses are not as expected."""
    problems = []
    params = inspect.signature(H11Protocol.__init__).parameters
    missing = [name for name in PROTOCOL_ARGUMENTS if name not in params]
    if missing:
        problems.append(f"H11Protocol.__init__ lost {', '.join(missing)}")
    if "sockets" not in inspect.signature(uvicorn.Server.startup).parameters:
        problems.append("Server.startup takes no sockets")
    try:
        source: str | None = inspect.getsource(uvicorn.Server.startup)
    except (OSError, TypeError):  # installed without its sources: the signatures are all there is to check
        source = None
    for needle in ("config.http_protocol_class(", "server_state=self.server_state", "app_state=self.lifespan.state"):
        if source is not None and needle not in source:
            problems.append(f"Server.startup no longer builds its protocols with {needle!r}")
    if not hasattr(uvicorn.Server(uvicorn.Config(_no_app)), "server_state"):
        problems.append("Server has no server_state")
    if problems:
        raise UvicornChanged(
            f"uvicorn {uvicorn.__version__} differs from the one the worker handoff was written for"
            f" (fogofwar/frontends/server/worker.py): {'; '.join(problems)}"
        )


async def _no_app(scope: Any, receive: Any, send: Any) -> None:  # pragma: no cover - never called
    raise RuntimeError("not an app")


class HandoffServer(uvicorn.Server):
    """uvicorn serving the connections that arrive on `channel` instead of accepting its own."""

    def __init__(self, config: uvicorn.Config, channel: socket.socket) -> None:
        super().__init__(config)
        self.channel = channel
        self._opening: set[asyncio.Task[None]] = set()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=[])
        if not self.started:
            return
        loop = asyncio.get_running_loop()
        self.channel.setblocking(False)
        loop.add_reader(self.channel.fileno(), self._take, loop)
        self.channel.send(READY)

    def protocol(self, loop: asyncio.AbstractEventLoop) -> asyncio.Protocol:
        """A protocol for one connection, built as `uvicorn.Server.startup` builds those it accepts."""
        factory: Any = self.config.http_protocol_class
        made: asyncio.Protocol = factory(
            config=self.config, server_state=self.server_state, app_state=self.lifespan.state, _loop=loop
        )
        return made

    def _take(self, loop: asyncio.AbstractEventLoop) -> None:
        received = receive(self.channel)
        if received is None:  # the supervisor is gone: stop as on Ctrl+C
            loop.remove_reader(self.channel.fileno())
            self.should_exit = True
            return
        if received.pinged:  # answered from the event loop: it runs
            with suppress(BlockingIOError):
                self.channel.send(PONG)
        for conn in received.connections:
            if self.should_exit:
                conn.close()
                continue
            task = loop.create_task(self._open(loop, conn))
            self._opening.add(task)
            task.add_done_callback(self._opening.discard)

    async def _open(self, loop: asyncio.AbstractEventLoop, conn: socket.socket) -> None:
        try:
            await loop.connect_accepted_socket(lambda: self.protocol(loop), conn)
        except OSError:  # the client left while it was handed over
            conn.close()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        loop = asyncio.get_running_loop()
        loop.remove_reader(self.channel.fileno())
        await super().shutdown(sockets=None)


def serve_handed(settings: WorkerSettings, channel: socket.socket) -> None:
    """Build this worker's app from `settings` and serve what the supervisor hands it until told to stop."""
    check_uvicorn()
    limits = Limits(**settings.limits)
    ownership = Ownership(str(settings.slot), slots(settings.workers))
    app = create_app(
        settings.db,
        agent_delay=settings.agent_delay,
        fsync=settings.fsync,
        seed=settings.seed,
        limits=limits,
        ownership=ownership,
    )
    quiet_collector()
    config = uvicorn.Config(app, log_level=settings.log_level, **uvicorn_options(limits))
    HandoffServer(config, channel).run(sockets=[])


def main(argv: list[str]) -> int:
    """`python -m fogofwar.frontends.server.worker FD`: FD is the worker's end of the channel (handoff.py)."""
    if len(argv) != 1 or not argv[0].isdigit():
        print("usage: python -m fogofwar.frontends.server.worker FD (started by fogofwar serve --workers)")
        return 2
    channel = socket.socket(fileno=int(argv[0]))
    channel.send(WARM)  # the imports are done (at the top of this module): a spare is ready to take a slot
    try:
        data = channel.recv(MAX_SETTINGS_BYTES)  # a spare waits here, its imports done, until it is given a slot
    except KeyboardInterrupt:  # Ctrl+C reaches the whole process group: the supervisor stops too
        return 0
    if not data:
        return 0  # the supervisor stopped (or is gone) before it needed this spare
    serve_handed(WorkerSettings.decode(data), channel)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
