"""The setup editor (drag and drop, keys, tray, saved setups) and the replay viewer, in headless chromium.

Screenshots go to artifacts/screenshots/ (setup-editor*.png, replay*.png).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from .test_browser_play import new_page, open_seat

pytestmark = pytest.mark.browser


CENTRE_JS = """selector => {
  const e = document.querySelector(selector);
  const r = e && e.getBoundingClientRect();
  return r && r.width > 0 && r.height > 0 ? [r.x + r.width / 2, r.y + r.height / 2] : null;
}"""
"""The centre of the first element `selector` matches, found and measured in one task of the page's, or null while
there is none with a size."""


def centre(page: Any, selector: str) -> tuple[float, float]:
    """Where the first element `selector` matches stands on the screen, waited for (Playwright's timeout) until it is
    there with a size. Found and measured in one page task: the board redraws by replacing its squares whenever a
    message comes, and an element found first and measured after could be gone by then (a drag in CI once failed so,
    the square's box None although the square was on the page)."""
    x, y = page.wait_for_function(CENTRE_JS, arg=selector).json_value()
    return float(x), float(y)


def drag(page: Any, source: str, target: str, shot: Path | None = None) -> None:
    """Press on `source`, move in a few steps (a real drag), release on `target` (the board brought into view
    first: a drag happens on the screen)."""
    page.locator("#board").scroll_into_view_if_needed()
    x0, y0 = centre(page, source)
    x1, y1 = centre(page, target)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=4)
    page.mouse.move(x1, y1, steps=4)
    if shot is not None:
        page.screenshot(path=str(shot))
    page.mouse.up()


def square(sq: int) -> str:
    return f'#board .cell-hit[data-sq="{sq}"]'


def rank_on(page: Any, sq: int) -> str:
    return str(page.locator(f'#board .piece[data-sq="{sq}"] .name').text_content())


def test_drag_and_drop_setup_editor(browser: Any, live_server: str, screenshots: Path) -> None:
    page = new_page(browser)
    body = {"variant": "barrage", "opponent": "random", "color": "red", "options": {"max_moves": 40}}
    open_seat(page, live_server, body)
    page.wait_for_selector("#setup:not([hidden])")
    tray = page.locator("#setup-tray .tray-piece")
    assert tray.count() == 7  # barrage: 8 pieces of 7 ranks, all in the tray to start with
    assert page.locator("#board .piece.red").count() == 0
    # Drag every piece from the tray onto the board: the second row and the front row.
    targets = {
        "marshal": [30],
        "general": [31],
        "miner": [32],
        "scout": [33, 34],
        "spy": [35],
        "bomb": [1],
        "flag": [0],
    }
    for rank, squares in targets.items():
        for sq in squares:
            drag(page, f'#setup-tray .tray-piece[data-key="{rank}"]', square(sq))
            assert rank_on(page, sq) == rank
        if rank == "miner":
            page.screenshot(path=str(screenshots / "setup-editor-tray.png"))
    assert tray.count() == 0 and page.locator("#board .piece.red").count() == 8
    page.wait_for_function("document.getElementById('setup-status').textContent.startsWith('Ready')")
    assert page.input_value("#setup-string") == "12899S..../........../........../FB........"
    # Drag a piece onto another: they swap (a screenshot mid-drag shows the piece under the pointer).
    drag(page, square(30), square(0), shot=screenshots / "setup-editor-drag.png")
    assert (rank_on(page, 0), rank_on(page, 30)) == ("marshal", "flag")
    # Keys: Enter picks the square under the cursor, arrows move it, Enter again swaps.
    page.focus("#board")
    page.keyboard.press("Enter")  # the cursor starts on A1
    for _ in range(3):
        page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    assert (rank_on(page, 0), rank_on(page, 30)) == ("flag", "marshal")
    # Click a piece, then an empty square: it moves there.
    page.click(square(35))
    page.click(square(36))
    assert rank_on(page, 36) == "spy" and page.locator('#board .piece[data-sq="35"]').count() == 0
    # A piece dropped on the tray leaves the board; the server refuses the incomplete army, and says why.
    drag(page, square(36), "#setup-tray")
    assert tray.count() == 1 and page.locator("#board .piece.red").count() == 7
    page.click("#setup-confirm")
    page.wait_for_function("document.getElementById('setup-status').textContent.includes('setup refused')")
    assert "setup refused" in page.inner_text("#setup-status")
    drag(page, '#setup-tray .tray-piece[data-key="spy"]', square(39))
    assert tray.count() == 0
    # Saved setups live in this browser: save, clear, load.
    page.fill("#setup-save-name", "my barrage")
    page.click("#setup-save")
    assert page.locator('#setup-saved option[value="my barrage"]').count() == 1
    page.click("#setup-clear")
    assert page.locator("#board .piece.red").count() == 0 and tray.count() == 7
    page.select_option("#setup-saved", "my barrage")
    page.click("#setup-load")
    assert page.locator("#board .piece.red").count() == 8 and rank_on(page, 39) == "spy"
    page.wait_for_function("document.getElementById('setup-status').textContent.startsWith('Ready')")
    # Clear and load again within one pause of the checker: the status still ends at 'Ready'.
    page.evaluate("() => { for (const id of ['setup-clear', 'setup-load']) document.getElementById(id).click(); }")
    page.wait_for_function("document.getElementById('setup-status').textContent.startsWith('Ready')", timeout=5_000)
    page.focus("#board")
    page.screenshot(path=str(screenshots / "setup-editor.png"))
    page.click("#setup-confirm")
    page.wait_for_selector("#setup", state="hidden")
    page.wait_for_selector("#board .piece.movable")
    assert rank_on(page, 39) == "spy" and rank_on(page, 0) == "flag"  # the army as arranged
    assert page.errors == []


def finish_a_game(page: Any, base: str, seed: int = 4, moves: int = 40) -> str:
    """A hot-seat barrage game played to its end over the REST API (random moves, then a resignation)."""
    created = page.request.post(base + "/api/games", data={"variant": "barrage", "opponent": "hotseat"}).json()
    gid, tokens = created["game"]["id"], created["seats"]

    def auth(seat: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {tokens[seat]}"}

    def act(seat: str, command: dict[str, Any]) -> None:
        r = page.request.post(f"{base}/api/games/{gid}/act", data=command, headers=auth(seat))
        assert r.ok, r.text()

    act("0", {"type": "setup", "setup": "sample"})
    act("1", {"type": "setup", "setup": "sample"})
    rng = random.Random(seed)
    for _ in range(moves):
        game = page.request.get(f"{base}/api/games/{gid}").json()["game"]
        if game["status"] == "over":
            return str(gid)
        seat = str(game["to_move"])
        legal = page.request.get(f"{base}/api/games/{gid}/seat", headers=auth(seat))
        act(seat, {"type": "action", "action": rng.choice(legal.json()["legal"])})
    act("0", {"type": "resign"})
    return str(gid)


def step_text(page: Any) -> str:
    return str(page.inner_text("#step-text"))


def test_replay_viewer_steps_and_imports(browser: Any, live_server: str, screenshots: Path) -> None:
    page = new_page(browser)
    gid = finish_a_game(page, live_server)
    replay = page.request.get(f"{live_server}/api/games/{gid}/replay").json()
    total = len(replay["steps"])
    assert total > 3
    page.goto(f"{live_server}/replay/{gid}")
    page.wait_for_selector("#controls:not([hidden])")
    assert step_text(page) == f"Start · {total} moves"
    assert page.locator("#board .piece").count() == 16 and page.locator("#board .piece.unknown").count() == 0
    page.keyboard.press("ArrowRight")
    assert step_text(page) == f"Move 1 of {total}"
    page.click("#next")
    assert step_text(page) == f"Move 2 of {total}"
    page.click("#prev")
    assert step_text(page) == f"Move 1 of {total}"
    page.click("#last")
    assert step_text(page) == f"Move {total} of {total}"
    page.keyboard.press("Home")
    assert step_text(page) == f"Start · {total} moves"
    page.fill("#slider", "3")
    assert step_text(page) == f"Move 3 of {total}"
    page.click('#move-list li[data-n="2"]')
    assert step_text(page) == f"Move 2 of {total}"
    assert page.locator("#move-list li.current").get_attribute("data-n") == "2"
    page.select_option("#speed", "350")
    page.click("#play")
    page.wait_for_function("document.getElementById('step-text').textContent.startsWith('Move 4 ')")
    page.click("#play")  # pause
    paused = step_text(page)
    page.wait_for_timeout(500)
    assert step_text(page) == paused
    battles = [s["n"] for s in replay["steps"] if (s["set"].get("last_move") or {}).get("result")]
    if battles:  # a battle shows both ranks
        page.click(f'#move-list li[data-n="{battles[0]}"]')
        assert page.locator("#last-text .chip").count() == 2
        assert page.locator("#board .burst").count() == 1
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowLeft")  # the keys step too; back on the battle
        assert step_text(page) == f"Move {battles[0]} of {total}"
    page.locator("aside.panel").evaluate("panel => { panel.scrollTop = 0; }")
    page.screenshot(path=str(screenshots / "replay.png"))
    # Import: a bad file says what is wrong; a good one (this game as Gravon XML) opens.
    xml = page.request.get(f"{live_server}/api/games/{gid}/record?format=gravon").body()
    page.goto(f"{live_server}/replay")
    page.wait_for_selector("#file")
    page.screenshot(path=str(screenshots / "replay-empty.png"))
    page.set_input_files("#file", files=[{"name": "bad.json", "mimeType": "application/json", "buffer": b'{"format":'}])
    page.wait_for_selector("#error:not([hidden])")
    assert "malformed JSON" in page.inner_text("#error")
    page.set_input_files("#file", files=[{"name": "game.xml", "mimeType": "application/xml", "buffer": xml}])
    page.wait_for_selector("#controls:not([hidden])")
    assert page.locator("#error").is_hidden()
    assert step_text(page) == f"Start · {total} moves"
    assert page.locator("#export-gravon").is_visible()
    page.click("#last")
    page.screenshot(path=str(screenshots / "replay-import.png"))
    bad = b'<stratego><game type="classic"><field content="A"/></game></stratego>'
    page.set_input_files("#file", files=[{"name": "short.xml", "mimeType": "application/xml", "buffer": bad}])
    page.wait_for_selector("#error:not([hidden])")
    assert re.search(r"the field has 1 characters", page.inner_text("#error"))
    assert step_text(page) == f"Move {total} of {total}"  # the replay on screen is unchanged
    assert page.errors == []


def finish_a_hotseat_game(page: Any, base: str, game: str, variant: str, options: dict[str, Any], moves: int) -> str:
    """A hot-seat LOTR or Admiral game over the REST API: random armies, random decisions (attacks and
    powers first), then a resignation if it is still on."""
    body = {"game": game, "variant": variant, "opponent": "hotseat", "options": options}
    created = page.request.post(base + "/api/games", data=body).json()
    gid, tokens = created["game"]["id"], created["seats"]

    def auth(seat: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {tokens[seat]}"}

    def act(seat: str, command: dict[str, Any]) -> None:
        r = page.request.post(f"{base}/api/games/{gid}/act", data=command, headers=auth(seat))
        assert r.ok, r.text()

    act("0", {"type": "setup", "setup": "random"})
    act("1", {"type": "setup", "setup": "random"})
    rng = random.Random(3)
    for _ in range(moves):
        info = page.request.get(f"{base}/api/games/{gid}").json()["game"]
        if info["status"] == "over":
            return str(gid)
        seat = str(info["to_move"])
        view = page.request.get(f"{base}/api/games/{gid}/seat", headers=auth(seat)).json()
        actions = view["actions"]
        eager = [a for a in actions if a["kind"] in ("attack", "fly", "long_bow", "sense_enemy", "fire", "torpedo")]
        pool = eager if eager and rng.random() < 0.7 else actions
        act(seat, {"type": "action", "action": rng.choice(pool)["id"]})
    act("0", {"type": "resign"})
    return str(gid)


def shoot(page: Any, path: Path) -> None:
    """A screenshot with the panel scrolled to its top (the step in words)."""
    page.locator("aside.panel").evaluate("panel => { panel.scrollTop = 0; }")
    page.screenshot(path=str(path))


def test_replay_viewer_draws_lotr_and_admiral(browser: Any, live_server: str, screenshots: Path) -> None:
    page = new_page(browser)
    # --- Stratego LOTR: every character, the zones, a battle and a power in words.
    gid = ""
    steps: list[dict[str, Any]] = []
    for _attempt in range(4):  # random armies may end a game at once: play another
        gid = finish_a_hotseat_game(page, live_server, "lotr", "powers", {}, 40)
        steps = page.request.get(f"{live_server}/api/games/{gid}/replay").json()["steps"]
        if len(steps) > 6:
            break
    total = len(steps)
    page.goto(f"{live_server}/replay/{gid}")
    page.wait_for_selector("#controls:not([hidden])")
    assert page.evaluate("document.body.className") == "lotr"
    assert step_text(page) == f"Start · {total} moves"
    assert page.locator("#board .zone").count() == 8
    assert page.locator("#board .piece").count() == 80 and page.locator("#board .piece.unknown").count() == 0
    for n in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        assert step_text(page) == f"Move {n} of {total}"
        assert page.inner_text("#last-text").strip()
    assert page.locator("#board .last").count() >= 1
    lasts: list[dict[str, Any]] = []
    for s in steps:
        lasts.append({**(lasts[-1] if lasts else {}), **s["set"]}.get("last_move") or {})
    battle = next((i + 1 for i, m in enumerate(lasts) if m.get("defender")), None)
    power = next((i + 1 for i, m in enumerate(lasts) if m.get("power") and m["power"] != "repeat_attack"), None)
    if battle:
        page.click(f'#move-list li[data-n="{battle}"]')
        assert step_text(page) == f"Move {battle} of {total}"
        assert page.locator("#last-text .chip").count() == 2 and page.locator("#board .burst").count() == 1
        shoot(page, screenshots / "replay-lotr-battle.png")
    if power:
        page.click(f'#move-list li[data-n="{power}"]')
        assert " used " in page.inner_text("#last-text")
        shoot(page, screenshots / "replay-lotr-power.png")
    page.click("#flip")
    page.click("#last")
    assert step_text(page) == f"Move {total} of {total}"
    shoot(page, screenshots / "replay-lotr.png")
    # --- Admiral: the dice of a roll, a decision's arrow, the resolution report.
    aid = finish_a_hotseat_game(page, live_server, "admiral", "archipelago", {"max_turns": 2}, 400)
    replay = page.request.get(f"{live_server}/api/games/{aid}/replay").json()
    steps, total = replay["steps"], len(replay["steps"])
    fleet = sum(len(c["units"]) for c in replay["start"]["board"])
    page.goto(f"{live_server}/replay/{aid}")
    page.wait_for_selector("#controls:not([hidden])")
    assert page.evaluate("document.body.className") == "admiral"
    assert page.get_attribute("#board", "viewBox") == "0 0 840 840"
    assert step_text(page) == f"Start · {total} steps"
    assert page.locator("#board .unit").count() == fleet and page.locator("#board .terrain").count() > 0
    page.keyboard.press("ArrowRight")  # the initiative roll
    assert step_text(page) == f"Step 1 of {total}"
    assert "Dice rolled" in page.inner_text("#last-text") and page.locator("#last-text .die").count() > 0
    shoot(page, screenshots / "replay-admiral-roll.png")
    move = next(s["n"] for s in steps if s["notation"].startswith("move:"))
    page.click(f'#move-list li[data-n="{move}"]')
    assert page.locator("#board .arrow").count() == 1 and page.locator("#board .last").count() >= 1
    shoot(page, screenshots / "replay-admiral-move.png")
    reported = [s["n"] for s in steps if s["set"].get("report")]
    if reported:
        page.click(f'#move-list li[data-n="{reported[0]}"]')
        assert page.locator("#last-text .report li").count() > 0
        shoot(page, screenshots / "replay-admiral-attack.png")
    page.click("#last")
    assert step_text(page) == f"Step {total} of {total}"
    assert "wins" in page.inner_text("#last-text") or "Draw" in page.inner_text("#last-text")
    shoot(page, screenshots / "replay-admiral.png")
    # --- The lobby offers the replay of a finished game.
    page.goto(live_server + "/")
    link = page.locator(f'#recent a[href="/replay/{aid}"]')
    link.wait_for()
    assert link.inner_text() == "Replay"
    page.screenshot(path=str(screenshots / "lobby-replay-links.png"))
    link.click()
    page.wait_for_url(re.compile(f"/replay/{aid}"))
    page.wait_for_selector("#controls:not([hidden])")
    assert page.errors == []
