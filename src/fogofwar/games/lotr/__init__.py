"""Stratego, The Lord of the Rings Trilogy edition (rules reference: docs/rules/lotr.md)."""

from fogofwar.core.inputs import options_factory
from fogofwar.core.registry import register_game
from fogofwar.games.lotr.roster import EVIL, GOOD, Army, Kind, Roster, roster
from fogofwar.games.lotr.rules import LotrGame, LotrState, NotImplementedYetError

register_game("lotr", options_factory(LotrGame, "Stratego LOTR"))

__all__ = ["EVIL", "GOOD", "Army", "Kind", "LotrGame", "LotrState", "NotImplementedYetError", "Roster", "roster"]
