"""Expert iteration: the net learns the moves its own look-ahead (`rollout`) prefers.

Why: `rollout` beats the net alone by some 18 points against Demon (docs/strength.md) because its roll-outs
look eight plies ahead, and self-play with PPO has stopped paying at this size. Expert iteration (Anthony, Tian
and Barber 2017; AlphaZero's policy target) carries the look-ahead's gain into the net: `rollout` plays itself
on the real engine and, at every move where it looked ahead, the position (what the mover saw), the moves it
compared and their roll-out scores are kept (`label_games`). The net is then fitted (`train`) to a target that
keeps the starting net's probabilities outside the compared moves and shares their mass among them by the
softmax of (score + prior x log P) / `temperature`: the look-ahead's preference where it looked, the start where
it did not. A stronger net makes better roll-outs and better candidates, so the rounds can repeat.

PyTorch is needed to train (requirements-train.txt); the labels need only numpy and the engine.
"""

from __future__ import annotations

import multiprocessing
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from fogofwar.core.match import play_match
from fogofwar.core.protocol import Game, Observation
from fogofwar.core.registry import make_game
from fogofwar.games.stratego.agents.knowledge import Knowledge
from fogofwar.games.stratego.agents.policy_model import (
    HEADS,
    PLANE_SCALE,
    SLOT_OF_COMPACT,
    PolicyNet,
    oriented_compact,
    oriented_planes,
)
from fogofwar.games.stratego.agents.policy_training import legal_log_probs, unpack_legal
from fogofwar.games.stratego.agents.rollout import RolloutAgent
from fogofwar.games.stratego.observation import StrategoView
from fogofwar.games.stratego.sim.planes import NUM_PLANES, planes_from_observation
from fogofwar.games.stratego.sim.tables import NUM_COMPACT_ACTIONS
from fogofwar.games.stratego.variants import get_variant

U8 = npt.NDArray[np.uint8]
I64 = npt.NDArray[np.int64]
F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]
PACKED = (NUM_COMPACT_ACTIONS + 7) // 8
"""Bytes of a packed legal-move mask."""
Row = tuple[U8, U8, I64, F32]
"""One labelled position as `LabellingAgent` keeps it: planes, packed legal bits, moves compared, their scores."""


@dataclass
class Labels:
    """Positions where `rollout` looked ahead, seen by the mover and turned round for blue (as the net reads
    them): the moves compared (compact ids in that view, -1 where fewer) and their scores (the roll-outs' mean, plus
    the watch's bonus where `rollout:watch` gave one)."""

    planes: U8  # (N, NUM_PLANES, 10, 10); the unaccounted-for planes hold counts 0..8
    legal: U8  # (N, ceil(NUM_COMPACT_ACTIONS / 8)) packed bits: the legal compact ids
    candidates: I64  # (N, K)
    scores: F32  # (N, K); NaN where no move

    def __len__(self) -> int:
        return int(self.candidates.shape[0])

    def legal_mask(self, rows: I64 | slice) -> npt.NDArray[np.bool_]:
        return unpack_legal(self.legal[rows])

    def take(self, rows: I64 | slice) -> Labels:
        return Labels(self.planes[rows], self.legal[rows], self.candidates[rows], self.scores[rows])

    def save(self, path: str) -> None:
        np.savez_compressed(path, planes=self.planes, legal=self.legal, candidates=self.candidates, scores=self.scores)

    @classmethod
    def load(cls, path: str) -> Labels:
        """Labels saved by `save`; `ValueError` says what is wrong with a file that does not hold them."""
        with np.load(path) as f:
            missing = {"planes", "legal", "candidates", "scores"} - set(f.files)
            if missing:
                raise ValueError(f"{path} holds no labels: {', '.join(sorted(missing))} missing")
            out = cls(f["planes"], f["legal"], f["candidates"], f["scores"])
        n = len(out.candidates)
        if (
            out.planes.shape[1:] != (NUM_PLANES, 10, 10)
            or out.legal.shape != (n, PACKED)
            or out.candidates.ndim != 2
            or out.scores.shape != out.candidates.shape
            or len(out.planes) != n
            or out.candidates.max(initial=-1) >= NUM_COMPACT_ACTIONS
        ):
            raise ValueError(f"{path}: the label arrays do not fit together or are not this game's")
        return out

    @classmethod
    def joined(cls, parts: Sequence[Labels]) -> Labels:
        if not parts:
            return cls(*_empty(1))
        k = max(p.candidates.shape[1] for p in parts)

        def pad(a: npt.NDArray[np.generic], fill: float) -> npt.NDArray[np.generic]:
            return np.pad(a, ((0, 0), (0, k - a.shape[1])), constant_values=fill)

        return cls(
            np.concatenate([p.planes for p in parts]),
            np.concatenate([p.legal for p in parts]),
            np.concatenate([pad(p.candidates, -1) for p in parts]).astype(np.int64),
            np.concatenate([pad(p.scores, np.nan) for p in parts]).astype(np.float32),
        )


def _empty(k: int) -> Row:
    return (
        np.zeros((0, NUM_PLANES, 10, 10), np.uint8),
        np.zeros((0, PACKED), np.uint8),
        np.zeros((0, k), np.int64),
        np.zeros((0, k), np.float32),
    )


class LabellingAgent(RolloutAgent):
    """`rollout` that keeps, at each move where it looked ahead, what `Labels` holds (in `sink`), playing `net`
    instead of the shipped net when one is given. A move's score is what the agent compared: its roll-outs' mean
    plus the watch's bonus (`rollout:watch`)."""

    _sink: list[Row]
    _own_net: PolicyNet | None = None
    _legal: Sequence[int] = ()

    @classmethod
    def keeping(cls, spec: str, sink: list[Row], net: PolicyNet | None = None) -> LabellingAgent:
        """The agent `rollout:spec` would be, keeping its labels in `sink`."""
        agent = cls.from_spec(spec)
        assert isinstance(agent, LabellingAgent)
        agent._sink, agent._own_net = sink, net
        return agent

    def start(self, game: Game, player: int, rng: random.Random) -> None:
        super().start(game, player, rng)
        if self._own_net is not None and self._net is not None:
            self._net = self._own_net

    def act(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        self._legal = legal_actions
        return super().act(observation, legal_actions)

    def look_ahead(
        self,
        data: StrategoView,
        candidates: Sequence[int],
        know: Knowledge | None = None,
        marginals: dict[int, dict[int, float]] | None = None,
    ) -> F64:
        means = super().look_ahead(data, candidates, know, marginals)
        compared = means + self.watch * np.array([self._watched.get(a, 0.0) for a in candidates])
        player = int(data["player"])
        planes = oriented_planes(planes_from_observation(data, get_variant(str(data["variant"]))), player)
        mask = np.zeros(NUM_COMPACT_ACTIONS, np.bool_)
        mask[[oriented_compact(a, player) for a in self._legal if a < 10000]] = True
        ids = np.array([oriented_compact(a, player) for a in candidates], np.int64)
        self._sink.append((planes.astype(np.uint8), np.packbits(mask), ids, compared.astype(np.float32)))
        return means


@dataclass(frozen=True)
class LabelJob:
    """One game of `label_games`: its index (which, with `seed`, fixes its random streams) and the settings."""

    index: int
    seed: int
    variant: str
    spec: str
    max_plies: int
    net: PolicyNet | None = None


def _label_one(job: LabelJob) -> tuple[Labels, int]:
    rows: list[Row] = []
    agents = [LabellingAgent.keeping(job.spec, rows, job.net) for _ in range(2)]
    game: Game = make_game("stratego", variant=job.variant)
    record = play_match(game, agents, seed=job.seed * 1_000_003 + job.index, max_actions=job.max_plies)
    return _stack(rows), len(record.actions)


def _stack(rows: Sequence[Row]) -> Labels:
    if not rows:
        return Labels(*_empty(1))
    k = max(len(r[2]) for r in rows)
    cands = np.full((len(rows), k), -1, np.int64)
    scores = np.full((len(rows), k), np.nan, np.float32)
    for i, r in enumerate(rows):
        cands[i, : len(r[2])], scores[i, : len(r[3])] = r[2], r[3]
    return Labels(np.stack([r[0] for r in rows]), np.stack([r[1] for r in rows]), cands, scores)


def label_games(
    games: int,
    seed: int = 0,
    variant: str = "classic",
    spec: str = "",
    jobs: int = 1,
    max_plies: int = 1000,
    progress: Callable[[int, int], None] | None = None,
    net: PolicyNet | None = None,
) -> tuple[Labels, int]:
    """`rollout:spec` (`net` instead of the shipped one when given; a `GameError` names a wrong option)
    plays itself `games` times on the engine, each game at most `max_plies` actions; the labels of both seats in
    game order and the number of actions played. Each game's random streams are fixed by `seed` and its index, so
    the labels do not depend on `jobs`, the worker processes. `progress(games_done, labels_so_far)` after each."""
    RolloutAgent.from_spec(spec)  # a wrong option is told before any game starts
    todo = [LabelJob(i, seed, variant, spec, max_plies, net) for i in range(games)]
    parts: list[Labels] = []
    plies = 0

    def take(result: tuple[Labels, int]) -> None:
        nonlocal plies
        parts.append(result[0])
        plies += result[1]
        if progress is not None:
            progress(len(parts), sum(len(p) for p in parts))

    if jobs <= 1 or games <= 1:
        for job in todo:
            take(_label_one(job))
    else:
        with multiprocessing.get_context("fork").Pool(min(jobs, games)) as pool:
            for result in pool.imap(_label_one, todo):
                take(result)
    return Labels.joined(parts), plies


def choices(labels: Labels, start: PolicyNet, prior: float = 0.01) -> I64:
    """The move `rollout` chose at each position (the best score plus `prior` x log P under `start`)."""
    logp = _log_probs(start, labels)
    return _chosen(labels, logp, prior)


def _chosen(labels: Labels, logp: F64, prior: float) -> I64:
    rows = np.arange(len(labels))
    cand = labels.candidates
    lp = logp[rows[:, None], np.maximum(cand, 0)]
    value = np.where(cand >= 0, labels.scores + prior * lp, -np.inf)
    out: I64 = cand[rows, np.nanargmax(np.where(np.isnan(value), -np.inf, value), axis=1)]
    return out


def _log_probs(net: PolicyNet, labels: Labels, batch: int = 512) -> F64:
    """(N, NUM_COMPACT_ACTIONS) log P(move) of `net` over the legal moves (-inf elsewhere)."""
    out = np.empty((len(labels), NUM_COMPACT_ACTIONS), np.float64)
    for s in range(0, len(labels), batch):
        rows = slice(s, s + batch)
        out[rows] = legal_log_probs(net, labels.planes[rows], labels.legal[rows])
    return out


def targets(labels: Labels, start: PolicyNet, temperature: float = 0.03, prior: float = 0.01) -> F32:
    """(N, NUM_COMPACT_ACTIONS) the training target: `start`'s P(move), with the mass of the compared moves shared
    among them by softmax((score + prior x log P) / temperature)."""
    return _targets(labels, _log_probs(start, labels), temperature, prior)


def _targets(labels: Labels, logp: F64, temperature: float, prior: float) -> F32:
    p = np.exp(logp)
    rows = np.arange(len(labels))[:, None]
    cand = labels.candidates
    valid = cand >= 0
    safe = np.maximum(cand, 0)
    mass = np.where(valid, p[rows, safe], 0.0).sum(axis=1, keepdims=True)
    z = np.where(valid, (np.nan_to_num(labels.scores) + prior * logp[rows, safe]) / temperature, -np.inf)
    z -= z.max(axis=1, keepdims=True)
    share = np.exp(z)
    share /= share.sum(axis=1, keepdims=True)
    p[rows, safe] = np.where(valid, mass * share, p[rows, safe])
    return p.astype(np.float32)


@dataclass(frozen=True)
class Agreement:
    """How often a net's likeliest move is the one `rollout` chose, and its log-loss on the targets."""

    positions: int
    top1: float
    cross_entropy: float

    def line(self) -> str:
        return f"{self.positions:,} positions: top-1 agreement {self.top1:.1%}, cross-entropy {self.cross_entropy:.4f}"


def held_agreement(
    net: PolicyNet, labels: Labels, start: PolicyNet, temperature: float = 0.03, prior: float = 0.01
) -> Agreement:
    """`agreement` with the targets and choices read with `start`, the net the labels were made with."""
    logp = _log_probs(start, labels)
    return agreement(net, labels, _targets(labels, logp, temperature, prior), _chosen(labels, logp, prior))


def agreement(net: PolicyNet, labels: Labels, target: F32, chosen: I64) -> Agreement:
    logp = _log_probs(net, labels)
    top = np.where(np.isfinite(logp), logp, -np.inf).argmax(axis=1)
    ce = -np.where(target > 0, target * np.where(np.isfinite(logp), logp, 0.0), 0.0).sum(axis=1)
    n = max(1, len(labels))
    return Agreement(len(labels), float((top == chosen).sum()) / n, float(ce.sum()) / n)


def train(
    labels: Labels,
    start: PolicyNet,
    steps: int = 2000,
    batch: int = 256,
    lr: float = 3e-4,
    temperature: float = 0.03,
    prior: float = 0.01,
    seed: int = 0,
    seconds: float | None = None,
    report: Callable[[int, float], None] | None = None,
) -> PolicyNet:
    """Fine-tune `start` to `targets` of `labels` (`net_training.fit`: Adam, cosine decay, seeded); `prior` is the
    labelling `rollout`'s."""
    import torch

    from fogofwar.games.stratego.agents.net_training import device, export, fit, load_weights, torch_net

    torch.manual_seed(seed)
    dev = device()
    width, blocks = int(start.convs[0][0].shape[0]), len(start.convs) - 1
    net = torch_net(NUM_PLANES, HEADS, width, blocks, PLANE_SCALE.tolist())
    load_weights(net, start)
    net = net.to(dev)
    slots = torch.from_numpy(SLOT_OF_COMPACT).to(dev)
    target = targets(labels, start, temperature, prior)

    def loss_of(rows: I64) -> torch.Tensor:
        x = torch.from_numpy(labels.planes[rows].astype(np.float32)).to(dev)
        mask = torch.from_numpy(labels.legal_mask(rows)).to(dev)
        t = torch.from_numpy(target[rows]).to(dev)
        logits = net(x).flatten(1)[:, slots].masked_fill(~mask, -1e9)
        return -(t * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()

    fit(net, len(labels), loss_of, steps, batch, lr, seed, seconds, report)
    return export(net, PolicyNet)


def split(labels: Labels, held_share: float = 0.1, seed: int = 0) -> tuple[Labels, Labels]:
    """(training, held out): positions drawn at random (seeded)."""
    order = np.random.default_rng(seed).permutation(len(labels))
    cut = int(round(len(labels) * held_share))
    return labels.take(np.sort(order[cut:])), labels.take(np.sort(order[:cut]))


__all__ = [
    "Agreement",
    "LabelJob",
    "Labels",
    "LabellingAgent",
    "agreement",
    "choices",
    "held_agreement",
    "label_games",
    "split",
    "targets",
    "train",
]
