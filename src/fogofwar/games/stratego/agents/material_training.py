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

A third fit adds, beside the marshal's step, what each side has shown: `reveal[rank]` x (own revealed pieces of
that rank alive - the enemy's) inside the logistic. A shown marshal, general, colonel, spy or bomb counts against its
side in who goes on to win (the opponent sends its spy after a known marshal and its general where the marshal is
not, and reads the flag from its bombs), a shown miner or scout a little for it (held out: 0.5299 -> 0.5146). The
roll-outs may score with it (`rollout:reveal=1`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from fogofwar.games.stratego.agents.knowledge import VALUE
from fogofwar.games.stratego.agents.search import MARSHAL_STEP_TABLE, REVEAL_TABLE, WIN_MARGIN
from fogofwar.games.stratego.formats.gravon import GravonGame
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import StrategoGame

COUNTED = tuple(range(1, 12))
"""The ranks whose material counts (spy .. bomb; the flag is not material)."""


MARSHAL = COUNTED.index(int(Rank.MARSHAL))
"""The marshal's column among the counted ranks."""


@dataclass(frozen=True)
class Material:
    """Fitted values by rank name, the sharpness, the marshal's step (0 when not fitted), the steps for revealed
    pieces by rank name (None when not fitted), and the fit's held-out log-loss before and after."""

    values: dict[str, float]
    sharpness: float
    before: float
    after: float
    marshal_step: float = 0.0
    reveal: dict[str, float] | None = None

    def _lines(self, table: str) -> list[str]:
        dot = f"{table}." if table else ""
        lines = [f"[{table}]"] if table else []
        lines.append(f"sharpness = {self.sharpness:.2f}")
        if table:
            lines.append(f"marshal_step = {self.marshal_step:.3f}")
        lines += [f"[{dot}values]", "flag = 1000.0"]
        lines += [f"{name} = {value:.1f}" for name, value in self.values.items()]
        if table and self.reveal is not None:
            lines += [f"[{dot}reveal]", "flag = 0.0"] + [f"{name} = {c:.4f}" for name, c in self.reveal.items()]
        return lines

    def to_toml(self, note: str, stepped: Material | None = None, revealed: Material | None = None) -> str:
        """The file `search.fitted_material` reads: this fit at the top, `stepped` (the fit with the marshal's step)
        and `revealed` (with the step and the revealed ranks' steps) in tables of their own."""
        lines = [f"# {line}" for line in note.splitlines()] + self._lines("")
        if stepped is not None:
            lines += stepped._lines(MARSHAL_STEP_TABLE)
        if revealed is not None:
            lines += revealed._lines(REVEAL_TABLE)
        return "\n".join(lines) + "\n"


def counts(
    games: Iterable[GravonGame], every: int, progress: Callable[[], None] | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(pieces, red won, revealed): both armies' pieces by rank (n, 2, 12) every `every` moves of each decided
    game, replayed in the rules engine, whether red won that game, and how many of those pieces were revealed."""
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
                n = np.zeros((2, 2, 12), np.int16)  # [alive or revealed, owner, rank]
                for sq in range(100):
                    piece = state.piece_at(sq)
                    if piece is not None:
                        owner, rank, _, revealed = piece
                        n[0, owner, int(rank)] += 1
                        n[1, owner, int(rank)] += revealed
                rows.append(n)
                labels.append(1 if game.winner == 1 else 0)
            try:
                state.apply(src * 100 + dst)
            except Exception:  # noqa: BLE001 - the rest of a game the rules refuse is left out
                break
    both = np.array(rows, np.float64).reshape(-1, 2, 2, 12)
    return both[:, 0], np.array(labels, np.float64), both[:, 1]


def _both_sides(
    pieces: np.ndarray, won: np.ndarray, revealed: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Each position seen from both sides: (lead by rank, total by rank, lead in revealed pieces by rank) and the
    label, counted ranks only."""
    x = pieces[:, :, COUNTED]
    r = np.zeros_like(x) if revealed is None else revealed[:, :, COUNTED]
    lead = np.concatenate([x[:, 0] - x[:, 1], x[:, 1] - x[:, 0]])
    total = np.concatenate([x[:, 0] + x[:, 1], x[:, 0] + x[:, 1]])
    shown = np.concatenate([r[:, 0] - r[:, 1], r[:, 1] - r[:, 0]])
    return np.stack([lead, total, shown], axis=1), np.concatenate([won, 1.0 - won])


@dataclass(frozen=True)
class Fitted:
    """What `fit` found: values by counted rank (marshal = 260), the sharpness, the marshal's step (0 when not
    fitted) and the revealed ranks' steps by counted rank (None when not fitted)."""

    values: list[float]
    sharpness: float
    marshal_step: float = 0.0
    reveal: list[float] | None = None

    def log_loss(self, pieces: np.ndarray, won: np.ndarray, revealed: np.ndarray | None = None) -> float:
        """`log_loss` of these positions by this fit."""
        return log_loss(pieces, won, self.values, self.sharpness, self.marshal_step, revealed, self.reveal)


def log_loss(
    pieces: np.ndarray,
    won: np.ndarray,
    values: Sequence[float],
    sharpness: float,
    marshal_step: float = 0.0,
    revealed: np.ndarray | None = None,
    reveal: Sequence[float] | None = None,
) -> float:
    """Mean log-loss of the win chance these values (by counted rank), sharpness, marshal's step and, given the
    `revealed` counts, steps for revealed pieces (`reveal`, by counted rank) give."""
    x, y = _both_sides(pieces, won, revealed)
    v = np.asarray(values, np.float64)
    z = sharpness * (x[:, 0] @ v) / np.maximum(x[:, 1] @ v, 1e-9) + marshal_step * x[:, 0, MARSHAL]
    if reveal is not None:
        z = z + x[:, 2] @ np.asarray(reveal, np.float64)
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
    revealed: np.ndarray | None = None,
) -> Fitted:
    """Values (by counted rank, marshal = 260), sharpness and, with `marshal_step`, the marshal's step, and given
    the `revealed` counts a step for each revealed rank, minimising the log-loss, from `start`."""
    x, y = _both_sides(pieces, won, revealed)
    marshals, shown = x[:, 0, MARSHAL], x[:, 2]
    nv = len(start)
    params = np.concatenate([np.log(np.asarray(start, np.float64)), [np.log(sharpness), 0.0], np.zeros(nv)])
    m = np.zeros_like(params)
    s = np.zeros_like(params)

    def unpack(p: np.ndarray) -> Fitted:
        reveal = [float(a) for a in p[nv + 2 :]] if revealed is not None else None
        return Fitted([float(a) for a in np.exp(p[:nv])], float(np.exp(p[nv])), float(p[nv + 1]), reveal)

    for step in range(1, steps + 1):
        v, k, b, c = np.exp(params[:nv]), np.exp(params[nv]), params[nv + 1], params[nv + 2 :]
        lead, total = x[:, 0] @ v, np.maximum(x[:, 1] @ v, 1e-9)
        ratio = k * lead / total
        z = ratio + b * marshals + shown @ c
        sig = 1 / (1 + np.exp(-z))
        p = np.clip(WIN_MARGIN + (1 - 2 * WIN_MARGIN) * sig, 1e-9, 1 - 1e-9)
        dz = (p - y) / (p * (1 - p)) * (1 - 2 * WIN_MARGIN) * sig * (1 - sig) / len(y)  # d loss / d z, per position
        dv = k * ((x[:, 0] * total[:, None] - x[:, 1] * lead[:, None]) / (total**2)[:, None]).T @ dz
        db = float(dz @ marshals) if marshal_step else 0.0
        dc = shown.T @ dz if revealed is not None else np.zeros(nv)
        grad = np.concatenate([dv * v, [float(dz @ ratio), db], dc])  # through v = exp(u) and k = exp(log k)
        m = 0.9 * m + 0.1 * grad
        s = 0.999 * s + 0.001 * grad**2
        params -= lr * (m / (1 - 0.9**step)) / (np.sqrt(s / (1 - 0.999**step)) + 1e-8)
        if report is not None and (step % 250 == 0 or step == steps):
            report(step, unpack(params).log_loss(pieces, won, revealed))
    got = unpack(params)
    scale = VALUE[Rank.MARSHAL] / got.values[MARSHAL]
    return Fitted([a * scale for a in got.values], got.sharpness, got.marshal_step, got.reveal)


def fit_material(
    train: tuple[np.ndarray, np.ndarray, np.ndarray],
    held: tuple[np.ndarray, np.ndarray, np.ndarray],
    start: dict[int, float],
    sharpness: float,
    steps: int,
    report: Callable[[int, float], None] | None = None,
    marshal_step: bool = False,
    reveal: bool = False,
) -> Material:
    """The whole fit over (pieces, won, revealed) positions from `counts`: from the hand-set values `start` (by
    rank) and sharpness (with `marshal_step` the marshal's step from 0, with `reveal` the revealed ranks' steps
    from 0), scored on the held-out positions."""
    first = [start[r] for r in COUNTED]
    before = log_loss(held[0], held[1], first, sharpness)
    got = fit(
        train[0], train[1], first, sharpness, steps=steps, report=report, marshal_step=marshal_step,
        revealed=train[2] if reveal else None,
    )  # fmt: skip
    after = got.log_loss(held[0], held[1], held[2])
    names = [Rank(r).name.lower() for r in COUNTED]
    shown = dict(zip(names, got.reveal, strict=True)) if got.reveal is not None else None
    return Material(dict(zip(names, got.values, strict=True)), got.sharpness, before, after, got.marshal_step, shown)


__all__ = ["Fitted", "Material", "counts", "fit", "fit_material", "log_loss"]
