"""The deltas of real games: the server's patch of each seat's view turns the view before into the view after,
read by the Python reference (`delta.apply`) and by the browser's own code (web/delta.js, run by node)."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from tests.paths import ROOT

from fogofwar.frontends.server.delta import apply, diff
from fogofwar.frontends.server.session import ClientError, Command, GameSession
from fogofwar.frontends.server.store import GameMeta

WEB = ROOT / "src" / "fogofwar" / "frontends" / "web"
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("stratego", {"variant": "classic", "max_moves": 120}),
    ("stratego", {"variant": "barrage", "max_moves": 120}),
    ("stratego", {"variant": "duel", "max_moves": 120}),
    ("lotr", {"variant": "classic", "captured_mode": "free", "max_moves": 120}),
    ("lotr", {"variant": "powers", "captured_mode": "hidden", "max_moves": 120}),
    ("lotr", {"variant": "ring", "captured_mode": "prisoner", "max_moves": 120}),
    ("admiral", {"max_turns": 3}),
    ("admiral", {"variant": "strait", "max_turns": 3, "solo_seat": 1}),  # the solo rules
]


def _meta(game: str, options: dict[str, Any]) -> GameMeta:
    return GameMeta(
        id="g1",
        game=game,
        options=options,
        mode="hotseat",
        agent=None,
        agent_seat=None,
        secret=bytes(range(32)),
        players=["Ann", "Bob"],
        token_hashes=[None, None],
        invite_hash=None,
        created_at=0.0,
        updated_at=0.0,
        clock={"initial": 300.0, "increment": 2.0, "label": "5+2"},
    )


def views_of_a_game(game: str, options: dict[str, Any], seed: int) -> list[tuple[Any, Any]]:
    """(view before, view after) of every seat and the spectators over one random game: each setup, move,
    die and draft decision. The game is played in place, as the server plays it: a view made earlier must not
    change with it (it is what the next delta is made from)."""
    session = GameSession(_meta(game, options))
    rng = random.Random(seed)
    keys = tuple(k for k in (0, 1, None) if k is None or k != options.get("solo_seat"))  # the solo seat: a computer
    before = {k: session.view(k) for k in keys}
    sent = {k: json.dumps(v) for k, v in before.items()}  # a view as it was sent: a delta is made from it later
    pairs: list[tuple[Any, Any]] = []
    while not session.state.is_terminal() and len(pairs) < 1200:
        if session.needs_chance():
            session.apply(session.chance_event())
        elif session.adapter.in_setup(session.state) and _set_up(session):
            pass
        else:
            seat = session.to_move()
            assert seat is not None
            action = rng.choice(list(session.seat_state(seat).legal_actions()))
            ev = session.event_for(seat, Command("action", action=action))
            session.apply_draft(ev) if ev.kind == "draft" else session.apply(ev)
        for k in keys:
            assert json.dumps(before[k]) == sent[k], "a view shares a list or an object the game changes in place"
            after = session.view(k)
            pairs.append((before[k], after))
            before[k], sent[k] = after, json.dumps(after)
    return pairs


def _set_up(session: GameSession) -> bool:
    """A random setup for the first seat that may send one now (blue first: its army may wait for red's)."""
    for seat in (1, 0):
        if not session.has_set_up(seat):
            try:
                session.apply(session.event_for(seat, Command("setup", setup="random")))
                return True
            except ClientError:  # its turn to set up has not come (or never does: Admiral's solo fleet)
                continue
    return False


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_a_patch_turns_each_view_into_the_next(game: str, options: dict[str, Any]) -> None:
    pairs = views_of_a_game(game, options, seed=4)
    sizes = []
    for old, new in pairs:
        patch = diff(old, new)
        if patch is None:  # nothing changed for this seat (another seat's secret draft): nothing is sent
            assert old == new and old["game"]["game"] == "admiral"
            continue
        assert apply(old, patch) == new
        sizes.append(len(json.dumps(patch)))
    whole = sum(len(json.dumps(new)) for _, new in pairs)
    assert sum(sizes) * 4 < whole, "a delta is a small part of the view it changes"


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js (scripts/test installs it)")
def test_the_browser_reads_the_patches_of_every_game_as_the_server_meant_them(tmp_path: Path) -> None:
    cases = [
        {"old": old, "patch": diff(old, new), "new": new}
        for game, options in GAMES
        for old, new in views_of_a_game(game, options, seed=5)
        if old != new
    ]
    cases += [  # the kinds of change views rarely make: a slid window, a cut list, keys that go
        {"old": old, "patch": diff(old, new), "new": new}
        for old, new in [([1, 2, 3, 4], [3, 4, 5]), ([1, 2, 3], [1]), ({"a": 1, "b": 2}, {"b": [2]}), ([], [{}])]
    ]
    data = tmp_path / "cases.json"
    data.write_text(json.dumps(cases), encoding="utf-8")
    script = f"""
import {{ readFileSync }} from "node:fs";
import {{ isDeepStrictEqual }} from "node:util";
import {{ applyPatch }} from {json.dumps((WEB / "delta.js").as_uri())};
const cases = JSON.parse(readFileSync({json.dumps(str(data))}, "utf8"));
let bad = 0;
for (const c of cases) if (!isDeepStrictEqual(applyPatch(c.old, c.patch), c.new)) bad++;
console.log(JSON.stringify({{ cases: cases.length, bad }}));
"""
    out = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == {"cases": len(cases), "bad": 0}
    assert len(cases) > 1000
