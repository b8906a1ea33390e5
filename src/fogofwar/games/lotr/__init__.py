"""Stratego, The Lord of the Rings Trilogy edition (rules reference: docs/rules/lotr.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fogofwar.core.registry import register_game
from fogofwar.core.web_adapter import Adapter
from fogofwar.games.lotr.params import LotrParams
from fogofwar.games.lotr.roster import EVIL, GOOD, Army, Kind, Roster, roster
from fogofwar.games.lotr.rules import LotrGame, LotrState, NotImplementedYetError

if TYPE_CHECKING:
    from fogofwar.core.console_session import TerminalRunner


def _console() -> TerminalRunner:
    """The terminal's part for this game (imported only when a game starts)."""
    from fogofwar.games.lotr.ui.console import play_in_terminal

    return play_in_terminal


def _web_adapter() -> Adapter:
    """The web app's part for this game (imported only when the server asks)."""
    from fogofwar.games.lotr.ui.web import LotrAdapter

    return LotrAdapter()


EXAMPLES = {
    "classic": {"variant": "classic", "max_moves": 120},
    "hidden": {"variant": "classic", "captured_mode": "hidden", "max_moves": 200},
    "powers": {"variant": "powers", "max_moves": 120},
    "ring": {"variant": "ring", "captured_mode": "secret", "max_moves": 200},
}
"""Short games of every mode: what the conformance test plays (tests/core/test_conformance.py)."""

PROGRAM_CAP = 2000
"""The move cap of a series between programs (`fogofwar arena`): the rules have none, and two programs that never
take the last piece or the Ring home would play on for ever (a draw when reached)."""

register_game(
    "lotr",
    LotrGame,
    params=LotrParams,
    web_adapter=_web_adapter,
    console=_console,
    order=1,
    examples=EXAMPLES,
    program_options=lambda options: {"max_moves": PROGRAM_CAP},
)

__all__ = ["EVIL", "GOOD", "Army", "Kind", "LotrGame", "LotrState", "NotImplementedYetError", "Roster", "roster"]
