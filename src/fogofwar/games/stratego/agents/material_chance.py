"""Each seat's material win chance in simulator games: what self-play credits and what the roll-outs score.

The values and the sharpness of the curve are those fitted to who won Gravon games (`data/material.toml`, read by
`search.fitted_material`), so the trainer (`selfplay_training`) and the player that looks ahead with the trained
net (`rollout`) judge a position alike. `Potential(marshal_step=True)` takes the fit that adds a step for the
marshal that outlives the other's (`material_training`), which the roll-outs may score with (`rollout:marshal=1`);
`Potential(reveal=True)` the fit that adds a step for each revealed piece as well (`rollout:reveal=1`). With
`own_fit` a variant with a fit of its own games (Barrage, `search.VARIANT_MATERIAL_FILES`) is scored by that fit
(`rollout:ownfit=1`); self-play training keeps the classic fit its shipped nets were credited with.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from fogofwar.games.stratego.agents.search import (
    WIN_MARGIN,
    fitted_material,
    fitted_material_with_marshal_step,
    fitted_material_with_reveal,
)
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.sim.tables import roster_counts
from fogofwar.games.stratego.variants import get_variant

F32 = npt.NDArray[np.float32]
I64 = npt.NDArray[np.int64]


class Potential:
    """Each seat's material win chance as a number in [-1, 1] (2w - 1), with the values and the sharpness of
    the curve fitted to who won Gravon games (with `marshal_step`, the marshal's step; with `reveal`, that step and
    one for each revealed piece by its rank); the flag counts nothing (taking it ends the game)."""

    def __init__(
        self, variant: str = "classic", marshal_step: bool = False, reveal: bool = False, own_fit: bool = False
    ) -> None:
        fit = variant if own_fit else "classic"  # with `own_fit`, the variant's own games' fit where one is shipped
        self.reveal: npt.NDArray[np.float64] | None = None
        if reveal:
            values, self.sharpness, self.marshal_step, shown = fitted_material_with_reveal(fit)
            self.reveal = np.array(shown, np.float64)
            self.reveal[0] = 0.0
        elif marshal_step:
            values, self.sharpness, self.marshal_step = fitted_material_with_marshal_step(fit)
        else:
            (values, self.sharpness), self.marshal_step = fitted_material(fit), 0.0
        self.values = np.array(values, np.float64)
        self.values[0] = 0.0
        self.roster = roster_counts(get_variant(variant)).astype(np.float64)

    def __call__(self, captured: I64, seat: I64, revealed: I64 | None = None) -> F32:
        """(n,) for `seat[e]` of each game, from `BatchSim.captured` (n, 2, ranks) and, for a potential with
        `reveal`, how many pieces of each rank each seat has alive and revealed (n, 2, ranks; None: none)."""
        alive = self.roster[None, None, :] - captured
        material = alive @ self.values  # (n, 2)
        n = len(seat)
        rows = np.arange(n)
        own, enemy = material[rows, seat], material[rows, 1 - seat]
        total = np.maximum(own + enemy, 1e-9)
        marshals = alive[:, :, Rank.MARSHAL]  # (n, 2): 1 while the seat's marshal stands
        step = self.marshal_step * (marshals[rows, seat] - marshals[rows, 1 - seat])
        if self.reveal is not None and revealed is not None:
            shown = revealed @ self.reveal  # (n, 2)
            step = step + shown[rows, seat] - shown[rows, 1 - seat]
        w = WIN_MARGIN + (1 - 2 * WIN_MARGIN) / (1 + np.exp(-self.sharpness * (own - enemy) / total - step))
        return (2 * w - 1).astype(np.float32)
