"""Admiral the Board Game: a two-player naval battle on an 8x8 grid (rules: docs/rules/admiral.md).

Registered as game "admiral". The engine (`fogofwar.games.admiral.rules`) plays the whole turn: setup,
initiative, action dice, movement, the secret attack assignment and its resolution, with the green and
red special rules; what it does not play yet is listed in the docs ("What remains").
"""

from fogofwar.core.inputs import options_factory
from fogofwar.core.registry import register_game
from fogofwar.games.admiral.rules import AdmiralGame, AdmiralState, NotImplementedYetError, state_from_position

register_game("admiral", options_factory(AdmiralGame, "Admiral"))

__all__ = ["AdmiralGame", "AdmiralState", "NotImplementedYetError", "state_from_position"]
