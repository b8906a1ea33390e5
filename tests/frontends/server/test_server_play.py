"""Playing through the API: whole games over the websocket and over HTTP, and every kind of refusal."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fogofwar.core.agents import register_agent
from fogofwar.core.records import GameRecord
from fogofwar.frontends.server.adapters import get_adapter
from fogofwar.frontends.server.session import MAX_MESSAGE_BYTES
from fogofwar.grid.board import parse_square

from .server_helpers import Follower, act, auth, create, hello, my_turn, play_vs_agent_ws, seat_view, wait_until


@pytest.mark.parametrize("seat", [0, 1])
def test_whole_barrage_game_against_random_over_the_websocket(client: TestClient, seat: int) -> None:
    res = create(client, color=["red", "blue"][seat], options={"max_moves": 400})
    gid, token = res["game"]["id"], res["seats"][str(seat)]
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        last = play_vs_agent_ws(ws, seat, random.Random(seat), hello(ws, token))
    game = last["game"]
    assert game["status"] == "over" and game["outcome"] is not None
    final = [c for c in last["final"]["board"] if isinstance(c, dict)]
    assert final and all(c["rank"] for c in final)  # once it is over, every rank is shown
    assert len(last["moves"]) == game["move_count"] > 0
    # The record is published and replays through the rules engine to the same outcome.
    r = client.get(f"/api/games/{gid}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    record = GameRecord.from_json(r.json())
    assert record.replay(check=True).outcome() == record.outcome
    assert record.outcome is not None and record.outcome.to_json() == game["outcome"]
    assert record.metadata["game_id"] == gid
    listed = client.get("/api/games").json()["games"][0]
    assert listed["status"] == "over" and listed["move_count"] == game["move_count"]


def test_hotseat_game_over_http_with_notation_and_an_early_setup(client: TestClient) -> None:
    res = create(client, opponent="hotseat")
    gid, red, blue = res["game"]["id"], res["seats"]["0"], res["seats"]["1"]
    # Blue sets up first: checked, stored, and applied once red has set up.
    ack = act(client, gid, blue, type="setup", setup="sample")
    assert ack["seq"] == 1 and ack["state"]["setup"]["done"] and ack["state"]["game"]["status"] == "setup"
    assert ack["state"]["setup"]["placement"]["F7"] == "marshal"  # mirrored: the string is read from blue's chair
    assert seat_view(client, gid, red)["view"]["board"][parse_square("F7")] is None  # nothing of blue shows
    act(client, gid, red, type="setup", setup="9...1..2.9/....S...../........../..BF...8..")
    view = seat_view(client, gid, red)
    assert view["game"]["status"] == "play" and view["game"]["to_move"] == 0 and view["legal"]
    # A move in notation, then the other seat.
    act(client, gid, red, type="action", move="E4-E5")
    v = seat_view(client, gid, blue)
    assert v["moves"][0]["notation"] == "E4-E5" and v["legal"]
    act(client, gid, blue, type="action", action=v["legal"][0])
    done = act(client, gid, blue, type="resign")["state"]
    assert done["game"]["status"] == "over"
    assert done["game"]["outcome"] == {"termination": "resignation", "winner": 0, "reason": "blue resigned"}
    assert set(done["setups"]) == {"0", "1"}
    record = GameRecord.from_json(client.get(f"/api/games/{gid}/record").json())
    assert record.replay().is_terminal() and len(record.notation) == 18


def test_resign_endpoint_and_game_over_refusals(client: TestClient) -> None:
    res = create(client)
    gid, token = res["game"]["id"], res["seats"]["0"]
    assert client.get(f"/api/games/{gid}/record").status_code == 409  # not over: it would show the setups
    r = client.post(f"/api/games/{gid}/resign", headers=auth(token))
    assert r.status_code == 200 and r.json()["state"]["game"]["outcome"]["winner"] == 1
    again = client.post(f"/api/games/{gid}/resign", headers=auth(token))
    assert again.status_code == 409 and again.json()["error"] == "game_over"
    assert client.get(f"/api/games/{gid}/record").status_code == 200


def _ready_game(client: TestClient) -> tuple[str, str, str]:
    """A hot-seat barrage game in play, red to move."""
    res = create(client, opponent="hotseat")
    gid, red, blue = res["game"]["id"], res["seats"]["0"], res["seats"]["1"]
    act(client, gid, red, type="setup", setup="sample")
    act(client, gid, blue, type="setup", setup="sample")
    return gid, red, blue


BAD_MESSAGES: list[tuple[str, Any, str]] = [
    ("not json", "{move: E4-E5", "malformed"),
    ("not an object", "[1, 2]", "malformed"),
    ("unknown type", json.dumps({"type": "teleport"}), "malformed"),
    ("no action", json.dumps({"type": "action"}), "malformed"),
    ("action not an int", json.dumps({"type": "action", "action": "3141"}), "malformed"),
    ("bool action", json.dumps({"type": "action", "action": True}), "malformed"),
    ("oversized", json.dumps({"type": "action", "move": "E4-E5", "pad": "x" * MAX_MESSAGE_BYTES}), "too_large"),
    ("illegal id", json.dumps({"type": "action", "action": 4060}), "illegal"),  # E5-A7: not a straight move
    ("unknown id", json.dumps({"type": "action", "action": 99999}), "illegal"),
    ("negative id", json.dumps({"type": "action", "action": -5}), "illegal"),
    ("into a lake", json.dumps({"type": "action", "move": "C4-C5"}), "illegal"),
    ("bad notation", json.dumps({"type": "action", "move": "Z9-Q1"}), "illegal"),
    ("bomb moves", json.dumps({"type": "action", "move": "C1-B1"}), "illegal"),
    ("setup after setup", json.dumps({"type": "setup", "setup": "sample"}), "illegal"),
    ("second hello", json.dumps({"type": "hello", "token": "x"}), "malformed"),
    ("a view never sent", json.dumps({"type": "sync", "v": 99}), "bad_version"),
    ("a negative view", json.dumps({"type": "sync", "v": -1}), "malformed"),
    ("a view by name", json.dumps({"type": "sync", "v": "1"}), "malformed"),
    ("a view that is true", json.dumps({"type": "sync", "v": True}), "malformed"),
    ("binary garbage", b"\xff\xfe\x00", "malformed"),
]


def test_bad_websocket_messages_get_an_error_and_change_nothing(client: TestClient) -> None:
    gid, red, blue = _ready_game(client)
    before = {t: seat_view(client, gid, t) for t in (red, blue)}
    with client.websocket_connect(f"/ws/games/{gid}") as ws, client.websocket_connect(f"/ws/games/{gid}") as ws2:
        hello(ws, red)
        hello(ws2, blue)
        for name, raw, code in BAD_MESSAGES:
            if isinstance(raw, bytes):
                ws.send_bytes(raw)
            else:
                ws.send_text(raw)
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["error"] == code, (name, msg)
            assert msg["message"], name
        # Out of turn: blue tries to move while red is to move.
        blue_move = parse_square("E7") * 100 + parse_square("E6")
        ws2.send_json({"type": "action", "action": blue_move, "id": "oot"})
        msg = ws2.receive_json()
        assert msg == {
            "type": "error",
            "error": "not_your_turn",
            "message": "it is red's turn, not blue's",
            "id": "oot",
        }
        # The connection still works after all that.
        ws.send_json({"type": "ping"})
        assert ws.receive_json()["type"] == "pong"
    after = {t: seat_view(client, gid, t) for t in (red, blue)}
    assert after == before


def test_illegal_moves_are_explained(client: TestClient) -> None:
    gid, red, _ = _ready_game(client)
    cases = {
        "E4-E6": "only scouts move more than one square",
        "C1-C2": "can never move",
        "E3-E4": "holds red's own piece",
        "F5-F6": "there is no piece on F5",
    }
    for move, words in cases.items():
        r = client.post(f"/api/games/{gid}/act", headers=auth(red), json={"type": "action", "move": move})
        assert r.status_code == 422, move
        assert words in r.json()["message"], (move, r.json())
    assert seat_view(client, gid, red)["game"]["seq"] == 2


def test_bad_setups_are_refused_and_nothing_is_stored(client: TestClient) -> None:
    res = create(client, opponent="hotseat")
    gid, red = res["game"]["id"], res["seats"]["0"]
    bad: list[tuple[Any, str]] = [
        ("9...1..2.9/....S.....", "4 rows"),
        ("9...1..2.9/....S...../........../..BB...8..", "flags"),
        ({"A1": "flag", "A2": "emperor"}, "not a rank name"),
        ({"A5": "flag"}, "not in red's setup area"),
        (17, "malformed"),
    ]
    for setup, words in bad:
        r = client.post(f"/api/games/{gid}/act", headers=auth(red), json={"type": "setup", "setup": setup})
        assert r.status_code in (400, 422), setup
        assert words in r.json()["message"] or words == r.json()["error"], (setup, r.json())
    assert seat_view(client, gid, red)["game"]["seq"] == 0
    r = client.post(f"/api/games/{gid}/act", headers=auth(red), json={"type": "action", "action": 10000})
    assert r.status_code == 409 and "whole army" in r.json()["message"]


def test_oversized_http_command_is_refused(client: TestClient) -> None:
    gid, red, _ = _ready_game(client)
    body = json.dumps({"type": "resign", "pad": "x" * 5000})
    r = client.post(f"/api/games/{gid}/act", headers={**auth(red), "Content-Type": "application/json"}, content=body)
    assert r.status_code == 413 and r.json()["error"] == "too_large"
    assert seat_view(client, gid, red)["game"]["status"] == "play"


def test_computer_as_red_sets_up_first_and_moves(client: TestClient) -> None:
    res = create(client, opponent="heuristic", color="blue")
    gid, blue = res["game"]["id"], res["seats"]["1"]
    act(client, gid, blue, type="setup", setup="random")
    view = wait_until(client, gid, blue, my_turn(1))
    assert view["game"]["move_count"] == 1 and len(view["moves"]) == 1
    own = [c for c in view["view"]["board"] if isinstance(c, dict) and c["owner"] == 1]
    assert all(c["rank"] for c in own)
    assert len(own) + len(view["view"]["captured"][1]) == 8  # red's first move may be a scout's attack


def test_an_agent_that_crashes_forfeits(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    class Crash:
        name = "crash"

        def start(self, game: Any, player: int, rng: random.Random) -> None:
            pass

        def act(self, observation: Any, legal_actions: Any) -> int:
            raise RuntimeError("boom")

    register_agent("test-crash", lambda arg: Crash())
    stratego = get_adapter("stratego")
    monkeypatch.setattr(stratego, "agents", (*stratego.agents, "test-crash"))
    res = create(client, opponent="test-crash", color="blue")
    gid, blue = res["game"]["id"], res["seats"]["1"]
    view = wait_until(client, gid, blue, lambda m: m["game"]["status"] == "over")
    outcome = view["game"]["outcome"]
    assert outcome["termination"] == "forfeit" and outcome["winner"] == 1 and "boom" in outcome["reason"]


@pytest.mark.parametrize(
    ("variant", "setup"),
    [("classic", "sample:fortress"), ("classic", "random"), ("duel", "sample"), ("duel", "random")],
)
def test_every_variant_sets_up_and_plays_against_the_computer(client: TestClient, variant: str, setup: str) -> None:
    res = create(client, variant=variant, opponent="heuristic")
    gid, red = res["game"]["id"], res["seats"]["0"]
    act(client, gid, red, type="setup", setup=setup)
    view = wait_until(client, gid, red, my_turn(0))
    army = [c for c in view["view"]["board"] if isinstance(c, dict)]
    size = {"classic": 40, "duel": 10}[variant]
    assert len(army) == 2 * size and view["legal"]
    act(client, gid, red, type="action", action=view["legal"][0])
    wait_until(client, gid, red, lambda m: m["game"]["move_count"] == 2)


def test_the_search_agent_plays_in_the_background(client: TestClient) -> None:
    res = create(client, opponent="search", color="blue")
    gid, blue = res["game"]["id"], res["seats"]["1"]
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        seat = Follower(ws)
        seat.hello(blue)
        ws.send_json({"type": "setup", "setup": "sample"})
        while True:  # the server keeps answering pings while the computer thinks
            ws.send_json({"type": "ping"})
            if seat.receive()["type"] == "delta" and seat.held["legal"]:
                break
    msg = seat.held
    assert msg["game"]["move_count"] == 1 and msg["game"]["to_move"] == 1
