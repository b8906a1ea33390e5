"""Every game the server hosts, from the registry: created against the computer with nothing but its name, set up
at random and played on a seat's websocket; every state message's view is exactly what the game's adapter makes of
the true state (rebuilt from the server's log) for that seat: the server adds nothing of its own and nothing of the
other seat's. (While the seat drafts a secret decision, its view also holds the draft, which is not logged.)
A new game with a web adapter joins without touching this file."""

from __future__ import annotations

import json
import random

import pytest
from fastapi.testclient import TestClient

from fogofwar.core.registry import web_adapters

from .server_helpers import Msg, held_states, hello, play_vs_agent_ws, replay_log

HOSTED = list(web_adapters())


@pytest.mark.parametrize("name", HOSTED)
def test_every_hosted_game_plays_and_each_view_is_the_adapters_view_of_the_truth(
    client: TestClient, db_url: str, name: str
) -> None:
    adapter = web_adapters()[name]
    r = client.post("/api/games", json={"game": name, "opponent": "random"})
    assert r.status_code == 201, r.text
    created = r.json()
    gid = created["game"]["id"]
    seat = int(next(iter(created["seats"])))
    token = created["seats"][str(seat)]
    log: list[Msg] = []
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        last = play_vs_agent_ws(
            ws, seat, random.Random(3), hello(ws, token), setup="random", on_message=log.append, max_actions=60
        )
    assert last["game"]["status"] in ("play", "over") and last["game"]["seq"] > 2
    truths = replay_log(db_url, gid)[0]
    checked = 0
    for raw, msg in held_states(log):
        if raw["type"] not in ("state", "delta") or msg["game"]["status"] == "over":
            continue
        truth = truths[msg["game"]["seq"]]
        if adapter.in_secret(truth, seat):
            continue  # the seat's own secret draft (Admiral's attack orders) is in its view, not yet in the log
        assert msg["view"] == json.loads(json.dumps(adapter.seat_view(truth, seat))), f"seq {msg['game']['seq']}"
        checked += 1
    assert checked > 20
