"""The help pages: a quick guide to every game (`/help`, from each game's data/how_to_play.md) and the English
rules reference (`/rules/NAME`, rendered from docs/rules/NAME.md), the rule ids small and secondary, each an
anchor (`/rules/stratego#STR-MOVE-1`). Markdown goes through markdown-it (raw HTML off), into help.html."""

from __future__ import annotations

import functools
import html
import re
import string
from pathlib import Path

from markdown_it import MarkdownIt

from fogofwar.core.protocol import GameError
from fogofwar.frontends.server.adapters import ADAPTERS

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
RULES_DIR = Path(__file__).resolve().parents[4] / "docs" / "rules"
"""The rules reference of the source tree (the server runs from a checkout: README's set-up)."""
_RULE_ID = re.compile(r"<strong>((?:STR|LOTR|ADM|SOLO)-[A-Z0-9]+(?:-[A-Z0-9]+)*)</strong>")


GUIDE_LANGUAGES = ("en", "it")
"""The languages of the quick guides (the pages' languages, i18n.js)."""


class NoSuchPage(GameError):
    """A help page that does not exist (the server answers 404 with this message)."""


@functools.cache
def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")


def render(markdown: str) -> str:
    """Markdown to HTML, with every rule id (`**STR-MOVE-1**`) made a small anchored label.

    >>> render("- **STR-MOVE-1** Pieces move.")
    '<ul>\\n<li><span class="rule-id" id="STR-MOVE-1">STR-MOVE-1</span> Pieces move.</li>\\n</ul>\\n'
    """
    out = _markdown().render(markdown)
    return _RULE_ID.sub(lambda m: f'<span class="rule-id" id="{m.group(1)}">{m.group(1)}</span>', out)


def _page(title: str, body: str) -> str:
    shell = string.Template((WEB_DIR / "help.html").read_text(encoding="utf-8"))
    return shell.substitute(title=html.escape(title), body=body)


@functools.cache
def _docs() -> tuple[str, ...]:
    """The pages of the rules reference there are: the games' docs found in the source tree."""
    return tuple(d for a in ADAPTERS.values() for d in a.rules_docs if (RULES_DIR / f"{d}.md").is_file())


@functools.cache
def help_page() -> str:
    """Every game's quick guide, with links to its rules reference (made once: it is all data files)."""
    sections = []
    for name, adapter in ADAPTERS.items():
        title = adapter.describe().get("title", name)
        links = " · ".join(
            f'<a href="/rules/{doc}">{html.escape(_doc_title(doc))}</a>' for doc in adapter.rules_docs if doc in _docs()
        )
        rules = f'<p class="small"><span class="muted">The full rules:</span> {links}</p>' if links else ""
        # Every language's guide is in the page; i18n.js shows the reader's ([data-lang], English otherwise).
        guides = "".join(
            f'<div data-lang="{language}"{"" if language == "en" else " hidden"}>{render(text)}</div>'
            for language in GUIDE_LANGUAGES
            if (text := adapter.how_to_play(language))
        )
        sections.append(
            f'<section class="card help-game" id="{html.escape(adapter.page.removesuffix(".html"))}">'
            f"<h2>{html.escape(str(title))}</h2>{guides}{rules}</section>"
        )
    return _page("How to play", "\n".join(sections))


def rules_page(doc: str) -> str:
    """One page of the rules reference; `NoSuchPage` for a name that is none."""
    if doc not in _docs():  # only a known name ever becomes a path
        raise NoSuchPage(f"there is no rules page {doc[:60]!r}; the rules pages: {', '.join(_docs())}")
    return _rules_html(doc)


@functools.cache
def _rules_html(doc: str) -> str:
    text = (RULES_DIR / f"{doc}.md").read_text(encoding="utf-8")
    return _page(_doc_title(doc), render(text))


def missing_page(message: str) -> str:
    """The page for a help or rules address that leads nowhere: what was asked, what there is."""
    back = '<p><a href="/help">How to play</a></p>'
    return _page("No such page", f'<section class="card"><p>{html.escape(message)}</p>{back}</section>')


def _doc_title(doc: str) -> str:
    """The page's title: the first heading of its Markdown file."""
    for line in (RULES_DIR / f"{doc}.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return doc
