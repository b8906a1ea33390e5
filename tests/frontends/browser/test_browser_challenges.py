"""Open challenges in real Chromium: one player posts a challenge with a clock from the lobby, another finds it
(filtered by game and clock) and accepts it, both set up and play; a third watches from the live-games list."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .test_browser_play import create_in_lobby, new_page, set_up_by_sample


def test_a_challenge_posted_in_the_lobby_is_accepted_and_watched(
    browser: Any, live_server: str, screenshots: Path
) -> None:
    host = new_page(browser)
    gid = create_in_lobby(host, live_server, "challenge", clock="10+5", name="Ada")

    guest = new_page(browser)  # another browser: holds no seat of it
    guest.goto(live_server + "/")
    row = guest.locator(f"#challenges button[data-accept='{gid}']")
    row.wait_for()
    guest.select_option("#challenge-clock", "days")  # the filter hides it...
    guest.wait_for_selector(f"#challenges button[data-accept='{gid}']", state="detached")
    guest.select_option("#challenge-clock", "live")  # ...and shows it again
    row.wait_for()
    assert "Ada" in guest.inner_text("#challenges") and "10+5" in guest.inner_text("#challenges")
    guest.screenshot(path=str(screenshots / "lobby-challenges.png"), full_page=True)
    guest.fill("#name", "Bo")
    row.click()
    guest.wait_for_url(re.compile(rf"/game/{gid}"))
    set_up_by_sample(guest)
    set_up_by_sample(host)
    host.wait_for_selector("#clocks .clock.running")
    assert "Bo" in host.inner_text("#players")

    watcher = new_page(browser)
    watcher.goto(live_server + "/")
    watcher.check("#live-only")
    watcher.locator(f"#recent a[href='/game/{gid}']").click()
    watcher.wait_for_url(re.compile(rf"/game/{gid}"))
    watcher.wait_for_selector("#clocks .clock.running")
    assert watcher.locator("#resign-button").is_hidden()
    watcher.screenshot(path=str(screenshots / "challenge-watched.png"))
    host.goto(live_server + "/")
    host.wait_for_selector("#challenges-empty:not([hidden])")  # taken: no longer listed
    for page in (host, guest, watcher):
        assert page.errors == []
