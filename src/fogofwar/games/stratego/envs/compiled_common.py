"""What the environments over the fused kernel (`sim.vector.VectorStratego`) share: spaces and observations.

An observation is a dict of compact arrays, as the kernel writes them:

* `planes` (33, 10, 10) uint8 0/1: planes 0-32 of `sim.planes` (own pieces by rank, known enemy ranks, unknown
  enemy pieces moved / unmoved, lakes, the last two moves, own pieces revealed / moved), from the seat's own side:
  blue's turned round (square s at 99 - s, its home in rows 0-3) with the environments' default
  `orientation="own"`, as the policy net sees it; absolute squares for both with "absolute";
* `counts` (12,) uint8: enemy pieces not accounted for per rank (the constant planes 33-44 as a vector);
* `action_mask` (1368,) int8 0/1: the legal actions (compact move ids in the same view; setup choices in the
  setup phase): the kernel's bool mask viewed as int8 without a copy, the dtype Gymnasium's masked
  `Discrete.sample` wants;
* `to_place` (12,) uint8, only with a chosen-setup phase: the seat's pieces still to place per rank.

`VectorStratego.full_planes` rebuilds the 45 float32 planes of the reference adapters from `planes` and `counts`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from fogofwar.games.stratego.sim import NUM_COMPACT_ACTIONS
from fogofwar.games.stratego.sim import vector_kernels as V
from fogofwar.games.stratego.sim.vector import VECTOR_TERMINATIONS, VectorStratego

Obs = dict[str, np.ndarray]


def observation_space(setup: str) -> spaces.Dict:
    """The observation space of one seat (with `to_place` when setups are chosen through actions)."""
    parts: dict[str, spaces.Space[Any]] = {
        "planes": spaces.Box(0, 1, (V.NUM_OBS_PLANES, 10, 10), np.uint8),
        "counts": spaces.Box(0, 40, (12,), np.uint8),
        "action_mask": spaces.Box(0, 1, (NUM_COMPACT_ACTIONS,), np.int8),
    }
    if setup != "random":
        parts["to_place"] = spaces.Box(0, 40, (12,), np.uint8)
    return spaces.Dict(parts)


def batch_obs(vs: VectorStratego, copy: bool) -> Obs:
    """The kernel's buffers as a batched observation (copies, or the buffers themselves)."""
    out = {"planes": vs.planes, "counts": vs.counts, "action_mask": vs.mask.view(np.int8)}
    if vs.setup != "random":
        out["to_place"] = vs.to_place
    return {k: v.copy() for k, v in out.items()} if copy else out


def single_obs(vs: VectorStratego, e: int = 0) -> Obs:
    """Game e's observation, copied out of the buffers."""
    out = {"planes": vs.planes[e].copy(), "counts": vs.counts[e].copy(), "action_mask": vs.mask[e].view(np.int8).copy()}
    if vs.setup != "random":
        out["to_place"] = vs.to_place[e].copy()
    return out


def ending_info(vs: VectorStratego, e: int = 0) -> dict[str, Any]:
    """How game e ended at the last step: termination name, winner seat (-1 a draw), moves played."""
    ctl = vs.ctl[e]
    return {
        "termination": VECTOR_TERMINATIONS[int(ctl[V.C_END_TERM])],
        "winner": int(ctl[V.C_END_WINNER]),
        "moves": int(ctl[V.C_END_MOVES]),
    }
