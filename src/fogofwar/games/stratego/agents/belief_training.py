"""Fit the learned part of the belief (`belief_model`) on real games, and score beliefs on held-out ones.

Examples come from replaying Gravon games: every few turns of each side, each unknown enemy piece is one
example: the belief's marginals without the learned part (setup prior, moves seen, Sinkhorn balance), the
piece's history features, and its true rank. The weights are a softmax regression on top of those
marginals (numpy, full batch, Adam), so the model learns only what the history adds.

Every `held_out`-th game is kept out of both the fit and the setup statistics the prior is made of, so
the log-loss printed for them is a fair measure of how well the belief guesses ranks it never saw.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import numpy as np

from fogofwar.core.protocol import GameError
from fogofwar.games.stratego.agents import setups
from fogofwar.games.stratego.agents.belief import BeliefTracker
from fogofwar.games.stratego.agents.belief_model import FEATURES, RANKS, BeliefWeights, features
from fogofwar.games.stratego.agents.knowledge import Knowledge
from fogofwar.games.stratego.formats.gravon import GravonGame, read_gravon
from fogofwar.games.stratego.observation import StrategoView, stratego_view
from fogofwar.games.stratego.rules import StrategoGame
from fogofwar.games.stratego.setup import setup_squares


@dataclass
class Examples:
    x: np.ndarray  # (N, len(FEATURES)) 0/1 features
    base: np.ndarray  # (N, RANKS) log of the belief's marginals without the learned part (-inf: impossible)
    y: np.ndarray  # (N,) true ranks

    def __len__(self) -> int:
        return int(self.y.shape[0])


def gravon_games(paths: Sequence[Path], variant: str = "classic") -> list[GravonGame]:
    """The readable games of one variant, in archive order."""
    return [g for p in paths for g in read_gravon(p) if isinstance(g, GravonGame) and g.game_type == variant]


def split(games: Sequence[GravonGame], held_out: int) -> tuple[list[GravonGame], list[GravonGame]]:
    """(training games, held-out games): every `held_out`-th game is held out."""
    return [g for i, g in enumerate(games) if i % held_out], [g for i, g in enumerate(games) if not i % held_out]


def setup_counts(games: Iterable[GravonGame]) -> tuple[tuple[int, ...], ...]:
    """counts[rank][setup index], as tools/make_setup_stats.py counts them, from these games only."""
    index = [{sq: i for i, sq in enumerate(setup_squares(p))} for p in (0, 1)]
    counts = [[0] * 40 for _ in range(RANKS)]
    for game in games:
        try:
            pieces = game.pieces()
        except GameError:
            continue
        for sq, owner, rank in pieces:
            if sq in index[owner]:
                counts[int(rank)][index[owner][sq]] += 1
    return tuple(tuple(row) for row in counts)


@contextmanager
def prior_from(counts: tuple[tuple[int, ...], ...], variant: str = "classic") -> Iterator[None]:
    """Make the belief's setup prior come from `counts` (the training games) while the block runs."""
    with mock.patch.object(setups, "setup_counts", lambda v: counts if v == variant else None):
        yield


def positions(
    game: GravonGame, weights: BeliefWeights | None, every: int
) -> Iterator[tuple[BeliefTracker, StrategoView, Knowledge, dict[int, int]]]:
    """Replay a game; every `every` turns of each side: (that side's tracker, its observation, its knowledge,
    the true ranks of the unknown enemy pieces by square)."""
    rules = StrategoGame(game.game_type, max_moves=0)
    state = rules.state_from_position([(sq, o, int(r)) for sq, o, r in game.pieces()], to_move=0)
    trackers = (BeliefTracker(), BeliefTracker())
    for t in trackers:
        t.weights = weights
    turns = [0, 0]
    for src, dst in game.move_squares():
        if state.is_terminal():
            return
        player = state.current_player()
        data = stratego_view(state.observation(player).data)
        trackers[player].update(data)
        turns[player] += 1
        if turns[player] % every == 0:
            know = Knowledge.from_observation(data)
            truth = {}
            for sq in know.unknown_enemy_squares():
                piece = state.piece_at(sq)
                if piece is not None:
                    truth[sq] = int(piece[1])
            if truth:
                yield trackers[player], data, know, truth
        try:
            state.apply(src * 100 + dst)
        except GameError:
            return


def scored_pieces(
    games: Iterable[GravonGame], weights: BeliefWeights | None, every: int, progress: Callable[[], None] | None
) -> Iterator[tuple[BeliefTracker, int, int, dict[int, float], int]]:
    """Every scored piece of these games: (the tracker, the enemy seat, the square, the belief's P(rank), the
    true rank); a game the engine cannot replay ends where it fails. `progress` is called after each game."""
    for game in games:
        try:
            for tracker, _data, know, truth in positions(game, weights, every):
                marginals = tracker.marginals(know)
                for sq, rank in truth.items():
                    yield tracker, know.enemy, sq, marginals.get(sq, {}), rank
        except GameError:
            pass
        if progress is not None:
            progress()


def examples(games: Iterable[GravonGame], every: int, progress: Callable[[], None] | None = None) -> Examples:
    """Training examples from these games (the belief without the learned part)."""
    xs: list[list[float]] = []
    bases: list[list[float]] = []
    ys: list[int] = []
    for tracker, enemy, sq, row, rank in scored_pieces(games, None, every, progress):
        xs.append(features(tracker.history(sq, enemy)))
        bases.append([math.log(row[r]) if row.get(r, 0.0) > 0 else -math.inf for r in range(RANKS)])
        ys.append(rank)
    return Examples(
        np.array(xs, dtype=np.float64).reshape(-1, len(FEATURES)),
        np.array(bases, dtype=np.float64).reshape(-1, RANKS),
        np.array(ys, dtype=np.int64),
    )


def _loss_and_grad(w: np.ndarray, ex: Examples, l2: float) -> tuple[float, np.ndarray]:
    logits = ex.base + ex.x @ w.T
    logits = np.where(np.isfinite(ex.base), logits, -np.inf)
    top = logits.max(axis=1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    p = np.exp(logits - top)
    z = p.sum(axis=1, keepdims=True)
    p /= z
    n = len(ex)
    true_logit = logits[np.arange(n), ex.y]
    ok = np.isfinite(true_logit)  # a true rank the base rules out cannot be learnt: left out
    nll = -(true_logit[ok] - top[ok, 0] - np.log(z[ok, 0]))
    loss = float(nll.mean()) + l2 * float((w * w).sum())
    g = p.copy()
    g[np.arange(n), ex.y] -= 1.0
    g[~ok] = 0.0
    grad = (g.T @ ex.x) / max(int(ok.sum()), 1) + 2 * l2 * w
    return loss, grad


def fit(
    ex: Examples,
    steps: int = 300,
    lr: float = 0.05,
    l2: float = 1e-4,
    report: Callable[[int, float], None] | None = None,
) -> BeliefWeights:
    """Softmax regression of the true rank on (log marginals + w . features), full batch, Adam."""
    w = np.zeros((RANKS, len(FEATURES)))
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for step in range(1, steps + 1):
        loss, grad = _loss_and_grad(w, ex, l2)
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= lr * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        if report is not None and (step % 50 == 0 or step == 1 or step == steps):
            report(step, loss)
    return BeliefWeights(FEATURES, tuple(tuple(float(x) for x in row) for row in w))


@dataclass
class Score:
    """How a belief did on a set of positions."""

    pieces: int = 0
    loss: float = 0.0
    top1: int = 0

    @property
    def log_loss(self) -> float:
        return self.loss / max(self.pieces, 1)

    @property
    def accuracy(self) -> float:
        return self.top1 / max(self.pieces, 1)


def score(
    games: Iterable[GravonGame], weights: BeliefWeights | None, every: int, progress: Callable[[], None] | None = None
) -> Score:
    """Log-loss and top-1 accuracy of the belief (with `weights`, or without the learned part) on these games."""
    s = Score()
    for _tracker, _enemy, _sq, row, rank in scored_pieces(games, weights, every, progress):
        s.pieces += 1
        s.loss -= math.log(max(row.get(rank, 0.0), 1e-6))
        if row and max(row, key=row.__getitem__) == rank:
            s.top1 += 1
    return s


__all__ = ["Examples", "Score", "examples", "fit", "gravon_games", "prior_from", "score", "setup_counts", "split"]
