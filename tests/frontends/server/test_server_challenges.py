"""Open challenges (seeks): a game posted in the lobby for anyone to accept, with its time control; accepted once,
never by its own creator, withdrawn by aborting it; they survive a restart."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from fogofwar.frontends.server.app import create_app

from .server_helpers import BOTH_DATABASES, act, auth, create, seat_view


def _challenges(client: TestClient) -> list[dict[str, Any]]:
    r = client.get("/api/challenges")
    assert r.status_code == 200, r.text
    return list(r.json()["challenges"])


def _accept(client: TestClient, gid: str, name: str = "Guest", token: str | None = None) -> Any:
    return client.post(f"/api/games/{gid}/accept", json={"name": name}, headers=auth(token) if token else {})


@BOTH_DATABASES
def test_a_challenge_is_listed_until_somebody_accepts_it(client: TestClient) -> None:
    posted = create(client, opponent="challenge", color="blue", name="Host", clock="10+5")
    gid, host = posted["game"]["id"], posted["seats"]["1"]
    create(client, opponent="invite")  # a private invitation is not listed
    create(client)  # nor a game against the computer
    listed = _challenges(client)
    assert [c["id"] for c in listed] == [gid]
    assert listed[0]["clock"] == "10+5" and listed[0]["players"] == [None, "Host"] and listed[0]["open_seats"] == [0]
    accepted = _accept(client, gid, "Guest")
    assert accepted.status_code == 200, accepted.text
    guest = accepted.json()["seats"]["0"]
    assert _challenges(client) == []
    assert seat_view(client, gid, host)["game"]["players"] == ["Guest", "Host"]
    act(client, gid, guest, type="setup", setup="random")
    act(client, gid, host, type="setup", setup="random")
    assert seat_view(client, gid, guest)["clock"]["running"] == 0


def test_refusals_say_why(client: TestClient) -> None:
    posted = create(client, opponent="challenge", name="Host")
    gid, host = posted["game"]["id"], posted["seats"]["0"]
    own = _accept(client, gid, token=host)
    assert own.status_code == 409 and "your own challenge" in own.json()["message"]
    assert _accept(client, gid).status_code == 200
    late = _accept(client, gid)
    assert late.status_code == 409 and "accepted this challenge first" in late.json()["message"]
    private = create(client, opponent="invite")["game"]["id"]
    refused = _accept(client, private)
    assert refused.status_code == 403 and "needs the invitation" in refused.json()["message"]
    assert _accept(client, "nosuchgame").status_code == 404
    long_name = client.post(f"/api/games/{gid}/accept", json={"name": "x" * 41})
    assert long_name.status_code == 422


def test_a_challenge_is_withdrawn_by_its_creator_alone(client: TestClient) -> None:
    posted = create(client, opponent="challenge")
    gid, host = posted["game"]["id"], posted["seats"]["0"]
    stranger = create(client, opponent="challenge")["seats"]["0"]  # a token of another game
    r = client.post(f"/api/games/{gid}/act", headers=auth(stranger), json={"type": "abort"})
    assert r.status_code == 403
    act(client, gid, host, type="abort")
    assert gid not in [c["id"] for c in _challenges(client)]
    gone = _accept(client, gid)
    assert gone.status_code == 409 and "withdrawn" in gone.json()["message"]


@BOTH_DATABASES
def test_challenges_survive_a_restart_and_a_rematch_is_offered_to_the_opponent_alone(db_url: str) -> None:
    with TestClient(create_app(db_url, fsync=False, seed=7)) as client:
        gid = create(client, opponent="challenge", clock="1 day")["game"]["id"]
    with TestClient(create_app(db_url, fsync=False, seed=7)) as client:
        assert [c["clock"] for c in _challenges(client)] == ["1 day a move"]
        guest = _accept(client, gid).json()["seats"]["1"]
        act(client, gid, guest, type="resign")
        again = client.post(f"/api/games/{gid}/rematch", headers=auth(guest)).json()
        assert _challenges(client) == []  # the rematch is the two players' own
        assert again["game"]["clock"] == "1 day a move" and not again["game"]["public"]
