"""Stratego, The Lord of the Rings Trilogy edition (rules reference: docs/rules/lotr.md)."""

from fogofwar.core.inputs import options_factory
from fogofwar.core.registry import register_game
from fogofwar.core.web_adapter import Adapter
from fogofwar.games.lotr.roster import EVIL, GOOD, Army, Kind, Roster, roster
from fogofwar.games.lotr.rules import LotrGame, LotrState, NotImplementedYetError


def _web_adapter() -> Adapter:
    """The web app's part for this game (imported only when the server asks)."""
    from fogofwar.games.lotr.ui.web import LotrAdapter

    return LotrAdapter()


register_game("lotr", options_factory(LotrGame, "Stratego LOTR"), web_adapter=_web_adapter, order=1)

__all__ = ["EVIL", "GOOD", "Army", "Kind", "LotrGame", "LotrState", "NotImplementedYetError", "Roster", "roster"]
