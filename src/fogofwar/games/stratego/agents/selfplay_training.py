"""Improve the move policy by play: PPO self-play in the batched simulator, anchored to the net it starts from.

Why: the learned move prior is the one ingredient that ever moved the search's score against Demon by twenty
points, and imitation (of people, then of Demon) is spent. Here the net plays itself in `BatchSim` (the reference
rules compiled; both seats, setups drawn from the setup book) and each decision is credited with what followed
it: the change of the material win chance (the values fitted to who won, `data/material.toml`) up to the seat's
next turn, and the result when the game ends (+1, -1, 0; a game that reaches the cap scores its material win
chance). PPO (a clipped ratio, generalised advantage estimates, a value head on the net's own features) fits the
net to that credit, and a KL penalty towards the starting net keeps it near the people's moves it began with, so
that it stays a prior the search can read. A share of the games can seat it against a pool of past nets instead
of itself (the start, nets given, its own snapshots), and any variant with a setup book can be played (Barrage).
`match` plays two nets against each other the same way, to see whether the trained one beats its start.

PyTorch is needed to train (requirements-train.txt); the result is a `PolicyNet` play reads with numpy.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from fogofwar.games.stratego.agents.material_chance import Potential
from fogofwar.games.stratego.agents.net_training import device, export, load_weights, torch_net
from fogofwar.games.stratego.agents.policy_model import (
    FLIP_COMPACT,
    HEADS,
    PLANE_SCALE,
    SLOT_OF_COMPACT,
    PolicyNet,
    movers_view,
)
from fogofwar.games.stratego.agents.setups import book_setup
from fogofwar.games.stratego.sim.batch import BatchSim, setup_codes
from fogofwar.games.stratego.sim.planes import NUM_PLANES
from fogofwar.games.stratego.sim.tables import MOVE_LIMIT
from fogofwar.games.stratego.variants import get_variant

F32 = npt.NDArray[np.float32]
I64 = npt.NDArray[np.int64]


@dataclass(frozen=True)
class SelfPlayConfig:
    """The settings of a run (the defaults are those of the measured run in docs/strength.md)."""

    envs: int = 128  # games played side by side
    horizon: int = 64  # plies every game plays between two updates
    epochs: int = 2  # passes of PPO over each batch
    minibatch: int = 1024
    lr: float = 1e-4
    gamma: float = 0.99  # discount per own turn
    lam: float = 0.95  # generalised advantage estimation
    clip: float = 0.2  # PPO's ratio clip
    anchor: float = 0.05  # weight of KL(policy || starting net)
    entropy: float = 0.0
    value_coef: float = 0.5
    warmup: int = 20  # first updates fit the value head alone
    max_moves: int = 1000  # plies before a game is stopped and scored by its material
    pool_share: float = 0.0  # share of the games played against a net of the pool instead of itself
    snapshot: int = 0  # every this many updates a copy of the learner joins the pool (0: never)
    pool_size: int = 8  # snapshots kept in the pool at most (the oldest leave first; the given nets stay)
    variant: str = "classic"  # the Stratego variant played (it needs a setup book: classic, barrage)
    seed: int = 0

    def __post_init__(self) -> None:
        if self.envs < 1 or self.horizon < 1 or self.epochs < 1 or self.minibatch < 1:
            raise ValueError("envs, horizon, epochs and minibatch must be at least 1")
        if not 0 < self.gamma <= 1 or not 0 <= self.lam <= 1:
            raise ValueError("gamma must be in (0, 1] and lam in [0, 1]")
        if self.max_moves < 2:
            raise ValueError("max_moves must be at least 2")
        if not 0 <= self.pool_share <= 1 or self.snapshot < 0 or self.pool_size < 1:
            raise ValueError("pool_share must be in [0, 1], snapshot at least 0 and pool_size at least 1")


@dataclass
class UpdateReport:
    """What one update did, for the progress line and the log."""

    update: int
    positions: int  # decisions played so far
    games: int  # games finished so far
    kl_start: float  # mean KL(policy || starting net) over the batch, nats
    clipped: float  # share of samples whose ratio was clipped
    value_loss: float
    mean_length: float  # plies of the games finished in this update (0: none)


# --- the nets ---------------------------------------------------------------------------------------


def _model(start: PolicyNet) -> Any:
    """The torch policy (the shared trunk and move head, from `start`) with a value head beside it. The value
    head reads the trunk's features without moving them: only the policy's own loss changes the policy."""
    import torch
    from torch import nn

    width, blocks = int(start.convs[0][0].shape[0]), len(start.convs) - 1

    class PolicyValue(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.net = torch_net(NUM_PLANES, HEADS, width, blocks, PLANE_SCALE.tolist())
            load_weights(self.net, start)
            self.value = nn.Sequential(
                nn.Conv2d(width, 8, 1), nn.ReLU(), nn.Flatten(), nn.Linear(800, 64), nn.ReLU(), nn.Linear(64, 1)
            )

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            h = x * self.net.scale
            for i, conv in enumerate(self.net.convs):
                y = torch.relu(conv(h))
                h = y if i == 0 else h + y
            logits = self.net.head(h).flatten(1)
            return logits, torch.tanh(self.value(h.detach())).squeeze(1)

    return PolicyValue()


def _frozen(net: PolicyNet) -> Any:
    """A torch twin of a numpy policy for fast batched play (no gradients)."""
    width, blocks = int(net.convs[0][0].shape[0]), len(net.convs) - 1
    t = torch_net(NUM_PLANES, HEADS, width, blocks, PLANE_SCALE.tolist())
    load_weights(t, net)
    t.eval()
    for p in t.parameters():
        p.requires_grad_(False)
    return t


# --- games side by side -----------------------------------------------------------------------------


class _Table:
    """`BatchSim` games restarted from setup-book setups as they end, seen from the mover's side."""

    def __init__(self, n: int, max_moves: int, seed: int, variant: str = "classic") -> None:
        self.variant = get_variant(variant)
        self.sim = BatchSim(variant, n_envs=n, max_moves=max_moves)
        self.rng = random.Random(seed)
        self.n = n
        self.restart(np.ones(n, np.bool_))

    def restart(self, which: npt.NDArray[np.bool_]) -> None:
        rows = [self._setup() for _ in range(int(which.sum()))]
        if rows:
            self.sim.reset(setups=np.stack(rows), envs=which)

    def _setup(self) -> npt.NDArray[np.uint8]:
        red = book_setup(self.variant, 0, self.rng)
        blue = book_setup(self.variant, 1, self.rng)
        if red is None or blue is None:
            raise ValueError(f"{self.variant.name} has no setup book to start games from")
        return setup_codes([{sq: int(r) for sq, r in red.items()}, {sq: int(r) for sq, r in blue.items()}])

    def view(self) -> tuple[I64, F32, npt.NDArray[np.bool_]]:
        """(mover, planes, legal compact mask), turned round for blue."""
        return movers_view(self.sim)

    def play(
        self, compact: I64, mover: I64, envs: npt.NDArray[np.bool_] | None = None
    ) -> tuple[npt.NDArray[np.bool_], F32, dict[str, Any]]:
        """Play the movers' compact moves (in their own view), in every game or in `envs` only; (ended now, each
        seat's result (n, 2), the simulator's info). The caller restarts the ended games."""
        acts = np.where(mover == 1, FLIP_COMPACT[compact], compact)
        if envs is not None:
            acts = np.where(envs, acts, -1)
        rewards, _, info = self.sim.step(acts, compact=True, envs=envs)
        return np.asarray(info["ended"], np.bool_), rewards, info


class _Pool:
    """Past nets the learner meets in a share of the games (fictitious self-play: a net that only meets itself
    can forget how to beat the players it used to be). Game e of the first `share` of the table has the learner
    in seat e % 2 and a net of the pool, drawn anew at each restart, in the other; the rest play themselves."""

    def __init__(self, nets: Sequence[Any], n: int, share: float, size: int, seed: int) -> None:
        self.fixed = list(nets)  # frozen torch nets that stay in the pool
        self.snapshots: list[Any] = []
        self.size = size
        self.rng = random.Random(seed)
        k = round(share * n) if self.fixed else 0
        self.seat = np.full(n, -1, np.int64)  # the learner's seat; -1: both (self-play)
        self.seat[:k] = np.arange(k) % 2
        self.which = np.zeros(n, np.int64)
        self.draw(np.ones(n, np.bool_))

    @property
    def nets(self) -> list[Any]:
        return self.fixed + self.snapshots

    def draw(self, envs: npt.NDArray[np.bool_]) -> None:
        """A pool net for each of the restarted games `envs` that has one."""
        for e in np.flatnonzero(envs & (self.seat >= 0)):
            self.which[e] = self.rng.randrange(len(self.nets))

    def add(self, net: Any) -> None:
        self.snapshots = [*self.snapshots, net][-self.size :]

    def learner_moves(self, mover: I64) -> npt.NDArray[np.bool_]:
        return np.asarray((self.seat < 0) | (mover == self.seat), np.bool_)

    def play(self, obs: F32, mask: npt.NDArray[np.bool_], own: npt.NDArray[np.bool_], action: Any, gen: Any) -> None:
        """Write the pool nets' moves into `action` where the learner does not move."""
        import torch

        for k, net in enumerate(self.nets):
            rows = np.flatnonzero(~own & (self.which == k))
            if len(rows):
                action[torch.from_numpy(rows)] = torch.from_numpy(_draw(net, obs, mask, rows, gen))


def _slots() -> Any:
    import torch

    return torch.from_numpy(SLOT_OF_COMPACT)


def _draw(net: Any, obs: F32, mask: npt.NDArray[np.bool_], rows: I64, gen: Any) -> I64:
    """Compact moves drawn from a frozen net's probabilities for the games `rows`."""
    import torch

    with torch.no_grad():
        logits = net(torch.from_numpy(obs[rows]).to(next(net.parameters()).device)).flatten(1)
    action, _ = _sample(logits.cpu()[:, _slots()], mask[rows], gen)
    return np.asarray(action.numpy(), np.int64)


def _sample(logits: Any, mask: npt.NDArray[np.bool_], gen: Any) -> tuple[Any, Any]:
    """A move drawn from the masked logits and its log-probability."""
    import torch

    masked = logits.masked_fill(~torch.from_numpy(mask), -1e9)
    logp = torch.log_softmax(masked, dim=1)
    action = torch.multinomial(logp.exp(), 1, generator=gen).squeeze(1)
    return action, logp.gather(1, action[:, None]).squeeze(1)


# --- training ---------------------------------------------------------------------------------------


def train(
    start: PolicyNet,
    config: SelfPlayConfig = SelfPlayConfig(),
    updates: int = 100,
    seconds: float | None = None,
    report: Callable[[UpdateReport], None] | None = None,
    checkpoint: Callable[[int, PolicyNet], None] | None = None,
    every: int = 50,
    pool: Sequence[PolicyNet] = (),
) -> PolicyNet:
    """`updates` PPO updates of self-play from `start` (or fewer when `seconds` run out); the improved net.
    `checkpoint(update, net)` is given the net every `every` updates. With `config.pool_share`, that share of the
    games is played against `start`, the nets of `pool` and the learner's snapshots (`config.snapshot`)."""
    import torch

    cfg = config
    torch.manual_seed(cfg.seed)
    gen = torch.Generator().manual_seed(cfg.seed)
    dev = device()
    model = _model(start).to(dev)
    anchor = _frozen(start).to(dev)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    slots = _slots().to(dev)
    table = _Table(cfg.envs, cfg.max_moves, cfg.seed, cfg.variant)
    rivals = _Pool(
        [anchor, *(_frozen(net).to(dev) for net in pool)] if cfg.pool_share else [],
        cfg.envs, cfg.pool_share, cfg.pool_size, cfg.seed + 1,
    )  # fmt: skip
    potential = Potential(cfg.variant)
    began = time.perf_counter()
    positions = games = 0
    for update in range(1, updates + 1):
        batch, finished = _collect(table, rivals, model, anchor, slots, potential, cfg, gen, dev)
        positions += len(batch.action)
        games += len(finished)
        stats = _optimise(model, opt, batch, cfg, policy=update > cfg.warmup, gen=gen, dev=dev)
        if report is not None:
            length = float(np.mean(finished)) if finished else 0.0
            report(UpdateReport(update, positions, games, *stats, length))
        if checkpoint is not None and update % every == 0:
            checkpoint(update, export(model.net, PolicyNet))
        if rivals.fixed and cfg.snapshot and update % cfg.snapshot == 0:
            rivals.add(_frozen(export(model.net, PolicyNet)).to(dev))
        if seconds is not None and time.perf_counter() - began > seconds:
            break
    return export(model.net, PolicyNet)


@dataclass
class _Batch:
    planes: F32
    mask: npt.NDArray[np.bool_]
    action: I64
    logp: F32
    anchor_logits: F32  # the starting net's masked logits over compact moves
    advantage: F32
    target: F32  # the value head's target


def _collect(
    table: _Table,
    rivals: _Pool,
    model: Any,
    anchor: Any,
    slots: Any,
    potential: Potential,
    cfg: SelfPlayConfig,
    gen: Any,
    dev: Any,
) -> tuple[_Batch, list[int]]:
    """`horizon` plies of every game plus two to look ahead; the credit of each of the first `horizon`
    decisions (the seat's next turn is two plies on, as turns alternate). Only the learner's own decisions
    are kept: a pool net's moves are part of the game it plays, not of the batch."""
    import torch

    n, horizon = cfg.envs, cfg.horizon
    length = horizon + 2
    planes: list[F32] = []
    masks: list[npt.NDArray[np.bool_]] = []
    actions, logps, anchors = [], [], []
    owns: list[npt.NDArray[np.bool_]] = []
    values = np.zeros((length, n), np.float32)
    phi = np.zeros((length, n), np.float32)
    ended = np.zeros((length, n), np.bool_)
    result = np.zeros((length, n, 2), np.float32)  # each seat's result of a game ended at that ply
    movers = np.zeros((length, n), np.int64)
    finished: list[int] = []
    for t in range(length):
        mover, obs, mask = table.view()
        movers[t] = mover
        phi[t] = potential(table.sim.captured, mover)
        with torch.no_grad():
            x = torch.from_numpy(obs).to(dev)
            logits, value = model(x)
            logits = logits[:, slots]
            action, logp = _sample(logits.cpu(), mask, gen)
            if t < horizon:
                base = anchor(x).flatten(1)[:, slots].cpu()
        own = rivals.learner_moves(mover)
        if not own.all():
            rivals.play(obs, mask, own, action, gen)
        values[t] = value.cpu().numpy()
        if t < horizon:
            owns.append(own)
            planes.append(obs)
            masks.append(mask)
            actions.append(action.numpy())
            logps.append(logp.numpy())
            anchors.append(base.masked_fill(~torch.from_numpy(mask), -1e9).numpy())
        done, rewards, info = table.play(action.numpy().astype(np.int64), mover)
        ended[t] = done
        if done.any():
            capped = done & (info["termination"] == MOVE_LIMIT)
            res = rewards.astype(np.float32)
            if capped.any():
                # scored by material: each seat's win chance as it stands
                seats = np.zeros(n, np.int64)
                red = potential(table.sim.captured, seats)
                res[capped, 0], res[capped, 1] = red[capped], -red[capped]
            result[t] = res
            finished.extend(info["moves"][done].tolist())
            table.restart(done)
            rivals.draw(done)
    adv, target = advantages(values, phi, ended, result, movers, cfg)
    keep = np.concatenate(owns)
    batch = _Batch(
        np.concatenate(planes)[keep],
        np.concatenate(masks)[keep],
        np.concatenate(actions).astype(np.int64)[keep],
        np.concatenate(logps).astype(np.float32)[keep],
        np.concatenate(anchors).astype(np.float32)[keep],
        adv.reshape(-1)[keep],
        target.reshape(-1)[keep],
    )
    return batch, finished


def advantages(
    values: F32, phi: F32, ended: npt.NDArray[np.bool_], result: F32, movers: I64, cfg: SelfPlayConfig
) -> tuple[F32, F32]:
    """Generalised advantage estimates over each seat's own turns (t, t + 2, ...), a game's end cutting the
    chain: the credit of a turn is the change of the seat's material win chance to its next turn, or the
    result minus the win chance when the game ends before then."""
    length, n = values.shape
    horizon = length - 2
    adv = np.zeros((length, n), np.float32)
    for t in range(horizon - 1, -1, -1):
        seat = movers[t]
        rows = np.arange(n)
        end_now = ended[t]
        end_next = ~end_now & ended[t + 1]
        terminal = end_now | end_next
        outcome = np.where(end_now, result[t, rows, seat], result[t + 1, rows, seat])
        reward = np.where(terminal, outcome - phi[t], phi[t + 2] - phi[t])
        nxt = np.where(terminal, 0.0, values[t + 2])
        delta = reward + cfg.gamma * nxt - values[t]
        later = np.where(terminal, 0.0, adv[t + 2])
        adv[t] = delta + cfg.gamma * cfg.lam * later
    adv = adv[:horizon]
    return adv, (adv + values[:horizon]).astype(np.float32)


def _optimise(
    model: Any, opt: Any, batch: _Batch, cfg: SelfPlayConfig, policy: bool, gen: Any, dev: Any
) -> tuple[float, float, float]:
    """PPO's epochs over the batch; (mean KL to the start, share clipped, value loss) of the last epoch."""
    import torch

    slots = _slots().to(dev)
    total = len(batch.action)
    adv_all = batch.advantage
    adv_all = (adv_all - adv_all.mean()) / (adv_all.std() + 1e-8)
    kls: list[float] = []
    clips: list[float] = []
    vls: list[float] = []
    for epoch in range(cfg.epochs):
        order = torch.randperm(total, generator=gen).numpy()
        for lo in range(0, total, cfg.minibatch):
            rows = order[lo : lo + cfg.minibatch]
            x = torch.from_numpy(batch.planes[rows]).to(dev)
            mask = torch.from_numpy(batch.mask[rows]).to(dev)
            act = torch.from_numpy(batch.action[rows]).to(dev)
            old = torch.from_numpy(batch.logp[rows]).to(dev)
            adv = torch.from_numpy(adv_all[rows]).to(dev)
            target = torch.from_numpy(batch.target[rows]).to(dev)
            base = torch.log_softmax(torch.from_numpy(batch.anchor_logits[rows]).to(dev), dim=1)
            logits, value = model(x)
            logp_all = torch.log_softmax(logits[:, slots].masked_fill(~mask, -1e9), dim=1)
            logp = logp_all.gather(1, act[:, None]).squeeze(1)
            ratio = torch.exp(logp - old)
            surrogate = torch.min(ratio * adv, torch.clamp(ratio, 1 - cfg.clip, 1 + cfg.clip) * adv)
            p = logp_all.exp()
            kl = (p * (logp_all - base)).masked_fill(~mask, 0.0).sum(1)
            ent = -(p * logp_all).masked_fill(~mask, 0.0).sum(1)
            value_loss = ((value - target) ** 2).mean()
            loss = cfg.value_coef * value_loss
            if policy:
                loss = loss - surrogate.mean() + cfg.anchor * kl.mean() - cfg.entropy * ent.mean()
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            if epoch == cfg.epochs - 1:
                kls.append(float(kl.mean().detach()))
                clips.append(float(((ratio - 1).abs() > cfg.clip).float().mean()))
                vls.append(float(value_loss.detach()))
    return float(np.mean(kls)), float(np.mean(clips)), float(np.mean(vls))


# --- two nets against each other ----------------------------------------------------------------------


@dataclass(frozen=True)
class MatchResult:
    wins: int
    draws: int
    losses: int

    @property
    def score(self) -> float:
        games = self.wins + self.draws + self.losses
        return (self.wins + 0.5 * self.draws) / games if games else math.nan

    def line(self) -> str:
        return f"{self.wins}-{self.draws}-{self.losses} ({100 * self.score:.1f}%)"


def match(
    first: PolicyNet,
    second: PolicyNet,
    games: int = 200,
    seed: int = 0,
    max_moves: int = 1000,
    variant: str = "classic",
) -> MatchResult:
    """`games` games of `first` against `second`, each net drawing its moves from its own probabilities, setups
    from the book, `first` red in the even games; a capped game is a draw. W-D-L of `first`."""
    import torch

    if games < 1:
        raise ValueError("games must be at least 1")
    nets = (_frozen(first), _frozen(second))
    gen = torch.Generator().manual_seed(seed)
    table = _Table(games, max_moves, seed, variant)
    first_seat = np.arange(games) % 2  # first plays red (0) in even games
    running = np.ones(games, np.bool_)
    outcome = np.zeros(games, np.int64)  # +1 first won, -1 lost, 0 draw
    while running.any():
        mover, obs, mask = table.view()
        mine = (mover == first_seat) & running
        action = np.zeros(games, np.int64)
        for k, rows in ((0, np.flatnonzero(mine)), (1, np.flatnonzero(~mine & running))):
            if len(rows):
                action[rows] = _draw(nets[k], obs, mask, rows, gen)
        ended, rewards, _ = table.play(action, mover, envs=running)
        done = ended & running
        outcome[done] = rewards[done, first_seat[done]].astype(np.int64)
        running &= ~done
    w, d = int((outcome > 0).sum()), int((outcome == 0).sum())
    return MatchResult(w, d, games - w - d)
