"""Accounts in real Chromium: sign up on the account page (this browser's anonymous game becomes the player's),
play a rated game against the computer from the lobby, see the rating change on the result card, the profile and
the leaderboard."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .test_browser_play import create_in_lobby, new_page, set_up_by_sample


def test_sign_up_play_rated_and_find_yourself_on_the_leaderboard(
    browser: Any, live_server: str, screenshots: Path
) -> None:
    page = new_page(browser)
    old = page.request.post(live_server + "/api/games", data={"variant": "barrage", "opponent": "hotseat"}).json()
    page.goto(f"{live_server}/game/{old['game']['id']}#seat=0&token={old['seats']['0']}")  # played anonymously
    page.wait_for_selector("#setup:not([hidden])")
    page.goto(live_server + "/account")
    page.fill("#account-name", "Zora")
    page.fill("#account-password", "a long secret")
    page.click("#signup-button")
    page.wait_for_url(re.compile(r"/player/Zora"))
    page.wait_for_selector("#player-games:not([hidden])")
    assert old["game"]["id"] in page.inner_html("#player-games")  # claimed on signing up
    create_in_lobby(page, live_server, "heuristic", rated=True)  # "Rated" is offered: the lobby knows Zora
    set_up_by_sample(page)
    page.wait_for_selector("#players .badge")
    assert "Rated" in page.inner_text("#players") and page.locator("#players a", has_text="Zora").count() == 1
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#resign-button")
    page.wait_for_selector("#rating-note:not([hidden])")
    note = page.inner_text("#rating-note")
    assert re.search(r"Zora: rating 1500 → 1\d\d\d \(-\d+\)", note), note
    page.screenshot(path=str(screenshots / "rated-result.png"))
    page.goto(live_server + "/leaderboard")
    page.wait_for_selector("#board:not([hidden])")
    assert "Zora" in page.inner_text("#board") and "stratego/barrage" in page.inner_text("#board-mode")
    page.screenshot(path=str(screenshots / "leaderboard.png"))
    assert page.errors == []
