"""`fogofwar serve --workers 2` as a real server: a supervisor and two worker processes on one database.

Games of both workers play over websockets; one worker is killed with SIGKILL in the middle of a stream of
actions. Every acknowledged action must be in the log at its place afterwards, the killed worker's games must
resume (their clients reconnect, as the browser does, and play on), and the other worker's games must not notice:
their connections stay open and they keep playing while the killed worker is replaced.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from fogofwar.frontends.server.delta import follow
from fogofwar.frontends.server.routing import owner
from fogofwar.frontends.server.store import Store

from .processes import gone
from .server_helpers import BOTH_DATABASES
from .workers_server import TWO, WorkersServer


def _post(base: str, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST")
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=20) as r:
        return json.loads(r.read())


def _games(server: WorkersServer, each: int) -> dict[str, dict[str, str]]:
    """At least `each` hot-seat classic games on each worker, their setups placed: id -> seat tokens."""
    games: dict[str, dict[str, str]] = {}
    for _ in range(8 * each):
        if all(sum(owner(g, TWO) == w for g in games) >= each for w in TWO):
            break
        res = _post(server.base, "/api/games", {"variant": "classic", "opponent": "hotseat", "options": {}})
        gid = res["game"]["id"]
        for seat in ("0", "1"):
            _post(server.base, f"/api/games/{gid}/act", {"type": "setup", "setup": "sample"}, res["seats"][seat])
        games[gid] = res["seats"]
    assert all(sum(owner(g, TWO) == w for g in games) >= each for w in TWO), "creation is not spread over workers"
    return games


def test_a_kept_alive_connection_never_reaches_a_game_of_another_worker(tmp_path: Any) -> None:
    server = WorkersServer(f"sqlite:///{tmp_path / 'games.db'}")
    try:
        games = _games(server, 1)
        by_worker = {owner(g, TWO): g for g in games}
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("GET", "/healthz")
        first = conn.getresponse()
        served_by = json.loads(first.read())["worker"]
        own, other = by_worker[served_by], by_worker["1" if served_by == "0" else "0"]
        conn.request("GET", f"/api/games/{own}")  # the same connection: its worker owns this game
        same = conn.getresponse()
        assert same.status == 200 and json.loads(same.read())["game"]["id"] == own
        conn.request("GET", f"/api/games/{other}")  # ...and not this one: sent back, the connection closed
        moved = conn.getresponse()
        assert moved.status == 307 and moved.getheader("location") == f"/api/games/{other}"
        assert moved.getheader("connection") == "close"
        moved.read()
        conn.close()
        with urllib.request.urlopen(f"{server.base}/api/games/{other}", timeout=10) as r:  # follows: the owner answers
            assert json.loads(r.read())["game"]["id"] == other
    finally:
        server.stop()


@dataclass
class Player:
    """Plays both seats of one game over two websockets, reconnecting when they drop, until told to stop."""

    base: str
    gid: str
    tokens: dict[str, str]
    rng: random.Random
    acked: list[tuple[int, int, float]] = field(default_factory=list)  # (seq, action, when) of acknowledged moves
    drops: list[float] = field(default_factory=list)  # when its connections dropped
    problems: list[str] = field(default_factory=list)
    over: bool = False
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self, deadline: float) -> None:
        try:
            while not self.stop.is_set() and not self.over and time.monotonic() < deadline:
                try:
                    self._play()
                except (ConnectionClosed, OSError, TimeoutError):
                    self.drops.append(time.monotonic())
                    time.sleep(0.05)
        except Exception as exc:  # anything else is a failure of the test's expectations
            self.problems.append(repr(exc))

    def _play(self) -> None:
        url = self.base.replace("http", "ws", 1) + f"/ws/games/{self.gid}"
        with connect(url, open_timeout=10) as red, connect(url, open_timeout=10) as blue:
            socks = {0: red, 1: blue}
            views = {seat: self._hello(ws, self.tokens[str(seat)]) for seat, ws in socks.items()}
            while not self.stop.is_set():
                game = views[0]["game"]
                if game["status"] == "over":
                    self.over = True
                    return
                mover = game["to_move"]
                action = self.rng.choice(views[mover]["legal"])
                socks[mover].send(json.dumps({"type": "action", "action": action, "id": "m"}))
                seq = None
                for seat, ws in socks.items():
                    while True:
                        msg = json.loads(ws.recv(timeout=10))
                        if msg["type"] == "ack":
                            seq = int(msg["seq"])
                            self.acked.append((seq, action, time.monotonic()))
                        elif msg["type"] == "error":
                            raise AssertionError(f"a legal move was refused: {msg}")
                        elif msg["type"] in ("state", "delta"):
                            held = follow(views[seat], msg)
                            assert held is not None, f"a delta that does not follow: {msg}"
                            views[seat] = held
                            if seat != mover or seq is not None:
                                break
                time.sleep(0.002)

    @staticmethod
    def _hello(ws: ClientConnection, token: str) -> dict[str, Any]:
        ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            msg = json.loads(ws.recv(timeout=10))
            if msg["type"] == "state":
                return dict(msg)


@BOTH_DATABASES
def test_kill_9_of_one_worker_loses_nothing_its_games_resume_and_the_others_play_on(db_url: str) -> None:
    server = WorkersServer(db_url)
    players: list[Player] = []
    threads: list[threading.Thread] = []
    try:
        games = _games(server, 2)
        deadline = time.monotonic() + 90
        rng = random.Random(17)
        players = [Player(server.base, gid, tokens, random.Random(rng.random())) for gid, tokens in games.items()]
        threads = [threading.Thread(target=p.run, args=(deadline,), daemon=True) for p in players]
        for thread in threads:
            thread.start()
        victims = [p for p in players if owner(p.gid, TWO) == "0"]
        others = [p for p in players if owner(p.gid, TWO) == "1"]
        # Both workers' games play; then worker 0 dies in the middle of its games' streams of moves.
        while min(len(p.acked) for p in players) < 10:
            assert time.monotonic() < deadline and not any(p.problems for p in players), [p.problems for p in players]
            time.sleep(0.01)
        dead, spared = server.pids[0], server.pids[1]
        os.kill(dead, signal.SIGKILL)
        killed_at = time.monotonic()
        server.wait_for(lambda: server.pids[0] != dead, "a new worker 0")
        back_at = time.monotonic()
        assert server.pids[0] == server.spares[0]  # the spare took the slot, its imports done already
        server.wait_for(lambda: len(server.spares) == 2, "a new spare")
        # The killed worker's games come back and play on; the others never stopped.
        while any(sum(1 for *_, when in p.acked if when > back_at) < 5 for p in players if not p.over):
            assert time.monotonic() < deadline, "the games did not play on after the kill"
            assert not any(p.problems for p in players), [p.problems for p in players]
            time.sleep(0.01)
    finally:
        for p in players:
            p.stop.set()
        for thread in threads:
            thread.join(timeout=20)
        server.stop()
    assert not any(p.problems for p in players), [p.problems for p in players]
    assert all(p.drops and min(p.drops) >= killed_at for p in victims), [p.drops for p in victims]
    assert all(not p.drops for p in others), "a game of the other worker lost its connection"
    for p in others:  # and played while worker 0 was down and starting again
        assert any(killed_at < when < back_at for *_, when in p.acked), (killed_at, back_at, p.acked[-5:])
    assert any(f"worker 0 (pid {dead}) exited" in line for line in server.lines)
    assert server.pids[1] == spared
    # Every acknowledged move is in the log, at the place it was acknowledged for.
    store = Store(db_url)
    try:
        for p in players:
            stored = {ev.seq: ev for ev in store.events(p.gid)}
            for seq, action, _ in p.acked:
                assert seq in stored and stored[seq].payload == {"action": action}, (p.gid, seq, action)
            assert [ev.seq for ev in stored.values()] == list(range(1, len(stored) + 1))
    finally:
        store.close()


def test_the_workers_stop_when_their_supervisor_is_killed(tmp_path: Any) -> None:
    """No worker outlives its supervisor to hold the database and its games: each sees its channel close."""
    server = WorkersServer(f"sqlite:///{tmp_path / 'games.db'}")
    try:
        os.kill(server.proc.pid, signal.SIGKILL)
        server.proc.wait(timeout=10)
        deadline = time.monotonic() + 20
        while not all(gone(pid) for pid in {*server.pids.values(), *server.spares}):
            assert time.monotonic() < deadline, "a worker outlived its supervisor"
            time.sleep(0.05)
    finally:
        for pid in {*server.pids.values(), *server.spares}:
            if not gone(pid):
                os.kill(pid, signal.SIGKILL)


def test_workers_that_cannot_start_stop_the_server_with_the_reason(tmp_path: Any) -> None:
    """A bad database is a bad configuration, not a worker to restart forever: the server exits with status 3."""
    db = f"sqlite:///{tmp_path / 'no such folder' / 'games.db'}"
    proc = subprocess.run(
        [sys.executable, "-m", "fogofwar.frontends.cli", "serve", "--port", "0", "--db", db, "--workers", "2"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": "200"},
    )
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "could not start" in proc.stderr and "unable to open database file" in proc.stderr
