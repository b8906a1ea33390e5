"""The page follows the server's deltas: a delta lost on the way is noticed (the next does not follow), the page
asks for the whole state again and shows the game as it is; a dropped connection comes back with a whole state.

The page's websocket runs through Playwright's route, which can lose a message or cut the connection."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

pytestmark = pytest.mark.browser


def _act(page: Any, base: str, gid: str, token: str, body: dict[str, Any]) -> None:
    r = page.request.post(f"{base}/api/games/{gid}/act", data=body, headers={"Authorization": f"Bearer {token}"})
    assert r.ok, r.text()


def _move(page: Any, base: str, gid: str, tokens: dict[str, str], rng: random.Random) -> int:
    """The seat to move makes a random move over HTTP; the game's new number."""
    mover = page.request.get(f"{base}/api/games/{gid}").json()["game"]["to_move"]
    token = tokens[str(mover)]
    view = page.request.get(f"{base}/api/games/{gid}/seat", headers={"Authorization": f"Bearer {token}"}).json()
    _act(page, base, gid, token, {"type": "action", "action": rng.choice(view["legal"])})
    return int(view["game"]["seq"]) + 1


def _shows(page: Any, seq: int) -> None:
    page.wait_for_function(f"document.body.dataset.seq === '{seq}'", timeout=10_000)


def test_a_watching_page_mends_a_lost_delta_and_a_dropped_connection(browser: Any, live_server: str) -> None:
    base = live_server
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    created = page.request.post(
        f"{base}/api/games", data={"game": "stratego", "variant": "barrage", "opponent": "hotseat"}
    ).json()
    gid, tokens = created["game"]["id"], created["seats"]
    for seat in ("0", "1"):
        _act(page, base, gid, tokens[seat], {"type": "setup", "setup": "sample"})

    said: list[dict[str, Any]] = []  # what the page sent
    lose = {"next delta": False}
    routes: list[Any] = []

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            said.append(json.loads(message))
            server.send(message)

        def from_server(message: str | bytes) -> None:
            if lose["next delta"] and json.loads(message)["type"] == "delta":
                lose["next delta"] = False
                return  # lost on the way
            ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)
        routes.append(ws)

    page.route_web_socket(re.compile(r".*/ws/games/.*"), route)
    page.goto(f"{base}/game/{gid}")  # a spectator
    _shows(page, 2)
    rng = random.Random(8)
    _shows(page, _move(page, base, gid, tokens, rng))  # a delta, followed
    assert [m["type"] for m in said] == ["hello"]
    lose["next delta"] = True
    _move(page, base, gid, tokens, rng)
    seq = _move(page, base, gid, tokens, rng)  # this one does not follow: the page asks again
    _shows(page, seq)
    syncs = [m for m in said if m["type"] == "sync"]
    assert len(syncs) == 1 and isinstance(syncs[0]["v"], int)
    _shows(page, _move(page, base, gid, tokens, rng))  # and follows the deltas after the whole state
    routes[-1].close()  # the connection drops; moves are made meanwhile
    seq = _move(page, base, gid, tokens, rng)
    seq = _move(page, base, gid, tokens, rng)
    _shows(page, seq)  # the page reconnected: a hello, and the whole state as it is now
    assert [m["type"] for m in said].count("hello") == 2 and len(routes) == 2
    assert page.locator("#conn").inner_text() == "online"
    assert errors == []
    context.close()
