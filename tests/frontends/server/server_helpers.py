"""Helpers for the server tests: create games, talk to a seat's websocket, play random moves."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from fogofwar.core.web_adapter import Event
from fogofwar.frontends.server.delta import follow
from fogofwar.frontends.server.session import GameSession
from fogofwar.frontends.server.store import Store

Msg = dict[str, Any]


DEFAULTS: dict[str, dict[str, Any]] = {
    "stratego": {"variant": "barrage", "opponent": "random", "color": "red"},
    "lotr": {"game": "lotr", "variant": "classic", "opponent": "random", "color": "evil"},
    "admiral": {"game": "admiral", "variant": "archipelago", "opponent": "random", "color": "south"},
}
"""What each game's tests create unless told otherwise."""


def create(client: TestClient, **body: Any) -> Msg:
    """POST /api/games with the game's defaults (Stratego: barrage against the random agent) unless told otherwise."""
    payload: dict[str, Any] = dict(DEFAULTS[body.get("game", "stratego")])
    payload.update(body)
    r = client.post("/api/games", json=payload)
    assert r.status_code == 201, r.text
    return dict(r.json())


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def seat_view(client: TestClient, game_id: str, token: str) -> Msg:
    r = client.get(f"/api/games/{game_id}/seat", headers=auth(token))
    assert r.status_code == 200, r.text
    return dict(r.json())


def act(client: TestClient, game_id: str, token: str, **command: Any) -> Msg:
    r = client.post(f"/api/games/{game_id}/act", headers=auth(token), json=command)
    assert r.status_code == 200, r.text
    return dict(r.json())


def hello(ws: WebSocketTestSession, token: str | None) -> Msg:
    """Say hello; returns the first state message."""
    ws.send_json({"type": "hello", "token": token} if token else {"type": "hello"})
    msg = ws.receive_json()
    assert msg["type"] == "state", msg
    return dict(msg)


def wait_until(client: TestClient, game_id: str, token: str, pred: Callable[[Msg], bool], timeout: float = 10) -> Msg:
    """Poll the seat's view until `pred` holds (for the computer's moves, which come in the background)."""
    deadline = time.monotonic() + timeout
    while True:
        view = seat_view(client, game_id, token)
        if pred(view):
            return view
        assert time.monotonic() < deadline, f"timed out; last view: {view['game']}"
        time.sleep(0.01)


def my_turn(seat: int) -> Callable[[Msg], bool]:
    return lambda m: m["game"]["status"] == "over" or (m["game"]["to_move"] == seat and bool(m["legal"]))


EVENT_KINDS = {"setup", "action", "chance", "resign", "forfeit", "abort", "timeout", "resume", "rematch"} | {
    "draw_offer",
    "draw_decline",
    "draw_accept",
}
"""The kinds of stored events (`GameSession.apply`): a delta names them, never a draft's."""


def check_delta(delta: Msg, before: Msg | None, after: Msg, secrets: Iterable[str]) -> None:
    """A delta, sent to a connection that held `before` and now holds `after`, is only its number, the events
    since (their numbers, kinds and seats: no payload, so no die, no setup, no secret order) and its patch
    (whose every value is part of `after`, which the caller judges as a state), and holds none of `secrets`."""
    assert before is not None, f"a delta before any whole view: {delta}"
    assert set(delta) <= {"type", "v", "events", "patch"}, f"a field the leak test does not know: {delta}"
    assert delta["v"] == before["v"] + 1 and after["v"] == delta["v"]
    assert delta["patch"], "an empty delta is never sent"
    since, now = before["game"]["seq"], after["game"]["seq"]
    events = delta.get("events", [])
    assert [e["seq"] for e in events] == list(range(since + 1, now + 1)), (since, now, events)
    for e in events:
        assert set(e) == {"seq", "kind", "seat"} and e["kind"] in EVENT_KINDS and e["seat"] in (0, 1, None), e
    text = json.dumps(delta)
    for secret in secrets:
        assert secret not in text, f"LEAK: a delta holds a secret: {delta}"


def judged(log: Iterable[Msg], secrets: Iterable[str], until_over: Iterable[str] = ()) -> Iterator[Msg]:
    """Each message of one connection's log, in order, as the leak checks judge it: a state or any other message
    as sent, a delta as the state it makes of the one held, once the delta itself passed `check_delta` (with
    `secrets`, and `until_over` while the game it makes is not over)."""
    held: Msg | None = None
    for m in log:
        if m["type"] == "delta":
            after = follow(held, m)
            assert after is not None, f"a delta that does not follow the view held: {m}"
            over = after["game"]["status"] == "over"
            check_delta(m, held, after, [*secrets, *([] if over else until_over)])
            held = after
            yield after
        else:
            if m["type"] == "state":
                held = m
            yield m


class Follower:
    """One websocket and the state message its client holds: every state and delta received is followed."""

    def __init__(self, ws: WebSocketTestSession) -> None:
        self.ws = ws
        self.state: Msg | None = None

    def hello(self, token: str | None) -> Msg:
        self.state = hello(self.ws, token)
        return self.state

    def receive(self) -> Msg:
        """The next message as sent (the state held follows it)."""
        msg = dict(self.ws.receive_json())
        held = follow(self.state, msg)
        assert held is not None, f"a delta that does not follow the view held: {msg}"
        self.state = held
        return msg

    @property
    def held(self) -> Msg:
        assert self.state is not None
        return self.state


def held_states(log: Iterable[Msg]) -> Iterator[tuple[Msg, Msg | None]]:
    """Each message of one connection's log with the state message the client holds after it (None before
    the first): deltas applied in order, which must follow each other (a gap fails the test)."""
    held: Msg | None = None
    for m in log:
        nxt = follow(held, m)
        assert nxt is not None, f"a delta that does not follow the view held ({held and held['v']}): {m}"
        held = nxt
        yield m, held


def play_vs_agent_ws(
    ws: WebSocketTestSession,
    seat: int,
    rng: random.Random,
    first: Msg,
    setup: str = "sample",
    on_message: Callable[[Msg], None] | None = None,
    max_actions: int = 10_000,
) -> Msg:
    """Play a whole game on a seat's websocket against the computer; returns the last state the seat held.

    Every message received (a state, a delta, an ack...) is passed to `on_message` (the leak test records them).
    """
    msg = first
    held: Msg | None = None
    sent_setup = False
    actions = 0
    while True:
        if on_message is not None:
            on_message(msg)
        if msg["type"] == "error":
            raise AssertionError(f"server refused a move: {msg}")
        nxt = follow(held, msg)
        assert nxt is not None, f"a delta that does not follow: {msg}"
        if msg["type"] in ("state", "delta"):
            held = nxt
            game = held["game"]
            if game["status"] == "over" or actions >= max_actions:
                return held
            if game["status"] == "setup" and not sent_setup and not held["setup"]["done"]:
                ws.send_json({"type": "setup", "setup": setup, "id": "setup"})
                sent_setup = True
            elif game["status"] == "play" and game["to_move"] == seat and held["legal"]:
                ws.send_json({"type": "action", "action": rng.choice(held["legal"]), "id": actions})
                actions += 1
                # Skip the changes sent before our ack: their legal moves are already spent.
                while True:
                    reply = ws.receive_json()
                    if on_message is not None:
                        on_message(reply)
                    if reply["type"] == "ack":
                        break
                    if reply["type"] == "error":
                        raise AssertionError(f"server refused a legal move: {reply}")
                    nxt = follow(held, reply)
                    assert nxt is not None, f"a delta that does not follow: {reply}"
                    held = nxt
        msg = ws.receive_json()


def replay_log(db_url: str, game_id: str) -> tuple[list[Any], list[Event], GameSession]:
    """The true state after each event (index = seq), the events and the session that replayed them,
    from the server's own log: what the leak tests compare every message with."""
    store = Store(db_url)
    try:
        meta = store.game(game_id)
        assert meta is not None
        events = store.events(game_id)
    finally:
        store.close()
    session = GameSession(meta)
    states = [session.state.clone()]
    for ev in events:
        session.apply(ev)
        states.append(session.state.clone())
    return states, events, session


def ints(value: Any) -> Iterator[int]:
    """Every integer in a JSON message (booleans aside): where an action id could hide."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from ints(v)
    elif isinstance(value, list):
        for v in value:
            yield from ints(v)


def play_recorded_vs_agent(
    client: TestClient, game_id: str, seat: int, token: str, public_every: int
) -> tuple[list[Msg], list[Msg], Msg]:
    """Play a whole game against the server's agent over a websocket, random setup and moves: every message
    the seat received, the public game info fetched every `public_every` messages, and the last state."""
    log: list[Msg] = []
    public: list[Msg] = []
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:

        def record(m: Msg) -> None:
            log.append(m)
            if len(log) % public_every == 1:
                public.append(client.get(f"/api/games/{game_id}").json())

        last = play_vs_agent_ws(ws, seat, random.Random(seat), hello(ws, token), setup="random", on_message=record)
    return log, public, last


class HotseatRoom:
    """Both seats and a spectator connected to one game (hot-seat, or an invite game taken up); `logs` keeps what
    each was sent (key None: the spectator), `held` the state message each holds (deltas applied)."""

    def __init__(self, conns: dict[int | None, WebSocketTestSession], tokens: Mapping[int, str]) -> None:
        self.conns = conns
        self.logs: dict[int | None, list[Msg]] = {key: [] for key in conns}
        self.held: dict[int | None, Msg] = {}
        for key, ws in conns.items():
            self._log(key, hello(ws, tokens[key] if key is not None else None))

    def _log(self, key: int | None, msg: Msg) -> None:
        self.logs[key].append(msg)
        held = follow(self.held.get(key), msg)
        assert held is not None, f"a delta that does not follow the view held: {msg}"
        self.held[key] = held

    def step(self, seat: int, command: dict[str, Any]) -> Msg:
        """Send a command for `seat`; its ack, then the change each connection is sent (a draft of secret
        orders is sent to its own seat alone). Chat messages that come before are logged too (the leak test
        judges them)."""
        self.conns[seat].send_json(command)
        ack = self._until(seat, ("ack",))
        assert ack["type"] == "ack", ack
        told = [seat] if "draft" in ack else list(self.conns)
        for key in told:
            self._until(key, ("state", "delta"))
        return ack

    def _until(self, key: int | None, kinds: tuple[str, ...]) -> Msg:
        """Log what connection `key` is sent up to the next message of one of `kinds` (or an error), and
        return it."""
        while True:
            msg = self.conns[key].receive_json()
            self._log(key, msg)
            if msg["type"] in (*kinds, "error"):
                return dict(msg)

    def say(self, key: int | None, text: str, room: str, readers: Iterable[int | None]) -> Msg:
        """A chat message from connection `key` to `room`; its answer, then (if it was accepted) the message each
        of `readers` is sent. Whatever comes before the answer is logged too (the leak test judges it)."""
        ref = f"chat-{key}"
        self.conns[key].send_json({"type": "chat", "text": text, "room": room, "id": ref})
        while True:
            answer = self.conns[key].receive_json()
            self._log(key, answer)
            if answer["type"] in ("ack", "error") and answer.get("id") == ref:
                break
        if answer["type"] == "ack":
            for reader in readers:
                self._log(reader, self.conns[reader].receive_json())
        return dict(answer)

    def drain(self) -> None:
        """Log whatever each connection was sent and not yet read (a ping's pong comes after it)."""
        for key, ws in self.conns.items():
            ws.send_json({"type": "ping", "id": "drain"})
            while (msg := ws.receive_json())["type"] != "pong":
                self._log(key, msg)

    def last(self, key: int | None) -> Msg:
        """The last message connection `key` was sent."""
        return self.logs[key][-1]

    def state(self, key: int | None) -> Msg:
        """The state message connection `key` holds (the last whole view, with the deltas since applied)."""
        return self.held[key]


@contextmanager
def hotseat_room(client: TestClient, game_id: str, tokens: Mapping[int, str]) -> Iterator[HotseatRoom]:
    with (
        client.websocket_connect(f"/ws/games/{game_id}") as first,
        client.websocket_connect(f"/ws/games/{game_id}") as second,
        client.websocket_connect(f"/ws/games/{game_id}") as watch,
    ):
        yield HotseatRoom({0: first, 1: second, None: watch}, tokens)


BOTH_DATABASES = pytest.mark.parametrize("db_url", ["sqlite", "postgresql"], indirect=True)
"""Run a test that takes `db_url` (or `client`) on SQLite and on PostgreSQL (see conftest.py)."""
