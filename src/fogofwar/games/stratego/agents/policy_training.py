"""Fit the move policy (`policy_model`) to the moves people played on Gravon, and score it on held-out games.

Positions come from replaying Gravon classic games in the batched simulator (`fogofwar.games.stratego.sim.BatchSim`, the
reference rules compiled), many games side by side: at every move, the mover's planes (only what it may
know), its legal moves and the move it played. Every `held_out`-th game is kept out of the fit; the
top-1 accuracy and log-loss printed for those games say how well the net predicts moves it never saw.

Training uses PyTorch (CPU, or a GPU when one is present) and is seeded; the result is exported to the
numpy weights `policy_model.PolicyNet` reads, so play needs no PyTorch.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from fogofwar.core.protocol import GameError, RecordError
from fogofwar.games.stratego.agents.net_training import device, export, fit, load_weights, torch_net
from fogofwar.games.stratego.agents.policy_model import FLIP_COMPACT, HEADS, PLANE_SCALE, SLOT_OF_COMPACT, PolicyNet
from fogofwar.games.stratego.formats.gravon import GravonGame
from fogofwar.games.stratego.sim.batch import BatchSim, piece_codes
from fogofwar.games.stratego.sim.planes import NUM_PLANES
from fogofwar.games.stratego.sim.tables import COMPACT_OF_MOVE, NUM_COMPACT_ACTIONS

U8 = npt.NDArray[np.uint8]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]


def unpack_legal(packed: U8) -> npt.NDArray[np.bool_]:
    """Rows of packed bits (`np.packbits` of legal compact-move masks) as boolean masks."""
    return np.unpackbits(packed, axis=1, count=NUM_COMPACT_ACTIONS).astype(np.bool_)


def legal_log_probs(policy: PolicyNet, planes: U8, legal: U8) -> F64:
    """(rows, NUM_COMPACT_ACTIONS) log P(move) of the numpy net for these oriented planes, over the legal moves of
    the packed masks `legal` (-inf elsewhere). Callers batch: the array is rows x every compact move."""
    z = policy.logits(planes.astype(np.float32))[:, SLOT_OF_COMPACT].astype(np.float64)
    z[~unpack_legal(legal)] = -np.inf
    z -= z.max(axis=1, keepdims=True)
    out: F64 = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return out


@dataclass
class Positions:
    """Positions seen by the mover, oriented (blue's turned round); moves are compact ids in that view."""

    planes: U8  # (N, NUM_PLANES, 10, 10); the unaccounted-for planes hold counts 0..8
    legal: U8  # (N, ceil(NUM_COMPACT_ACTIONS / 8)) packed bits: the legal compact ids
    move: I64  # (N,) the compact id played

    def __len__(self) -> int:
        return int(self.move.shape[0])

    def legal_mask(self, rows: I64 | slice) -> npt.NDArray[np.bool_]:
        return unpack_legal(self.legal[rows])


def positions(
    games: Sequence[GravonGame],
    batch: int = 256,
    max_positions: int = 0,
    progress: Callable[[int], None] | None = None,
    variant: str = "classic",
    player: str | None = None,
) -> Positions:
    """Every move of these games of `variant` (a game the rules cannot replay stops at its first illegal move),
    or only the moves of the seat named `player` in each game (none of a game it did not play): a fit to one
    player's style, such as a program's whose games against ours were recorded. `progress(games_done)` is called
    as games finish."""
    parts: list[Positions] = []
    total = 0
    for start in range(0, len(games), batch):
        chunk = games[start : start + batch]
        parts.append(_chunk_positions(chunk, variant, player))
        total += len(parts[-1])
        if progress is not None:
            progress(len(chunk))
        if max_positions and total >= max_positions:
            break
    out = _joined(parts)
    if max_positions and len(out) > max_positions:
        out = Positions(out.planes[:max_positions], out.legal[:max_positions], out.move[:max_positions])
    return out


def _joined(parts: Sequence[Positions]) -> Positions:
    """These positions one after the other (none: an empty `Positions`)."""
    if not parts:
        empty = np.zeros((0, NUM_PLANES, 10, 10), np.uint8)
        return Positions(empty, np.zeros((0, (NUM_COMPACT_ACTIONS + 7) // 8), np.uint8), np.zeros(0, np.int64))
    return Positions(
        np.concatenate([p.planes for p in parts]),
        np.concatenate([p.legal for p in parts]),
        np.concatenate([p.move for p in parts]),
    )


def _chunk_positions(games: Sequence[GravonGame], variant: str = "classic", player: str | None = None) -> Positions:
    parts: list[Positions] = []
    names = [] if player is None else [g.players for g in games]
    seat = np.array([p.index(player) if player in p else -1 for p in names], np.int64)
    for step in replay(games, variant):
        idx = np.flatnonzero(step.alive)
        if player is not None:
            idx = idx[step.mover[idx] == seat[step.game[idx]]]
        obs = step.sim.observe(step.mover)
        for p in (0, 1):
            rows = idx[step.mover[idx] == p]
            if not len(rows):
                continue
            o = obs[rows]
            m = step.mask[rows]
            c = step.compact[rows]
            if p == 1:
                o = o[:, :, ::-1, ::-1]
                m = m[:, FLIP_COMPACT]  # m[i] in the turned view = the mask at the move it turns from
                c = FLIP_COMPACT[c]
            parts.append(Positions(o.astype(np.uint8), np.packbits(m, axis=1), c.astype(np.int64)))
    return _joined(parts)


@dataclass
class Ply:
    """One ply of games replayed side by side (`replay`): which games play it, the moves, the legal masks before
    it, and who moves."""

    sim: BatchSim
    ply: int  # 0 for the first move
    alive: npt.NDArray[np.bool_]  # (n,) the games that play this ply (a legal move on record)
    moves: I64  # (n,) the reference move ids (-1 for the others)
    mask: npt.NDArray[np.bool_]  # (n, NUM_COMPACT_ACTIONS) the legal compact moves before the ply
    compact: I64  # (n,) the moves as compact ids (-1 for the others)
    mover: I64  # (n,) the seat that moves
    game: I64  # (n,) each simulated game's index in the games given (those that cannot be read are left out)


def replay(games: Sequence[GravonGame], variant: str = "classic", played: bool = False) -> Iterator[Ply]:
    """The games that can be read, replayed side by side in the batched simulator: each ply is yielded before it
    is played (the training positions of the move policy), or after it when `played` (the value net's
    afterstates). A game's replay ends at its last move or at its first illegal one."""
    setups: list[npt.NDArray[np.uint8]] = []
    lines: list[list[int]] = []
    kept: list[int] = []
    for k, g in enumerate(games):
        try:
            codes = piece_codes([(sq, o, int(r)) for sq, o, r in g.pieces()])
            line = [src * 100 + dst for src, dst in g.move_squares()]
        except (RecordError, GameError, ValueError):
            continue
        setups.append(codes)
        lines.append(line)
        kept.append(k)
    if not lines:
        return
    n = len(lines)
    sim = BatchSim(variant, n_envs=n, max_moves=0)
    sim.reset(setups=np.stack(setups))
    alive = np.ones(n, np.bool_)
    lengths = np.array([len(line) for line in lines])
    game = np.array(kept, np.int64)
    for ply in range(int(lengths.max())):
        alive &= ~sim.done & (ply < lengths)
        if not alive.any():
            return
        idx = np.flatnonzero(alive)
        acts = np.full(n, -1, np.int64)
        acts[idx] = [lines[i][ply] for i in idx]
        mask = sim.legal_mask(compact=True)
        compact = np.where(acts >= 0, COMPACT_OF_MOVE[np.clip(acts, 0, 9999)], -1)
        alive &= (compact >= 0) & mask[np.arange(n), np.maximum(compact, 0)]  # an illegal move ends that replay
        if not alive.any():
            return
        step = Ply(sim, ply, alive.copy(), acts, mask, compact, sim.to_move.copy(), game)
        if not played:
            yield step
        sim.step(np.where(alive, acts, -1), envs=alive)
        if played:
            yield step


# --- training (PyTorch) -----------------------------------------------------------------------


@dataclass
class Score:
    positions: int
    log_loss: float  # mean -log P(move played), nats
    top1: float  # share of positions where the most likely move is the one played

    def line(self) -> str:
        return f"top-1 {100 * self.top1:.1f}%, log-loss {self.log_loss:.3f} nats over {self.positions:,} positions"


def train(
    data: Positions,
    held: Positions,
    width: int = 48,
    blocks: int = 5,
    steps: int = 4000,
    batch: int = 256,
    lr: float = 2e-3,
    seed: int = 0,
    seconds: float | None = None,
    report: Callable[[int, float], None] | None = None,
    start: PolicyNet | None = None,
) -> tuple[PolicyNet, Score]:
    """Fit the net (`net_training.fit`: Adam, cosine decay, seeded) and return it in numpy form with its
    held-out score. `seconds` stops the fit early when the time is up. `start`: fit from these weights
    (fine-tuning; `width` and `blocks` are then theirs) instead of from random ones."""
    import torch

    torch.manual_seed(seed)
    dev = device()
    if start is not None:
        width, blocks = int(start.convs[0][0].shape[0]), len(start.convs) - 1
    net = torch_net(NUM_PLANES, HEADS, width, blocks, PLANE_SCALE.tolist())
    if start is not None:
        load_weights(net, start)
    net = net.to(dev)
    slots = torch.from_numpy(SLOT_OF_COMPACT).to(dev)

    def loss_of(rows: I64) -> torch.Tensor:
        x = torch.from_numpy(data.planes[rows].astype(np.float32)).to(dev)
        mask = torch.from_numpy(data.legal_mask(rows)).to(dev)
        y = torch.from_numpy(data.move[rows]).to(dev)
        logits = net(x).flatten(1)[:, slots].masked_fill(~mask, -1e9)
        return torch.nn.functional.cross_entropy(logits, y)

    fit(net, len(data), loss_of, steps, batch, lr, seed, seconds, report)
    policy = export(net, PolicyNet)
    return policy, score(policy, held)


def score(policy: PolicyNet, held: Positions, batch: int = 512) -> Score:
    """Top-1 accuracy and log-loss of the numpy net on these positions (legal moves only)."""
    hits = 0
    nll = 0.0
    for start in range(0, len(held), batch):
        rows = slice(start, start + batch)
        logp = legal_log_probs(policy, held.planes[rows], held.legal[rows])
        y = held.move[rows]
        nll -= float(logp[np.arange(len(y)), y].sum())
        hits += int((logp.argmax(axis=1) == y).sum())
    n = max(1, len(held))
    return Score(len(held), nll / n, hits / n)


def uniform_score(held: Positions) -> Score:
    """The same figures for a player that picks a legal move at random (the floor to beat)."""
    counts = unpack_legal(held.legal).sum(axis=1).astype(np.float64)
    n = max(1, len(held))
    counts = np.maximum(counts, 1)
    return Score(len(held), float(np.log(counts).sum()) / n, float((1.0 / counts).sum()) / n)
