"""Fitting the search's material values to who won real games (`fogofwar train material`).

The search (`search.py`) turns material into a win chance: 0.05 + 0.9 * logistic(sharpness * (own - enemy) /
(own + enemy)), each side's material the sum of its pieces' values. Here the values of the ranks and the sharpness
are fitted to the Gravon classic games: both armies' pieces counted every few moves of each game, labelled with
who won it, the log-loss minimised (numpy, Adam, full batch). The marshal keeps its hand-set value (only the ratios
matter); the flag's (never counted) stays 1000.

A second fit adds the marshal's step: a fixed term `marshal_step` x (own marshal alive - the enemy's) beside the
ratio, because the side whose marshal outlives the other's wins more often than the marshal's share of the
material says (held out: log-loss 0.5326 -> 0.5299; the same step for every rank, or the general's too, did worse
held out). The roll-outs score with it (`rollout:marshal=1`); the search keeps the plain fit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from fogofwar.games.stratego.agents.knowledge import VALUE
from fogofwar.games.stratego.agents.search import MARSHAL_STEP_TABLE, WIN_MARGIN
from fogofwar.games.stratego.formats.gravon import GravonGame
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import StrategoGame

COUNTED = tuple(range(1, 12))
"""The ranks whose material counts (spy .. bomb; the flag is not material)."""


MARSHAL = COUNTED.index(int(Rank.MARSHAL))
"""The marshal's column among the counted ranks."""


@dataclass(frozen=True)
class Material:
    """Fitted values by rank name, the sharpness, the marshal's step (0 when not fitted), and the fit's held-out
    log-loss before and after."""

    values: dict[str, float]
    sharpness: float
    before: float
    after: float
    marshal_step: float = 0.0

    def _lines(self, table: str) -> list[str]:
        dot = f"{table}." if table else ""
        lines = [f"[{table}]"] if table else []
        lines.append(f"sharpness = {self.sharpness:.2f}")
        if table:
            lines.append(f"marshal_step = {self.marshal_step:.3f}")
        lines += [f"[{dot}values]", "flag = 1000.0"]
        return lines + [f"{name} = {value:.1f}" for name, value in self.values.items()]

    def to_toml(self, note: str, stepped: Material | None = None) -> str:
        """The file `search.fitted_material` reads: this fit at the top, `stepped` (the fit with the marshal's step)
        in its own table."""
        lines = [f"# {line}" for line in note.splitlines()] + self._lines("")
        if stepped is not None:
            lines += stepped._lines(MARSHAL_STEP_TABLE)
        return "\n".join(lines) + "\n"


def counts(
    games: Iterable[GravonGame], every: int, progress: Callable[[], None] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """(pieces, red won): both armies' pieces by rank (n, 2, 12) every `every` moves of each decided game,
    replayed in the rules engine, and whether red won that game."""
    rows: list[np.ndarray] = []
    labels: list[int] = []
    for game in games:
        if progress is not None:
            progress()
        if game.winner not in (1, 2):
            continue
        try:
            pieces = game.pieces()
            moves = game.move_squares()
        except Exception:  # noqa: BLE001 - an unreadable game is left out, as everywhere in training
            continue
        state = StrategoGame("classic", max_moves=0).state_from_position([(sq, o, int(r)) for sq, o, r in pieces])
        for i, (src, dst) in enumerate(moves):
            if i % every == 0:
                n = np.zeros((2, 12), np.int16)
                for sq in range(100):
                    piece = state.piece_at(sq)
                    if piece is not None:
                        n[piece[0], int(piece[1])] += 1
                rows.append(n)
                labels.append(1 if game.winner == 1 else 0)
            try:
                state.apply(src * 100 + dst)
            except Exception:  # noqa: BLE001 - the rest of a game the rules refuse is left out
                break
    return np.array(rows, np.float64).reshape(-1, 2, 12), np.array(labels, np.float64)


def _both_sides(pieces: np.ndarray, won: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each position seen from both sides: (lead by rank, total by rank) and the label, counted ranks only."""
    x = pieces[:, :, COUNTED]
    lead = np.concatenate([x[:, 0] - x[:, 1], x[:, 1] - x[:, 0]])
    total = np.concatenate([x[:, 0] + x[:, 1], x[:, 0] + x[:, 1]])
    return np.stack([lead, total], axis=1), np.concatenate([won, 1.0 - won])


def log_loss(
    pieces: np.ndarray, won: np.ndarray, values: Sequence[float], sharpness: float, marshal_step: float = 0.0
) -> float:
    """Mean log-loss of the win chance these values, sharpness and marshal's step give (`values` by counted rank)."""
    x, y = _both_sides(pieces, won)
    v = np.asarray(values, np.float64)
    z = sharpness * (x[:, 0] @ v) / np.maximum(x[:, 1] @ v, 1e-9) + marshal_step * x[:, 0, MARSHAL]
    p = np.clip(WIN_MARGIN + (1 - 2 * WIN_MARGIN) / (1 + np.exp(-z)), 1e-9, 1 - 1e-9)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def fit(
    pieces: np.ndarray,
    won: np.ndarray,
    start: Sequence[float],
    sharpness: float,
    steps: int = 1500,
    lr: float = 0.02,
    report: Callable[[int, float], None] | None = None,
    marshal_step: bool = False,
) -> tuple[list[float], float, float]:
    """Values (by counted rank, marshal = 260), sharpness and, with `marshal_step`, the marshal's step (else 0)
    minimising the log-loss, from `start`."""
    x, y = _both_sides(pieces, won)
    marshals = x[:, 0, MARSHAL]
    params = np.concatenate([np.log(np.asarray(start, np.float64)), [np.log(sharpness), 0.0]])
    m = np.zeros_like(params)
    s = np.zeros_like(params)
    for step in range(1, steps + 1):
        v, k, b = np.exp(params[:-2]), np.exp(params[-2]), params[-1]
        lead, total = x[:, 0] @ v, np.maximum(x[:, 1] @ v, 1e-9)
        ratio = k * lead / total
        z = ratio + b * marshals
        sig = 1 / (1 + np.exp(-z))
        p = np.clip(WIN_MARGIN + (1 - 2 * WIN_MARGIN) * sig, 1e-9, 1 - 1e-9)
        dz = (p - y) / (p * (1 - p)) * (1 - 2 * WIN_MARGIN) * sig * (1 - sig) / len(y)  # d loss / d z, per position
        dv = k * ((x[:, 0] * total[:, None] - x[:, 1] * lead[:, None]) / (total**2)[:, None]).T @ dz
        db = float(dz @ marshals) if marshal_step else 0.0
        grad = np.concatenate([dv * v, [float(dz @ ratio), db]])  # through v = exp(u) and k = exp(log k)
        m = 0.9 * m + 0.1 * grad
        s = 0.999 * s + 0.001 * grad**2
        params -= lr * (m / (1 - 0.9**step)) / (np.sqrt(s / (1 - 0.999**step)) + 1e-8)
        if report is not None and (step % 250 == 0 or step == steps):
            report(step, log_loss(pieces, won, np.exp(params[:-2]), float(np.exp(params[-2])), float(params[-1])))
    v = np.exp(params[:-2])
    v *= VALUE[Rank.MARSHAL] / v[MARSHAL]
    return [float(a) for a in v], float(np.exp(params[-2])), float(params[-1])


def fit_material(
    train: tuple[np.ndarray, np.ndarray],
    held: tuple[np.ndarray, np.ndarray],
    start: dict[int, float],
    sharpness: float,
    steps: int,
    report: Callable[[int, float], None] | None = None,
    marshal_step: bool = False,
) -> Material:
    """The whole fit: from the hand-set values `start` (by rank) and sharpness (and, with `marshal_step`, the
    marshal's step from 0), scored on the held-out positions."""
    first = [start[r] for r in COUNTED]
    before = log_loss(*held, first, sharpness)
    values, k, b = fit(*train, first, sharpness, steps=steps, report=report, marshal_step=marshal_step)
    after = log_loss(*held, values, k, b)
    names = {Rank(r).name.lower(): value for r, value in zip(COUNTED, values, strict=True)}
    return Material(names, k, before, after, b)


__all__ = ["Material", "counts", "fit", "fit_material", "log_loss"]
