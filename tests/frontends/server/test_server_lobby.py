"""The lobby REST API: creating, listing and joining games; seat tokens; option checks; pages."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from .server_helpers import BOTH_DATABASES, auth, create, hello, seat_view


def test_meta_lists_variants_samples_and_only_safe_agents(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    stratego = meta["games"][0]
    assert stratego["name"] == "stratego"
    names = [v["name"] for v in stratego["variants"]]
    assert {"classic", "barrage", "duel"} <= set(names)
    barrage = next(v for v in stratego["variants"] if v["name"] == "barrage")
    assert barrage["army_size"] == 8 and barrage["samples"] == ["sample"]
    # never `ucc`
    levels_offered = {"random", "novice", "heuristic", "search", "selfplay", "expert", "rollout"}
    assert set(meta["agents"]) == levels_offered | {"stratego"}
    agents = {g["name"]: set(g["agents"]) for g in meta["games"]}
    assert agents == {
        "stratego": levels_offered,
        "lotr": {"random", "heuristic", "search", "expert"},
        "admiral": {"random", "stratego"},
    }
    levels = {level["name"]: level for level in meta["levels"]}
    assert levels_offered <= set(levels)
    assert levels["search"]["label"] == "Strong" and "elo" in levels["search"]


def test_create_against_the_computer_returns_one_token(client: TestClient) -> None:
    res = create(client, opponent="heuristic", color="blue", name="Ann")
    game = res["game"]
    assert game["mode"] == "agent" and game["agent"] == "heuristic" and game["agent_seat"] == 0
    assert list(res["seats"]) == ["1"] and len(res["seats"]["1"]) >= 32
    assert res["invite"] is None and res["url"] == f"/game/{game['id']}"
    assert game["players"] == ["Club (computer)", "Ann"]  # the computer by the name people know it
    view = seat_view(client, game["id"], res["seats"]["1"])
    assert view["seat"] == 1 and view["view"]["player"] == 1


@BOTH_DATABASES
def test_create_hotseat_gives_both_tokens_and_invite_gives_a_secret(client: TestClient) -> None:
    hot = create(client, opponent="hotseat")
    assert sorted(hot["seats"]) == ["0", "1"] and hot["seats"]["0"] != hot["seats"]["1"]
    inv = create(client, opponent="invite", color="blue")
    assert list(inv["seats"]) == ["1"] and inv["invite"]
    assert inv["game"]["open_seats"] == [0]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"variant": "chess"}, "variant must be one of classic, barrage, duel, classicfree, not 'chess'"),
        ({"opponent": "ucc:rm -rf /"}, "opponent must be"),
        ({"opponent": "nobody"}, "opponent must be"),
        ({"color": "green"}, "color must be"),
        ({"options": {"max_moves": -1}}, "max_moves"),
        ({"options": {"two_squares": "five"}}, "two_squares"),
        ({"options": {"more_squares": "yes"}}, "more_squares"),
        ({"options": {"fog": True}}, "Stratego has no option 'fog'"),
        ({"options": {"max_moves": 20000}}, "max_moves may be at most 10000 on this server"),
        ({"options": {"two_squares": 21}}, "two_squares may be at most 20 on this server"),
        ({"game": "go"}, "does not host"),
    ],
)
def test_bad_creation_requests_are_refused_with_a_reason(
    client: TestClient, body: dict[str, object], words: str
) -> None:
    payload = {"variant": "barrage", "opponent": "random", **body}
    r = client.post("/api/games", json=payload)
    assert r.status_code == 422, r.text
    assert words in r.json()["message"]
    assert client.get("/api/games").json()["games"] == []


def test_unknown_fields_and_oversized_names_are_refused(client: TestClient) -> None:
    assert client.post("/api/games", json={"variant": "barrage", "cheat": 1}).status_code == 422
    assert client.post("/api/games", json={"variant": "barrage", "name": "x" * 41}).status_code == 422


@BOTH_DATABASES
def test_game_list_and_public_view_carry_no_secret(client: TestClient) -> None:
    res = create(client, opponent="invite")
    gid, token = res["game"]["id"], res["seats"]["0"]
    listed = client.get("/api/games").json()["games"]
    assert [g["id"] for g in listed] == [gid]
    text = client.get("/api/games").text + client.get(f"/api/games/{gid}").text
    assert token not in text and res["invite"] not in text
    assert "hash" not in text
    public = client.get(f"/api/games/{gid}").json()
    assert public["seat"] is None and public["legal"] == [] and "setup" not in public


def test_wrong_or_missing_token_is_refused(client: TestClient) -> None:
    res = create(client)
    gid = res["game"]["id"]
    other = create(client)["seats"]["0"]  # a real token, of another game
    r = client.get(f"/api/games/{gid}/seat", headers=auth(other))
    assert r.status_code == 403 and r.json()["error"] == "forbidden"
    assert client.get(f"/api/games/{gid}/seat").status_code == 401
    assert client.get(f"/api/games/{gid}/seat", headers={"Authorization": "Basic abc"}).status_code == 401
    r = client.post(f"/api/games/{gid}/act", headers=auth("nope"), json={"type": "resign"})
    assert r.status_code == 403
    assert client.post(f"/api/games/{gid}/resign", headers=auth(other)).status_code == 403
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        ws.send_json({"type": "hello", "token": other})
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["error"] == "forbidden"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    assert seat_view(client, gid, res["seats"]["0"])["game"]["status"] == "setup"  # nothing happened


def test_unknown_game_is_404(client: TestClient) -> None:
    assert client.get("/api/games/nope").status_code == 404
    assert client.get("/api/games/nope/seat", headers=auth("x")).status_code == 404
    with client.websocket_connect("/ws/games/nope") as ws:
        assert ws.receive_json()["error"] == "not_found"


@BOTH_DATABASES
def test_invite_link_joins_once(client: TestClient) -> None:
    res = create(client, opponent="invite", color="red", name="Host")
    gid = res["game"]["id"]
    assert client.post(f"/api/games/{gid}/join", json={"invite": "guess", "name": "x"}).status_code == 403
    joined = client.post(f"/api/games/{gid}/join", json={"invite": res["invite"], "name": "Guest"})
    assert joined.status_code == 200, joined.text
    body = joined.json()
    assert list(body["seats"]) == ["1"] and body["game"]["players"] == ["Host", "Guest"]
    assert body["game"]["open_seats"] == []
    assert seat_view(client, gid, body["seats"]["1"])["seat"] == 1
    again = client.post(f"/api/games/{gid}/join", json={"invite": res["invite"], "name": "Thief"})
    assert again.status_code == 403


def test_spectator_websocket_sees_the_public_view_and_cannot_act(client: TestClient) -> None:
    res = create(client, opponent="hotseat")
    gid = res["game"]["id"]
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        first = hello(ws, None)
        assert first["seat"] is None and first["legal"] == []
        ws.send_json({"type": "setup", "setup": "sample"})
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["error"] == "forbidden"
        ws.send_json({"type": "ping", "id": 7})
        assert ws.receive_json() == {"type": "pong", "id": 7}


def test_pages_and_static_files_are_served_with_a_content_security_policy(client: TestClient) -> None:
    for path in ("/", "/game/abc", "/static/game.js", "/static/board.js", "/static/style.css"):
        r = client.get(path)
        assert r.status_code == 200, path
        assert "script-src 'self'" in r.headers["content-security-policy"]
    assert "<svg" in client.get("/game/abc").text


def test_setup_preview_reads_without_playing(client: TestClient) -> None:
    r = client.post("/api/setup-preview", json={"variant": "barrage", "seat": 1, "setup": "sample"})
    assert r.status_code == 200
    body = r.json()
    assert len(body["placement"]) == 8 and body["string"] == "9...1..2.9/....S...../........../..BF...8.."
    assert all(int(sq[1:]) >= 7 for sq in body["placement"])  # blue's rows
    bad = client.post("/api/setup-preview", json={"variant": "barrage", "seat": 0, "setup": "F/B"})
    assert bad.status_code == 422 and "4 rows" in bad.json()["message"]
    assert client.get("/api/games").json()["games"] == []
