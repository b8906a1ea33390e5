"""The browser client, driven by a real (headless) chromium: lobby, setup, play, game over, invite, hot-seat.

Screenshots go to artifacts/screenshots/ so that a person can look at what the page looked like.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from fogofwar.games.stratego.agents.levels import levels

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 1280, "height": 800}


def new_page(browser: Any) -> Any:
    # bypass_csp: the page forbids eval, which Playwright's wait_for_function needs; the app itself never evals.
    context = browser.new_context(viewport=VIEWPORT, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


SIZES = {"desktop": (1280, 800), "tablet": (820, 1180), "phone": (390, 844)}
"""The screens every page must fit: a laptop, a tablet held upright, a phone."""


LAYOUT_PROBLEMS = """() => {
  const out = [];
  const width = window.innerWidth;
  const pageWidth = document.documentElement.scrollWidth;
  if (pageWidth > width + 1) out.push(`the page is ${pageWidth}px wide`);
  const scrolls = (e) => {
    const s = getComputedStyle(e);
    return ["auto", "scroll"].includes(s.overflowY) && e.scrollHeight > e.clientHeight + 1;
  };
  for (const e of document.querySelectorAll("body *")) {
    const r = e.getBoundingClientRect();
    const shown = r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== "hidden";
    const out_of_view = r.right > width + 1 || r.left < -1;
    const what = `${e.tagName}#${e.id}.${e.getAttribute("class")}`;
    if (shown && out_of_view && !e.closest("header, #toast")) out.push(`${what} sticks out (${r.left}..${r.right})`);
    if (scrolls(e)) {
      for (let up = e.parentElement; up && up !== document.body; up = up.parentElement) {
        if (scrolls(up)) out.push(`${e.tagName}#${e.id} scrolls inside ${up.tagName}#${up.id}`);
      }
    }
  }
  return out.slice(0, 10);
}"""
"""A script that lists what breaks the layout: the page wider than the screen, an element sticking out of it
(the header and toasts aside), a box that scrolls inside another that scrolls."""


def sized_page(browser: Any, size: str) -> Any:
    """A page at one of the SIZES that records its script errors (`page.errors`)."""
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def open_seat(page: Any, base: str, body: dict[str, Any]) -> str:
    """Create a game over the REST API (`body` as the lobby posts it) and open it at seat 0; its id."""
    created = page.request.post(base + "/api/games", data=body).json()
    gid, token = created["game"]["id"], created["seats"]["0"]
    page.goto(f"{base}/game/{gid}#seat=0&token={token}")
    return str(gid)


def create_in_lobby(
    page: Any,
    base: str,
    opponent: str,
    variant: str = "barrage",
    max_moves: int | None = None,
    clock: str = "",
    name: str = "",
    rated: bool = False,
) -> str:
    """Create a game with the lobby's form (`opponent`: hotseat, invite, challenge or an agent); its id."""
    page.goto(base + "/")
    page.wait_for_selector("#variant option", state="attached")
    if rated:
        page.wait_for_selector("#rated-box:not([hidden])")  # shown once the page knows the player signed in
        page.check("#rated")
    page.select_option("#variant", variant)
    page.select_option("#clock", clock)
    if name:
        page.fill("#name", name)
    if opponent in ("hotseat", "invite", "challenge"):
        page.check(f"input[name=opponent][value={opponent}]")
    else:
        page.check("input[name=opponent][value=agent]")
        page.select_option("#agent", opponent)
    if max_moves is not None:
        page.click("details summary")
        page.fill("#max_moves", str(max_moves))
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/game/"))
    return str(page.url.split("/game/")[1].split("#")[0])


def set_up_by_sample(page: Any) -> None:
    page.wait_for_selector("#setup:not([hidden])")
    page.click("#setup-sample-button")
    page.wait_for_selector("#setup-confirm:not([disabled])")
    page.click("#setup-confirm")
    page.wait_for_selector("#setup", state="hidden")


def test_play_a_barrage_game_against_the_computer(browser: Any, live_server: str, screenshots: Path) -> None:
    page = new_page(browser)
    page.goto(live_server + "/")
    page.wait_for_selector("#variant option", state="attached")
    page.screenshot(path=str(screenshots / "lobby.png"))
    # The computer players are offered by strength, each with a line on how it plays.
    labels = page.locator("#agent option").all_inner_texts()
    assert len(labels) == len(levels())
    for label, level in zip(labels, levels(), strict=True):  # each with its measured rating, when there is one
        assert label.startswith(level.label)
        assert level.elo is None or label.endswith(f"Elo {round(level.elo)}")
    assert page.get_attribute("#agent option[value=search]", "title")
    create_in_lobby(page, live_server, "random", max_moves=30)
    page.wait_for_selector("#setup:not([hidden])")
    page.click("#setup-sample-button")
    page.wait_for_selector("#setup-confirm:not([disabled])")
    assert page.locator("#board .piece.red.preview").count() == 8  # the sample, previewed on the board
    assert page.input_value("#setup-string") == "9...1..2.9/....S...../........../..BF...8.."
    page.screenshot(path=str(screenshots / "setup.png"))
    page.click("#setup-confirm")
    # Moves can be typed: a bad one is refused with the reason, a good one is played.
    page.wait_for_selector("#move-form:not([hidden])", timeout=10_000)
    page.fill("#move-input", "E4-E9")
    page.press("#move-input", "Enter")
    page.wait_for_selector("#toast:not([hidden])")
    assert "illegal" in page.inner_text("#toast")
    assert page.locator("#move-list li").count() == 0
    page.fill("#move-input", "e4-e5")
    page.press("#move-input", "Enter")
    page.wait_for_function("document.querySelectorAll('#move-list li').length >= 1", timeout=10_000)
    assert page.inner_text("#move-list li:first-child").replace(" ", "").find("E4-E5") >= 0
    rng = random.Random(1)
    moves = 1
    battle_shot = False
    while moves < 40:
        page.wait_for_function(
            "document.querySelector('#board .piece.movable') || !document.getElementById('result').hidden",
            timeout=10_000,
        )
        if page.locator("#result").is_visible():
            break
        # The computer's unknown pieces show no rank while the game is on.
        unknown = page.locator("#board .piece.blue.unknown")
        assert unknown.count() + page.locator("#board .piece.blue:not(.unknown)").count() <= 8
        assert page.locator("#board .piece.blue.unknown .sym").count() == 0
        pieces = page.locator("#board .piece.movable")
        pieces.nth(rng.randrange(pieces.count())).click(force=True)
        targets = page.locator("#board .cell-hit.target-hit")
        assert targets.count() > 0
        if moves == 0:
            page.screenshot(path=str(screenshots / "selected.png"))
        before = page.locator("#move-list li").count()
        targets.nth(rng.randrange(targets.count())).click()
        page.wait_for_function(f"document.querySelectorAll('#move-list li').length > {before}", timeout=10_000)
        moves += 1
        if moves == 4:
            page.screenshot(path=str(screenshots / "play.png"))
        if not battle_shot and page.locator("#last .chip").count() == 2:
            page.screenshot(path=str(screenshots / "battle.png"))
            battle_shot = True
    page.wait_for_selector("#result:not([hidden])", timeout=10_000)
    page.screenshot(path=str(screenshots / "game-over.png"))
    result = page.inner_text("#result-text")
    assert "wins" in result or "Draw" in result
    assert page.locator("#board .piece.unknown").count() == 0  # every rank is shown at the end
    count = int(re.search(r"Move (\d+)", page.inner_text("#players")).group(1))  # type: ignore[union-attr]
    assert page.locator("#move-list li").count() == count > 0
    href = page.get_attribute("#record-link", "href")
    record = page.request.get(live_server + href).json()
    assert record["format"] == "fogofwar-record" and record["outcome"]
    assert page.errors == []


def test_invite_a_friend_and_watch(browser: Any, live_server: str, screenshots: Path) -> None:
    host = new_page(browser)
    create_in_lobby(host, live_server, "invite")
    host.wait_for_selector("#invite:not([hidden])")
    link = host.input_value("#invite-link")
    assert "#invite=" in link
    guest = new_page(browser)  # another browser profile: no token there
    guest.goto(link)
    guest.wait_for_selector("#join:not([hidden])")
    guest.fill("#join-name", "Guest")
    guest.click("#join-button")
    set_up_by_sample(guest)
    host.wait_for_selector("#invite", state="hidden")
    set_up_by_sample(host)
    host.wait_for_selector("#board .piece.movable")
    host.locator("#board .piece.movable").first.click(force=True)
    host.locator("#board .cell-hit.target-hit").first.click()
    guest.wait_for_selector("#move-list li")
    assert "Your move" in guest.inner_text("#turn-text")
    assert guest.locator("#board .piece.red .sym").count() == 0  # red's ranks stay hidden from blue
    guest.screenshot(path=str(screenshots / "invite-guest-blue.png"))
    watcher = new_page(browser)
    watcher.goto(host.url)
    watcher.wait_for_selector("#move-list li")
    assert watcher.locator("#board .piece").count() == 16
    assert watcher.locator("#board .piece .sym").count() == 0  # a spectator sees no hidden rank
    assert watcher.locator("#resign-button").is_hidden()
    watcher.screenshot(path=str(screenshots / "spectator.png"))
    for page in (host, guest, watcher):
        assert page.errors == []


def test_hotseat_hides_each_army_behind_a_curtain(browser: Any, live_server: str, screenshots: Path) -> None:
    page = new_page(browser)
    create_in_lobby(page, live_server, "hotseat")
    set_up_by_sample(page)
    page.wait_for_selector("#curtain:not([hidden])")
    assert "Blue" in page.inner_text("#curtain-text")
    assert page.locator("#board .piece").count() == 0  # nothing shows behind the curtain
    page.screenshot(path=str(screenshots / "hotseat-curtain.png"))
    page.click("#curtain-button")
    set_up_by_sample(page)
    page.wait_for_selector("#curtain:not([hidden])")
    page.click("#curtain-button")  # red moves first
    page.wait_for_selector("#board .piece.movable")
    assert page.locator("#board .piece.blue .sym").count() == 0
    page.on("dialog", lambda d: d.accept())
    page.click("#resign-button")
    page.wait_for_selector("#result:not([hidden])")
    assert "Blue wins" in page.inner_text("#result-text")
    assert page.errors == []
