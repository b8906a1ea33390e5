"""Games survive the server: a new app on the same database, and a server killed with SIGKILL.

The event log is committed before an action is acknowledged, so whatever a client was told
is stored must be there after any restart, and the game must resume at exactly that state.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from typing import Any

from fastapi.testclient import TestClient

from fogofwar.frontends.server import create_app
from fogofwar.frontends.server.delta import follow
from fogofwar.frontends.server.store import Store

from .server_helpers import BOTH_DATABASES, act, create, my_turn, seat_view, wait_until

pytestmark = BOTH_DATABASES


def test_a_new_app_on_the_same_database_resumes_every_game(db_url: str) -> None:
    rng = random.Random(3)
    with TestClient(create_app(db_url, fsync=False, seed=3)) as client:
        for _attempt in range(5):  # random moves may take the flag at once (rarely): then play another game
            vs_computer = create(client, opponent="heuristic")
            gid, token = vs_computer["game"]["id"], vs_computer["seats"]["0"]
            act(client, gid, token, type="setup", setup="sample")
            for _ in range(6):
                view = wait_until(client, gid, token, my_turn(0))
                if not view["legal"]:
                    break
                act(client, gid, token, type="action", action=rng.choice(view["legal"]))
            before = wait_until(client, gid, token, my_turn(0))
            if before["legal"]:
                break
        hot = create(client, opponent="hotseat")
        hid, red, blue = hot["game"]["id"], hot["seats"]["0"], hot["seats"]["1"]
        act(client, hid, blue, type="setup", setup="sample")  # waits for red: a pending setup
        hot_before = seat_view(client, hid, blue)
        listed_before = client.get("/api/games").json()
    with TestClient(create_app(db_url, fsync=False, seed=3)) as client:
        assert seat_view(client, gid, token) == before
        assert seat_view(client, hid, blue) == hot_before
        assert client.get("/api/games").json() == listed_before
        # Play goes on where it stopped, the pending setup included.
        act(client, gid, token, type="action", action=before["legal"][0])
        wait_until(client, gid, token, lambda m: m["game"]["move_count"] == before["game"]["move_count"] + 2)
        act(client, hid, red, type="setup", setup="sample")
        assert seat_view(client, hid, red)["game"]["status"] == "play"


def test_the_computer_resumes_its_turn_after_a_restart(db_url: str) -> None:
    # The computer never answers in time: its turn is still open when this app stops.
    with TestClient(create_app(db_url, agent_delay=60, fsync=False)) as client:
        res = create(client, opponent="random")
        gid, token = res["game"]["id"], res["seats"]["0"]
        act(client, gid, token, type="setup", setup="sample")
        view = seat_view(client, gid, token)
        assert view["game"]["status"] == "setup"  # the computer has not placed its army
    with TestClient(create_app(db_url, fsync=False, seed=3)) as client:
        view = wait_until(client, gid, token, my_turn(0))
        assert view["game"]["status"] == "play" and view["legal"]
        act(client, gid, token, type="action", action=view["legal"][0])
        wait_until(client, gid, token, lambda m: m["game"]["move_count"] == 2)


# --- a real server process, killed -------------------------------------------------------------


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _http(method: str, url: str, body: Any = None, token: str | None = None, timeout: float = 10) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.loads(r.read())


def _start(port: int, db: str) -> subprocess.Popen[str]:
    """`fogofwar serve` in its own process; returns once it answers."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "fogofwar.frontends.cli",
            "serve",
            "--port",
            str(port),
            "--db",
            db,
            "--agent-delay",
            "0",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
    )
    assert proc.stdout is not None
    first = proc.stdout.readline()
    assert f"http://127.0.0.1:{port}/" in first, first
    deadline = time.monotonic() + 20
    while True:
        try:
            _http("GET", f"http://127.0.0.1:{port}/healthz", timeout=1)
            return proc
        except (urllib.error.URLError, ConnectionError, OSError):
            assert proc.poll() is None, proc.stdout.read()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)


def test_sigkill_loses_no_acknowledged_action(db_url: str) -> None:
    from websockets.sync.client import connect

    db = db_url
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    proc = _start(port, db)
    acked: list[tuple[int, int]] = []  # (seq, action) of every acknowledged move
    try:
        res = _http("POST", f"{base}/api/games", {"variant": "barrage", "opponent": "hotseat"})
        gid, tokens = res["game"]["id"], res["seats"]
        for key in ("0", "1"):
            _http("POST", f"{base}/api/games/{gid}/act", {"type": "setup", "setup": "sample"}, tokens[key])
        rng = random.Random(11)
        # Some moves over the websocket...
        with (
            connect(f"ws://127.0.0.1:{port}/ws/games/{gid}") as red,
            connect(f"ws://127.0.0.1:{port}/ws/games/{gid}") as blue,
        ):
            socks = {0: red, 1: blue}
            views: dict[int, dict[str, Any]] = {}
            for seat, ws in socks.items():
                ws.send(json.dumps({"type": "hello", "token": tokens[str(seat)]}))
                views[seat] = json.loads(ws.recv(timeout=5))
            for _ in range(10):
                mover = views[0]["game"]["to_move"]
                if mover is None:
                    break
                action = rng.choice(views[mover]["legal"])
                socks[mover].send(json.dumps({"type": "action", "action": action}))
                for seat, ws in socks.items():
                    while True:
                        msg = json.loads(ws.recv(timeout=5))
                        if msg["type"] == "ack":
                            acked.append((msg["seq"], action))
                        elif msg["type"] in ("state", "delta"):
                            held = follow(views[seat], msg)
                            assert held is not None, f"a delta that does not follow: {msg}"
                            views[seat] = held
                            break
                        else:
                            raise AssertionError(msg)
        # ...then HTTP moves from a thread, killed in the middle of the stream.
        stop = threading.Event()
        refused: list[str] = []

        def stream() -> None:
            try:
                while not stop.is_set():
                    mover = _http("GET", f"{base}/api/games/{gid}")["game"]["to_move"]
                    if mover is None:
                        return
                    legal = _http("GET", f"{base}/api/games/{gid}/seat", token=tokens[str(mover)])["legal"]
                    action = rng.choice(legal)
                    ack = _http(
                        "POST", f"{base}/api/games/{gid}/act", {"type": "action", "action": action}, tokens[str(mover)]
                    )
                    acked.append((ack["seq"], action))
            except urllib.error.HTTPError as exc:  # a real answer: the server refused a legal move
                refused.append(f"{exc.code}: {exc.read()!r}")
            except (urllib.error.URLError, OSError, http.client.HTTPException, json.JSONDecodeError):
                return  # the server died under us, maybe mid-answer: this request was never acknowledged

        worker = threading.Thread(target=stream)
        worker.start()
        while len(acked) < 25 and worker.is_alive():
            time.sleep(0.005)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        stop.set()
        worker.join(timeout=10)
        assert not refused, refused
        assert len(acked) >= 11
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        if proc.stdout:
            proc.stdout.close()
    # Every acknowledged action is in the log, at the place it was acknowledged for.
    store = Store(db)
    try:
        stored = {ev.seq: ev for ev in store.events(gid)}
    finally:
        store.close()
    for seq, action in acked:
        assert seq in stored and stored[seq].payload == {"action": action}, (seq, action)
    # A restarted server rebuilds the game from that log and plays on.
    proc = _start(port, db)
    try:
        view = _http("GET", f"{base}/api/games/{gid}")
        assert view["game"]["seq"] == len(stored) >= max(seq for seq, _ in acked)
        assert len(view["moves"]) == view["game"]["move_count"] == len(stored) - 2
        mover = view["game"]["to_move"]
        if mover is not None:
            legal = _http("GET", f"{base}/api/games/{gid}/seat", token=tokens[str(mover)])["legal"]
            ack = _http(
                "POST", f"{base}/api/games/{gid}/act", {"type": "action", "action": legal[0]}, tokens[str(mover)]
            )
            assert ack["seq"] == len(stored) + 1
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout:
            proc.stdout.close()
