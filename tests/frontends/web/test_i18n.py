"""The Italian catalog covers every text the pages mark for translation, and the names the server sends for
display (ranks, seats, levels, LOTR's characters and powers, games and variants, Admiral's factions, unit
classes, batteries, terrain and special features): a new English text without an Italian entry fails here, not
in front of an Italian player."""

from __future__ import annotations

import html.parser
import json
import re
from pathlib import Path
from typing import Any

import pytest

from fogofwar.frontends.server.app import ADAPTERS

WEB = Path(__file__).resolve().parents[3] / "src" / "fogofwar" / "frontends" / "web"
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
        parser = _Texts()
        parser.feed(page.read_text(encoding="utf-8"))
        texts |= parser.texts
    for script in sorted(WEB.glob("*.js")):
        source = script.read_text(encoding="utf-8")
        for m in re.finditer(r"\b(?:t|N_)\(\s*" + LITERAL, source):
            texts.add(json.loads(f'"{m.group(1)}"'))
        for m in re.finditer(r'\bt\(\s*[^()"]*\?\s*' + LITERAL + r"\s*:\s*" + LITERAL, source):
            texts |= {json.loads(f'"{m.group(1)}"'), json.loads(f'"{m.group(2)}"')}
    return texts


def admiral_names(meta: dict[str, Any]) -> set[str]:
    """What Admiral's pages show of its description through t(): the factions, the unit classes ('battleship'),
    the batteries ('main'), the terrain, the special features' names and summaries (the units' own names stay)."""
    names = set(meta["factions"].values())
    for card in meta["cards"].values():
        names.add(card["class_name"])
        for side in (card, card["submerged"]):
            names |= {battery["name"] for battery in (side or {}).get("batteries", [])}
    names |= {terrain["name"] for terrain in meta["terrain"].values()}
    for rule in meta["rules"].values():
        names |= {rule["name"], rule["summary"]}
    return names


def server_names() -> set[str]:
    """Names the server sends that the pages show through t(): games, variants, seats, levels, ranks,
    LOTR's characters, sample armies, powers and captured-piece modes, Admiral's names (`admiral_names`)."""
    from fogofwar.games.lotr.params import CAPTURED_MODES
    from fogofwar.games.stratego.agents.levels import levels
    from fogofwar.games.stratego.pieces import Rank

    names: set[str] = {r.name.lower() for r in Rank} | set(CAPTURED_MODES)
    for level in levels():
        names |= {level.label, level.blurb}
    for name, adapter in ADAPTERS.items():
        meta = adapter.describe()
        names |= {meta["title"], *meta["seats"]}
        for variant in meta["variants"]:
            names.add(variant["title"])
            if name != "admiral":  # Admiral's are keys ('open_sea'): its pages show the titles ('Open sea')
                names.add(variant["name"])
        for army in meta.get("armies", []):
            names |= {kind["name"] for kind in army["kinds"]} | set(army.get("samples", []))  # LOTR's sample armies
        names |= set(meta.get("powers", {}).values())
        if name == "admiral":
            names |= admiral_names(meta)
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


def test_admirals_features_and_terrain_have_the_italian_rulebooks_names() -> None:
    """The special features and the terrain cards are called in Italian as the Italian rulebook calls them (the
    data's `source_name`: Caccia Corazzati, Basso Fondale), not translated anew."""
    from fogofwar.games.admiral.data_model import default_ruleset

    catalog = json.loads((WEB / "i18n" / "it.json").read_text(encoding="utf-8"))
    rs = default_ruleset()
    named = [(r.name, r.source_name) for r in rs.special_rules] + [(t.name, t.source_name) for t in rs.terrain.values()]
    assert {english: catalog.get(english) for english, _ in named} == dict(named)
