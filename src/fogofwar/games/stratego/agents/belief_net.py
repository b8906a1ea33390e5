"""The belief net: a conv net that corrects the belief's P(rank) of every hidden enemy piece by what the
whole board shows.

The belief (`belief.BeliefTracker`) judges each piece on its own: what started on its setup square in
people's games, whether it moved, a few rules about stepping next to our revealed pieces. What it cannot
see is the board as a whole: bombs wall in the flag, a piece that walks up to our revealed marshal is the
spy, the pieces a player leaves unmoved in a corner are not the ones it leaves in the centre. The net reads
the observation planes of `..sim.planes`, the belief's own marginals and each hidden piece's history
(`belief_model.features`), turned round for blue, and adds a log-odds correction to every rank of every
hidden piece; ranks the belief rules out (none left; a moved bomb) stay ruled out. It is fitted to the true
ranks in the Gravon games (`fogofwar train belief-net`, `belief_net_training`) and ships as
a small `.npz` file; `search:belief_net=1` plays with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import ClassVar

import numpy as np

from fogofwar.games.stratego.agents.belief import BeliefTracker
from fogofwar.games.stratego.agents.belief_model import FEATURES, RANKS, features
from fogofwar.games.stratego.agents.convnet import F32, ConvNet
from fogofwar.games.stratego.agents.knowledge import Knowledge
from fogofwar.games.stratego.agents.policy_model import PLANE_SCALE, oriented_planes
from fogofwar.games.stratego.observation import StrategoView
from fogofwar.games.stratego.sim.planes import NUM_PLANES, planes_from_observation

MARGINALS = NUM_PLANES
"""planes MARGINALS..+11: the belief's P(rank r) on each hidden enemy piece's square"""
HISTORY = MARGINALS + RANKS
"""planes HISTORY..: the 0/1 history features of `belief_model.FEATURES` on each hidden enemy piece's square"""
PLANES = HISTORY + len(FEATURES)

SCALE: F32 = np.concatenate([PLANE_SCALE, np.ones(PLANES - NUM_PLANES, np.float32)])
FLOOR = 1e-4
"""The belief's probabilities are read as at least this before the net's correction is added to their log."""


def belief_planes(
    data: StrategoView, tracker: BeliefTracker, know: Knowledge, marginals: Mapping[int, Mapping[int, float]]
) -> F32:
    """The net's input for the seat of `data`: (PLANES, 10, 10), turned round for blue."""
    out = np.zeros((PLANES, 10, 10), np.float32)
    out[:NUM_PLANES] = planes_from_observation(data, know.variant)
    for sq, row in marginals.items():
        r, c = divmod(sq, 10)
        for rank, p in row.items():
            out[MARGINALS + rank, r, c] = p
        for i, x in enumerate(features(tracker.history(sq, know.enemy))):
            out[HISTORY + i, r, c] = x
    return oriented_planes(out, know.player)


def corrected(planes: F32, correction: F32) -> F32:
    """P(rank) by square (B, RANKS, 10, 10): the belief's marginals in `planes` times exp(correction),
    normalised over the ranks the belief allows (0 where it allows none)."""
    base = planes[:, MARGINALS:HISTORY]
    allowed = base > 0
    z = np.where(allowed, np.log(np.maximum(base, FLOOR)) + correction, -np.inf)
    top = z.max(axis=1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.exp(z - top)
    total = e.sum(axis=1, keepdims=True)
    return np.where(total > 0, e / np.maximum(total, 1e-30), 0.0).astype(np.float32)


@dataclass(frozen=True)
class BeliefNet(ConvNet):
    """The shared conv net (`convnet.ConvNet`) with a head of one log-odds correction per rank."""

    inputs: ClassVar[int] = PLANES
    outputs: ClassVar[int] = RANKS
    kind: ClassVar[str] = "belief net"

    def probabilities(self, planes: F32) -> F32:
        """P(rank) by square (B, RANKS, 10, 10) for input planes (B, PLANES, 10, 10)."""
        return corrected(planes, self.forward(planes * SCALE[None, :, None, None]))

    def marginals(
        self,
        data: StrategoView,
        tracker: BeliefTracker,
        know: Knowledge,
        marginals: Mapping[int, Mapping[int, float]],
    ) -> dict[int, dict[int, float]]:
        """The belief's `marginals` for the seat of `data`, corrected by the net (same squares, same ranks)."""
        if not marginals:
            return {}
        p = self.probabilities(belief_planes(data, tracker, know, marginals)[None])[0]
        if know.player == 1:
            p = p[:, ::-1, ::-1]
        out: dict[int, dict[int, float]] = {}
        for sq, row in marginals.items():
            r, c = divmod(sq, 10)
            new = {rank: float(p[rank, r, c]) for rank in row}
            total = sum(new.values())
            out[sq] = {rank: q / total for rank, q in new.items()} if total > 0 else dict(row)
        return out


def weights_path() -> Path:
    return Path(__file__).parent / "data" / "belief_net.npz"


@cache
def shipped_belief_net() -> BeliefNet | None:
    """The shipped net, loaded once per process; None when the package has none."""
    path = weights_path()
    return BeliefNet.load(path) if path.exists() else None


__all__ = ["PLANES", "BeliefNet", "belief_planes", "corrected", "shipped_belief_net", "weights_path"]
