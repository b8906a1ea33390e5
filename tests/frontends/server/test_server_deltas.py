"""The delta protocol: one whole view a connection, then numbered deltas; a gap or a doubt mended with "sync"; a
reconnect starts with a whole view; a second connection of a seat keeps the first in step; a move the database
refuses changes nothing; and a move costs no copy of the game.

What each delta may tell is the leak tests' business (test_server_leaks.py, _lotr.py, _admiral.py)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from fogofwar.frontends.server.delta import follow
from fogofwar.frontends.server.group_commit import GroupCommit
from fogofwar.games.stratego.rules import StrategoState

from .server_helpers import Follower, Msg, act, auth, create, hello, seat_view


def _ready_game(client: TestClient) -> tuple[str, dict[int, str]]:
    """A hot-seat barrage game in play, red to move."""
    res = create(client, opponent="hotseat")
    gid, tokens = res["game"]["id"], {s: res["seats"][str(s)] for s in (0, 1)}
    for seat in (0, 1):
        act(client, gid, tokens[seat], type="setup", setup="sample")
    return gid, tokens


def _without_clock(msg: Msg) -> Msg:
    """A state message but for the time its clock showed (and its number, which only its connection knows)."""
    return {k: v for k, v in msg.items() if k not in ("clock", "v")}


def _move(client: TestClient, gid: str, tokens: dict[int, str], rng: random.Random) -> None:
    """The seat to move makes a random move (over HTTP: the sockets under test only listen)."""
    mover = client.get(f"/api/games/{gid}").json()["game"]["to_move"]
    legal = seat_view(client, gid, tokens[mover])["legal"]
    act(client, gid, tokens[mover], type="action", action=rng.choice(legal))


def test_a_connection_gets_one_whole_view_then_numbered_deltas(client: TestClient) -> None:
    gid, tokens = _ready_game(client)
    rng = random.Random(1)
    with client.websocket_connect(f"/ws/games/{gid}") as w0, client.websocket_connect(f"/ws/games/{gid}") as ws:
        red, watch = Follower(w0), Follower(ws)
        assert red.hello(tokens[0])["v"] == 1 and watch.hello(None)["v"] == 1
        sizes: dict[str, list[int]] = {"delta": [], "state": []}
        for n in range(2, 22):
            _move(client, gid, tokens, rng)
            for f, key in ((red, 0), (watch, None)):
                delta = f.receive()
                assert delta["type"] == "delta" and delta["v"] == n
                assert [e["kind"] for e in delta["events"]] == ["action"]
                whole = seat_view(client, gid, tokens[0]) if key == 0 else client.get(f"/api/games/{gid}").json()
                assert _without_clock(f.held) == _without_clock(whole), "what it holds is what it would be sent"
                sizes["delta"].append(len(json.dumps(delta)))
                sizes["state"].append(len(json.dumps(whole)))
        assert sum(sizes["delta"]) * 4 < sum(sizes["state"])


def _sync(ws: WebSocketTestSession, **fields: Any) -> Msg:
    ws.send_json({"type": "sync", "id": "s", **fields})
    return dict(ws.receive_json())


def test_sync_sends_the_whole_view_again_unless_it_is_the_latest(client: TestClient) -> None:
    gid, tokens = _ready_game(client)
    rng = random.Random(2)
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        red = Follower(ws)
        red.hello(tokens[0])
        for _ in range(3):
            _move(client, gid, tokens, rng)
            red.receive()
        assert red.held["v"] == 4
        assert _sync(ws, v=4) == {"type": "ack", "id": "s", "v": 4}  # up to date: nothing to send
        again = _sync(ws, v=2)  # behind: the whole view, numbered as the latest (nothing changed since)
        assert again["type"] == "state" and again["v"] == 4
        assert _without_clock(again) == _without_clock(red.held)
        whole = _sync(ws)  # no number: the whole view (the clock ran on: a new number)
        assert whole["type"] == "state" and whole["v"] in (4, 5)
        refused = _sync(ws, v=99)
        assert refused["type"] == "error" and refused["error"] == "bad_version" and refused["id"] == "s"
        assert "up to" in refused["message"]
        red.state = whole
        _move(client, gid, tokens, rng)  # and the deltas go on from the whole view
        delta = red.receive()
        assert delta["v"] == whole["v"] + 1 and red.held["game"]["seq"] == whole["game"]["seq"] + 1


def test_a_client_that_misses_a_delta_notices_and_asks_again(client: TestClient) -> None:
    gid, tokens = _ready_game(client)
    rng = random.Random(3)
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        held: Msg | None = hello(ws, None)
        _move(client, gid, tokens, rng)
        ws.receive_json()  # lost on the way
        _move(client, gid, tokens, rng)
        delta = ws.receive_json()
        assert follow(held, delta) is None  # a gap: v 2 went missing
        assert held is not None
        ws.send_json({"type": "sync", "v": held["v"]})
        held = ws.receive_json()
        assert held is not None and held["type"] == "state" and held["v"] >= delta["v"]
        assert _without_clock(held) == _without_clock(client.get(f"/api/games/{gid}").json())
        _move(client, gid, tokens, rng)
        held = follow(held, ws.receive_json())
        assert held is not None and held["game"]["seq"] == client.get(f"/api/games/{gid}").json()["game"]["seq"]


def test_a_reconnect_starts_with_a_whole_view(client: TestClient) -> None:
    gid, tokens = _ready_game(client)
    rng = random.Random(4)
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        red = Follower(ws)
        red.hello(tokens[0])
        _move(client, gid, tokens, rng)
        red.receive()
    for _ in range(3):  # moves made while red is away
        _move(client, gid, tokens, rng)
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        back = hello(ws, tokens[0])
        assert back["v"] == 1  # nobody of red's was connected: its views are numbered anew
        assert _without_clock(back) == _without_clock(seat_view(client, gid, tokens[0]))
        assert back["game"]["seq"] == red.held["game"]["seq"] + 3


def test_a_second_connection_of_a_seat_keeps_the_first_in_step(client: TestClient) -> None:
    """Two tabs of one seat hold the same view with the same number: one delta, encoded once, serves both."""
    gid, tokens = _ready_game(client)
    rng = random.Random(5)
    with client.websocket_connect(f"/ws/games/{gid}") as w1:
        first = Follower(w1)
        first.hello(tokens[1])
        _move(client, gid, tokens, rng)
        first.receive()
        with client.websocket_connect(f"/ws/games/{gid}") as w2:
            second = Follower(w2)
            second.hello(tokens[1])
            w1.send_json({"type": "ping", "id": "p"})
            while first.receive()["type"] != "pong":  # the clock ran on: the first tab is told, if anything changed
                pass
            assert first.held == second.held
            for _ in range(3):
                _move(client, gid, tokens, rng)
                assert first.receive() == second.receive()
            assert first.held == second.held


def test_a_seat_taken_is_told_to_the_other_players_page(client: TestClient) -> None:
    """The creator of an invite game watches its open seat being taken: names and open seats come as a delta."""
    res = create(client, opponent="invite", name="Ada")
    gid = res["game"]["id"]
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        ada = Follower(ws)
        assert ada.hello(res["seats"]["0"])["game"]["open_seats"] == [1]
        client.post(f"/api/games/{gid}/join", json={"invite": res["invite"], "name": "Bo"})
        delta = ada.receive()
        assert delta["type"] == "delta" and "events" not in delta  # no event: the game's people changed
        assert ada.held["game"]["players"] == ["Ada", "Bo"] and ada.held["game"]["open_seats"] == []


def test_a_move_the_database_refuses_changes_nothing(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The move is played on the live game before it is stored; if storing fails, the game is put back as it was:
    nobody was told of it, the mover is told why, and the game goes on."""
    gid, tokens = _ready_game(client)
    before = {s: seat_view(client, gid, tokens[s]) for s in (0, 1)}
    real = GroupCommit.append

    async def failing(self: GroupCommit, item: Any) -> float:
        raise OSError("disk full")

    with client.websocket_connect(f"/ws/games/{gid}") as w0, client.websocket_connect(f"/ws/games/{gid}") as w1:
        red, blue = Follower(w0), Follower(w1)
        red.hello(tokens[0])
        blue.hello(tokens[1])
        monkeypatch.setattr(GroupCommit, "append", failing)
        w0.send_json({"type": "action", "action": before[0]["legal"][0], "id": "m"})
        refused = red.receive()
        assert refused["type"] == "error" and refused["error"] == "unavailable" and refused["id"] == "m"
        assert {s: _without_clock(seat_view(client, gid, tokens[s])) for s in (0, 1)} == {
            s: _without_clock(before[s]) for s in (0, 1)
        }
        w1.send_json({"type": "ping", "id": "p"})
        assert blue.receive() == {"type": "pong", "id": "p"}  # blue was told nothing
        monkeypatch.setattr(GroupCommit, "append", real)
        w0.send_json({"type": "action", "action": before[0]["legal"][-1], "id": "m2"})
        assert red.receive()["type"] == "ack"
        red.receive()
        assert blue.receive()["events"] == [{"seq": before[0]["game"]["seq"] + 1, "kind": "action", "seat": 0}]
        assert red.held["game"]["seq"] == blue.held["game"]["seq"] == before[0]["game"]["seq"] + 1


def test_a_move_costs_no_copy_of_the_game(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A legal move is checked against the legal actions and played once, on the live game: Stratego's state is
    never cloned for it (the server used to try each move on a copy of the whole game first)."""
    gid, tokens = _ready_game(client)
    rng = random.Random(6)
    clones = 0
    real = StrategoState.clone

    def counted(self: StrategoState) -> StrategoState:
        nonlocal clones
        clones += 1
        return real(self)

    with client.websocket_connect(f"/ws/games/{gid}") as w0, client.websocket_connect(f"/ws/games/{gid}") as w1:
        seats = {0: Follower(w0), 1: Follower(w1)}
        for s, f in seats.items():
            f.hello(tokens[s])
        monkeypatch.setattr(StrategoState, "clone", counted)
        for _ in range(10):
            mover = seats[0].held["game"]["to_move"]
            seats[mover].ws.send_json({"type": "action", "action": rng.choice(seats[mover].held["legal"])})
            assert seats[mover].receive()["type"] == "ack"
            for f in seats.values():
                assert f.receive()["type"] == "delta"
    assert clones == 0
    mover = seats[0].held["game"]["to_move"]
    r = client.post(f"/api/games/{gid}/act", headers=auth(tokens[mover]), json={"type": "action", "action": 0})
    assert r.status_code == 422 and r.json()["error"] == "illegal"
    assert clones == 1  # a refused move: the engine explains it on a copy
