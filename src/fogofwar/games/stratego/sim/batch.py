"""`BatchSim`: many Stratego games at once over numpy arrays, with numba-compiled rules.

>>> sim = BatchSim("barrage", n_envs=4, max_moves=200)
>>> sim.reset(seed=1)
>>> mask = sim.legal_mask()
>>> mask.shape, bool(mask.any(axis=1).all())
((4, 10000), True)
>>> rewards, dones, info = sim.step(sim.sample_actions(seed=2))
>>> rewards.shape, dones.shape, sim.observe(0).shape
((4, 2), (4,), (4, 45, 10, 10))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from fogofwar.games.stratego.rules import DEFAULT_TWO_SQUARES, piece_code
from fogofwar.games.stratego.sim import kernels as K
from fogofwar.games.stratego.sim.planes import NUM_PLANES
from fogofwar.games.stratego.sim.tables import (
    COMPACT_OF_MOVE,
    MOVE_OF_COMPACT,
    NUM_COMPACT_ACTIONS,
    NUM_MOVE_ACTIONS,
    NUM_RANKS,
    PRESENT_BIT,
    TERMINATIONS,
    max_legal_moves,
    roster_counts,
)
from fogofwar.games.stratego.variants import Variant, get_variant
from fogofwar.grid.board import HOME_ROWS, LAKES, SIZE

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float32]

_NO_COMPACT = np.zeros(0, np.int64)
INITIAL_CHASE_CAPACITY = 16


def piece_codes(pieces: Iterable[tuple[int, int, int]] | Mapping[int, tuple[int, int]]) -> npt.NDArray[np.uint8]:
    """One row of 100 piece codes (the reference engine's) from (square, owner, rank) triples or
    {square: (owner, rank)}."""
    triples = [(sq, o, r) for sq, (o, r) in pieces.items()] if isinstance(pieces, Mapping) else list(pieces)
    row = np.zeros(SIZE * SIZE, np.uint8)
    for sq, owner, rank in triples:
        if sq in LAKES or row[sq]:
            raise ValueError(f"square {sq} is a lake or taken twice")
        row[sq] = piece_code(int(owner), int(rank))
    return row


def setup_codes(placements: Sequence[Mapping[int, int]]) -> npt.NDArray[np.uint8]:
    """One row of piece codes from the two armies' placements ({square: rank} for red, then blue)."""
    return piece_codes([(sq, owner, int(rank)) for owner, pl in enumerate(placements) for sq, rank in pl.items()])


@dataclass
class RolloutStats:
    """What `random_rollouts` played."""

    games: int
    moves: int
    lengths: IntArray
    terminations: dict[str, int]
    wins: tuple[int, int, int] = (0, 0, 0)  # red, blue, draws
    extra: dict[str, Any] = field(default_factory=dict)


class BatchSim:
    """`n_envs` Stratego games stepped together; the rules are exactly those of the reference engine.

    Options as `StrategoGame`: `two_squares` (0 = off), `more_squares`, `max_moves` (None = the variant's
    default, 0 = no cap). Move actions are reference ids `from * 100 + to`; `compact=True` on
    `legal_mask`, `step` and `sample_actions` uses the compact ids of `fogofwar.games.stratego.sim.tables` instead.
    With `autoreset`, a game that ends in `step` starts again at once from a random setup; its
    ending is in `info` ("termination", "winner", "moves" are those of the ended games).
    """

    def __init__(
        self,
        variant: str = "classic",
        n_envs: int = 1,
        two_squares: int = DEFAULT_TWO_SQUARES,
        more_squares: bool = True,
        max_moves: int | None = None,
        autoreset: bool = False,
    ) -> None:
        self.variant: Variant = get_variant(variant)
        if n_envs < 1:
            raise ValueError("n_envs must be at least 1")
        if two_squares < 0:
            raise ValueError("two_squares must be >= 0 (0 turns the rule off)")
        cap = self.variant.max_moves if max_moves is None else max_moves
        if cap < 0:
            raise ValueError("max_moves must be >= 0 (0 means no cap)")
        self.n_envs = n_envs
        self.two_squares = int(two_squares)
        self.more_squares = bool(more_squares)
        self.max_moves = int(cap)
        self.autoreset = autoreset
        self.roster = roster_counts(self.variant)
        self._pieces = np.array([r for r in range(NUM_RANKS) for _ in range(self.roster[r])], np.int64)
        self._home = np.array([[r * SIZE + c for r in HOME_ROWS[p] for c in range(SIZE)] for p in (0, 1)], np.int64)
        n = n_envs
        self.board = np.zeros((n, SIZE * SIZE), np.uint8)
        self.st = np.zeros((n, K.NUM_FIELDS), np.int64)
        self.st[:, K.DONE] = 1
        self.runs = np.zeros((n, 2, K.NUM_BOUNDARIES), np.int64)
        self.pos = np.zeros((n, 2, INITIAL_CHASE_CAPACITY), np.int64)
        self.mob = np.zeros((n, 2, 40), np.int64)
        self.mobidx = np.full((n, SIZE * SIZE), -1, np.int64)
        self.legal = np.zeros((n, max_legal_moves(self.variant)), np.int64)
        self.captured = np.zeros((n, 2, NUM_RANKS), np.int64)
        self._rewards = np.zeros((n, 2), np.float32)
        self._ended = np.zeros(n, np.bool_)
        self._rng = np.random.default_rng()

    # --- starting games ---------------------------------------------------------------------
    def reset(
        self,
        seed: int | None = None,
        setups: npt.ArrayLike | None = None,
        to_move: int | npt.ArrayLike = 0,
        envs: npt.ArrayLike | None = None,
    ) -> None:
        """Start games: from uniformly random setups (seeded), or from `setups`, an (n, 100) array of piece
        codes (see `piece_codes`/`setup_codes`: any position, moved/revealed bits included). `envs` (a
        bool mask or indices) restarts only those games."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        which = self._which(envs)
        if setups is None:
            codes = self._random_codes(which)
        else:
            codes = np.zeros((self.n_envs, SIZE * SIZE), np.uint8)
            given = np.asarray(setups, dtype=np.uint8)
            if given.ndim == 1:
                given = np.broadcast_to(given, (int(which.sum()), SIZE * SIZE))
            codes[which] = given
        tm = np.broadcast_to(np.asarray(to_move, np.int64), (self.n_envs,)).copy()
        if ((tm != 0) & (tm != 1)).any():
            raise ValueError("to_move must be 0 (red) or 1 (blue)")
        K.reset_kernel(
            self.board, self.st, self.runs, self.pos, self.mob, self.mobidx, self.legal, self.captured,
            codes, tm, which, self.two_squares, self.more_squares, self.max_moves,
        )  # fmt: skip

    def _which(self, envs: npt.ArrayLike | None) -> BoolArray:
        if envs is None:
            return np.ones(self.n_envs, np.bool_)
        arr = np.asarray(envs)
        if arr.dtype == np.bool_:
            return arr.copy()
        which = np.zeros(self.n_envs, np.bool_)
        which[arr.astype(np.int64)] = True
        return which

    def _random_codes(self, which: BoolArray) -> npt.NDArray[np.uint8]:
        n = int(which.sum())
        codes = np.zeros((self.n_envs, SIZE * SIZE), np.uint8)
        if n == 0:
            return codes
        k = len(self._pieces)
        rows = np.empty((n, SIZE * SIZE), np.uint8)
        rows[:] = 0
        for p in (0, 1):
            perm = self._rng.permuted(np.tile(np.arange(self._home.shape[1]), (n, 1)), axis=1)[:, :k]
            squares = self._home[p][perm]
            rows[np.arange(n)[:, None], squares] = (PRESENT_BIT | (p << 4) | self._pieces)[None, :]
        codes[which] = rows
        return codes

    # --- playing ------------------------------------------------------------------------------
    def legal_mask(self, compact: bool = False) -> BoolArray:
        """(n, NUM_MOVE_ACTIONS) bools, or (n, NUM_COMPACT_ACTIONS) with `compact`; all False in ended games."""
        out = np.empty((self.n_envs, NUM_COMPACT_ACTIONS if compact else NUM_MOVE_ACTIONS), np.bool_)
        K.mask_kernel(self.st, self.legal, out, COMPACT_OF_MOVE if compact else _NO_COMPACT)
        return out

    def legal_actions(self, env: int) -> list[int]:
        """The sorted legal move ids (reference ids) of one game, as `StrategoState.legal_actions()`."""
        n = int(self.st[env, K.NLEGAL])
        return sorted(int(a) for a in self.legal[env, :n])

    def sample_actions(self, seed: int | np.random.Generator | None = None, compact: bool = False) -> IntArray:
        """A uniformly random legal action per game (-1 in ended games)."""
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        counts = self.st[:, K.NLEGAL]
        idx = (rng.random(self.n_envs) * np.maximum(counts, 1)).astype(np.int64)
        acts = self.legal[np.arange(self.n_envs), idx]
        acts = np.where(counts > 0, acts, -1)
        if compact:
            acts = np.where(acts >= 0, COMPACT_OF_MOVE[np.maximum(acts, 0)], -1)
        return acts

    def step(
        self, actions: npt.ArrayLike, compact: bool = False, envs: npt.ArrayLike | None = None
    ) -> tuple[FloatArray, BoolArray, dict[str, Any]]:
        """Play one move in every running game (actions of ended games are ignored); with `envs` (a bool
        mask or indices) only in those games.

        Returns (rewards (n, 2) for red and blue: +1/-1 to the seats of a game that ended at this step,
        dones (n,): the game is over (ended now or before; with autoreset: ended now), info)."""
        acts = np.asarray(actions, np.int64).reshape(self.n_envs)
        if compact:
            inside = (acts >= 0) & (acts < NUM_COMPACT_ACTIONS)
            acts = np.where(inside, MOVE_OF_COMPACT[np.where(inside, acts, 0)], -1)
        active = self._which(envs)
        bad = K.check_actions_kernel(self.st, self.legal, acts, active)
        if bad >= 0:
            raise ValueError(f"env {bad}: action {int(np.asarray(actions).reshape(-1)[bad])} is not legal")
        need = int(self.st[:, [K.PBASE + K.C_NPOS, K.PBASE + K.PSTRIDE + K.C_NPOS]].max()) + 1
        if need > self.pos.shape[2]:
            self._grow_positions(need)
        K.step_kernel(
            self.board, self.st, self.runs, self.pos, self.mob, self.mobidx, self.legal, self.captured,
            acts, active, self.two_squares, self.more_squares, self.max_moves, self._rewards, self._ended,
        )  # fmt: skip
        info: dict[str, Any] = {
            "ended": self._ended.copy(),
            "termination": self.st[:, K.TERM].copy(),
            "winner": self.st[:, K.WINNER].copy(),
            "moves": self.st[:, K.MOVES].copy(),
        }
        if self.autoreset and self._ended.any():
            self.reset(envs=self._ended)
            dones = self._ended.copy()
        else:
            dones = self.st[:, K.DONE] != 0
        return self._rewards.copy(), dones, info

    def _grow_positions(self, need: int) -> None:
        cap = self.pos.shape[2]
        while cap < need:
            cap *= 2
        bigger = np.zeros((self.n_envs, 2, cap), np.int64)
        bigger[:, :, : self.pos.shape[2]] = self.pos
        self.pos = bigger

    # --- what is seen ---------------------------------------------------------------------------
    def observe(self, player: int | npt.ArrayLike) -> FloatArray:
        """(n, NUM_PLANES, 10, 10) float32 planes (`sim.planes`) for seat `player` (or one seat per game)."""
        players = np.broadcast_to(np.asarray(player, np.int64), (self.n_envs,)).copy()
        out = np.empty((self.n_envs, NUM_PLANES, SIZE, SIZE), np.float32)
        K.obs_kernel(self.board, self.st, self.captured, players, self.roster, out)
        return out

    @property
    def to_move(self) -> IntArray:
        """Seat to move per game (meaningless in ended games)."""
        return self.st[:, K.PLAYER].copy()

    @property
    def done(self) -> BoolArray:
        out: BoolArray = self.st[:, K.DONE] != 0
        return out

    @property
    def move_count(self) -> IntArray:
        return self.st[:, K.MOVES].copy()

    @property
    def winner(self) -> IntArray:
        """0 red, 1 blue, -1 a draw or a game still going."""
        return self.st[:, K.WINNER].copy()

    def termination(self, env: int) -> str:
        """The reference `Termination.value` of a game's ending ('' while it goes on)."""
        return TERMINATIONS[int(self.st[env, K.TERM])]

    @property
    def zobrist(self) -> IntArray:
        """Zobrist hash of each position, as the reference engine's `_hash` (viewed as signed 64 bits)."""
        return self.st[:, K.HASH].copy()

    # --- benchmarks -------------------------------------------------------------------------
    def random_rollouts(self, n_games: int, seed: int = 0) -> RolloutStats:
        """Play `n_games` uniformly random games from random setups inside one compiled loop (one core),
        with this simulator's options; the batch arrays are not touched."""
        lengths, terms, winners = K.rollout_kernel(
            n_games, seed, self._pieces, self._home, self.two_squares, self.more_squares, self.max_moves,
            self.legal.shape[1], INITIAL_CHASE_CAPACITY,
        )  # fmt: skip
        endings: dict[str, int] = {}
        for t, c in zip(*np.unique(terms, return_counts=True), strict=True):
            endings[TERMINATIONS[int(t)]] = int(c)
        wins = (int((winners == 0).sum()), int((winners == 1).sum()), int((winners < 0).sum()))
        return RolloutStats(n_games, int(lengths.sum()), lengths, endings, wins)
