"""Draw offers between two players: offered, declined or accepted, lapsing when the opponent plays on; never to
the computer, never during the setup; kept in the event log like every other event."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from fogofwar.frontends.server.app import create_app

from .server_helpers import BOTH_DATABASES, act, create, seat_view, wait_until


def _two_players(client: TestClient) -> tuple[str, str, str]:
    """A barrage game between two people (an invite taken up), both armies set up: red to move."""
    res = create(client, opponent="invite", color="red", name="Host")
    gid, red = res["game"]["id"], res["seats"]["0"]
    joined = client.post(f"/api/games/{gid}/join", json={"invite": res["invite"], "name": "Guest"}).json()
    blue = joined["seats"]["1"]
    act(client, gid, red, type="setup", setup="random")
    act(client, gid, blue, type="setup", setup="random")
    return gid, red, blue


def _refused(client: TestClient, gid: str, token: str, kind: str) -> dict[str, Any]:
    r = client.post(f"/api/games/{gid}/act", headers={"Authorization": f"Bearer {token}"}, json={"type": kind})
    assert r.status_code == 409, r.text
    return dict(r.json())


def test_an_accepted_offer_ends_the_game_as_an_agreed_draw(client: TestClient) -> None:
    gid, red, blue = _two_players(client)
    act(client, gid, red, type="offer_draw")
    assert seat_view(client, gid, blue)["draw_offer"] == 0  # blue sees red's offer
    assert "still waiting" in _refused(client, gid, red, "offer_draw")["message"]
    assert "no offer" in _refused(client, gid, red, "accept_draw")["message"]  # not one's own
    act(client, gid, blue, type="accept_draw")
    game = seat_view(client, gid, red)["game"]
    assert game["status"] == "over" and game["outcome"]["winner"] is None
    assert game["outcome"]["termination"] == "agreed_draw"


def test_a_declined_or_lapsed_offer_leaves_the_game_on(client: TestClient) -> None:
    gid, red, blue = _two_players(client)
    act(client, gid, red, type="offer_draw")
    act(client, gid, blue, type="decline_draw")
    assert "draw_offer" not in seat_view(client, gid, red)
    act(client, gid, red, type="offer_draw")
    legal = seat_view(client, gid, red)["legal"]
    act(client, gid, red, type="action", action=legal[0])  # the offer stands while its maker plays...
    assert seat_view(client, gid, blue)["draw_offer"] == 0
    legal = seat_view(client, gid, blue)["legal"]
    act(client, gid, blue, type="action", action=legal[0])  # ...and lapses when the opponent plays on
    assert "draw_offer" not in seat_view(client, gid, red)
    assert seat_view(client, gid, red)["game"]["status"] == "play"


def test_no_draw_with_the_computer_nor_during_the_setup(client: TestClient) -> None:
    res = create(client)  # against the random agent
    gid, token = res["game"]["id"], res["seats"]["0"]
    act(client, gid, token, type="setup", setup="random")
    wait_until(client, gid, token, lambda m: m["game"]["status"] == "play")
    assert "the computer plays on" in _refused(client, gid, token, "offer_draw")["message"]
    hot = create(client, opponent="hotseat")
    assert "once the game has begun" in _refused(client, hot["game"]["id"], hot["seats"]["0"], "offer_draw")["message"]


@BOTH_DATABASES
def test_an_offer_survives_a_restart_and_the_agreed_draw_too(db_url: str) -> None:
    with TestClient(create_app(db_url, fsync=False, seed=7)) as client:
        gid, red, blue = _two_players(client)
        act(client, gid, red, type="offer_draw")
    with TestClient(create_app(db_url, fsync=False, seed=7)) as client:  # the game reloads from its event log
        assert seat_view(client, gid, blue)["draw_offer"] == 0
        act(client, gid, blue, type="accept_draw")
    with TestClient(create_app(db_url, fsync=False, seed=7)) as client:
        assert seat_view(client, gid, red)["game"]["outcome"]["termination"] == "agreed_draw"
