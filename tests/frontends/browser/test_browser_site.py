"""The game site end to end in real Chromium, as issue 15 asks: two people sign up in two browser contexts, one posts
a rated challenge with a clock, the other accepts it; they chat, one offers a draw and the other declines, one
loses on time; both ratings change on the leaderboard; the rematch starts with the colours swapped; a spectator
watches. The server runs in this process, so the test moves its time (`clock.now`) instead of waiting."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from fogofwar.frontends.server import clock as game_clock

from .test_browser_chat import say, wait_line
from .test_browser_play import create_in_lobby, new_page, set_up_by_sample

pytestmark = pytest.mark.browser


def sign_up(page: Any, base: str, name: str) -> None:
    page.goto(base + "/account")
    page.fill("#account-name", name)
    page.fill("#account-password", f"{name} has a long secret")
    page.click("#signup-button")
    page.wait_for_url(re.compile(rf"/player/{name}"))


def test_two_people_meet_play_rated_and_rematch(
    browser: Any, live_server: str, screenshots: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, bob = new_page(browser), new_page(browser)  # two browser contexts: two cookie jars
    sign_up(ann, live_server, "Annika")
    sign_up(bob, live_server, "Bobby")

    # Ann posts a rated challenge with a clock.
    gid = create_in_lobby(ann, live_server, "challenge", clock="3+2", rated=True)

    # Bob finds it in the lobby and accepts.
    bob.goto(live_server + "/")
    accept = bob.locator(f"#challenges button[data-accept='{gid}']")
    accept.wait_for()
    assert "Annika" in bob.inner_text("#challenges") and "3+2" in bob.inner_text("#challenges")
    accept.click()
    bob.wait_for_url(re.compile(rf"/game/{gid}"))
    set_up_by_sample(bob)
    set_up_by_sample(ann)
    ann.wait_for_selector("#clocks .clock.running")
    assert "Rated" in ann.inner_text("#players") and "Bobby" in ann.inner_text("#players")

    # A spectator watches from the lobby's list of games in play.
    eve = new_page(browser)
    eve.goto(live_server + "/")
    eve.check("#live-only")
    eve.locator(f"#recent a[href='/game/{gid}']").click()
    eve.wait_for_selector("#clocks .clock.running")

    # They chat in the players' room; the spectator does not read it.
    for page in (ann, bob):
        page.wait_for_selector("#chat:not([hidden])")
        if page.get_attribute("#chat", "open") is None:
            page.click("#chat > summary")
    say(ann, "Have a good game")
    wait_line(bob, "Have a good game")
    say(bob, "You too")
    wait_line(ann, "You too")
    assert "Have a good game" not in eve.inner_text("body")

    # Red (Ann) moves; Bob offers a draw, Ann declines it.
    ann.wait_for_selector("#board .piece.movable")
    ann.locator("#board .piece.movable").first.click(force=True)
    ann.locator("#board .cell-hit.target-hit").first.click()
    bob.wait_for_selector("#draw-button:not([hidden])")
    bob.on("dialog", lambda dialog: dialog.accept())
    bob.click("#draw-button")
    ann.wait_for_selector("#draw-card:not([hidden])")
    assert "offers a draw" in ann.inner_text("#draw-text")
    ann.click("#draw-decline")
    ann.wait_for_selector("#draw-card", state="hidden")
    bob.wait_for_selector("#draw-button:not([hidden])")

    # Bob (blue, to move) thinks past his three minutes and loses on time when he moves at last.
    real = game_clock.now
    monkeypatch.setattr(game_clock, "now", lambda: real() + 200)
    bob.wait_for_selector("#board .piece.movable")
    bob.locator("#board .piece.movable").first.click(force=True)
    bob.locator("#board .cell-hit.target-hit").first.click()
    for page, words in ((bob, "you lose"), (ann, "you win"), (eve, "Blue ran out of time")):
        page.wait_for_selector("#result:not([hidden])")
        assert words in page.inner_text("#result-text"), page.inner_text("#result-text")
    ann.wait_for_selector("#rating-note:not([hidden])")
    assert re.search(r"Annika: rating 1500 → 1\d\d\d \(\+\d+\)", ann.inner_text("#rating-note"))
    assert re.search(r"Bobby: rating 1500 → 1\d\d\d \(-\d+\)", ann.inner_text("#rating-note"))
    ann.screenshot(path=str(screenshots / "site-lost-on-time.png"))
    eve.screenshot(path=str(screenshots / "site-spectator.png"))

    # The leaderboard: Ann above Bob.
    board = new_page(browser)
    board.goto(live_server + "/leaderboard?mode=stratego/barrage")
    board.wait_for_selector("#board:not([hidden])")
    names = board.locator("#board tbody td:nth-child(2)").all_inner_texts()
    assert names.index("Annika") < names.index("Bobby")
    board.screenshot(path=str(screenshots / "site-leaderboard.png"))

    # The rematch: Bob asks, Ann is told and accepts; the colours are swapped, the clock kept, still rated.
    old = bob.url
    bob.click("#rematch-button")
    bob.wait_for_url(lambda url: url != old and "/game/" in url)
    ann.wait_for_selector("#rematch-note:not([hidden])")
    ann.click("#rematch-button")
    ann.wait_for_url(bob.url.split("#")[0] + "**")
    set_up_by_sample(ann)
    set_up_by_sample(bob)
    bob.wait_for_selector("#clocks .clock.running")
    assert "Your move" in bob.inner_text("#turn-text")  # Bob now plays red
    assert "3+2" in bob.inner_text("#clocks") and "Rated" in bob.inner_text("#players")
    bob.screenshot(path=str(screenshots / "site-rematch.png"))
    for page in (ann, bob, eve, board):
        assert page.errors == []
