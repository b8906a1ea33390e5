"""Each seat's material win chance in simulator games: what self-play credits and what the roll-outs score.

The values and the sharpness of the curve are those fitted to who won Gravon games (`data/material.toml`, read by
`search.fitted_material`), so the trainer (`selfplay_training`) and the player that looks ahead with the trained
net (`rollout`) judge a position alike.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from fogofwar.games.stratego.agents.search import WIN_MARGIN, fitted_material
from fogofwar.games.stratego.sim.tables import roster_counts
from fogofwar.games.stratego.variants import get_variant

F32 = npt.NDArray[np.float32]
I64 = npt.NDArray[np.int64]


class Potential:
    """Each seat's material win chance as a number in [-1, 1] (2w - 1), with the values and the sharpness of
    the curve fitted to who won Gravon games; the flag counts nothing (taking it ends the game)."""

    def __init__(self, variant: str = "classic") -> None:
        values, self.sharpness = fitted_material()
        self.values = np.array(values, np.float64)
        self.values[0] = 0.0
        self.roster = roster_counts(get_variant(variant)).astype(np.float64)

    def __call__(self, captured: I64, seat: I64) -> F32:
        """(n,) for `seat[e]` of each game, from `BatchSim.captured` (n, 2, ranks)."""
        alive = self.roster[None, None, :] - captured
        material = alive @ self.values  # (n, 2)
        n = len(seat)
        own, enemy = material[np.arange(n), seat], material[np.arange(n), 1 - seat]
        total = np.maximum(own + enemy, 1e-9)
        w = WIN_MARGIN + (1 - 2 * WIN_MARGIN) / (1 + np.exp(-self.sharpness * (own - enemy) / total))
        return (2 * w - 1).astype(np.float32)
