"""The supervisor's front door: each new connection's request line, peeked, routes it to a worker slot.

The request line is read with MSG_PEEK, so the bytes stay in the kernel for the worker that serves the
connection; at most `routing.MAX_REQUEST_LINE` bytes are looked at, within `head_seconds`, and SO_RCVLOWAT wakes
the supervisor only when more bytes came (a slow head costs no polling). A line too long (414), too slow (408)
or not HTTP (400) is answered here and the connection closed; connections still waiting for their line are capped
in all and per address. A routed connection goes to `dispatch` (supervisor.py), which hands it to the worker
that owns its game (routing.py), or to any worker when its path names no game.
"""

from __future__ import annotations

import asyncio
import http
import socket
from collections import Counter
from collections.abc import Callable
from contextlib import suppress

from fogofwar.frontends.server.limits import Limits
from fogofwar.frontends.server.routing import (
    MAX_REQUEST_LINE,
    BadHead,
    RequestLine,
    game_in_path,
    owner,
    request_line,
    slots,
)

PEEK_BYTES = MAX_REQUEST_LINE + 2
"""Bytes peeked at most: a request line with its CRLF, or enough to know it is too long."""


class Gone(Exception):
    """The client closed its connection before its request line arrived."""


def refuse(conn: socket.socket, status: int, reason: str) -> None:
    """Answer a connection that will not be routed, and close it."""
    body = reason.encode()
    head = (
        f"HTTP/1.1 {status} {http.HTTPStatus(status).phrase}\r\ncontent-type: text/plain; charset=utf-8\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    with suppress(OSError):
        conn.recv(PEEK_BYTES)  # read what was sent, so that closing sends the answer and a FIN, not a reset
    with suppress(OSError):
        conn.send(head.encode() + body)
        conn.shutdown(socket.SHUT_WR)
    conn.close()


async def first_line(conn: socket.socket, deadline: float) -> RequestLine:
    """The request line of a new connection, peeked (left in the kernel for the worker), by loop time `deadline`.

    Raises `BadHead`, `TimeoutError` past the deadline, `Gone` if the client closed, OSError if the connection broke.
    """
    loop = asyncio.get_running_loop()
    raised = False
    had = 0
    try:
        while True:
            try:
                head: bytes | None = conn.recv(PEEK_BYTES, socket.MSG_PEEK)
            except BlockingIOError:
                head = None
            if head == b"" or (raised and head is not None and len(head) <= had):
                raise Gone  # woken with no more bytes than before: the client closed its side
            if head is not None:
                line = request_line(head)
                if line is not None:
                    return line
                # Wake only once more than these bytes are there (or the client closed): no polling.
                had = len(head)
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVLOWAT, had + 1)
                raised = True
            ready: asyncio.Future[None] = loop.create_future()
            loop.add_reader(conn.fileno(), _settle, ready)
            try:
                async with asyncio.timeout_at(deadline):
                    await ready
            finally:
                loop.remove_reader(conn.fileno())
    finally:
        if raised:  # the worker reads this socket: it must wake for every byte
            with suppress(OSError):
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVLOWAT, 1)


def _settle(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


class Router:
    """Accepted connections to worker slots by the game of their first request (see the module doc).

    `dispatch(slot, conn)` takes each routed connection: `slot` is the owner's index, None for any worker. The
    server's `limits` bound the heads: the time a request line may take (`head_seconds`), the connections waiting
    for theirs in all (`connection_cap()`) and from one address (`connections_per_ip`)."""

    def __init__(
        self, workers: int, dispatch: Callable[[int | None, socket.socket], None], limits: Limits | None = None
    ) -> None:
        limits = limits or Limits()
        self.names = slots(workers)
        self.dispatch = dispatch
        self.head_seconds = limits.head_seconds
        self.max_heads = limits.connection_cap()
        self.heads_per_ip = limits.connections_per_ip
        self.waiting: Counter[str] = Counter()
        """Connections whose request line has not come yet, by address."""
        self._tasks: set[asyncio.Task[None]] = set()

    def slot_for(self, line: RequestLine) -> int | None:
        """The worker of a request: the owner of the game its path names, None (any worker) for the others."""
        game_id = game_in_path(line.path)
        return None if game_id is None else int(owner(game_id, self.names))

    def accepted(self, conn: socket.socket, ip: str) -> None:
        """A new connection: routed once its request line is in (refused at once past the caps on waiting heads)."""
        if sum(self.waiting.values()) >= self.max_heads:
            refuse(conn, 503, "the server has too many connections opening; try again shortly")
            return
        if self.waiting[ip] >= self.heads_per_ip:
            refuse(conn, 503, f"too many connections opening from your address (at most {self.heads_per_ip})")
            return
        self.waiting[ip] += 1
        task = asyncio.get_running_loop().create_task(self._route(conn, ip))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _route(self, conn: socket.socket, ip: str) -> None:
        deadline = asyncio.get_running_loop().time() + self.head_seconds
        try:
            line = await first_line(conn, deadline)
        except BadHead as exc:
            refuse(conn, exc.status, exc.reason)
            return
        except TimeoutError:
            refuse(conn, 408, f"the request line did not arrive within {self.head_seconds:g} s")
            return
        except (Gone, OSError):
            conn.close()
            return
        finally:
            self.waiting[ip] -= 1
            if self.waiting[ip] <= 0:
                del self.waiting[ip]
        self.dispatch(self.slot_for(line), conn)

    def close(self) -> None:
        for task in self._tasks:
            task.cancel()


__all__ = ["PEEK_BYTES", "Gone", "Router", "first_line", "refuse"]
