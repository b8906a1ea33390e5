"""Admiral the Board Game: a two-player naval battle on an 8x8 grid (rules: docs/rules/admiral.md).

Registered as game "admiral". The engine (`fogofwar.games.admiral.rules`) plays the whole turn: setup,
initiative, action dice, movement, the secret attack assignment and its resolution, with the green and
red special rules; what it does not play yet is listed in the docs ("What remains").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fogofwar.core.registry import register_game
from fogofwar.core.web_adapter import Adapter
from fogofwar.games.admiral.params import AdmiralParams
from fogofwar.games.admiral.rules import AdmiralGame, AdmiralState, NotImplementedYetError, state_from_position

if TYPE_CHECKING:
    from fogofwar.core.console_session import TerminalRunner


def _console() -> TerminalRunner:
    """The terminal's part for this game (imported only when a game starts)."""
    from fogofwar.games.admiral.ui.console import play_in_terminal

    return play_in_terminal


def _web_adapter() -> Adapter:
    """The web app's part for this game (imported only when the server asks)."""
    from fogofwar.games.admiral.ui.web import AdmiralAdapter

    return AdmiralAdapter()


EXAMPLES = {
    "two-player": {"layout": "strait", "max_turns": 4},
    "solo-north": {"layout": "strait", "max_turns": 4, "solo_seat": 1},
    "solo-south": {"layout": "archipelago", "max_turns": 3, "solo_seat": 0},
}
"""Short games of every mode: what the conformance test plays (tests/core/test_conformance.py)."""

register_game(
    "admiral", AdmiralGame, params=AdmiralParams, web_adapter=_web_adapter, console=_console, order=2, examples=EXAMPLES
)

__all__ = ["AdmiralGame", "AdmiralState", "NotImplementedYetError", "state_from_position"]
