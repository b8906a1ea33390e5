"""Rematch: a finished game's player asks for the same game again with the sides swapped."""

from __future__ import annotations

from fastapi.testclient import TestClient

from fogofwar.frontends.server.app import create_app

from .server_helpers import BOTH_DATABASES, act, auth, create


def _resigned(client: TestClient, **body: object) -> tuple[str, str, dict[str, object]]:
    created = create(client, **body)
    gid, token = created["game"]["id"], created["seats"]["0"]
    act(client, gid, token, type="resign")
    return gid, token, created["game"]


@BOTH_DATABASES
def test_a_rematch_swaps_the_sides_and_keeps_the_game_options_and_the_computer(client: TestClient) -> None:
    gid, token, old = _resigned(
        client,
        game="lotr",
        variant="powers",
        opponent="heuristic",
        color="evil",
        options={"detect_flag": "shown", "max_moves": 300},
        name="Ann",
    )
    r = client.post(f"/api/games/{gid}/rematch", headers=auth(token))
    assert r.status_code == 201, r.text
    new = r.json()
    game = new["game"]
    assert game["id"] != gid and game["game"] == "lotr" and game["variant"] == "powers"
    assert game["options"]["detect_flag"] == "shown" and game["options"]["max_moves"] == 300
    assert game["agent"] == "heuristic" and game["agent_seat"] == 0  # the computer now plays Evil
    assert list(new["seats"]) == ["1"] and game["players"][1] == "Ann"
    assert new["url"] == f"/game/{game['id']}"


def test_a_solo_rematch_seats_admiral_stratego_anew(client: TestClient) -> None:
    gid, token, old = _resigned(
        client, game="admiral", variant="archipelago", opponent="stratego", color="south", options={"max_turns": 2}
    )
    assert old["options"]["solo_seat"] == 1
    r = client.post(f"/api/games/{gid}/rematch", headers=auth(token))
    assert r.status_code == 201, r.text
    game = r.json()["game"]
    assert game["agent_seat"] == 0 and game["options"]["solo_seat"] == 0 and game["options"]["max_turns"] == 2


def test_no_rematch_before_the_end_nor_without_a_seat(client: TestClient) -> None:
    created = create(client)
    gid, token = created["game"]["id"], created["seats"]["0"]
    r = client.post(f"/api/games/{gid}/rematch", headers=auth(token))
    assert r.status_code == 409 and "still on" in r.json()["message"]
    act(client, gid, token, type="resign")
    assert client.post(f"/api/games/{gid}/rematch").status_code == 401
    assert client.post(f"/api/games/{gid}/rematch", headers=auth("x" * 30)).status_code == 403
    assert client.post("/api/games/nosuch/rematch", headers=auth(token)).status_code == 404


def test_between_two_people_the_first_asks_and_the_other_takes_the_seat(client: TestClient, db_url: str) -> None:
    created = create(client, opponent="invite", color="red", name="Ann")
    gid, ann = created["game"]["id"], created["seats"]["0"]
    bob = client.post(f"/api/games/{gid}/join", json={"invite": created["invite"], "name": "Bob"}).json()["seats"]["1"]
    act(client, gid, bob, type="resign")
    asked = client.post(f"/api/games/{gid}/rematch", headers=auth(ann))
    assert asked.status_code == 201, asked.text
    new_id = asked.json()["game"]["id"]
    assert list(asked.json()["seats"]) == ["1"]  # Ann now plays blue
    view = client.get(f"/api/games/{gid}/seat", headers=auth(bob)).json()
    assert view["rematch"] == {"game": new_id, "by": 0}  # Bob is told
    again = client.post(f"/api/games/{gid}/rematch", headers=auth(ann))
    assert again.status_code == 409 and "waits for your opponent" in again.json()["message"]
    taken = client.post(f"/api/games/{gid}/rematch", headers=auth(bob))
    assert taken.status_code == 201, taken.text
    assert taken.json()["game"]["id"] == new_id and list(taken.json()["seats"]) == ["0"]
    assert taken.json()["game"]["players"] == ["Bob", "Ann"] and taken.json()["game"]["open_seats"] == []
    late = client.post(f"/api/games/{gid}/rematch", headers=auth(bob))
    assert late.status_code == 409 and "taken" in late.json()["message"]
    with TestClient(create_app(db_url, fsync=False, seed=7)) as restarted:  # the offer is in the old game's log
        assert restarted.get(f"/api/games/{gid}").json()["rematch"] == {"game": new_id, "by": 0}
