"""What one client may cost the server: body sizes, time to send a request, connections, sockets.

Every limit is a field of `Limits` (defaults below, `fogofwar serve --limit NAME=VALUE` to change one)
and is enforced in one of three places:

- `BodyLimit`, ASGI middleware: a request body is counted while it is read and refused with 413 the
  moment it passes its route's cap (a Content-Length over the cap is refused before a byte is read),
  and one that trickles in slower than `body_seconds` gets 408. No route ever buffers more than its cap.
- `GuardedH11Protocol`, the HTTP/1.1 protocol handed to uvicorn: a connection must deliver its request
  line and headers within `head_seconds` of its first byte (else it is closed: the slowloris attack),
  one address may hold `connections_per_ip` connections, the process `max_connections`.
- `SocketGate` (used by the websocket route): `sockets_per_ip` websockets per address, `spectators_per_game`
  watchers per game, and a socket whose client says nothing for `socket_idle_seconds` is closed (the
  browser client pings every minute, so only silent clients are dropped).

The chat's flood limit (`chat_messages` in `chat_seconds` per seat, or per spectator's address) is kept by the
game manager (`fogofwar.frontends.server.chat.FloodGate`).
"""

from __future__ import annotations

import asyncio
import json
import resource
import time
from collections import Counter, deque
from typing import Any, ClassVar

import h11
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from fogofwar.frontends.server.records_io import MAX_IMPORT_BYTES
from fogofwar.frontends.server.session import MAX_MESSAGE_BYTES, ClientError

KIB = 1024


class Limits(BaseModel):
    """The server's limits per client; the README lists them."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    body_bytes: int = Field(default=16 * KIB, ge=1, description="largest request body, except the two routes below")
    message_bytes: int = Field(default=MAX_MESSAGE_BYTES, ge=1, description="largest command (POST .../act)")
    import_bytes: int = Field(default=MAX_IMPORT_BYTES, ge=1, description="largest record (POST /api/replay/import)")
    body_seconds: float = Field(default=30.0, gt=0, description="time to send a whole request body")
    head_seconds: float = Field(default=10.0, gt=0, description="time to send a request line and headers")
    keep_alive_seconds: float = Field(default=5.0, gt=0, description="an idle HTTP connection is closed after this")
    connections_per_ip: int = Field(default=64, ge=1, description="open HTTP connections from one address")
    max_connections: int = Field(default=1000, ge=1, description="open HTTP connections in all (below the fd limit)")
    sockets_per_ip: int = Field(default=32, ge=1, description="open websockets from one address")
    spectators_per_game: int = Field(default=100, ge=1, description="spectator websockets of one game")
    socket_idle_seconds: float = Field(default=600.0, gt=0, description="a silent websocket closes after this")
    live_games: int = Field(default=500, ge=1, description="games kept in memory; idle ones past it leave")
    idle_game_seconds: float = Field(default=900.0, gt=0, description="a game nobody used for this long leaves memory")
    chat_messages: int = Field(default=5, ge=1, description="chat messages one writer may send in chat_seconds")
    chat_seconds: float = Field(default=10.0, gt=0, description="the window of chat_messages")

    def body_cap(self, path: str) -> int:
        """The body cap of a route."""
        if path == "/api/replay/import":
            return self.import_bytes
        if path.startswith("/api/games/") and path.endswith("/act"):
            return self.message_bytes
        return self.body_bytes

    def connection_cap(self) -> int:
        """`max_connections`, kept below the process's file descriptor limit (with room for the database)."""
        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft == resource.RLIM_INFINITY:
            return self.max_connections
        return max(1, min(self.max_connections, soft - 64))


class BodyTooLarge(HTTPException):
    """A request body passed its route's cap (answered 413) or came too slowly (408).

    An HTTPException, because FastAPI turns any other error raised while it reads a body into a 400
    and then lets the client send the rest; the app answers it in the project's error format with
    `connection: close`, which ends the upload (`body_limit_handler`)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(status_code=status, detail=message, headers={"connection": "close"})
        self.status, self.code, self.message = status, code, message


def _error_response(status: int, code: str, message: str) -> tuple[Message, Message]:
    """The ASGI messages of an error answer in the project's format (`ClientError.to_json`)."""
    body = json.dumps(ClientError(code, message, status).to_json()).encode()
    start: Message = {
        "type": "http.response.start",
        "status": status,
        "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ],
    }
    return start, {"type": "http.response.body", "body": body}


class BodyLimit:
    """ASGI middleware: every request body is capped and timed while it is read (see the module doc)."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cap = self.limits.body_cap(scope["path"])
        declared = _content_length(scope)
        if declared is not None and declared > cap:
            for msg in _error_response(
                413, "too_large", f"the body of {declared:,} bytes is over the limit of {cap:,} bytes for this route"
            ):
                await send(msg)
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.limits.body_seconds
        seen = 0
        started = False

        async def capped_receive() -> Message:
            nonlocal seen
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                raise BodyTooLarge(
                    408, "timeout", f"the request body did not arrive within {self.limits.body_seconds:g} s"
                ) from None
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > cap:
                    raise BodyTooLarge(413, "too_large", f"the body is over the limit of {cap:,} bytes for this route")
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, capped_receive, tracking_send)
        except BodyTooLarge as exc:
            if started:
                raise
            for msg in _error_response(exc.status, exc.code, exc.message):
                await send(msg)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() and len(text) < 20 else None
    return None


class SlidingWindow:
    """At most `limit` events per key in any `window` seconds: failed sign-ins of a name or an address, chat messages
    of a seat. Memory is bounded: past `max_keys` keys the quiet ones are forgotten, then the oldest."""

    def __init__(self, limit: int, window: float, max_keys: int = 100_000) -> None:
        self.limit = limit
        self.window = window
        self.max_keys = max_keys
        self._seen: dict[str, deque[float]] = {}

    def wait(self, key: str, now: float | None = None) -> float:
        """Seconds before `key` may have another event (0: now)."""
        now = time.monotonic() if now is None else now
        seen = self._seen.get(key)
        if not seen:
            return 0.0
        while seen and now - seen[0] >= self.window:
            seen.popleft()
        if not seen:
            del self._seen[key]
            return 0.0
        return max(0.0, seen[0] + self.window - now) if len(seen) >= self.limit else 0.0

    def add(self, key: str, now: float | None = None) -> None:
        """Count an event of `key`."""
        now = time.monotonic() if now is None else now
        if key not in self._seen and len(self._seen) >= self.max_keys:
            self._seen = {k: q for k, q in self._seen.items() if q and now - q[-1] < self.window}
            while len(self._seen) >= self.max_keys:
                self._seen.pop(next(iter(self._seen)))
        self._seen.setdefault(key, deque(maxlen=self.limit)).append(now)

    def forget(self, key: str) -> None:
        self._seen.pop(key, None)


class Quota:
    """At most `cap` things open per key (an address, a game): `take` counts one in, `give` one out."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.open: Counter[str] = Counter()

    def take(self, key: str) -> bool:
        """Count one more for `key`; False (and nothing counted) when it has `cap` already."""
        if self.open[key] >= self.cap:
            return False
        self.open[key] += 1
        return True

    def give(self, key: str) -> None:
        self.open[key] -= 1
        if self.open[key] <= 0:
            del self.open[key]


class GuardedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline for each request's head and connection caps.

    uvicorn times out idle keep-alive connections, but not a request whose headers never end: without
    this, each slow client held a connection (and a file descriptor) for as long as it liked.
    """

    limits: ClassVar[Limits] = Limits()
    open_per_ip: ClassVar[Quota] = Quota(Limits().connections_per_ip)

    _ip: str = ""
    _counted: bool = False
    _upgraded: bool = False
    _head_timer: asyncio.TimerHandle | None = None

    @classmethod
    def with_limits(cls, limits: Limits) -> type[GuardedH11Protocol]:
        """A protocol class of its own for a server with these limits."""
        return type("GuardedH11Protocol", (cls,), {"limits": limits, "open_per_ip": Quota(limits.connections_per_ip)})

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._ip = self.client[0] if self.client else ""
        if len(self.connections) > self.limits.connection_cap():
            self._refuse("the server has too many open connections; try again shortly")
            return
        if not self.open_per_ip.take(self._ip):
            self._refuse(f"too many open connections from your address (at most {self.limits.connections_per_ip})")
            return
        self._counted = True
        self._arm_head_timer()

    def _refuse(self, why: str) -> None:
        body = why.encode()
        self.transport.write(
            b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
            + b"content-length: "
            + str(len(body)).encode()
            + b"\r\nconnection: close\r\n\r\n"
            + body
        )
        self.transport.close()

    def _uncount(self) -> None:
        if self._counted:
            self._counted = False
            self.open_per_ip.give(self._ip)

    def _arm_head_timer(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self.limits.head_seconds, self._head_timeout)

    def _disarm_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _busy(self) -> bool:
        """A request's head has arrived and its answer is not complete."""
        return self.cycle is not None and not self.cycle.response_complete

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._upgraded or self.transport.is_closing():
            return
        if self._busy():
            self._disarm_head_timer()
        else:
            self._arm_head_timer()  # the head of a request (the first, or the next on a kept-alive connection)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._disarm_head_timer()  # idle now: uvicorn's keep-alive timer takes over until the next byte

    def _head_timeout(self) -> None:
        self._head_timer = None
        if self._busy() or self.transport.is_closing():
            return
        if self.conn.our_state is h11.IDLE and self.conn.their_state in (h11.IDLE, h11.SEND_BODY):
            self.transport.write(b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
        self.transport.close()

    def handle_websocket_upgrade(self, event: Any) -> None:
        self._upgraded = True
        self._disarm_head_timer()
        self._uncount()  # from here on the websocket route counts it (SocketGate)
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_head_timer()
        self._uncount()
        super().connection_lost(exc)


class SocketGate:
    """Counts the open websockets per address and the spectators per game, for the websocket route."""

    def __init__(self, limits: Limits) -> None:
        self.per_ip = Quota(limits.sockets_per_ip)
        self.spectators = Quota(limits.spectators_per_game)

    def enter(self, ip: str) -> str | None:
        """Count a new socket from `ip`; the reason it is refused (then nothing is counted), or None."""
        ok = self.per_ip.take(ip)
        return None if ok else f"too many open connections from your address (at most {self.per_ip.cap})"

    def leave(self, ip: str) -> None:
        self.per_ip.give(ip)

    def watch(self, game_id: str) -> str | None:
        """Count a spectator of a game; the reason it is refused, or None."""
        ok = self.spectators.take(game_id)
        return None if ok else f"this game has {self.spectators.cap} spectators already, the most it takes"

    def unwatch(self, game_id: str) -> None:
        self.spectators.give(game_id)


def uvicorn_options(limits: Limits) -> dict[str, Any]:
    """The keyword arguments that make uvicorn apply `limits` (see `fogofwar.frontends.server.serve`)."""
    return {
        "http": GuardedH11Protocol.with_limits(limits),
        "ws_max_size": max(16 * limits.message_bytes, 64 * KIB),  # past message_bytes: a clear error, not a close
        "timeout_keep_alive": limits.keep_alive_seconds,
        "h11_max_incomplete_event_size": 16 * KIB,
        # Messages are a few KiB of JSON: compressing each one cost a quarter of the server's CPU under load
        # (py-spy on benchmarks/web_load.py) to save bandwidth nobody lacks at that size.
        "ws_per_message_deflate": False,
    }


__all__ = ["BodyLimit", "BodyTooLarge", "GuardedH11Protocol", "Limits", "SocketGate", "uvicorn_options"]
