"""One worker of `fogofwar serve --workers N`, in this process: uvicorn serves the connections handed to it (and
the uvicorn internals that relies on are still there), it serves only its own games (another worker's are sent
back, whatever came before on the connection), and a worker that loses a race for a game's next event reloads
the game from the log and acknowledges nothing that was not stored."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from uvicorn.protocols.http.h11_impl import H11Protocol

from fogofwar.frontends.server import create_app
from fogofwar.frontends.server.handoff import READY, WorkerSettings, channel_pair, send_connection
from fogofwar.frontends.server.limits import Limits, uvicorn_options
from fogofwar.frontends.server.routing import Ownership, owner, slots
from fogofwar.frontends.server.session import ClientError
from fogofwar.frontends.server.worker import HandoffServer, UvicornChanged, check_uvicorn

from .server_helpers import BOTH_DATABASES, Follower, act, auth, create, seat_view

TWO = slots(2)


# --- uvicorn's internals ---------------------------------------------------------------------------------


def test_uvicorn_still_has_what_the_handoff_uses() -> None:
    check_uvicorn()  # runs at every worker's start too


def test_a_uvicorn_that_changed_is_refused_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    def changed(self: Any, config: Any, state: Any) -> None:
        raise AssertionError("never built")

    monkeypatch.setattr(H11Protocol, "__init__", changed)
    with pytest.raises(UvicornChanged, match=r"uvicorn .* differs .*H11Protocol.__init__ lost server_state"):
        check_uvicorn()


def test_the_settings_cross_the_channel_and_bad_ones_are_refused() -> None:
    settings = WorkerSettings(slot=1, workers=2, db="sqlite:///x.db", limits={"live_games": 3}, seed=4)
    assert WorkerSettings.decode(settings.encode()) == settings
    with pytest.raises(ValueError, match="slot 2"):
        WorkerSettings.decode(json.dumps({"slot": 2, "workers": 2, "db": "sqlite:///x.db"}).encode())
    with pytest.raises(ValueError, match="not a JSON object"):
        WorkerSettings.decode(b"[1]")
    with pytest.raises(ValueError, match="in-memory database, which worker processes cannot share"):
        WorkerSettings(slot=0, workers=2, db="sqlite://")


def test_serve_refuses_workers_on_an_in_memory_database() -> None:
    from typer.testing import CliRunner

    from fogofwar.frontends.cli import app

    result = CliRunner().invoke(app, ["serve", "--workers", "2", "--db", "sqlite:///:memory:"])
    assert result.exit_code == 2 and "cannot share" in result.output


# --- a handed connection, served ---------------------------------------------------------------------------


async def _read_response(loop: asyncio.AbstractEventLoop, client: socket.socket) -> tuple[bytes, bytes]:
    """One HTTP response (head, body) with a content-length, read from a raw socket."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = await asyncio.wait_for(loop.sock_recv(client, 65536), 10)
        assert chunk, f"closed before a whole head: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(h.split(b":")[1]) for h in head.split(b"\r\n") if h.lower().startswith(b"content-length:"))
    while len(body) < length:
        body += await asyncio.wait_for(loop.sock_recv(client, 65536), 10)
    return head, body


def test_uvicorn_serves_a_handed_connection_and_sends_another_workers_game_back(tmp_path: Path) -> None:
    """The worker's path end to end, in this process: a connection accepted elsewhere, passed over the channel,
    is served by uvicorn with the app's protocol; a kept-alive request for a game this worker does not own gets a
    307 to itself and the connection closes, so that it is asked again and routed to the owner; the worker stops
    when the supervisor's end of the channel closes."""
    mine = Ownership("0", TWO)
    theirs = Ownership("1", TWO).new_game_id()

    async def main() -> None:
        loop = asyncio.get_running_loop()
        supervisor_end, worker_end = channel_pair()
        supervisor_end.setblocking(False)
        limits = Limits()
        app = create_app(f"sqlite:///{tmp_path / 'games.db'}", fsync=False, limits=limits, ownership=mine)
        server = HandoffServer(uvicorn.Config(app, log_level="warning", **uvicorn_options(limits)), worker_end)
        serving = asyncio.create_task(server.serve(sockets=[]))
        assert await asyncio.wait_for(loop.sock_recv(supervisor_end, 64), 20) == READY
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        client = socket.socket()
        client.setblocking(False)
        await loop.sock_connect(client, listener.getsockname())
        accepted, _ = listener.accept()
        send_connection(supervisor_end, accepted)
        accepted.close()  # as the supervisor does: the worker alone holds it now
        await loop.sock_sendall(client, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        head, body = await _read_response(loop, client)
        assert head.startswith(b"HTTP/1.1 200") and json.loads(body) == {"status": "ok", "worker": "0"}
        assert b"connection: close" not in head.lower()  # kept alive...
        await loop.sock_sendall(client, f"GET /api/games/{theirs}?x=1 HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        head, body = await _read_response(loop, client)
        assert head.startswith(b"HTTP/1.1 307"), head  # ...but another worker's game is not served here
        assert f"\r\nlocation: /api/games/{theirs}?x=1\r\n".encode() in head
        assert b"connection: close" in head.lower() and json.loads(body)["error"] == "moved"
        assert await asyncio.wait_for(loop.sock_recv(client, 10), 10) == b""  # closed
        client.close()
        listener.close()
        supervisor_end.close()  # the supervisor is gone: the worker stops
        await asyncio.wait_for(serving, 20)
        worker_end.close()

    asyncio.run(main())


# --- the guard and the manager, through the app ---------------------------------------------------------------


def test_a_worker_serves_only_its_own_games(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'games.db'}"
    with TestClient(create_app(db, fsync=False, seed=3, ownership=Ownership("1", TWO))) as other:
        theirs = create(other, opponent="hotseat")  # made by worker 1, so owned by it
    gid, token = theirs["game"]["id"], theirs["seats"]["0"]
    assert owner(gid, TWO) == "1"
    with TestClient(create_app(db, fsync=False, seed=3, ownership=Ownership("0", TWO))) as client:
        for _ in range(5):
            ours = create(client, opponent="hotseat")["game"]["id"]
            assert owner(ours, TWO) == "0"  # a worker creates games it owns
        for path in (f"/api/games/{gid}", f"/api/games/{gid}/seat", f"/game/{gid}", f"/replay/{gid}"):
            r = client.get(path, headers=auth(token), follow_redirects=False)
            assert r.status_code == 307 and r.headers["location"] == path and r.headers["connection"] == "close"
        setup = {"type": "setup", "setup": "sample"}
        r = client.post(f"/api/games/{gid}/act", headers=auth(token), json=setup, follow_redirects=False)
        assert r.status_code == 307 and r.headers["location"] == f"/api/games/{gid}/act"
        with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(f"/ws/games/{gid}"):
            pass
        assert refused.value.code == 1013
        # Below the guard too: the manager never loads another worker's game.
        manager = client.app.state.manager  # type: ignore[attr-defined]
        with pytest.raises(ClientError) as moved:
            client.portal.call(manager.get, gid)  # type: ignore[union-attr]
        assert moved.value.code == "moved" and manager.live_count() == 5
        # Claiming a game for an account reads its seats from the database, whichever worker owns it.
        assert client.portal.call(manager.stored_seat, gid, token) == 0  # type: ignore[union-attr]
    with TestClient(create_app(db, fsync=False, ownership=Ownership("1", TWO))) as other:
        assert seat_view(other, gid, token)["game"]["seq"] == 0  # the refused setup was never played


@BOTH_DATABASES
def test_a_stale_worker_that_loses_the_race_reloads_the_game_and_acknowledges_nothing(db_url: str) -> None:
    """Two processes with the same game in memory (a dead worker's late commit, or two servers by mistake): the
    one whose copy is stale tries the next event, the log refuses it, the mover is told so (no ack), and the game
    is reloaded from the log: every connection is shown the game as stored, and play goes on from there."""
    with (
        TestClient(create_app(db_url, fsync=False, seed=5)) as first,
        TestClient(create_app(db_url, fsync=False)) as late,
    ):
        res = create(first, opponent="hotseat")
        gid, tokens = res["game"]["id"], {int(s): t for s, t in res["seats"].items()}
        for seat in (0, 1):
            act(first, gid, tokens[seat], type="setup", setup="sample")
        stale = seat_view(late, gid, tokens[0])  # the second process loads the game now
        assert stale["game"]["status"] == "play" and stale["game"]["to_move"] == 0
        with late.websocket_connect(f"/ws/games/{gid}") as ws:
            watcher = Follower(ws)
            watcher.hello(tokens[1])
            won = act(first, gid, tokens[0], type="action", action=stale["legal"][0])  # stored by the first
            assert won["seq"] == stale["game"]["seq"] + 1
            r = late.post(
                f"/api/games/{gid}/act", headers=auth(tokens[0]), json={"type": "action", "action": stale["legal"][-1]}
            )
            assert r.status_code == 409 and r.json()["error"] == "conflict", r.text
            # The late process shows the stored game: its connection gets a delta to it, its views are it.
            assert watcher.receive()["type"] == "delta"
            assert watcher.held["game"]["seq"] == won["seq"]
            assert seat_view(late, gid, tokens[1]) == seat_view(first, gid, tokens[1])
            moves = seat_view(late, gid, tokens[1])
            # And it plays on from the log: the next move is the next event.
            ack = act(late, gid, tokens[1], type="action", action=moves["legal"][0])
            assert ack["seq"] == won["seq"] + 1
    from fogofwar.frontends.server.store import Store

    store = Store(db_url)
    try:
        log = store.events(gid)
    finally:
        store.close()
    assert [ev.seq for ev in log] == list(range(1, ack["seq"] + 1))
    assert log[won["seq"] - 1].payload == {"action": stale["legal"][0]}  # the first's move, not the refused one


def test_games_a_worker_no_longer_owns_leave_memory_and_their_clients_reconnect(tmp_path: Path) -> None:
    """When the workers change (a machine joins or leaves, docs/architecture.md), a worker drops the games it no
    longer owns: their connections are told to reconnect (to the new owner) and close, and it loads them no more."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}", fsync=False, seed=9)) as client:
        made = [create(client, opponent="hotseat") for _ in range(12)]
        leaving = next(m for m in made if owner(m["game"]["id"], TWO) == "1")
        gid = leaving["game"]["id"]
        manager = client.app.state.manager  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/games/{gid}") as ws:
            Follower(ws).hello(leaving["seats"]["0"])
            manager.ownership = Ownership("0", TWO)  # a second worker came
            dropped = client.portal.call(manager.forget_unowned)  # type: ignore[union-attr]
            assert dropped == sum(owner(m["game"]["id"], TWO) == "1" for m in made) >= 1
            told = ws.receive_json()
            assert told["type"] == "error" and told["error"] == "reconnect"
            with pytest.raises(WebSocketDisconnect):
                ws.receive_json()
        assert manager.live_count() == len(made) - dropped
        with pytest.raises(ClientError, match="served by another worker"):
            client.portal.call(manager.get, gid)  # type: ignore[union-attr]
