"""No message ever tells a seat (or a spectator) a rank the rules hide from it.

Every message sent to every connection over several whole games is recorded, then checked
against the ground truth: the game rebuilt from the server's own event log up to the
sequence number the message carries. A rank shown for a piece that is not its viewer's
must belong to a piece the game has revealed, and must be the true one; the move list must
be exactly the public history; nothing may hold a placement action id (it encodes a rank),
the other seat's token or setup string. Once the game is over everything may be shown.

After its first whole view a connection is sent deltas (what changed for its seat): each is checked itself
(its number, its events' kinds and seats and nothing more, no secret in its text) and as the state it makes of
the one held, which must pass every check above: no hidden rank, no other seat's legal moves.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fogofwar.frontends.server.app import create_app
from fogofwar.frontends.server.limits import Limits
from fogofwar.games.stratego.rules import PLACE_BASE, StrategoState
from fogofwar.grid.board import square_name

from .server_helpers import (
    HotseatRoom,
    Msg,
    auth,
    create,
    hello,
    hotseat_room,
    ints,
    judged,
    play_vs_agent_ws,
    replay_log,
)


def truth_by_seq(db_url: str, game_id: str) -> tuple[list[StrategoState], dict[int, str]]:
    """The true state after each event (index = seq), and each seat's setup string, from the log."""
    states, _events, session = replay_log(db_url, game_id)
    return [s for s in states if isinstance(s, StrategoState)], dict(session.setup_strings)


STATE_KEYS = {
    *("type", "game", "seat", "view", "moves", "legal", "actions", "draft", "draw_offer", "explanations"),
    *("setup", "final", "setups", "clock", "rematch", "v"),
}
"""Everything a state message may hold: a new field must be added here, after its own check below."""
CHAT_KEYS = {"type", "room", "messages", "history"}
LINE_KEYS = {"id", "seat", "name", "text", "at"}
"""Everything a chat message, and each of its lines, may hold (`check_chat`)."""


def check(msg: Msg, seat: int | None, truths: list[StrategoState], tokens: list[str], setups: list[str]) -> int:
    """Assert that `msg`, sent to `seat` (None: a spectator), leaks nothing; returns the number of cells checked.

    `tokens` must never reach this seat; `setups` (the other army's setup string) not before the end.
    """
    text = json.dumps(msg)
    for secret in tokens:
        assert secret not in text, f"another seat's token reached seat {seat}: {msg}"
    if msg["type"] != "state":
        assert msg["type"] in ("ack", "error", "pong", "chat"), msg  # chat: `check_chat`, from `check_log`
        return 0
    truth = truths[msg["game"]["seq"]]
    assert set(msg) <= STATE_KEYS, f"a field the leak test does not know: {set(msg) - STATE_KEYS}"
    if "clock" in msg:  # each seat's time and whose clock runs: the same for everybody, nothing more
        clock = msg["clock"]
        assert set(clock) == {"control", "left", "running"} and len(clock["left"]) == 2
        in_play = not truth.is_terminal() and truth.phase != "setup"
        assert clock["running"] == (truth.current_player() if in_play else None)
    if not truth.is_terminal():
        for secret in setups:
            assert secret not in text, f"LEAK: the other army's setup reached seat {seat}: {msg}"
    if truth.is_terminal():
        for sq, cell in enumerate(msg["final"]["board"]):
            piece = truth.piece_at(sq)
            if isinstance(cell, dict):
                assert piece is not None and cell["rank"] == piece[1].name.lower()
        return 0
    assert "final" not in msg and "setups" not in msg
    assert not [i for i in ints(msg) if PLACE_BASE <= i < PLACE_BASE + 1300], "a placement id (it holds a rank)"
    checked = 0
    for sq, cell in enumerate(msg["view"]["board"]):
        if not isinstance(cell, dict):
            continue
        piece = truth.piece_at(sq)
        assert piece is not None, f"a piece shown on an empty square {sq}"
        owner, rank, moved, revealed = piece
        assert (cell["owner"], cell["moved"], cell["revealed"]) == (owner, moved, revealed)
        if cell["rank"] is not None:
            if owner != seat:
                assert revealed, f"LEAK: seat {seat} sees the unrevealed {rank.name} of seat {owner} on {sq}"
            assert cell["rank"] == rank.name.lower()
        else:
            assert owner != seat, "a seat must see its own ranks"
        checked += 1
    public = [ev.to_json() for ev in truth.public_history()]
    assert [{k: v for k, v in m.items() if k not in ("n", "notation")} for m in msg["moves"]] == public
    assert msg["view"]["last_move"] == (public[-1] if public else None)
    if msg["legal"]:
        assert seat == truth.current_player() and msg["legal"] == truth.legal_actions()
    if "setup" in msg:  # the seat's own army, and nothing else
        assert seat is not None
        own = {square_name(sq) for sq in truth.game.variant.setup_squares(seat)}
        assert set(msg["setup"]["placement"]) <= own
    return checked


def check_chat(msg: Msg, seat: int | None, over: bool, mode: str, players: list[str], typed: set[str]) -> None:
    """A chat message reaches only its room's members: the players' room the seats of an invite game (never a
    spectator, not even after the game), the spectators' room the spectators and, once the game is over, the
    players. It holds only what people typed, who typed it and their public names: nothing of the game."""
    assert set(msg) <= CHAT_KEYS, f"a field the leak test does not know: {set(msg) - CHAT_KEYS}"
    if msg["room"] == "players":
        assert seat is not None, f"LEAK: a spectator was sent the players' room: {msg}"
        assert mode == "invite", f"a players' room in a {mode} game: {msg}"
    else:
        assert msg["room"] == "spectators", msg
        assert seat is None or over, f"LEAK: seat {seat} was sent the spectators' room during the game: {msg}"
    assert msg["messages"] and msg.get("history", True) is True
    for line in msg["messages"]:
        assert set(line) == LINE_KEYS and line["text"] in typed, line
        assert line["name"] == (players[line["seat"]] if line["seat"] is not None else None)
        if msg["room"] == "players":
            assert line["seat"] in (0, 1)


def check_log(
    log: list[Msg],
    seat: int | None,
    truths: list[StrategoState],
    tokens: list[str],
    setups: list[str],
    chat: tuple[str, list[str], set[str]] | None = None,
) -> int:
    """`check` every message one connection was sent, in order (a delta as the state it makes: `judged`), and
    `check_chat` its chat messages (`chat`: the game's mode, its players' names and every text typed) by what the
    connection knew then: whether its last state said the game was over. Returns the number of cells checked."""
    checked = 0
    over = False
    for m in judged(log, tokens, setups):
        checked += check(m, seat, truths, tokens, setups)
        if m["type"] == "state":
            over = m["game"]["status"] == "over"
        elif m["type"] == "chat":
            assert chat is not None, f"chat where nobody typed: {m}"
            check_chat(m, seat, over, *chat)
            if not over:
                for secret in setups:
                    assert secret not in json.dumps(m)
    assert any(m["type"] == "delta" for m in log), "after its first whole view a connection is sent deltas"
    return checked


def test_no_message_to_any_seat_carries_an_unrevealed_enemy_rank(client: TestClient, db_url: str) -> None:
    checked = 0
    # Three games against the computer, from either chair.
    for i, (color, agent) in enumerate([("red", "random"), ("blue", "random"), ("red", "heuristic")]):
        res = create(client, color=color, opponent=agent, options={"max_moves": 150})
        gid = res["game"]["id"]
        seat = int(next(iter(res["seats"])))
        token = res["seats"][str(seat)]
        log: list[Msg] = []
        lists: list[Any] = []
        with client.websocket_connect(f"/ws/games/{gid}") as ws:

            def record(m: Msg, log: list[Msg] = log, lists: list[Any] = lists, gid: str = gid) -> None:
                log.append(m)
                if len(log) % 25 == 1:  # the lobby list and the public view, now and then
                    lists.append((client.get("/api/games").json(), client.get(f"/api/games/{gid}").json()))

            play_vs_agent_ws(ws, seat, random.Random(i), hello(ws, token), setup="random", on_message=record)
        truths, setups = truth_by_seq(db_url, gid)
        assert truths[-1].is_terminal()
        checked += check_log(log, seat, truths, [], [setups[1 - seat]])
        for listing, public in lists:
            assert token not in json.dumps(listing) and "board" not in json.dumps(listing)
            for g in listing["games"]:
                assert set(g) >= {"id", "status", "players"} and "token_hashes" not in g
            checked += check(public, None, truths, [token], [setups[0], setups[1]])
    assert checked > 1000


@pytest.mark.parametrize(("seed", "mode"), [(5, "hotseat"), (6, "invite")])
def test_players_and_a_spectator_learn_only_what_is_revealed(db_url: str, seed: int, mode: str) -> None:
    """Two players (at one screen, or each on their own device) and a spectator, the clock on; all of them chat now
    and then, in their rooms and in rooms they may not write in, during the game and after it."""
    with TestClient(create_app(db_url, fsync=False, seed=7, limits=Limits(chat_messages=10_000))) as client:
        res = create(client, opponent=mode, options={"max_moves": 150}, clock="15+10")  # clocks are checked too
        gid, tokens = res["game"]["id"], dict(res["seats"])
        if mode == "invite":
            joined = client.post(f"/api/games/{gid}/join", json={"invite": res["invite"], "name": "Guest"}).json()
            tokens.update(joined["seats"])
        rng = random.Random(seed)
        typed: set[str] = set()
        said: dict[str, list[str]] = {"players": [], "spectators": []}  # what each room was told

        def chat(room: HotseatRoom, over: bool) -> None:
            """Somebody says something in a room, which is refused unless they read it."""
            key: int | None = rng.choice([0, 1, None])
            where = rng.choice(["players", "spectators"])
            text = f"message {len(typed)} from {key} to {where}"
            typed.add(text)
            members: dict[str, list[int | None]] = {
                "players": [0, 1] if mode == "invite" else [],
                "spectators": [None, *([0, 1] if over else [])],
            }
            allowed = key in members[where]
            answer = room.say(key, text, where, members[where] if allowed else [])
            assert answer["type"] == ("ack" if allowed else "error"), (key, where, answer)
            if allowed:
                said[where].append(text)

        with hotseat_room(client, gid, {s: tokens[str(s)] for s in (0, 1)}) as room:
            room.step(1, {"type": "setup", "setup": "random"})  # blue first: kept until red has set up
            room.step(0, {"type": "setup", "setup": "random"})
            while room.state(0)["game"]["status"] != "over":
                if rng.random() < 0.2:
                    chat(room, over=False)
                seat = room.state(0)["game"]["to_move"]
                room.step(seat, {"type": "action", "action": rng.choice(room.state(seat)["legal"])})
            room.drain()  # the players are sent the spectators' room
            for _ in range(12):
                chat(room, over=True)
            room.drain()
        players = client.get(f"/api/games/{gid}").json()["game"]["players"]
    logs = room.logs
    truths, setups = truth_by_seq(db_url, gid)
    checked = 0
    for key, log in logs.items():
        others = [s for s in (0, 1) if s != key]
        secrets = [tokens[str(s)] for s in others]
        checked += check_log(log, key, truths, secrets, [setups[s] for s in others], (mode, players, typed))
    assert checked > 100 and len(said["spectators"]) > 3 and (mode != "invite" or len(said["players"]) > 3)
    last = room.state(None)
    assert last["game"]["status"] == "over" and "final" in last
    assert all("clock" in m for m in judged(logs[None], []) if m["type"] == "state")
    with TestClient(create_app(db_url, fsync=False)) as client:  # what each holds is what it would be sent whole
        whole: dict[int | None, Msg] = {None: client.get(f"/api/games/{gid}").json()}
        for seat in (0, 1):
            whole[seat] = client.get(f"/api/games/{gid}/seat", headers=auth(tokens[str(seat)])).json()
    for key, view in whole.items():
        assert {**room.state(key), "v": 0, "clock": None} == {**view, "v": 0, "clock": None}
    for key in (0, 1, None):  # every accepted message reached each of its room's members, once
        lines = [line["text"] for m in logs[key] if m["type"] == "chat" for line in m["messages"]]
        assert sorted(lines) == sorted(said["spectators"] + (said["players"] if key is not None else []))
