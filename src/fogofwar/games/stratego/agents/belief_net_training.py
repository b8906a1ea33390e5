"""Fit the belief net (`belief_net`) to the true ranks of the hidden pieces in Gravon games, and score it
against the belief it corrects on held-out games.

Examples come from replaying the games in the reference engine with a `BeliefTracker` for each side
(`belief_training.positions`): every few turns of each side, the net's input planes (the observation, the
tracker's marginals, each hidden piece's history) and the true rank of every hidden enemy piece. As for the
belief's learned part, every `held_out`-th game is kept out of the fit and of the setup statistics the
belief's prior is made of, so the held-out log-loss is a fair measure, and the belief without the net is
scored on exactly the same pieces.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing import get_context

import numpy as np
import numpy.typing as npt

from fogofwar.core.protocol import GameError
from fogofwar.games.stratego.agents.belief_model import RANKS
from fogofwar.games.stratego.agents.belief_net import MARGINALS, PLANES, SCALE, BeliefNet, belief_planes, corrected
from fogofwar.games.stratego.agents.belief_training import positions
from fogofwar.games.stratego.agents.net_training import device, export, fit, torch_net
from fogofwar.games.stratego.formats.gravon import GravonGame

I64 = npt.NDArray[np.int64]


@dataclass
class Examples:
    """Positions of one seat, oriented (blue's turned round), with the true rank of each hidden enemy piece."""

    planes: npt.NDArray[np.float16]  # (N, PLANES, 10, 10)
    truth: npt.NDArray[np.int8]  # (N, 10, 10): the true rank on each hidden enemy piece's square, -1 elsewhere

    def __len__(self) -> int:
        return int(self.truth.shape[0])


def _joined(parts: Sequence[Examples]) -> Examples:
    if not parts:
        return Examples(np.zeros((0, PLANES, 10, 10), np.float16), np.zeros((0, 10, 10), np.int8))
    return Examples(np.concatenate([p.planes for p in parts]), np.concatenate([p.truth for p in parts]))


def game_examples(game: GravonGame, every: int) -> Examples:
    """Every `every`-th turn of each side of one game (it ends where the engine cannot replay it)."""
    planes: list[npt.NDArray[np.float32]] = []
    truths: list[npt.NDArray[np.int8]] = []
    try:
        for tracker, data, know, truth in positions(game, None, every):
            planes.append(belief_planes(data, tracker, know, tracker.marginals(know)))
            flat = np.full(100, -1, np.int8)
            for sq, rank in truth.items():
                flat[sq] = rank
            t = flat.reshape(10, 10)
            truths.append(t if know.player == 0 else t[::-1, ::-1])
    except GameError:
        pass
    if not planes:
        return _joined([])
    return Examples(np.stack(planes).astype(np.float16), np.stack(truths))


def _chunk(args: tuple[Sequence[GravonGame], int]) -> Examples:
    games, every = args
    return _joined([game_examples(g, every) for g in games])


def examples(
    games: Sequence[GravonGame], every: int, jobs: int = 1, progress: Callable[[int], None] | None = None
) -> Examples:
    """The examples of these games, in their order, made by `jobs` processes; `progress(games_done)`.
    The belief's setup prior is the one in force when this is called (see `belief_training.prior_from`):
    worker processes are forked, so they inherit it."""
    size = 8
    chunks = [(games[i : i + size], every) for i in range(0, len(games), size)]
    parts: list[Examples] = []
    if jobs <= 1:
        for c in chunks:
            parts.append(_chunk(c))
            if progress is not None:
                progress(len(c[0]))
    else:
        with get_context("fork").Pool(jobs) as pool:
            for c, part in zip(chunks, pool.imap(_chunk, chunks), strict=True):
                parts.append(part)
                if progress is not None:
                    progress(len(c[0]))
    return _joined(parts)


@dataclass
class Score:
    pieces: int
    log_loss: float  # mean -log P(true rank), nats
    top1: float  # share of pieces whose likeliest rank is the true one

    def line(self) -> str:
        return f"log-loss {self.log_loss:.4f} nats, top-1 {100 * self.top1:.1f}% over {self.pieces:,} pieces"


def _score_probabilities(p: npt.NDArray[np.float32], truth: npt.NDArray[np.int8]) -> tuple[int, float, int]:
    """(pieces, summed -log P(true rank), hits) of P(rank) by square (B, RANKS, 10, 10)."""
    b, r, c = np.nonzero(truth >= 0)
    y = truth[b, r, c].astype(np.int64)
    probs = p[b, :, r, c]
    nll = float(-np.log(np.maximum(probs[np.arange(len(y)), y], 1e-6)).sum())
    return len(y), nll, int((probs.argmax(axis=1) == y).sum())


def score(net: BeliefNet | None, held: Examples, batch: int = 512) -> Score:
    """Log-loss and top-1 of the net's P(rank) on these examples; `net=None` scores the belief it corrects."""
    pieces, nll, hits = 0, 0.0, 0
    for start in range(0, len(held), batch):
        x = held.planes[start : start + batch].astype(np.float32)
        p = net.probabilities(x) if net is not None else corrected(x, np.zeros((len(x), RANKS, 10, 10), np.float32))
        n, s, h = _score_probabilities(p, held.truth[start : start + batch])
        pieces, nll, hits = pieces + n, nll + s, hits + h
    return Score(pieces, nll / max(pieces, 1), hits / max(pieces, 1))


def train(
    data: Examples,
    held: Examples,
    width: int = 32,
    blocks: int = 4,
    steps: int = 4000,
    batch: int = 128,
    lr: float = 2e-3,
    seed: int = 0,
    seconds: float | None = None,
    report: Callable[[int, float], None] | None = None,
) -> tuple[BeliefNet, Score]:
    """Fit the net (`net_training.fit`) and return it in numpy form with its held-out score."""
    import torch

    torch.manual_seed(seed)
    dev = device()
    net = torch_net(PLANES, RANKS, width, blocks, SCALE.tolist()).to(dev)
    with torch.no_grad():  # the fit starts from the belief itself: no correction
        net.head.weight.zero_()
        net.head.bias.zero_()

    def loss_of(rows: I64) -> torch.Tensor:
        x = torch.from_numpy(data.planes[rows].astype(np.float32)).to(dev)
        truth = torch.from_numpy(data.truth[rows].astype(np.int64)).to(dev)
        base = x[:, MARGINALS : MARGINALS + RANKS]
        z = torch.log(base.clamp_min(1e-4)) + net(x)
        z = z.masked_fill(base <= 0, -1e9)
        logp = torch.log_softmax(z, dim=1)  # (B, RANKS, 10, 10)
        hidden = truth >= 0
        picked = logp.gather(1, truth.clamp_min(0).unsqueeze(1)).squeeze(1)
        return -(picked[hidden]).mean()

    fit(net, len(data), loss_of, steps, batch, lr, seed, seconds, report)
    model = export(net, BeliefNet)
    return model, score(model, held)


__all__ = ["Examples", "Score", "examples", "game_examples", "score", "train"]
