"""The Italian catalog covers every text the pages mark for translation, and the names the server sends for
display (ranks, seats, levels, LOTR's characters and powers, games and variants): a new English text without
an Italian entry fails here, not in front of an Italian player."""

from __future__ import annotations

import html.parser
import json
import re
from pathlib import Path

import pytest

from fogofwar.frontends.server.app import ADAPTERS

WEB = Path(__file__).resolve().parents[3] / "src" / "fogofwar" / "frontends" / "web"
OWN_PASS = {"admiral.html", "admiral.js", "admiral_board.js", "replay_admiral.js"}
"""Admiral's page is translated in a pass of its own (its texts are marked as it goes)."""
LITERAL = r'"((?:[^"\\]|\\.)*)"'


class _Texts(html.parser.HTMLParser):
    """Static texts of a page: text nodes and the placeholder, title and aria-label attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.texts: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack.append(tag)
        for name, value in attrs:
            if name in ("placeholder", "title", "aria-label") and value and re.search("[A-Za-z]{2}", value):
                self.texts.add(" ".join(value.split()))

    def handle_endtag(self, tag: str) -> None:
        if self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if self.stack and self.stack[-1] in ("script", "style"):
            return
        if re.search("[A-Za-z]{2}", text) and "$" not in text:  # $page, $cards: the server's placeholders
            self.texts.add(text)


def marked_texts() -> set[str]:
    """Every English text the pages translate: static HTML, t("...") and N_("...") in the scripts, and both
    branches of t(cond ? "a" : "b")."""
    texts: set[str] = set()
    for page in sorted(WEB.glob("*.html")):
        if page.name not in OWN_PASS:
            parser = _Texts()
            parser.feed(page.read_text(encoding="utf-8"))
            texts |= parser.texts
    for script in sorted(WEB.glob("*.js")):
        if script.name in OWN_PASS:
            continue
        source = script.read_text(encoding="utf-8")
        for m in re.finditer(r"\b(?:t|N_)\(\s*" + LITERAL, source):
            texts.add(json.loads(f'"{m.group(1)}"'))
        for m in re.finditer(r'\bt\(\s*[^()"]*\?\s*' + LITERAL + r"\s*:\s*" + LITERAL, source):
            texts |= {json.loads(f'"{m.group(1)}"'), json.loads(f'"{m.group(2)}"')}
    return texts


def server_names() -> set[str]:
    """Names the server sends that the pages show through t(): games, variants, seats, levels, ranks,
    LOTR's characters, powers and captured-piece modes."""
    from fogofwar.games.lotr.params import CAPTURED_MODES
    from fogofwar.games.stratego.agents.levels import levels
    from fogofwar.games.stratego.pieces import Rank

    names: set[str] = {r.name.lower() for r in Rank} | set(CAPTURED_MODES)
    for level in levels():
        names |= {level.label, level.blurb}
    for name, adapter in ADAPTERS.items():
        if name == "admiral":
            continue
        meta = adapter.describe()
        names |= {meta["title"], *meta["seats"]}
        for variant in meta["variants"]:
            names |= {variant["name"], variant["title"]}
        for army in meta.get("armies", []):
            names |= {kind["name"] for kind in army["kinds"]}
        names |= set(meta.get("powers", {}).values())
    return names


@pytest.mark.parametrize("language", ["it"])
def test_the_catalog_translates_every_marked_text(language: str) -> None:
    catalog = json.loads((WEB / "i18n" / f"{language}.json").read_text(encoding="utf-8"))
    missing = sorted((marked_texts() | server_names()) - set(catalog))
    assert not missing, f"{len(missing)} texts have no {language} entry: {missing}"
    for english, translated in catalog.items():
        assert isinstance(translated, str) and translated.strip(), english
        wanted = set(re.findall(r"\{(\w+)\}", english))
        assert set(re.findall(r"\{(\w+)\}", translated)) == wanted, f"placeholders differ: {english!r}"
