"""A Stratego LOTR army set up from a sample and from a pasted setup string, in a real (headless) chromium:
the same string box and sample buttons as classic Stratego's page, one letter per character."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fogofwar.games.lotr.setup import SAMPLES

from .test_browser_play import LAYOUT_PROBLEMS, new_page

pytestmark = pytest.mark.browser

FLAG_ON = "#board .piece.s1[data-sq='{sq}'][data-kind=flag]"


def test_lotr_setup_from_a_sample_and_a_pasted_string(browser: Any, live_server: str, tmp_path: Path) -> None:
    page = new_page(browser)
    body = {"game": "lotr", "variant": "classic", "opponent": "random", "color": "good", "options": {"max_moves": 200}}
    created = page.request.post(live_server + "/api/games", data=body).json()
    page.goto(f"{live_server}/game/{created['game']['id']}#seat=1&token={created['seats']['1']}")
    page.wait_for_selector("#setup:not([hidden])")
    assert page.locator("#setup-sample option").all_inner_texts() == list(SAMPLES["good"])
    letters = page.inner_text("#setup-letters")
    assert letters.startswith("G Gandalf, A Aragorn, L Legolas, I Gimli") and letters.endswith("B Fortress, F Flag")
    # A sample: the server's army on the board, its string in the box.
    page.select_option("#setup-sample", "fortress corner")
    page.click("#setup-sample-button")
    page.wait_for_selector(FLAG_ON.format(sq=99))  # K10, the back corner on Good's left
    assert page.input_value("#setup-string") == SAMPLES["good"]["fortress corner"]
    assert page.locator("#board .piece.s1.preview").count() == 40
    # A wrong string: refused with the server's reason, the army on the board stays.
    flank = SAMPLES["good"]["open flank"]
    page.fill("#setup-string", flank.replace("G", "A"))  # Gandalf made a second Aragorn
    page.click("#setup-preview")
    page.wait_for_selector("#setup-status.bad")
    assert "Gandalf (G) missing, Aragorn (A) given twice" in page.inner_text("#setup-status")
    assert page.locator(FLAG_ON.format(sq=99)).count() == 1
    # Another army pasted, in lower case with spaces: read, drawn, and written back as the page writes it.
    page.fill("#setup-string", " / ".join(flank.lower().split("/")))
    page.press("#setup-string", "Enter")
    page.wait_for_selector(FLAG_ON.format(sq=97))  # H10
    page.wait_for_function(f"document.querySelector('#setup-string').value === {json.dumps(flank)}")
    assert "Ready: confirm to play." in page.inner_text("#setup-status")
    assert page.locator("#board .piece.s1[data-sq='68'][data-kind=frodo]").count() == 1  # I7, towards Mount Doom
    assert page.evaluate(LAYOUT_PROBLEMS) == []
    page.locator("#setup").screenshot(path=str(tmp_path / "lotr-setup-panel.png"))
    page.screenshot(path=str(tmp_path / "lotr-setup-string.png"))
    page.click("#setup-confirm")
    page.wait_for_selector("#setup", state="hidden")
    page.wait_for_selector("#board .piece.movable", timeout=10_000)  # Evil has moved: Good's turn, in play
    # Once the game is over, the result shows both armies' setup strings.
    page.on("dialog", lambda d: d.accept())
    page.click("#resign-button")
    page.wait_for_selector("#result:not([hidden])")
    result = page.inner_text("#result-sub")
    assert f"Good's setup: {flank}" in result and "Evil's setup: " in result
    page.locator("#result").scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "lotr-setup-result.png"))
    assert page.errors == []
