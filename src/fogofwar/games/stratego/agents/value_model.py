"""The learned value: P(the player who just moved wins | what it sees after its move), a small conv net in numpy.

Why afterstates: the search compares its own candidate moves, so the value it needs is of the position each
move leaves, seen by us, the enemy to move. The net reads the same observation planes as the move policy
(`fogofwar.games.stratego.sim.planes`, only what the seat may know, turned round for blue) and averages its one
output plane over the board into a logit. It was fitted to who won the Gravon games (`fogofwar train value`,
`value_training`; model card in docs/strength.md).

`move_values` builds the afterstate of every candidate move from the current planes: a quiet move is one
position; an attack on a piece of unknown rank is a chance node, one position for each rank the piece may
have (the belief's P(rank)), with the battle resolved as the rules say (`rules.battle`).

>>> net = ValueNet.load(weights_path()) if weights_path().exists() else None
>>> net is None or 0.0 < float(net.win_chances(np.zeros((1, NUM_PLANES, 10, 10), np.float32))[0]) < 1.0
True
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from fogofwar.games.stratego.agents.convnet import F32, ConvNet
from fogofwar.games.stratego.agents.policy_model import PLANE_SCALE, oriented_planes
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import battle
from fogofwar.games.stratego.sim.planes import (
    KNOWN_ENEMY,
    LAST_FROM,
    LAST_TO,
    MOVED_UNKNOWN,
    NUM_PLANES,
    OWN,
    OWN_MOVED,
    OWN_REVEALED,
    PREV_FROM,
    PREV_TO,
    UNACCOUNTED,
    UNMOVED_UNKNOWN,
)

_MIN_P = 0.01  # ranks the belief gives less than this are left out of a chance node (the rest renormalised)


@dataclass(frozen=True)
class ValueNet(ConvNet):
    """The shared conv net (`convnet.ConvNet`) with one output plane, averaged into the win logit."""

    inputs: ClassVar[int] = NUM_PLANES
    outputs: ClassVar[int] = 1
    kind: ClassVar[str] = "value net"

    def win_chances(self, planes: F32) -> F32:
        """(B,) win chances of the seat whose oriented planes (B, NUM_PLANES, 10, 10) these are: the material
        logit (`material_logit`) plus the net's correction."""
        out = self.forward(planes * PLANE_SCALE[None, :, None, None])
        logit = out.reshape(out.shape[0], -1).mean(axis=1) + material_logit(planes)
        chances: F32 = (1.0 / (1.0 + np.exp(-logit))).astype(np.float32)
        return chances

    def move_values(
        self,
        planes: F32,
        player: int,
        moves: Sequence[int],
        marginals: Mapping[int, Mapping[int, float]],
    ) -> dict[int, float]:
        """Expected win chance after each move (reference move ids) for `player`, whose unoriented planes
        (before the move) these are. An attack on an unknown piece averages over the ranks `marginals[dst]`
        gives it; taking the flag is worth 1."""
        batch: list[F32] = []
        weights: list[tuple[int, int, float]] = []  # (move, row in the batch, probability)
        fixed: dict[int, float] = {}
        for move in moves:
            src, dst = divmod(move, 100)
            for rank, p in _defenders(planes, dst, marginals):
                after = afterstate(planes, src, dst, rank)
                if after is None:
                    fixed[move] = fixed.get(move, 0.0) + p
                    continue
                weights.append((move, len(batch), p))
                batch.append(after)
        out = dict(fixed)
        if batch:
            chances = self.win_chances(oriented_planes(np.stack(batch), player))
            for move, row, p in weights:
                out[move] = out.get(move, 0.0) + p * float(chances[row])
        return out


@cache
def _material() -> tuple[F32, float]:
    """(value by rank, sharpness) fitted to who won (data/material.toml, `fogofwar train material`); flag 0."""
    text = resources.files("fogofwar.games.stratego.agents").joinpath("data/material.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    values = np.array([0.0] + [float(data["values"][r.name.lower()]) for r in Rank if r != Rank.FLAG], np.float32)
    return values, float(data["sharpness"])


def material_logit(planes: npt.NDArray[np.float32] | npt.NDArray[np.uint8]) -> F32:
    """(B,) sharpness x (own - enemy) / (own + enemy) material, from (B, NUM_PLANES, 10, 10) planes: the value
    the net corrects. Both armies are read off the planes: the enemy's living pieces of a rank are those
    standing revealed plus those unaccounted for."""
    values, sharpness = _material()
    own = planes[:, OWN : OWN + 12].sum(axis=(2, 3), dtype=np.float32) @ values
    enemy = (
        planes[:, KNOWN_ENEMY : KNOWN_ENEMY + 12].sum(axis=(2, 3), dtype=np.float32)
        + planes[:, UNACCOUNTED : UNACCOUNTED + 12, 0, 0].astype(np.float32)
    ) @ values
    logit: F32 = (sharpness * (own - enemy) / np.maximum(own + enemy, 1.0)).astype(np.float32)
    return logit


def material_chance(planes: npt.NDArray[np.float32] | npt.NDArray[np.uint8]) -> F32:
    """(B,) the material win chance the search's curve gives, 0.05 + 0.9 * logistic(`material_logit`): the
    value fitted to who won (`fogofwar train material`), used as the value net's training target."""
    chance: F32 = (0.05 + 0.9 / (1.0 + np.exp(-material_logit(planes)))).astype(np.float32)
    return chance


def _defenders(planes: F32, dst: int, marginals: Mapping[int, Mapping[int, float]]) -> list[tuple[int | None, float]]:
    """The defender's possible ranks with their probabilities: [(None, 1.0)] for an empty square."""
    r, c = divmod(dst, 10)
    known = np.flatnonzero(planes[KNOWN_ENEMY : KNOWN_ENEMY + 12, r, c])
    if len(known):
        return [(int(known[0]), 1.0)]
    if not (planes[MOVED_UNKNOWN, r, c] or planes[UNMOVED_UNKNOWN, r, c]):
        return [(None, 1.0)]
    dist = marginals.get(dst, {})
    kept = [(int(rank), float(p)) for rank, p in dist.items() if p >= _MIN_P]
    total = sum(p for _, p in kept)
    if total <= 0:
        return [(None, 1.0)]
    return [(rank, p / total) for rank, p in kept]


def afterstate(planes: F32, src: int, dst: int, defender: int | None) -> F32 | None:
    """The mover's planes after moving src -> dst, the defender (if any) being of rank `defender`, or None
    when the move takes the flag (the game is won). `planes` are unoriented and left unchanged."""
    (r0, c0), (r1, c1) = divmod(src, 10), divmod(dst, 10)
    own = planes[OWN : OWN + 12, r0, c0]
    attacker = int(np.flatnonzero(own)[0])
    out = planes.copy()
    out[PREV_FROM], out[PREV_TO] = planes[LAST_FROM], planes[LAST_TO]
    out[LAST_FROM] = 0.0
    out[LAST_TO] = 0.0
    out[LAST_FROM, r0, c0] = out[LAST_TO, r1, c1] = 1.0
    revealed = bool(planes[OWN_REVEALED, r0, c0]) or (attacker == Rank.SCOUT and abs(r1 - r0) + abs(c1 - c0) > 1)
    for plane in (OWN + attacker, OWN_REVEALED, OWN_MOVED):
        out[plane, r0, c0] = 0.0
    if defender is None:
        out[OWN + attacker, r1, c1] = out[OWN_MOVED, r1, c1] = 1.0
        out[OWN_REVEALED, r1, c1] = 1.0 if revealed else 0.0
        return out
    if defender == Rank.FLAG:
        return None
    was_known = bool(planes[KNOWN_ENEMY + defender, r1, c1])
    for plane in (KNOWN_ENEMY + defender, MOVED_UNKNOWN, UNMOVED_UNKNOWN):
        out[plane, r1, c1] = 0.0
    ours, theirs = battle(attacker, defender)
    if ours:
        out[OWN + attacker, r1, c1] = out[OWN_MOVED, r1, c1] = out[OWN_REVEALED, r1, c1] = 1.0
    if theirs:
        out[KNOWN_ENEMY + defender, r1, c1] = 1.0
    if not was_known:
        # The battle shows the rank: captured, or standing revealed; either way no longer unaccounted for.
        out[UNACCOUNTED + defender] = np.maximum(out[UNACCOUNTED + defender] - 1.0, 0.0)
    return out


def weights_path() -> Path:
    return Path(__file__).parent / "data" / "value_net.npz"


@cache
def shipped_value() -> ValueNet | None:
    """The shipped net, loaded once per process; None when the package has none."""
    path = weights_path()
    return ValueNet.load(path) if path.exists() else None
