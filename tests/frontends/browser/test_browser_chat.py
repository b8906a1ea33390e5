"""Chat in real Chromium: host and guest talk in the players' room, spectators in theirs, which the players read only
once the game is over; what people type is shown as text, never as markup; a player mutes the opponent (kept in
the browser); the chat fits a desktop, a tablet and a phone (collapsed there until opened, new messages counted)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .test_browser_play import LAYOUT_PROBLEMS, create_in_lobby, new_page, set_up_by_sample, sized_page

pytestmark = pytest.mark.browser


def say(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def wait_line(page: Any, text: str) -> None:
    page.locator("#chat-list .chat-text", has_text=text).first.wait_for()


def lines(page: Any) -> list[str]:
    return [str(x) for x in page.locator("#chat-list .chat-text").all_inner_texts()]


def test_players_and_spectators_chat_each_in_their_room(browser: Any, live_server: str, screenshots: Path) -> None:
    host = new_page(browser)  # a desktop
    create_in_lobby(host, live_server, "invite")
    host.wait_for_selector("#invite:not([hidden])")
    link = host.input_value("#invite-link")
    guest = sized_page(browser, "phone")
    guest.goto(link)
    guest.wait_for_selector("#join:not([hidden])")
    guest.fill("#join-name", "Guest")
    guest.click("#join-button")
    set_up_by_sample(guest)
    set_up_by_sample(host)

    # The players' room: folded where the panel has no room for it (a laptop's 800 pixels, a phone) until opened.
    host.wait_for_selector("#chat:not([hidden]):not([open])")
    host.click("#chat > summary")
    assert "Only your opponent reads this room" in host.inner_text("#chat-note")
    assert "Spectators have their own room" in host.inner_text("#chat-list")
    host.fill("#chat-input", "Good luck!")
    assert host.inner_text("#chat-count") == "10/300"
    host.press("#chat-input", "Enter")
    wait_line(host, "Good luck!")
    assert host.input_value("#chat-input") == ""
    guest.wait_for_selector("#chat:not([hidden]):not([open])")
    guest.wait_for_function("document.querySelector('#chat-unread').textContent === '1 new'")
    guest.click("#chat > summary")
    wait_line(guest, "Good luck!")
    guest.wait_for_function("document.querySelector('#chat-unread').textContent === ''")  # read now
    say(guest, "You too <b>friend</b> & <img src=x onerror=alert(1)>")
    wait_line(host, "You too")
    assert lines(host)[-1] == "You too <b>friend</b> & <img src=x onerror=alert(1)>"  # text, never markup
    assert host.locator("#chat-list b, #chat-list img").count() == 0
    assert "Guest" in host.locator("#chat-list .chat-line").last.inner_text()
    say(guest, "x" * 320)  # the field takes 300 characters, one long word: it wraps
    wait_line(host, "x" * 300)

    # Spectators: their own room, which the players do not read during the game.
    watcher = sized_page(browser, "tablet")
    watcher.goto(host.url)
    watcher.wait_for_selector("#chat:not([hidden]):not([open])")  # upright screens: folded until opened
    watcher.click("#chat > summary")
    assert "read this room only once the game is over" in watcher.inner_text("#chat-note")
    assert watcher.inner_text("#chat-list") == "No messages yet."  # nothing of the players' room
    say(watcher, "Blue should attack on the left")
    wait_line(watcher, "Blue should attack on the left")
    tall = browser.new_context(viewport={"width": 1600, "height": 1000}, bypass_csp=True).new_page()
    tall.goto(host.url)  # another spectator, on a tall screen: the chat is open beside the board
    tall.wait_for_selector("#chat[open]:not([hidden])")
    wait_line(tall, "Blue should attack on the left")
    assert tall.evaluate(LAYOUT_PROBLEMS) == []
    tall.screenshot(path=str(screenshots / "chat-spectator-tall-desktop.png"))
    say(host, "Your move")
    wait_line(guest, "Your move")
    assert "Blue should attack" not in guest.inner_text("#chat-list") + host.inner_text("#chat-list")
    assert "Your move" not in watcher.inner_text("#chat-list")
    assert host.locator("#chat-tabs button").count() == 0  # one room: no tabs

    # A player mutes the opponent: kept in this browser.
    guest.click("#chat-mute-opponent")
    assert "Good luck!" not in guest.inner_text("#chat-list") and "Hidden (muted): 2" in guest.inner_text("#chat-list")
    guest.reload()
    guest.wait_for_selector("#chat:not([hidden])")
    if not guest.locator("#chat[open]").count():
        guest.click("#chat > summary")
    guest.wait_for_selector("#chat-list .chat-line")
    assert "Your move" not in guest.inner_text("#chat-list")
    assert guest.inner_text("#chat-mute-opponent") == "Unmute opponent"
    guest.click("#chat-mute-opponent")
    wait_line(guest, "Your move")

    for page, size in ((host, "desktop"), (guest, "phone"), (watcher, "tablet")):
        assert page.evaluate(LAYOUT_PROBLEMS) == [], size
    host.screenshot(path=str(screenshots / "chat-host-desktop.png"))
    guest.screenshot(path=str(screenshots / "chat-guest-phone.png"), full_page=True)
    watcher.screenshot(path=str(screenshots / "chat-spectator-tablet.png"), full_page=True)

    # The game ends: the players read the spectators' room now, and may answer there.
    host.on("dialog", lambda dialog: dialog.accept())
    host.click("#resign-button")
    host.wait_for_selector("#chat-tabs button[data-room=spectators]")
    host.click("#chat-tabs button[data-room=spectators]")
    wait_line(host, "Blue should attack on the left")
    say(host, "Thanks for watching")
    wait_line(watcher, "Thanks for watching")
    assert "Your move" not in watcher.inner_text("#chat-list")  # the players' room stays theirs
    guest.wait_for_selector("#chat-tabs button[data-room=spectators]")
    assert "(1)" in guest.inner_text("#chat-tabs button[data-room=spectators]")  # the host's answer, unread there
    assert host.evaluate(LAYOUT_PROBLEMS) == []
    host.screenshot(path=str(screenshots / "chat-host-after-the-game.png"))
    for page in (host, guest, watcher):
        assert page.errors == []
