"""The game page against `fogofwar serve --workers 2`: when the worker that owns the page's game is killed with
SIGKILL, the page reconnects by itself, is shown the game as stored by the worker that replaced it, and plays on."""

from __future__ import annotations

import os
import random
import signal
from pathlib import Path
from typing import Any

import pytest
from tests.frontends.server.workers_server import TWO, WorkersServer

from fogofwar.frontends.server.routing import owner

pytestmark = pytest.mark.browser


def _act(page: Any, base: str, gid: str, token: str, body: dict[str, Any]) -> dict[str, Any]:
    r = page.request.post(f"{base}/api/games/{gid}/act", data=body, headers={"Authorization": f"Bearer {token}"})
    assert r.ok, r.text()
    return dict(r.json())


def _move(page: Any, base: str, gid: str, tokens: dict[str, str], rng: random.Random) -> int:
    """The seat to move makes a random move over HTTP; the event number it was acknowledged with."""
    mover = page.request.get(f"{base}/api/games/{gid}").json()["game"]["to_move"]
    token = tokens[str(mover)]
    view = page.request.get(f"{base}/api/games/{gid}/seat", headers={"Authorization": f"Bearer {token}"}).json()
    return int(_act(page, base, gid, token, {"type": "action", "action": rng.choice(view["legal"])})["seq"])


def _shows(page: Any, seq: int) -> None:
    page.wait_for_function(f"document.body.dataset.seq === '{seq}'", timeout=15_000)


def test_the_page_reconnects_to_the_new_worker_after_a_kill_9(browser: Any, tmp_path: Path) -> None:
    server = WorkersServer(f"sqlite:///{tmp_path / 'games.db'}")
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        base = server.base
        for _ in range(20):  # a game of worker 0
            created = page.request.post(
                f"{base}/api/games", data={"game": "stratego", "variant": "classic", "opponent": "hotseat"}
            ).json()
            gid, tokens = created["game"]["id"], created["seats"]
            if owner(gid, TWO) == "0":
                break
        assert owner(gid, TWO) == "0"
        for seat in ("0", "1"):
            _act(page, base, gid, tokens[seat], {"type": "setup", "setup": "sample"})
        page.goto(f"{base}/game/{gid}#seat=0&token={tokens['0']}")
        _shows(page, 2)
        rng = random.Random(4)
        _shows(page, _move(page, base, gid, tokens, rng))
        dead = server.pids[0]
        os.kill(dead, signal.SIGKILL)
        server.wait_for(lambda: server.pids[0] != dead, "a new worker 0")
        seq = _move(page, base, gid, tokens, rng)  # stored by the new worker, which rebuilt the game from its log
        _shows(page, seq)  # the page reconnected and was told
        page.wait_for_function("document.getElementById('conn').textContent === 'online'", timeout=15_000)
        _shows(page, _move(page, base, gid, tokens, rng))  # and follows the game on
        assert not errors, errors
    finally:
        context.close()
        server.stop()
