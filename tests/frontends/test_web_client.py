"""The browser client and the engines name the same things: a cross-check the client's own tests cannot make."""

from __future__ import annotations

import re

from tests.paths import ROOT

from fogofwar.games.admiral.state_model import Phase

WEB = ROOT / "src" / "fogofwar" / "frontends" / "web"


def test_the_admiral_page_has_words_for_every_phase_of_the_engine() -> None:
    text = (WEB / "admiral_board.js").read_text(encoding="utf-8")
    block = re.search(r"export const PHASES = \{(.*?)\};", text, re.S)
    assert block is not None, "admiral_board.js no longer declares PHASES"
    names = set(re.findall(r"(\w+):", block.group(1)))
    assert names == {p.value for p in Phase}
