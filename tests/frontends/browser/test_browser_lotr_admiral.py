"""Stratego LOTR and Admiral in a real (headless) chromium, against the computer.

LOTR: a Game 2 army set up (random, then a piece dragged by clicks), a Fly power chosen and aimed,
a few moves, a resignation. Admiral: a fleet deployed by hand and at random, a few turns of decisions
picked in the panel (a unit chosen by a click on its card, secret orders drafted, taken back and
committed), the computer's reasoning shown, the game over. Screenshots go to artifacts/screenshots/.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .test_browser_play import LAYOUT_PROBLEMS, SIZES, new_page, sized_page

pytestmark = pytest.mark.browser


def create(
    page: Any,
    base: str,
    game: str,
    variant: str,
    agent: str,
    fill: dict[str, str] | None = None,
    shot: Path | None = None,
    choose: dict[str, str] | None = None,
) -> None:
    page.goto(base + "/")
    page.wait_for_selector("#variant option", state="attached")
    page.select_option("#game", game)
    page.select_option("#variant", variant)
    page.check("input[name=opponent][value=agent]")
    page.select_option("#agent", agent)
    if fill or choose:
        page.click("details summary")
        for selector, value in (fill or {}).items():
            page.fill(selector, value)
        for selector, value in (choose or {}).items():
            page.select_option(selector, value)
    if shot is not None:
        page.screenshot(path=str(shot))
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/game/"))


@pytest.mark.parametrize("size", sorted(SIZES))
def test_lotr_game_2_with_a_power_against_the_computer(
    browser: Any, live_server: str, screenshots: Path, size: str
) -> None:
    page = sized_page(browser, size)
    create(page, live_server, "lotr", "powers", "heuristic", choose={"#detect_flag": "shown"})
    info = page.evaluate("fetch('/api/games/' + location.pathname.split('/').pop()).then((r) => r.json())")
    assert info["game"]["options"]["detect_flag"] == "shown", info  # the lobby's reading of Detect Enemy
    page.wait_for_selector("#setup:not([hidden])")
    assert page.locator("#setup-tray .tray-piece").count() == 12  # every Evil character waits in the tray
    # Named, since the powers go with the character ("8 x1, 8 x1" told Gimli from an Elf only in a tooltip).
    assert page.locator("#setup-tray .tray-piece .name", has_text="Saruman").count() == 1
    page.screenshot(path=str(screenshots / "lotr-tray.png"))
    page.click("#setup-random")
    page.wait_for_selector("#setup-confirm:not([disabled])")
    assert page.locator("#board .piece.s0.preview").count() == 40
    # The Witch-king goes to A1 (a click on him, a click on A1): from there he can fly over his own army.
    king = int(page.get_attribute("#board .piece[data-kind=witch_king]", "data-sq"))
    if king != 0:
        page.click(f"#board .cell-hit[data-sq='{king}']")
        page.click("#board .cell-hit[data-sq='0']")
    page.wait_for_selector("#board .piece[data-kind=witch_king][data-sq='0']")
    # The flag goes to the back row: a random setup (and the swap) may leave it where Good's first scout
    # run takes it, and a game already over would show the spectator everything.
    flag = int(page.get_attribute("#board .piece.s0[data-kind=flag]", "data-sq"))
    if flag >= 10:
        page.click(f"#board .cell-hit[data-sq='{flag}']")
        page.click("#board .cell-hit[data-sq='5']")
    page.wait_for_function("Number(document.querySelector('#board .piece.s0[data-kind=flag]').dataset.sq) < 10")
    page.screenshot(path=str(screenshots / "lotr-setup.png"))
    page.click("#setup-confirm")
    page.wait_for_selector("#board .piece.movable")
    assert page.locator("#board .piece.s1 .sym").count() == 0  # Good's characters stay hidden
    page.click("#board .cell-hit[data-sq='0']")
    page.wait_for_selector("#act-modes button[data-mode=fly]")
    page.click("#act-modes button[data-mode=fly]")
    # The help names the markers drawn (it said "click a green dot" under lavender rings).
    assert "purple dot" in page.inner_text("#act-help") and page.locator("#board .target.power").count() > 0
    assert page.locator("#act-choices button", has_text="fly A1-A5").count() == 1
    assert page.evaluate(LAYOUT_PROBLEMS) == []  # the power's choices fit this screen
    page.screenshot(path=str(screenshots / f"lotr-power-{size}.png"))
    page.click("#board .cell-hit.target-hit")
    page.wait_for_function("document.querySelectorAll('#move-list li').length >= 2", timeout=10_000)
    assert page.inner_text("#move-list li:first-child").startswith("fly A1-A5")
    assert page.locator("#board .piece[data-kind=witch_king]").count() == 1
    # A spectator sees the characters the game has shown (the Witch-king, by his power) and no other.
    watcher = new_page(browser)
    watcher.goto(page.url)
    watcher.wait_for_selector("#move-list li")
    assert watcher.locator("#board .piece").count() == page.locator("#board .piece").count()
    assert watcher.locator("#resign-button").is_hidden()
    known = watcher.locator("#board .piece:not(.unknown)")
    # the Witch-king, and what a battle or a power since showed (the message tells what the page said if not)
    assert known.count() < 10, (watcher.inner_text("#turn-text"), watcher.inner_text("#move-list"))
    for i in range(known.count()):
        sq = known.nth(i).get_attribute("data-sq")
        mine = page.locator(f"#board .piece[data-sq='{sq}']")
        classes = (mine.get_attribute("class") or "").split()
        assert mine.locator(".seen-mark").count() == 1 or ("s1" in classes and "unknown" not in classes)
    watcher.screenshot(path=str(screenshots / "lotr-spectator.png"))
    assert watcher.errors == []
    watcher.context.close()
    for _ in range(3):  # a few ordinary moves
        page.wait_for_selector("#board .piece.movable", timeout=10_000)
        before = page.locator("#move-list li").count()
        page.locator("#board .piece.movable").last.click(force=True)
        page.locator("#board .cell-hit.target-hit").first.click()
        page.wait_for_function(f"document.querySelectorAll('#move-list li').length >= {before + 2}", timeout=10_000)
    page.screenshot(path=str(screenshots / "lotr-play.png"))
    page.on("dialog", lambda d: d.accept())
    page.click("#resign-button")
    page.wait_for_selector("#result:not([hidden])")
    assert "Good wins" in page.inner_text("#result-text")
    assert page.locator("#board .piece.unknown").count() == 0  # every character is shown at the end
    page.screenshot(path=str(screenshots / "lotr-game-over.png"))
    assert page.errors == []


def _decide(page: Any) -> str:
    """Wait for a decision (or the end); returns its phase title, '' at the end."""
    page.wait_for_selector("#decide:not([hidden]), #result:not([hidden])", timeout=20_000)
    if page.locator("#result").is_visible():
        return ""
    return str(page.inner_text("#decide-title"))


def _click_a_decision(page: Any, avoid: tuple[str, ...] = ("pass", "commit", "end_movement")) -> None:
    buttons = page.locator("#action-groups button.act-button:visible")
    kinds = [buttons.nth(i).get_attribute("data-kind") for i in range(buttons.count())]
    units = page.locator("#action-groups .unit-pick")
    if all(k in avoid for k in kinds) and units.count():  # the other decisions are a unit's: choose one
        units.first.click()
        kinds = [buttons.nth(i).get_attribute("data-kind") for i in range(buttons.count())]
    closed = page.locator("#action-groups details:not([open]) summary")
    if all(k in avoid for k in kinds) and closed.count():  # the other decisions are in a folded group
        closed.first.click()
        kinds = [buttons.nth(i).get_attribute("data-kind") for i in range(buttons.count())]
    if all(k in avoid for k in kinds) and page.locator("#filter-clear").is_visible():
        page.click("#filter-clear")  # the unit chosen had nothing else: back to the one-button decisions
        kinds = [buttons.nth(i).get_attribute("data-kind") for i in range(buttons.count())]
    pick = next((i for i, k in enumerate(kinds) if k not in avoid), 0)
    seq, draft = page.evaluate("[document.body.dataset.seq, document.body.dataset.draft]")
    buttons.nth(pick).click()
    page.wait_for_function(
        f"document.body.dataset.seq !== '{seq}' || document.body.dataset.draft !== '{draft}'", timeout=10_000
    )


def test_a_few_turns_of_admiral_against_the_computer(browser: Any, live_server: str, screenshots: Path) -> None:
    page = new_page(browser)
    create(
        page,
        live_server,
        "admiral",
        "archipelago",
        "stratego",
        {"#max_turns": "3"},
        screenshots / "lobby-admiral.png",
        choose={"#size_class": "current"},
    )
    info = page.evaluate("fetch('/api/games/' + location.pathname.split('/').pop()).then((r) => r.json())")
    options = info["game"]["options"]
    assert (options["size_class"], options["duel_order"], options["max_turns"]) == ("current", "general", 3), options
    page.wait_for_selector("#setup:not([hidden])")
    # One unit by hand (pick it, then a square of the deployment area), the rest at random.
    page.click("#deploy-units button[data-unit=Washington]")
    page.locator("#board .sea.area").first.click(force=True)  # the click lands on that square
    assert page.locator("#board .unit.preview[data-unit=Washington]").count() == 1
    assert page.is_disabled("#deploy-confirm")
    page.click("#deploy-random")
    page.wait_for_selector("#deploy-confirm:not([disabled])")
    assert page.locator("#board .unit.preview").count() == 5
    page.screenshot(path=str(screenshots / "admiral-deploy.png"))
    page.click("#deploy-confirm")
    shots = {"movement": False, "attack": False}
    for _ in range(80):
        phase = _decide(page)
        if not phase:
            break
        if "MOVEMENT" in phase.upper() and not shots["movement"]:
            # A click on a unit card keeps its decisions only; the board marks where it may go.
            page.locator("#fleet-0 .ucard.s0").first.click()
            page.wait_for_selector("#filter-line:not([hidden])")
            unit = page.get_attribute("#fleet-0 .ucard.s0.selected", "data-unit")
            for i in range(page.locator("#action-groups button.act-button").count()):
                assert unit in (page.get_attribute(f"#action-groups button.act-button >> nth={i}", "title") or "")
            page.screenshot(path=str(screenshots / "admiral-movement.png"))
            shots["movement"] = True
            page.click("#filter-clear")
        if (
            "ATTACK ASSIGNMENT" in phase.upper()  # not the air phases ("Air attack", ...): they have no draft
            and page.locator("#action-groups .unit-pick, #action-groups [data-kind]:not([data-kind=commit])").count()
        ):
            # Secret orders: an order joins the draft, is taken back, given again, then committed.
            _click_a_decision(page)
            page.wait_for_selector("#draft-orders li:not(.muted)")
            page.click("#undo-button")
            page.wait_for_selector("#draft-orders li.muted")
            _click_a_decision(page)
            page.wait_for_selector("#draft-orders li:not(.muted)")
            if not shots["attack"]:
                page.screenshot(path=str(screenshots / "admiral-attack-orders.png"))
                shots["attack"] = True
            page.click("#action-groups button[data-kind=commit]")
            page.wait_for_selector("#draft", state="hidden", timeout=10_000)
            continue
        _click_a_decision(page)
    page.wait_for_selector("#result:not([hidden])", timeout=20_000)
    assert "turn cap" in page.inner_text("#result-text") or "wins" in page.inner_text("#result-text")
    assert shots["movement"]
    assert page.locator("#explain li").count() > 0  # the computer's reasoning, once public
    assert page.locator("#move-list li", has_text="rolls").count() > 0  # the server's dice, in the log
    assert page.locator("#dice-0 .die").count() > 0 and page.locator("#fleet-1 .ucard").count() >= 5
    page.screenshot(path=str(screenshots / "admiral-game-over.png"), full_page=True)
    href = page.get_attribute("#record-link", "href")
    record = page.request.get(live_server + href).json()
    assert record["game"] == "admiral" and record["outcome"]
    assert page.errors == []
