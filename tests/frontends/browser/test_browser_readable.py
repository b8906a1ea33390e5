"""What a newcomer reads in the browser: no dead ends, no engine words, no silent surprises (the readability
issue's findings, each checked in a real chromium)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .test_browser_play import new_page

pytestmark = pytest.mark.browser


def test_an_unknown_game_link_says_so_and_leads_back(browser: Any, live_server: str, screenshots: Path) -> None:
    """It said "reconnecting..." forever above empty cards."""
    page = new_page(browser)
    page.goto(f"{live_server}/game/nosuchgame")
    page.wait_for_selector("#result:not([hidden])", timeout=10000)
    page.wait_for_timeout(1500)  # a reconnect would have begun by now
    assert page.inner_text("#title") == "No such game" and "reconnecting" not in page.inner_text("#conn")
    assert "nosuchgame" in page.inner_text("#result-sub")
    assert page.locator("#result a[href='/']").is_visible()  # the way back to the lobby
    page.screenshot(path=str(screenshots / "no-such-game.png"))
    assert not page.errors
