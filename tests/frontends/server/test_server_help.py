"""The help pages: a quick guide to every game and the rules reference, rendered from the repository's Markdown."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from fogofwar.frontends.server.adapters import ADAPTERS
from fogofwar.frontends.server.help_pages import render


def test_the_help_page_guides_every_game_and_links_its_rules(client: TestClient) -> None:
    r = client.get("/help")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    for name, adapter in ADAPTERS.items():
        assert f'id="{adapter.page.removesuffix(".html")}"' in r.text, name  # the game page links here
        for doc in adapter.rules_docs:
            assert f'href="/rules/{doc}"' in r.text
    assert "Capture the enemy flag" in r.text and "Sink the enemy fleet" in r.text


def test_a_rules_page_shows_the_rules_with_their_ids_small_and_anchored(client: TestClient) -> None:
    r = client.get("/rules/stratego")
    assert r.status_code == 200
    assert '<span class="rule-id" id="STR-MOVE-1">STR-MOVE-1</span>' in r.text
    assert "<table>" in r.text  # the reference's tables are tables
    assert "<script>" not in r.text.split("<main", 1)[1]  # Markdown's raw HTML is off


def test_an_unknown_rules_page_is_a_404_that_lists_the_pages(client: TestClient) -> None:
    for doc in ("nosuch", "STRATEGO", "a" * 500, "stratego.md"):
        r = client.get(f"/rules/{doc}")
        assert r.status_code == 404, doc
        assert "the rules pages: stratego, lotr, admiral, admiral-solo" in r.text
        assert len(r.text) < 5000
    assert client.get("/rules/..%2F..%2Fpyproject").status_code == 404  # no way out of the rules folder


def test_markdown_is_rendered_without_raw_html() -> None:
    out = render("<script>alert(1)</script> **ADM-AIR-8** x")
    assert "<script>" not in out and re.search(r'<span class="rule-id" id="ADM-AIR-8">', out)
