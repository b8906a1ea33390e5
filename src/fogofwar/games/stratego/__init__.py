"""Stratego: tournament (ISF) rules and the variants played on the classic board."""

from fogofwar.core.inputs import options_factory
from fogofwar.core.registry import register_game
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import StrategoGame, StrategoState
from fogofwar.games.stratego.variants import Variant, get_variant, variants

register_game("stratego", options_factory(StrategoGame, "Stratego"))

__all__ = ["Rank", "StrategoGame", "StrategoState", "Variant", "get_variant", "variants"]
