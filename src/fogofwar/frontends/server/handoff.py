"""The channel between the supervisor and one worker process: a Unix socket pair (SOCK_SEQPACKET, so each
message keeps its bounds) that carries

- supervisor to worker: first the worker's settings (`WorkerSettings`, JSON: sent over the channel rather than
  on the command line, where the database URL and its password would show in `ps`), then one message per
  accepted client connection, the connection itself attached as a file descriptor (SCM_RIGHTS);
- worker to supervisor: `WARM` once it has imported the app (a spare then waits for its settings), `READY` once its
  app has started and it takes connections, `PONG` to each `PING` (the supervisor's watch for a hung worker).

A connection passed this way is the same kernel socket in both processes; the supervisor closes its copy as soon
as it is sent, so the worker alone holds it, and a killed worker takes its connections down with it (the clients
see them close and reconnect). Either side seeing the channel close knows the other is gone.
"""

from __future__ import annotations

import json
import socket
import sys
from dataclasses import asdict, dataclass, field
from typing import Any

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

READY = b"ready"
WARM = b"warm"
PING = b"ping"
"""The supervisor asks a ready worker whether its event loop still runs ..."""
PONG = b"pong"
"""... and the worker answers from it (supervisor.HANG_SECONDS without an answer: the worker is killed)."""
CONNECTION = b"c"
MAX_SETTINGS_BYTES = 64 * 1024
"""The settings message is a few hundred bytes; anything past this is refused."""
FDS_PER_MESSAGE = 4
"""Descriptors a worker takes from one message (the supervisor sends one): any past it the kernel closes."""


@dataclass(frozen=True)
class WorkerSettings:
    """What a worker needs to build its app: its slot among `workers`, and `create_app`'s options."""

    slot: int
    workers: int
    db: str
    limits: dict[str, Any] = field(default_factory=dict)
    agent_delay: float = 0.0
    fsync: bool = True
    seed: int | None = None
    log_level: str = "warning"

    def __post_init__(self) -> None:
        problem = unshared(self.db)
        if problem is not None:
            raise ValueError(problem)

    def encode(self) -> bytes:
        data = json.dumps(asdict(self)).encode()
        if len(data) > MAX_SETTINGS_BYTES:
            raise ValueError(f"the worker settings take {len(data)} bytes, over {MAX_SETTINGS_BYTES}")
        return data

    @classmethod
    def decode(cls, data: bytes) -> WorkerSettings:
        fields = json.loads(data)
        if not isinstance(fields, dict):
            raise ValueError("the worker settings are not a JSON object")
        settings = cls(**fields)
        if not 0 <= settings.slot < settings.workers:
            raise ValueError(f"slot {settings.slot} is not one of {settings.workers} workers")
        return settings


def unshared(db: str) -> str | None:
    """Why worker processes cannot serve database `db` here (an in-memory SQLite database is each process's own;
    the handoff needs Linux: SOCK_SEQPACKET Unix sockets, SO_RCVLOWAT), or None."""
    if not sys.platform.startswith("linux"):
        return f"worker processes need Linux (this is {sys.platform}): serve with one process (--workers 1)"
    try:
        parsed = make_url(db)
    except ArgumentError:
        return f"{db!r} is not a database URL"
    if parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:"):
        return f"{db!r} is an in-memory database, which worker processes cannot share: name a file or a server"
    return None


def channel_pair() -> tuple[socket.socket, socket.socket]:
    """(the supervisor's end, the worker's end); the worker's end is inheritable, to be passed to the child."""
    mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    theirs.set_inheritable(True)
    return mine, theirs


def send_connection(channel: socket.socket, conn: socket.socket) -> None:
    """Pass `conn` to the worker at the other end (the caller then closes its own copy). Raises BlockingIOError
    when the channel is full (send again once it is writable), OSError when the worker is gone."""
    socket.send_fds(channel, [CONNECTION], [conn.fileno()])


@dataclass
class Received:
    """What came from the supervisor since last time: connections, and whether it asked if the worker lives."""

    connections: list[socket.socket] = field(default_factory=list)
    pinged: bool = False


def receive(channel: socket.socket) -> Received | None:
    """What waits on a non-blocking channel (nothing, when nothing came), None once the supervisor is gone. A
    message of another kind is dropped, any descriptor it carried closed."""
    received = Received()
    while True:
        try:
            data, fds, _flags, _addr = socket.recv_fds(channel, 64, FDS_PER_MESSAGE)
        except BlockingIOError:
            return received
        except ConnectionError:
            data, fds = b"", []
        if not data and not fds:
            for conn in received.connections:  # the supervisor is gone: so is the server
                conn.close()
            return None
        received.pinged = received.pinged or data == PING
        for fd in fds:
            conn = socket.socket(fileno=fd)
            if data == CONNECTION and conn.type == socket.SOCK_STREAM:
                conn.setblocking(False)
                received.connections.append(conn)
            else:
                conn.close()


__all__ = [
    "PING",
    "PONG",
    "READY",
    "WARM",
    "Received",
    "WorkerSettings",
    "channel_pair",
    "receive",
    "send_connection",
    "unshared",
]
