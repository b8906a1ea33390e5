"""Chat per game over the websocket: the players' room (an invite game's two seats) and the spectators' room (the
players read it once the game is over); every refusal (too long, empty, flooding, a room the sender does not read,
a token of another game); each message to its room's connections only; the history on connect, after a restart,
bounded; never in the game's event log."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from fogofwar.frontends.server import chat as game_chat
from fogofwar.frontends.server.app import create_app
from fogofwar.frontends.server.chat import FloodGate, clean_text, rooms_for
from fogofwar.frontends.server.limits import Limits
from fogofwar.frontends.server.session import ClientError
from fogofwar.frontends.server.store import Store

from .server_helpers import Msg, act, auth, create, hello

Conns = dict[int | None, WebSocketTestSession]


def _invite_game(client: TestClient) -> tuple[str, dict[int, str]]:
    """A barrage game between two people (an invite taken up): its id and both seats' tokens."""
    res = create(client, opponent="invite", color="red", name="Host")
    gid = res["game"]["id"]
    joined = client.post(f"/api/games/{gid}/join", json={"invite": res["invite"], "name": "Guest"}).json()
    return gid, {0: res["seats"]["0"], 1: joined["seats"]["1"]}


def _connect(ws: WebSocketTestSession, token: str | None) -> list[Msg]:
    """Say hello; the state, then the chat history of every room the connection reads."""
    first = hello(ws, token)
    return [first, *_drain(ws)]


def _drain(ws: WebSocketTestSession) -> list[Msg]:
    """Everything sent to `ws` so far: a ping's pong comes after it."""
    ws.send_json({"type": "ping", "id": "drain"})
    got = []
    while (msg := ws.receive_json())["type"] != "pong":
        got.append(msg)
    return got


@contextmanager
def _room(client: TestClient, gid: str, tokens: dict[int, str], spectators: int = 1) -> Iterator[Conns]:
    """Both seats and `spectators` spectators (keys None, then -1, -2...) connected; their greetings drained."""
    keys: list[int | None] = [0, 1, None, *range(-1, -spectators, -1)]
    with ExitStack() as stack:
        conns: Conns = {k: stack.enter_context(client.websocket_connect(f"/ws/games/{gid}")) for k in keys}
        for key, ws in conns.items():
            _connect(ws, tokens[key] if key is not None and key >= 0 else None)
        yield conns


def _say(ws: WebSocketTestSession, text: str, room: str | None = None, ref: str = "c1") -> Msg:
    """Send a chat message; the answer to it (an ack or an error)."""
    cmd: dict[str, Any] = {"type": "chat", "text": text, "id": ref}
    if room is not None:
        cmd["room"] = room
    ws.send_json(cmd)
    return _answer(ws, ref)


def _answer(ws: WebSocketTestSession, ref: str | None) -> Msg:
    """The ack or error of the message `ref` (what comes before it is skipped)."""
    while True:
        msg = ws.receive_json()
        if msg["type"] in ("ack", "error") and msg.get("id") == ref:
            return dict(msg)


def _refused(ws: WebSocketTestSession, text: str, room: str | None = None) -> Msg:
    answer = _say(ws, text, room)
    assert answer["type"] == "error", answer
    return answer


def _texts(msgs: list[Msg], room: str) -> list[str]:
    return [line["text"] for m in msgs if m["type"] == "chat" and m["room"] == room for line in m["messages"]]


def test_the_players_room_is_the_two_players_and_the_spectators_room_the_spectators(client: TestClient) -> None:
    gid, tokens = _invite_game(client)
    with _room(client, gid, tokens) as conns:
        ack = _say(conns[0], "good luck!")
        assert ack["type"] == "ack" and isinstance(ack["chat"], int)
        said = _drain(conns[1])
        line = {"id": ack["chat"], "seat": 0, "name": "Host", "text": "good luck!", "at": said[0]["messages"][0]["at"]}
        assert said == [{"type": "chat", "room": "players", "messages": [line]}]
        assert _texts(_drain(conns[0]), "players") == ["good luck!"]  # the sender gets it like everybody else
        assert _drain(conns[None]) == []  # a spectator never gets the players' room
        assert _say(conns[None], "red will win", room="spectators")["type"] == "ack"
        assert _texts(_drain(conns[None]), "spectators") == ["red will win"]
        assert _drain(conns[0]) == [] and _drain(conns[1]) == []  # not during the game: nobody helps a player
        assert _say(conns[1], "thanks", room="players")["type"] == "ack"
        assert _texts(_drain(conns[0]), "players") == ["thanks"]


def test_every_refusal_says_why_and_stores_nothing(client: TestClient, db_url: str) -> None:
    gid, tokens = _invite_game(client)
    with _room(client, gid, tokens) as conns:
        too_long = _refused(conns[0], "x" * 301)
        assert too_long["error"] == "too_long" and "at most 300 characters" in too_long["message"]
        assert "301" in too_long["message"]
        assert _say(conns[0], "y" * 300)["type"] == "ack"  # the limit itself is allowed
        for empty in ("", "   ", "\x00\x07\n", "\u200b\u202e"):
            assert _refused(conns[0], empty)["error"] == "empty"
        spectator = _refused(conns[None], "psst", room="players")
        assert spectator["error"] == "forbidden" and "players' room is for the two players" in spectator["message"]
        player = _refused(conns[0], "hi all", room="spectators")
        assert player["error"] == "forbidden" and "when the game is over" in player["message"]
        for malformed in ({"text": 5}, {"text": "hi", "room": "lobby"}):
            conns[0].send_json({"type": "chat", **malformed})
            assert _answer(conns[0], None)["error"] == "malformed"  # a message not read has no id to answer
        assert _texts(_drain(conns[1]), "players") == ["y" * 300]  # only the message that was accepted
    stored = Store(db_url)
    try:
        assert [e.text for e in stored.chat(gid, 100)] == ["y" * 300]
    finally:
        stored.close()
    r = client.post(f"/api/games/{gid}/act", headers=auth(tokens[0]), json={"type": "chat", "text": "hi"})
    assert r.status_code == 400 and "for the websocket" in r.json()["message"]


def test_no_players_room_against_the_computer_nor_at_one_screen(client: TestClient) -> None:
    for opponent, words in (("random", "against the computer"), ("hotseat", "at one screen")):
        res = create(client, opponent=opponent)
        gid, token = res["game"]["id"], res["seats"]["0"]
        with client.websocket_connect(f"/ws/games/{gid}") as ws:
            greeting = _connect(ws, token)
            assert [m for m in greeting if m["type"] == "chat"] == []  # a player reads no room during the game
            refused = _refused(ws, "anyone?")
            assert refused["error"] == "no_room" and words in refused["message"]
            assert _refused(ws, "anyone?", room="spectators")["error"] == "forbidden"


def test_a_token_of_another_game_opens_no_room(client: TestClient) -> None:
    gid, _tokens = _invite_game(client)
    _other, other_tokens = _invite_game(client)
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        ws.send_json({"type": "hello", "token": other_tokens[0]})
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["error"] == "forbidden"
        with pytest.raises(WebSocketDisconnect):
            ws.send_json({"type": "chat", "text": "let me in", "room": "players"})
            ws.receive_json()


def test_text_is_cleaned_of_control_characters() -> None:
    assert clean_text("  a\x00b\tc\r\nd\u202eé\u2066  ") == "ab c  dé"
    assert clean_text("👍\u200d") == "👍\u200d"  # a joiner inside an emoji stays
    assert clean_text("é" * 300) == "é" * 300
    with pytest.raises(ClientError, match="at most 300"):
        clean_text("é" * 301)


def test_the_rooms_each_connection_reads() -> None:
    assert rooms_for("invite", None, over=False) == ("spectators",)
    assert rooms_for("invite", 0, over=False) == ("players",)
    assert rooms_for("invite", 1, over=True) == ("players", "spectators")
    assert rooms_for("agent", 0, over=False) == () and rooms_for("hotseat", 1, over=True) == ("spectators",)


def test_the_flood_gate_counts_a_sliding_window() -> None:
    gate = FloodGate(5, 10.0)
    for i in range(5):
        gate.take("seat 0", at=100.0 + i)
    with pytest.raises(ClientError, match="slow down: at most 5 chat messages in 10 seconds; wait 5 s"):
        gate.take("seat 0", at=105.0)
    gate.take("seat 1", at=105.0)  # another writer
    gate.take("seat 0", at=110.0)  # the first has left the window
    with pytest.raises(ClientError):
        gate.take("seat 0", at=110.5)


def test_flooding_is_refused_per_seat_and_per_spectators_address(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid, tokens = _invite_game(client)
    with _room(client, gid, tokens, spectators=2) as conns:
        for i in range(5):
            assert _say(conns[0], f"spam {i}", ref=f"s{i}")["type"] == "ack"
        slow = _refused(conns[0], "spam 5")
        assert slow["error"] == "slow_down" and "at most 5 chat messages in 10 seconds" in slow["message"]
        with client.websocket_connect(f"/ws/games/{gid}") as again:  # another socket of the same seat: no reprieve
            _connect(again, tokens[0])
            assert _refused(again, "spam 6")["error"] == "slow_down"
        assert _texts(_drain(conns[1]), "players") == [f"spam {i}" for i in range(5)]  # the refused one is not sent
        assert _say(conns[1], "calm down")["type"] == "ack"  # the other seat is not held back
        for i in range(5):
            assert _say(conns[None], f"watching {i}", ref=f"w{i}")["type"] == "ack"
        assert _refused(conns[-1], "me too")["error"] == "slow_down"  # a second spectator socket, same address
        real = game_chat.now
        monkeypatch.setattr(game_chat, "now", lambda: real() + 10.5)
        assert _say(conns[0], "later")["type"] == "ack" and _say(conns[-1], "me too")["type"] == "ack"
        assert _texts(_drain(conns[1]), "players") == ["calm down", "later"]  # its own, after its ack


def test_the_spectators_room_opens_to_the_players_when_the_game_is_over(client: TestClient) -> None:
    gid, tokens = _invite_game(client)
    with _room(client, gid, tokens) as conns:
        _say(conns[None], "blue has the better army", room="spectators")
        _say(conns[0], "nice try", room="players")
        for key in conns:
            _drain(conns[key])
        act(client, gid, tokens[1], type="resign")
        for seat in (0, 1):  # the game's end, then what the spectators said
            told = _drain(conns[seat])
            assert [m["type"] for m in told] == ["delta", "chat"] and told[0]["events"][0]["kind"] == "resign"
            assert told[0]["patch"]["o"]["game"]["o"]["status"] == {"=": "over"}
            assert told[1]["history"] is True and _texts(told, "spectators") == ["blue has the better army"]
        assert [m["type"] for m in _drain(conns[None])] == ["delta"]  # the spectator: no players' room
        assert _say(conns[0], "thanks for watching", room="spectators")["type"] == "ack"
        assert _texts(_drain(conns[None]), "spectators") == ["thanks for watching"]
        assert _texts(_drain(conns[1]), "spectators") == ["thanks for watching"]
        assert _say(conns[1], "gg", room="players")["type"] == "ack"
        assert _drain(conns[None]) == []  # the players' room stays the players' own
        assert _refused(conns[None], "gg", room="players")["error"] == "forbidden"
    with client.websocket_connect(f"/ws/games/{gid}") as ws:  # a player coming back reads both rooms
        greeting = _connect(ws, tokens[1])
        assert _texts(greeting, "players") == ["nice try", "gg"]
        assert _texts(greeting, "spectators") == ["blue has the better army", "thanks for watching"]


def test_the_history_comes_on_reconnect_and_after_a_restart_bounded(db_url: str) -> None:
    limits = Limits(chat_messages=1000)
    with TestClient(create_app(db_url, fsync=False, seed=7, limits=limits)) as client:
        gid, tokens = _invite_game(client)
        seq = client.get(f"/api/games/{gid}").json()["game"]["seq"]
        with _room(client, gid, tokens) as conns:
            for i in range(105):
                assert _say(conns[i % 2], f"line {i}", ref=f"l{i}")["type"] == "ack"
            _say(conns[None], "a spectator's word")
        with client.websocket_connect(f"/ws/games/{gid}") as ws:
            greeting = _connect(ws, tokens[0])
        assert _texts(greeting, "players") == [f"line {i}" for i in range(5, 105)]  # the newest 100
        assert client.get(f"/api/games/{gid}").json()["game"]["seq"] == seq  # chat is no event of the game
    store = Store(db_url)
    try:
        assert len(store.chat(gid, 1000)) == 101  # older ones are forgotten in the database too
        assert all(ev.kind != "chat" for ev in store.events(gid))
    finally:
        store.close()
    with TestClient(create_app(db_url, fsync=False, seed=7)) as client:  # a restart: the game and its chat reload
        with client.websocket_connect(f"/ws/games/{gid}") as ws:
            greeting = _connect(ws, tokens[1])
            lines = [line for m in greeting if m["type"] == "chat" for line in m["messages"]]
            assert [x["text"] for x in lines] == [f"line {i}" for i in range(5, 105)]
            assert lines[-1]["seat"] == 0 and lines[-1]["name"] == "Host" and lines[-2]["name"] == "Guest"
            assert _say(ws, "back again")["type"] == "ack"
        with client.websocket_connect(f"/ws/games/{gid}") as ws:
            assert _texts(_connect(ws, None), "spectators") == ["a spectator's word"]
