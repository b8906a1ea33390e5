"""A batched Stratego simulator (classic, Barrage, duel): numpy arrays for many games, numba kernels.

The rules are exactly the reference engine's (`fogofwar.games.stratego.rules`), both repetition rules
included; `tests/games/stratego/sim/test_differential.py` and `benchmarks/differential.py` check this game by game.
`VectorStratego` steps the same rules for learning code: one compiled call per step (action, opponent's reply,
autoreset, observation, mask, rewards) into preallocated buffers; `tests/games/stratego/sim/test_vector.py`
checks it move by move against the reference engine.
"""

from fogofwar.games.stratego.sim.batch import BatchSim, RolloutStats, piece_codes, setup_codes
from fogofwar.games.stratego.sim.planes import NUM_PLANES, PLANE_NAMES, planes_from_observation
from fogofwar.games.stratego.sim.tables import (
    COMPACT_OF_MOVE,
    MOVE_OF_COMPACT,
    NUM_COMPACT_ACTIONS,
    NUM_MOVE_ACTIONS,
    TERMINATIONS,
)
from fogofwar.games.stratego.sim.vector import VECTOR_TERMINATIONS, VectorStratego

__all__ = [
    "COMPACT_OF_MOVE",
    "MOVE_OF_COMPACT",
    "NUM_COMPACT_ACTIONS",
    "NUM_MOVE_ACTIONS",
    "NUM_PLANES",
    "PLANE_NAMES",
    "TERMINATIONS",
    "VECTOR_TERMINATIONS",
    "BatchSim",
    "RolloutStats",
    "piece_codes",
    "planes_from_observation",
    "setup_codes",
    "VectorStratego",
]
