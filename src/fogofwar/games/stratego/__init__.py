"""Stratego: tournament (ISF) rules and the variants played on the classic board."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from fogofwar.core.formats import RecordFormat, register_record_format
from fogofwar.core.protocol import JSON
from fogofwar.core.records import GameRecord
from fogofwar.core.registry import register_game
from fogofwar.core.web_adapter import Adapter
from fogofwar.games.stratego.params import StrategoParams
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import StrategoGame, StrategoState
from fogofwar.games.stratego.variants import DEFAULT_CAPS, Variant, get_variant, variants

if TYPE_CHECKING:
    from fogofwar.core.console_session import TerminalRunner


def _console() -> TerminalRunner:
    """The terminal's part for this game (imported only when a game starts)."""
    from fogofwar.games.stratego.ui.console import play_in_terminal

    return play_in_terminal


def _web_adapter() -> Adapter:
    """The web app's part for this game (imported only when the server asks)."""
    from fogofwar.games.stratego.ui.web import StrategoAdapter

    return StrategoAdapter()


EXAMPLES = {
    "classic": {"variant": "classic", "max_moves": 120},
    "barrage": {"variant": "barrage", "max_moves": 200},
    "duel": {"variant": "duel", "max_moves": 200},
    "classicfree": {"variant": "classicfree", "max_moves": 120},
}
"""Short games of every mode: what the conformance test plays (tests/core/test_conformance.py)."""


def _program_options(options: Mapping[str, JSON]) -> Mapping[str, JSON]:
    """A series between programs plays to the variant's move cap (`variants.DEFAULT_CAPS`)."""
    cap = DEFAULT_CAPS.get(str(options.get("variant") or "classic"))
    return {} if cap is None else {"max_moves": cap}


register_game(
    "stratego",
    StrategoGame,
    params=StrategoParams,
    web_adapter=_web_adapter,
    console=_console,
    order=0,
    examples=EXAMPLES,
    program_options=_program_options,
)


def _read_gravon(text: str, source: str) -> GameRecord:
    from fogofwar.games.stratego.formats.gravon import parse_gravon_xml, record_from_gravon

    return record_from_gravon(parse_gravon_xml(text, source))


def _write_gravon(record: GameRecord) -> str:
    from fogofwar.games.stratego.formats.gravon import format_gravon_xml, gravon_from_record

    return format_gravon_xml(gravon_from_record(record))


register_record_format(RecordFormat("gravon", "Gravon XML", "application/xml", "xml", "<", _read_gravon, _write_gravon))

__all__ = ["Rank", "StrategoGame", "StrategoState", "Variant", "get_variant", "variants"]
