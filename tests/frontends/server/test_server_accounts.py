"""Accounts, ratings and leaderboards: sign-up and sign-in (Argon2 hashes, HttpOnly session cookies), the CSRF
token every request made on a player's behalf must carry, the sign-in rate limit, rated games against the
computer and between two accounts (Weng-Lin on the Elo scale, once per game, even across a restart), claiming
anonymous games, profiles; and every refusal says why."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import delete

from fogofwar.frontends.server.account_store import RatedGameRow, RatingRow
from fogofwar.frontends.server.accounts import CSRF_HEADER, SESSION_COOKIE
from fogofwar.frontends.server.app import create_app

from .server_helpers import BOTH_DATABASES, Msg, act, auth, create, hello, seat_view


def signup(client: TestClient, name: str, password: str = "correct horse") -> dict[str, str]:
    """A new account, signed in on `client` (its cookie jar holds only this session); its CSRF header."""
    client.cookies.clear()
    r = client.post("/api/account/signup", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    return {CSRF_HEADER: r.json()["csrf"]}


def use_session(client: TestClient, cookie: str) -> None:
    client.cookies.clear()
    client.cookies.set(SESSION_COOKIE, cookie)


@BOTH_DATABASES
def test_sign_up_sign_in_and_the_session_cookie(client: TestClient) -> None:
    r = client.post("/api/account/signup", json={"name": "Ada", "password": "correct horse"})
    assert r.status_code == 201 and r.json()["name"] == "Ada"
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower() and "Max-Age=2592000" in cookie
    me = client.get("/api/account").json()
    assert me["name"] == "Ada" and me["csrf"] == r.json()["csrf"]
    taken = client.post("/api/account/signup", json={"name": "ADA", "password": "another one"})
    assert taken.status_code == 409 and "taken" in taken.json()["message"]
    for body, says in [
        ({"name": "a", "password": "correct horse"}, "3 to 20"),
        ({"name": "bad name!", "password": "correct horse"}, "3 to 20"),
        ({"name": "Bob", "password": "short"}, "8 to 128"),
        ({"name": "Robert", "password": "robert"}, "8 to 128"),
        ({"name": "Roberta1", "password": "roberta1"}, "must not be the player name"),
        ({"name": "Bob", "password": "x" * 129}, "8 to 128"),
    ]:
        refused = client.post("/api/account/signup", json=body)
        assert refused.status_code == 422 and says in refused.json()["message"], (body, refused.text)
    client.cookies.clear()
    assert client.get("/api/account").json()["name"] is None
    wrong = client.post("/api/account/signin", json={"name": "ada", "password": "wrong horse"})
    assert wrong.status_code == 401 and wrong.json()["message"] == "wrong name or password"
    nobody = client.post("/api/account/signin", json={"name": "nobody", "password": "wrong horse"})
    assert nobody.status_code == 401 and nobody.json()["message"] == "wrong name or password"  # the same words
    good = client.post("/api/account/signin", json={"name": "ada", "password": "correct horse"})
    assert good.status_code == 200 and good.json()["name"] == "Ada"


def test_failed_sign_ins_are_rate_limited(client: TestClient) -> None:
    signup(client, "Cyd")
    client.cookies.clear()
    for _ in range(5):
        assert client.post("/api/account/signin", json={"name": "cyd", "password": "guess guess"}).status_code == 401
    locked = client.post("/api/account/signin", json={"name": "cyd", "password": "correct horse"})
    assert locked.status_code == 429 and "try again in" in locked.json()["message"]
    other = client.post("/api/account/signin", json={"name": "someone", "password": "correct horse"})
    assert other.status_code == 429  # the same address is limited too


def test_a_request_on_a_players_behalf_needs_the_current_csrf_token(client: TestClient) -> None:
    stale = signup(client, "Dee")
    assert client.post("/api/account/signout").status_code == 403  # no token: maybe another site's page
    cookie = client.cookies[SESSION_COOKIE]
    fresh = client.post("/api/account/signin", json={"name": "Dee", "password": "correct horse"}).json()["csrf"]
    refused = client.post("/api/account/signout", headers=stale)
    assert refused.status_code == 403 and "stale CSRF token" in refused.json()["message"]
    rated = client.post(
        "/api/games", json={"variant": "barrage", "opponent": "heuristic", "rated": True}, headers=stale
    )
    assert rated.status_code == 403
    assert client.post("/api/account/signout", headers={CSRF_HEADER: fresh}).status_code == 200
    assert client.get("/api/account").json()["name"] is None
    use_session(client, cookie)  # the first session is still open: only its own token works with it
    assert client.post("/api/account/signout", headers=stale).status_code == 200


def test_a_rated_game_against_the_computer_changes_the_rating_and_the_leaderboard(client: TestClient) -> None:
    csrf = signup(client, "Eve")
    body: dict[str, Any] = {"variant": "barrage", "opponent": "heuristic", "rated": True}
    r = client.post("/api/games", json=body, headers=csrf)
    assert r.status_code == 201, r.text
    gid, token = r.json()["game"]["id"], r.json()["seats"]["0"]
    assert r.json()["game"]["players"][0] == "Eve"
    act(client, gid, token, type="resign")
    profile = _wait_rated(client, "Eve", "stratego/barrage")
    assert (
        profile["ratings"]["stratego/barrage"]["rating"] < 1500 and profile["ratings"]["stratego/barrage"]["games"] == 1
    )
    assert [g["id"] for g in profile["games"]] == [gid] and profile["games"][0]["your_seat"] == 0
    board = client.get("/api/leaderboard", params={"mode": "stratego/barrage"}).json()
    assert board["players"][0]["name"] == "Eve" and board["players"][0]["provisional"]
    for body, status, says in [
        ({"opponent": "hotseat"}, 422, "hot-seat"),
        ({"game": "lotr", "variant": "classic", "opponent": "heuristic"}, 422, "no measured rating"),
    ]:
        refused = client.post("/api/games", json={"variant": "barrage", **body, "rated": True}, headers=csrf)
        assert refused.status_code == status and says in refused.json()["message"], refused.text
    client.cookies.clear()
    anonymous = client.post("/api/games", json={**body, "rated": True})
    assert anonymous.status_code == 401 and "sign in" in anonymous.json()["message"]


def test_a_rated_games_connections_are_told_when_its_rating_is_written(client: TestClient) -> None:
    """The page shows the rating change when it is written, which on a busy server is well after the game's end:
    the server says so on the game's socket (`rated`), after the game-over delta, and the accounts then hold it."""
    csrf = signup(client, "Ida")
    r = client.post("/api/games", json={"variant": "barrage", "opponent": "heuristic", "rated": True}, headers=csrf)
    gid, token = r.json()["game"]["id"], r.json()["seats"]["0"]
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        hello(ws, token)
        act(client, gid, token, type="resign")
        seen: list[Msg] = []
        for n in range(200):  # ping, and read up to its answer, until the note comes (bounded: never a hang)
            ws.send_json({"type": "ping", "id": f"p{n}"})
            while (msg := dict(ws.receive_json()))["type"] != "pong":
                seen.append(msg)
            if any(m["type"] == "rated" for m in seen):
                break
            time.sleep(0.02)
        kinds = [m["type"] for m in seen]
        assert kinds.count("rated") == 1 and seen[-1] == {"type": "rated", "game": gid}, kinds
        assert "delta" in kinds[:-1] and seat_view(client, gid, token)["game"]["status"] == "over"  # the end first
    seats = client.get(f"/api/games/{gid}/accounts").json()["seats"]
    assert seats["0"]["rating"]["after"] < seats["0"]["rating"]["before"], seats


def _wait_rated(client: TestClient, name: str, mode: str) -> dict[str, Any]:
    """The profile once the game's rating is written (it is written just after the game's end)."""
    for _ in range(200):
        profile = dict(client.get(f"/api/players/{name}").json())
        if mode in profile["ratings"]:
            return profile
        time.sleep(0.02)
    raise AssertionError(f"{name} never got a {mode} rating")


@BOTH_DATABASES
def test_a_rated_game_between_two_accounts_is_rated_once(db_url: str) -> None:
    with TestClient(create_app(db_url, fsync=False, seed=7)) as client:
        host_csrf = signup(client, "Fay")
        host_cookie = client.cookies[SESSION_COOKIE]
        res = client.post(
            "/api/games", json={"variant": "barrage", "opponent": "invite", "rated": True}, headers=host_csrf
        )
        gid, host, invite = res.json()["game"]["id"], res.json()["seats"]["0"], res.json()["invite"]
        self_play = client.post(f"/api/games/{gid}/join", json={"invite": invite}, headers=host_csrf)
        assert self_play.status_code == 409 and "play yourself" in self_play.json()["message"]
        client.cookies.clear()
        anonymous = client.post(f"/api/games/{gid}/join", json={"invite": invite})
        assert anonymous.status_code == 401 and "sign in" in anonymous.json()["message"]
        guest_csrf = signup(client, "Gus")
        joined = client.post(f"/api/games/{gid}/join", json={"invite": invite}, headers=guest_csrf)
        assert joined.status_code == 200 and joined.json()["game"]["players"] == ["Fay", "Gus"]
        act(client, gid, joined.json()["seats"]["1"], type="resign")
        fay = _wait_rated(client, "Fay", "stratego/barrage")["ratings"]["stratego/barrage"]
        gus = _wait_rated(client, "Gus", "stratego/barrage")["ratings"]["stratego/barrage"]
        assert fay["rating"] > 1500 > gus["rating"] and fay["games"] == gus["games"] == 1
        use_session(client, host_cookie)
        again = client.post(f"/api/games/{gid}/rematch", headers={**auth(host), **host_csrf})
        assert again.status_code == 201
        store = client.app.state.accounts  # type: ignore[attr-defined]
        assert store.seats(again.json()["game"]["id"])[1][1]  # the rematch is rated too, Fay on the other side
        with store._sessions.begin() as s:  # as if the server stopped before the rating's transaction
            s.execute(delete(RatedGameRow).where(RatedGameRow.game_id == gid))
            s.execute(delete(RatingRow))
    with TestClient(create_app(db_url, fsync=False, seed=7)) as client:  # rated on start...
        assert client.get("/api/players/Fay").json()["ratings"]["stratego/barrage"] == fay
    with TestClient(create_app(db_url, fsync=False, seed=7)) as client:  # ...and only once
        assert client.get("/api/players/Gus").json()["ratings"]["stratego/barrage"] == gus


def test_games_played_anonymously_are_claimed_by_signing_in(client: TestClient) -> None:
    client.cookies.clear()
    mine = create(client, opponent="hotseat")
    other = create(client, opponent="hotseat")
    csrf = signup(client, "Hal")
    r = client.post(
        "/api/account/claim",
        json={
            "games": [
                {"id": mine["game"]["id"], "token": mine["seats"]["0"]},
                {"id": other["game"]["id"], "token": "x" * 20},
            ]
        },
        headers=csrf,
    )
    assert r.status_code == 200 and r.json()["claimed"] == [mine["game"]["id"]]
    assert [g["id"] for g in client.get("/api/players/hal").json()["games"]] == [mine["game"]["id"]]
    assert client.post("/api/account/claim", json={"games": []}).status_code == 403  # no CSRF token
    assert client.get("/api/players/nobody").status_code == 404
