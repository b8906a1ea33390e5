"""The connection limits, against a real uvicorn on loopback started with small limits: a request head
that never ends, too many connections from one address, too many websockets, spectators, and a silent
socket. (Before: 450 connections sending a header byte every 5 s stayed open for 70 s.)"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from fogofwar.frontends.server import create_app
from fogofwar.frontends.server.limits import Limits, uvicorn_options

LIMITS = Limits(
    head_seconds=0.6, connections_per_ip=4, sockets_per_ip=3, spectators_per_game=2, socket_idle_seconds=1.0
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("limits") / "g.db"
    app = create_app(f"sqlite:///{db}", fsync=False, seed=5, limits=LIMITS)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", **uvicorn_options(LIMITS))
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)
    sock.close()


def _connect(addr: str, source: str) -> socket.socket:
    """A TCP connection from loopback address `source`: each test its own, as the per-address counts are
    the server's."""
    host, port = addr.split(":")
    return socket.create_connection((host, int(port)), timeout=5, source_address=(source, 0))


def _request(addr: str, raw: bytes, source: str = "127.0.0.2") -> bytes:
    with _connect(addr, source) as s:
        s.sendall(raw)
        chunks = []
        while True:
            data = s.recv(65536)
            if not data:
                break
            chunks.append(data)
            if b"\r\n\r\n" in b"".join(chunks) and b'"type"' in b"".join(chunks):
                break
        return b"".join(chunks)


def _create(addr: str) -> dict[str, Any]:
    body = json.dumps({"opponent": "hotseat", "variant": "barrage"}).encode()
    raw = _request(
        addr,
        b"POST /api/games HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\nconnection: close\r\n"
        + f"content-length: {len(body)}\r\n\r\n".encode()
        + body,
    )
    head, _, rest = raw.partition(b"\r\n\r\n")
    assert b" 201 " in head.split(b"\r\n")[0], raw[:300]
    return dict(json.loads(rest))


def _closed_within(s: socket.socket, seconds: float) -> tuple[bool, bytes]:
    """(the server closed the connection within `seconds`, what it said)."""
    s.settimeout(seconds)
    got = b""
    try:
        while True:
            data = s.recv(4096)
            if not data:
                return True, got
            got += data
    except TimeoutError:
        return False, got
    except OSError:
        return True, got


def test_a_request_head_that_never_ends_is_closed(server: str) -> None:
    s = _connect(server, "127.0.0.7")
    s.sendall(b"GET /api/meta HTTP/1.1\r\nhost: x\r\n")  # ... and never the blank line
    started = time.monotonic()
    closed, said = _closed_within(s, 5)
    assert closed and time.monotonic() - started < 3
    assert said.startswith(b"HTTP/1.1 408")
    s.close()


def test_one_address_holds_a_bounded_number_of_connections(server: str) -> None:
    held = [_connect(server, "127.0.0.8") for _ in range(LIMITS.connections_per_ip)]
    for s in held:
        s.sendall(b"G")
    extra = _connect(server, "127.0.0.8")
    closed, said = _closed_within(extra, 3)
    assert closed and said.startswith(b"HTTP/1.1 503") and b"too many open connections" in said
    for s in held + [extra]:
        s.close()
    meta = b"GET /api/meta HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n"
    deadline = time.monotonic() + 10  # until the server has counted the closed connections out
    while b" 503 " in (answer := _request(server, meta, source="127.0.0.8")) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert b'"games"' in answer


async def _hello(
    addr: str, gid: str, token: str | None = None, source: str = "127.0.0.1"
) -> tuple[Any, dict[str, Any]]:
    """A websocket from loopback address `source` (each test its own: the per-address counts are the server's)."""
    ws = await connect(f"ws://{addr}/ws/games/{gid}", local_addr=(source, 0))
    with contextlib.suppress(ConnectionClosed):  # a refused socket is closed at once, maybe before the hello
        await ws.send(json.dumps({"type": "hello", "token": token} if token else {"type": "hello"}))
    return ws, json.loads(await ws.recv())  # the server's first word comes before its close


async def _hello_once_free(addr: str, gid: str, source: str) -> tuple[Any, dict[str, Any]]:
    """Say hello until the server has counted the closed sockets out (a close takes a moment under load)."""
    deadline = time.monotonic() + 10
    while True:
        ws, msg = await _hello(addr, gid, source=source)
        if msg["type"] == "state" or time.monotonic() > deadline:
            return ws, msg
        await ws.close()
        await asyncio.sleep(0.1)


def test_websockets_per_address_and_spectators_per_game_are_capped(server: str) -> None:
    created = _create(server)
    gid, token = created["game"]["id"], created["seats"]["0"]

    async def scenario() -> None:
        src = "127.0.0.3"
        first = [await _hello(server, gid, source=src) for _ in range(LIMITS.spectators_per_game)]
        assert all(msg["type"] == "state" for _ws, msg in first)
        ws, msg = await _hello(server, gid, source="127.0.0.4")  # one spectator too many for this game
        assert msg["error"] == "busy" and "spectators" in msg["message"]
        await ws.close()
        seat, msg = await _hello(server, gid, token, source=src)  # a seat is no spectator: the address's third
        assert msg["type"] == "state"
        ws, msg = await _hello(server, gid, token, source=src)  # a fourth socket from this address
        assert msg["error"] == "busy" and "from your address" in msg["message"]
        await ws.close()
        for w, _ in first:
            await w.close()
        await seat.close()
        again, msg = await _hello_once_free(server, gid, source=src)
        assert msg["type"] == "state"  # closed sockets are counted out
        await again.close()

    asyncio.run(scenario())


def test_a_silent_socket_is_closed_and_one_that_pings_stays(server: str) -> None:
    gid = _create(server)["game"]["id"]

    async def scenario() -> None:
        silent, _ = await _hello(server, gid, source="127.0.0.5")
        chatty, _ = await _hello(server, gid, source="127.0.0.5")
        started = time.monotonic()
        while time.monotonic() - started < 1.6:
            await chatty.send(json.dumps({"type": "ping"}))
            assert json.loads(await chatty.recv())["type"] == "pong"
            await asyncio.sleep(0.3)
        msg = json.loads(await asyncio.wait_for(silent.recv(), 2))
        assert msg["error"] == "idle"
        await chatty.close()
        await silent.close()

    asyncio.run(scenario())


def test_serve_refuses_an_unknown_limit(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from fogofwar.frontends.cli import app

    result = CliRunner().invoke(app, ["serve", "--limit", "bogus=1", "--db", f"sqlite:///{tmp_path / 'x.db'}"])
    assert result.exit_code == 2 and "bogus" in result.output
