"""Clocks and aborting in real Chromium: a game with a clock chosen in the lobby shows both clocks, the running one
counting down; a move after the flag fell loses on time, said on both screens; a game is aborted in its first
moves. The server runs in this process, so the test moves its time (`clock.now`) instead of waiting."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fogofwar.frontends.server import clock as game_clock

from .test_browser_play import create_in_lobby, new_page, set_up_by_sample


def _seconds(text: str) -> float:
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + float(seconds)


def test_a_clocked_invite_game_is_lost_on_time(
    browser: Any, live_server: str, screenshots: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = new_page(browser)
    create_in_lobby(host, live_server, "invite", clock="5+3")
    host.wait_for_selector("#invite:not([hidden])")  # the link is written once the game's first state has come
    link = host.input_value("#invite-link")
    guest = new_page(browser)
    guest.goto(link)
    guest.wait_for_selector("#join:not([hidden])")
    guest.click("#join-button")
    set_up_by_sample(guest)
    set_up_by_sample(host)
    host.wait_for_selector("#clocks .clock.running")
    assert host.locator("#clocks .clock").count() == 2 and "5+3" in host.inner_text("#clocks")
    first = _seconds(host.inner_text("#clocks .clock.running .clock-time"))
    host.wait_for_timeout(1300)
    assert _seconds(host.inner_text("#clocks .clock.running .clock-time")) < first <= 300  # it counts down
    assert guest.inner_text("#clocks .clock[data-seat='1'] .clock-time") == "5:00"  # blue's waits
    host.screenshot(path=str(screenshots / "clock-running.png"))

    real = game_clock.now
    monkeypatch.setattr(game_clock, "now", lambda: real() + 301)  # red thought too long
    host.wait_for_selector("#board .piece.movable")
    host.locator("#board .piece.movable").first.click(force=True)
    host.locator("#board .cell-hit.target-hit").first.click()
    host.wait_for_selector("#result:not([hidden])")
    assert "ran out of time" in host.inner_text("#result-text") and "you lose" in host.inner_text("#result-text")
    guest.wait_for_selector("#result:not([hidden])")
    assert "you win" in guest.inner_text("#result-text")
    assert guest.inner_text("#clocks .clock[data-seat='0'] .clock-time") == "0:00.0"
    guest.screenshot(path=str(screenshots / "clock-lost-on-time.png"))

    # A rematch: the host asks, the guest is told and takes the new game's seat; sides swapped, same clock.
    old = host.url
    host.click("#rematch-button")
    host.wait_for_url(lambda url: url != old and "/game/" in url)
    guest.wait_for_selector("#rematch-note:not([hidden])")
    assert "asks for a rematch" in guest.inner_text("#rematch-note")
    guest.screenshot(path=str(screenshots / "rematch-offered.png"))
    guest.click("#rematch-button")
    guest.wait_for_url(host.url.split("#")[0] + "**")
    set_up_by_sample(guest)
    set_up_by_sample(host)
    guest.wait_for_selector("#clocks .clock.running")
    assert "Your move" in guest.inner_text("#turn-text")  # the guest now plays red
    assert "5+3" in guest.inner_text("#clocks")
    for page in (host, guest):
        assert page.errors == []


def test_a_game_is_aborted_in_its_first_moves(browser: Any, live_server: str, screenshots: Path) -> None:
    page = new_page(browser)
    created = page.request.post(
        live_server + "/api/games", data={"variant": "barrage", "opponent": "heuristic", "clock": "10+5"}
    ).json()
    page.goto(f"{live_server}/game/{created['game']['id']}#seat=0&token={created['seats']['0']}")
    page.wait_for_selector("#abort-button:not([hidden])")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#abort-button")
    page.wait_for_selector("#result:not([hidden])")
    assert "aborted" in page.inner_text("#result-text")
    assert page.locator("#abort-button").is_hidden() and page.locator("#resign-button").is_hidden()
    page.screenshot(path=str(screenshots / "aborted.png"))
    assert page.errors == []
