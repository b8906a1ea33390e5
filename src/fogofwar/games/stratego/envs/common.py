"""What the research environments share: the fixed action space, legal-action masks and observation planes
of a reference-engine state.

Actions are the simulator's compact move ids (`fogofwar.games.stratego.sim.tables`): `NUM_ACTIONS` = 1,368 ids, one per
(from, to) pair along a row or column that some piece could ever move (every land square to each square of
its four rays). `to_move_id` / `to_action` convert to and from the reference engine's `from * 100 + to`.
Observations are the planes of `sim.planes` (shape `OBS_SHAPE`), built from the reference engine's
per-seat `Observation` only.
"""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt

from fogofwar.games.stratego.observation import stratego_view
from fogofwar.games.stratego.rules import StrategoGame, StrategoState
from fogofwar.games.stratego.setup import random_setup
from fogofwar.games.stratego.sim.planes import NUM_PLANES, planes_from_observation
from fogofwar.games.stratego.sim.tables import COMPACT_OF_MOVE, MOVE_OF_COMPACT, NUM_COMPACT_ACTIONS
from fogofwar.games.stratego.variants import DEFAULT_CAPS

NUM_ACTIONS = NUM_COMPACT_ACTIONS
OBS_SHAPE = (NUM_PLANES, 10, 10)
PLAYER_IDS = ("red", "blue")


def to_action(move: int) -> int:
    """Compact action id of a reference move id (`from * 100 + to`)."""
    a = int(COMPACT_OF_MOVE[move])
    if a < 0:
        raise ValueError(f"{move} is no move along a row or column")
    return a


def to_move_id(action: int) -> int:
    """Reference move id of a compact action id."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action} is outside 0..{NUM_ACTIONS - 1}")
    return int(MOVE_OF_COMPACT[action])


def legal_mask(state: StrategoState, dtype: npt.DTypeLike = np.int8) -> npt.NDArray[np.generic]:
    """1 for each legal compact action of the side to move (all 0 in the setup phase or at the end)."""
    mask = np.zeros(NUM_ACTIONS, dtype)
    if state.phase == "play" and not state.is_terminal():
        mask[COMPACT_OF_MOVE[np.asarray(state.legal_actions(), np.int64)]] = 1
    return mask


def planes(state: StrategoState, player: int) -> npt.NDArray[np.float32]:
    """Observation planes of `player` (see `sim.planes`)."""
    return planes_from_observation(stratego_view(state.observation(player).data), state.game.variant)


def new_game(variant: str, max_moves: int | None, two_squares: int, more_squares: bool) -> StrategoGame:
    cap = DEFAULT_CAPS.get(variant, 2000) if max_moves is None else max_moves
    return StrategoGame(variant, two_squares=two_squares, more_squares=more_squares, max_moves=cap)


def random_start(game: StrategoGame, rng: random.Random) -> StrategoState:
    """A play-phase state from uniformly random setups of both sides."""
    state = game.new_initial_state()
    for p in (0, 1):
        state.apply_setup(p, random_setup(game.variant, p, rng))
    return state
