"""The learned move policy: P(move | what the mover sees), a small convolutional net run in numpy.

The net reads the observation planes of `fogofwar.games.stratego.sim.planes` (only what the seat may know), turned
round for blue so that every position is seen from the mover's side (its back row at the bottom), and
scores each move as one of 36 moves from its square: four directions times one to nine squares. Only
legal moves get probability. It was fitted to the moves people played on Gravon (`fogofwar train policy`,
`fogofwar.games.stratego.agents.policy_training`; model card in docs/strength.md) and ships as a small `.npz` file.

Inference is plain numpy (no PyTorch at play time): a few 3x3 convolutions on a 10x10 board cost well
under a millisecond.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

import numpy as np
import numpy.typing as npt

from fogofwar.games.stratego.agents.convnet import F32, ConvNet
from fogofwar.games.stratego.observation import StrategoView
from fogofwar.games.stratego.sim.planes import NUM_PLANES, UNACCOUNTED, planes_from_observation
from fogofwar.games.stratego.sim.tables import COMPACT_OF_MOVE, MOVE_OF_COMPACT, NUM_COMPACT_ACTIONS
from fogofwar.games.stratego.variants import get_variant
from fogofwar.grid.board import SIZE

if TYPE_CHECKING:
    from fogofwar.games.stratego.sim.batch import BatchSim

I64 = npt.NDArray[np.int64]

HEADS = 36
"""Move slots a square: direction (north, east, south, west: up the board is north for the mover) x distance 1..9."""

_DIRS = ((1, 0), (0, 1), (-1, 0), (0, -1))  # (row step, column step), row 0 being the mover's back row


def _slot_of_compact() -> I64:
    """For each compact move id (red's view), its index in the net's flat output (slot * 100 + from-square)."""
    out = np.full(NUM_COMPACT_ACTIONS, -1, np.int64)
    for i, move in enumerate(MOVE_OF_COMPACT):
        src, dst = divmod(int(move), 100)
        (r0, c0), (r1, c1) = divmod(src, SIZE), divmod(dst, SIZE)
        dr, dc = r1 - r0, c1 - c0
        dist = abs(dr) + abs(dc)
        d = _DIRS.index(((dr > 0) - (dr < 0), (dc > 0) - (dc < 0)))
        out[i] = (d * 9 + dist - 1) * SIZE * SIZE + src
    return out


SLOT_OF_COMPACT: I64 = _slot_of_compact()
"""compact id (as red sees the board) -> index into the net's (36 * 100) outputs."""


def oriented_move(move: int, player: int) -> int:
    """A reference move id as the mover's oriented board has it (turned round for blue)."""
    return move if player == 0 else (99 - move // 100) * 100 + 99 - move % 100


def oriented_compact(move: int, player: int) -> int:
    """A reference move id as the compact id the net reads for `player` (turned round for blue)."""
    return int(COMPACT_OF_MOVE[oriented_move(move, player)])


FLIP_COMPACT: I64 = np.array([COMPACT_OF_MOVE[oriented_move(m, 1)] for m in MOVE_OF_COMPACT.tolist()], np.int64)
"""compact id -> the compact id of the same move with the board turned round (blue's view <-> red's)."""

PLANE_SCALE: F32 = np.ones(NUM_PLANES, np.float32)
PLANE_SCALE[UNACCOUNTED:] = 1.0 / 8.0  # the unaccounted-for counts (0..8) scaled into 0..1


def oriented_planes(planes: F32, player: int) -> F32:
    """Planes (.., NUM_PLANES, 10, 10) turned round for blue (player 1), so the mover's home is at row 0."""
    return planes if player == 0 else np.ascontiguousarray(planes[..., ::-1, ::-1])


def movers_view(sim: BatchSim, legal: npt.NDArray[np.bool_] | None = None) -> tuple[I64, F32, npt.NDArray[np.bool_]]:
    """(seat to move, its planes, its legal compact-move mask) in every game of `sim`, turned round for blue as
    the net reads them (a compact id the net picks for blue is turned back with `FLIP_COMPACT`). `legal` is
    `sim.legal_mask(compact=True)` where the caller has it already (it is not changed)."""
    mover = sim.to_move
    obs = sim.observe(mover)
    mask = sim.legal_mask(compact=True) if legal is None else legal.copy()
    blue = mover == 1
    obs[blue] = obs[blue][:, :, ::-1, ::-1]
    mask[blue] = mask[blue][:, FLIP_COMPACT]
    return mover, np.ascontiguousarray(obs), mask


@dataclass(frozen=True)
class PolicyNet(ConvNet):
    """The shared conv net (`convnet.ConvNet`) with a head of 36 move slots a square."""

    inputs: ClassVar[int] = NUM_PLANES
    outputs: ClassVar[int] = HEADS
    kind: ClassVar[str] = "policy net"

    def logits(self, planes: F32) -> F32:
        """(B, 36 * 100) move-slot scores for oriented planes (B, NUM_PLANES, 10, 10)."""
        out = self.forward(planes * PLANE_SCALE[None, :, None, None])
        return out.reshape(out.shape[0], -1)

    def move_probabilities(self, data: StrategoView, legal: Sequence[int]) -> dict[int, float]:
        """P(move) over the legal reference move ids of the seat in `data` (a Stratego `Observation.data`)."""
        moves = [a for a in legal if a < 10000]
        if not moves:
            return {}
        player = int(data["player"])
        planes = oriented_planes(planes_from_observation(data, get_variant(str(data["variant"])))[None], player)
        flat = self.logits(planes)[0]
        idx = np.array([SLOT_OF_COMPACT[oriented_compact(a, player)] for a in moves], np.int64)
        z = flat[idx].astype(np.float64)
        z -= z.max()
        p = np.exp(z)
        p /= p.sum()
        return {a: float(q) for a, q in zip(moves, p, strict=True)}


POLICY_FILE = "policy_net.npz"
"""The net fitted to people's moves (`fogofwar train policy`): the search's prior and the `policy` player."""


def weights_path(file: str = POLICY_FILE) -> Path:
    return Path(__file__).parent / "data" / file


@cache
def shipped_net(file: str) -> PolicyNet | None:
    """A shipped net (`POLICY_FILE`; the self-played ones are named by the agents that play them,
    `policy_agent.SelfPlayAgent`), loaded once per process; None when the package has none."""
    path = weights_path(file)
    return PolicyNet.load(path) if path.exists() else None


def shipped_policy() -> PolicyNet | None:
    """The net fitted to people's moves, loaded once per process; None when the package has none."""
    return shipped_net(POLICY_FILE)
