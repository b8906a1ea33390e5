"""Fit the value net (`value_model`) to the Gravon games, and score it on held-out games.

A position is what the player who has just moved sees after its move (the afterstate: the battle, if any,
resolved), turned round for blue: the positions the search compares when it weighs its candidate moves.
Its target is the material win chance of the same player `horizon` plies later (`horizon_targets`), or
whether it won when the game ended before then (or with `horizon` 0). Why not the result alone: a game's
result is one bit shared by all its positions, and a net soon learns to tell the 3,000-odd games apart
instead of what wins (it did: held out, worse than counting material); the material a little later changes
along a game. Games with no winner on record are left out. Positions come from replaying the games in the
batched simulator, as the move policy's do (`policy_training`), a position every `every` plies; every
`held_out`-th game is kept out of the fit and scored against the results.

Training uses PyTorch (CPU, or a GPU when present), seeded; the result is exported to the numpy weights
`value_model.ValueNet` reads.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from fogofwar.games.stratego.agents.net_training import device, export, fit, torch_net
from fogofwar.games.stratego.agents.policy_model import PLANE_SCALE
from fogofwar.games.stratego.agents.policy_training import replay
from fogofwar.games.stratego.agents.value_model import ValueNet, material_chance, material_logit
from fogofwar.games.stratego.formats.gravon import GravonGame
from fogofwar.games.stratego.sim.planes import NUM_PLANES

U8 = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]
I64 = npt.NDArray[np.int64]


@dataclass
class Afterstates:
    """Afterstates as the player who just moved sees them (oriented), and whether that player won."""

    planes: U8  # (N, NUM_PLANES, 10, 10); the unaccounted-for planes hold counts 0..8
    won: F32  # (N,) 1.0 the mover won, 0.0 it lost
    ply: I64  # (N,) plies played, this move included (for figures by stage of the game)
    game: I64  # (N,) which game (index into the games given), to find the same game's later positions

    def __len__(self) -> int:
        return int(self.won.shape[0])


def afterstates(
    games: Sequence[GravonGame],
    every: int = 4,
    batch: int = 256,
    progress: Callable[[int], None] | None = None,
    variant: str = "classic",
) -> Afterstates:
    """An afterstate every `every` plies of each decided game of `variant` (a game the rules cannot replay
    stops at its first illegal move). `progress(games_done)` is called as games finish."""
    parts = []
    for start in range(0, len(games), batch):
        chunk = games[start : start + batch]
        part = _chunk(chunk, every, variant)
        part.game += start
        parts.append(part)
        if progress is not None:
            progress(len(chunk))
    return _joined(parts)


def _joined(parts: Sequence[Afterstates]) -> Afterstates:
    if not parts:
        none = np.zeros(0, np.int64)
        return Afterstates(np.zeros((0, NUM_PLANES, 10, 10), np.uint8), np.zeros(0, np.float32), none, none.copy())
    return Afterstates(
        np.concatenate([p.planes for p in parts]),
        np.concatenate([p.won for p in parts]),
        np.concatenate([p.ply for p in parts]),
        np.concatenate([p.game for p in parts]),
    )


def _chunk(games: Sequence[GravonGame], every: int, variant: str) -> Afterstates:
    index = np.array([k for k, g in enumerate(games) if g.winner in (1, 2)], np.int64)  # decided games only
    decided = [games[k] for k in index]
    seat_won = np.array([int(g.winner or 0) - 1 for g in decided], np.int64)
    parts: list[Afterstates] = []
    for step in replay(decided, variant, played=True):
        if (step.ply + 1) % every:
            continue
        winner = seat_won[step.game]
        rows_all = np.flatnonzero(step.alive)
        for p in (0, 1):
            rows = rows_all[step.mover[rows_all] == p]
            if not len(rows):
                continue
            obs = step.sim.observe(p)[rows]
            if p == 1:
                obs = obs[:, :, ::-1, ::-1]
            won = (winner[rows] == p).astype(np.float32)
            plies = np.full(len(rows), step.ply + 1, np.int64)
            parts.append(Afterstates(obs.astype(np.uint8), won, plies, index[step.game[rows]]))
    return _joined(parts)


# --- training (PyTorch) -----------------------------------------------------------------------


@dataclass
class ValueScore:
    positions: int
    log_loss: float  # mean binary cross-entropy, nats
    accuracy: float  # share of positions where the likelier side is the winner

    def line(self) -> str:
        return (
            f"log-loss {self.log_loss:.4f} nats, accuracy {100 * self.accuracy:.1f}% over {self.positions:,} positions"
        )


def horizon_targets(data: Afterstates, horizon: int) -> F32:
    """For each afterstate: the material win chance (`value_model.material_chance`) of its player `horizon`
    plies later in the same game (an afterstate of the same player when `horizon` is even), or the result
    when there is none (the game ended first, or `horizon` is 0)."""
    out = data.won.astype(np.float32).copy()
    if horizon <= 0 or not len(data):
        return out
    later = material_chance(data.planes)
    row = {(int(g), int(t)): i for i, (g, t) in enumerate(zip(data.game.tolist(), data.ply.tolist(), strict=True))}
    for i, (g, t) in enumerate(zip(data.game.tolist(), data.ply.tolist(), strict=True)):
        j = row.get((g, t + horizon))
        if j is not None:
            out[i] = later[j]
    return out


def train(
    data: Afterstates,
    held: Afterstates,
    target: F32 | None = None,
    width: int = 32,
    blocks: int = 4,
    steps: int = 6000,
    batch: int = 256,
    lr: float = 2e-3,
    seed: int = 0,
    seconds: float | None = None,
    report: Callable[[int, float], None] | None = None,
) -> tuple[ValueNet, ValueScore]:
    """Fit the net (`net_training.fit`: Adam, cosine decay, seeded) and return it in numpy form with its
    held-out score against the results. `target` (default: the results) is what the net is fitted to."""
    import torch

    torch.manual_seed(seed)
    dev = device()
    net = torch_net(NUM_PLANES, 1, width, blocks, PLANE_SCALE.tolist()).to(dev)
    with torch.no_grad():  # start as the material value alone: the net learns a correction
        net.head.weight.zero_()
        net.head.bias.zero_()

    goal = data.won if target is None else target

    def loss_of(rows: I64) -> torch.Tensor:
        planes = data.planes[rows]
        x = torch.from_numpy(planes.astype(np.float32)).to(dev)
        y = torch.from_numpy(goal[rows]).to(dev)
        base = torch.from_numpy(material_logit(planes)).to(dev)
        logit = net(x).mean(dim=(1, 2, 3)) + base
        return torch.nn.functional.binary_cross_entropy_with_logits(logit, y)

    fit(net, len(data), loss_of, steps, batch, lr, seed, seconds, report)
    value = export(net, ValueNet)
    return value, score(value, held)


def score(value: ValueNet | None, held: Afterstates, batch: int = 1024) -> ValueScore:
    """Log-loss and accuracy of the numpy net on these afterstates against their results (None: of the material
    win chance alone)."""
    nll = 0.0
    hits = 0
    for start in range(0, len(held), batch):
        rows = slice(start, min(len(held), start + batch))
        planes = held.planes[rows]
        chances = material_chance(planes) if value is None else value.win_chances(planes.astype(np.float32))
        p = chances.astype(np.float64)
        y = held.won[rows].astype(np.float64)
        p = np.clip(p, 1e-7, 1 - 1e-7)
        nll -= float((y * np.log(p) + (1 - y) * np.log(1 - p)).sum())
        hits += int(((p > 0.5) == (y > 0.5)).sum())
    n = max(1, len(held))
    return ValueScore(len(held), nll / n, hits / n)


def constant_score(data: Afterstates, held: Afterstates) -> ValueScore:
    """The same figures for the training set's win rate said of every position (the floor to beat)."""
    rate = float(np.clip(data.won.mean() if len(data) else 0.5, 1e-7, 1 - 1e-7))
    y = held.won.astype(np.float64)
    nll = -float((y * math.log(rate) + (1 - y) * math.log(1 - rate)).sum())
    hits = int(np.count_nonzero((y > 0.5) == (rate > 0.5)))
    n = max(1, len(held))
    return ValueScore(len(held), nll / n, hits / n)
