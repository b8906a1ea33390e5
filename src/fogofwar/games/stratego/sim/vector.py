"""`VectorStratego`: many Stratego games, each step one compiled call into preallocated buffers.

>>> vs = VectorStratego("barrage", n_envs=4)
>>> vs.reset(seed=1)
>>> vs.planes.shape, vs.planes.dtype, vs.counts.shape, vs.mask.shape
((4, 33, 10, 10), dtype('uint8'), (4, 12), (4, 1368))
>>> vs.step(vs.sample_actions())
>>> vs.rewards.shape, vs.terminated.dtype
((4,), dtype('bool'))

What `BatchSim` does in four Python calls (step, sample, observe, mask) a step of `VectorStratego` does in one:
the kernel (`vector_kernels.step_env`) plays the learner's action, lets the random opponent answer inside the
kernel, deals new random setups to games that ended (autoreset; a deal whose start or whose opponent's first
move already ends the game is dealt again, so no episode is over before the learner acts), and writes into the
buffers

* `planes` (n, 33, 10, 10) uint8: planes 0-32 of `sim.planes` from the viewing seat;
* `counts` (n, 12) uint8: the constant planes 33-44 as a vector (enemy pieces not accounted for, per rank);
* `to_place` (n, 12) uint8: in the setup phase, the viewing seat's pieces still to place per rank;
* `mask` (n, 1368) bool: the legal actions of the viewing seat (compact move ids; setup choices in the
  setup phase); all False when it is not that seat's turn or the game is over;
* `rewards` (n,) float32 for the viewing seat and `seat_rewards` (n, 2) for red and blue;
* `terminated`, `truncated` (n,) bool: the game ended at this step (the move cap truncates; every other
  ending, an illegal action included, terminates).

With `opponent="random"` the viewing seat is the learner's (`seat`: 0, 1, or "random" per episode); with
`opponent=None` both seats are played from outside and the viewing seat is the one whose action the game
waits for (`view`). Setups: "random" (both drawn in the kernel), "menu" (a seat's first action picks an
army of `setup_menu` by index) or "pieces" (a seat places its pieces one per action, in roster order, an
action being the square). Illegal actions lose the game (`illegal="lose"`) or raise (`"raise"`).

Orientation: with `orientation="absolute"` (the simulator's default, as `sim.planes`) both seats see the board's
own squares; with `"own"` (the environments' default) blue sees it turned round (square s at 99 - s), as the
policy net's planes do, so that each seat's home rows are rows 0-3 of its planes: its planes, its mask and the
actions it gives are all in that view (`tables.FLIP_COMPACT` maps a compact move id between the two), and a
net that plays both seats sees the same kind of position from either.

Cores: `threads` > 1 splits a step over that many threads, `parallel="prange"` (the default from `PRANGE_FROM`
games) over numba's thread pool (fastest on a quiet machine, but its OpenMP threads spin while they wait: a busy
machine can make it slower than one thread), or `parallel="threads"` in Python threads, the GIL released (each
steps its share on its own, waiting without spinning: the choice for a shared machine).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

import numba
import numpy as np
import numpy.typing as npt

from fogofwar.games.stratego.rules import DEFAULT_TWO_SQUARES
from fogofwar.games.stratego.sim import kernels as K
from fogofwar.games.stratego.sim import vector_kernels as V
from fogofwar.games.stratego.sim.batch import INITIAL_CHASE_CAPACITY
from fogofwar.games.stratego.sim.menu import CHAIR, default_menu, menu_table
from fogofwar.games.stratego.sim.tables import (
    NUM_COMPACT_ACTIONS,
    NUM_RANKS,
    TERMINATIONS,
    max_legal_moves,
    roster_counts,
)
from fogofwar.games.stratego.variants import DEFAULT_CAPS, Variant, get_variant
from fogofwar.grid.board import HOME_ROWS, SIZE

U8 = npt.NDArray[np.uint8]
VECTOR_TERMINATIONS = (*TERMINATIONS, "illegal_action")
"""Termination names by code: the simulator's, then `ILLEGAL_ACTION` (5)."""
SETUPS = ("random", "menu", "pieces")
AUTORESETS = ("next_step", "same_step", "disabled")
ORIENTATIONS = ("absolute", "own")
PRANGE_FROM = 32
"""From this many games (per thread) on, the prange kernel steps them (faster even on one thread); below, the plain
kernel (a prange call costs a microsecond or two to start)."""
_STEP_PRANGE = cast(Callable[..., int], V.step_prange)  # numba's parallel dispatcher is typed apart
_CHASE_MARGIN = 8  # chase positions one step can add to a seat's record (two moves, at most 3 each)


_ACTION_SALT = 0x5DEECE66D  # sample_actions' stream differs from the game's own


def _seed_array(seed: int | Sequence[int], n: int, salt: int = 0) -> npt.NDArray[np.uint64]:
    """Game i's seed is seed + i (as gymnasium's SyncVectorEnv seeds its copies) or seed[i], mixed with `salt`."""
    if not isinstance(seed, int | np.integer):
        seeds = np.array([int(s) % 2**64 for s in seed], np.uint64)
        if seeds.shape != (n,):
            raise ValueError(f"{len(seeds)} seeds for {n} games")
        return seeds ^ np.uint64(salt)
    base = np.uint64(int(seed) % 2**64)
    with np.errstate(over="ignore"):
        return (np.arange(n, dtype=np.uint64) + base) ^ np.uint64(salt)


class VectorStratego:
    """`n_envs` Stratego games stepped together by the fused kernel (module docstring)."""

    def __init__(
        self,
        variant: str = "classic",
        n_envs: int = 1,
        *,
        two_squares: int = DEFAULT_TWO_SQUARES,
        more_squares: bool = True,
        max_moves: int | None = None,
        opponent: str | None = "random",
        seat: int | str = 0,
        setup: str = "random",
        setup_menu: Sequence[str] | None = None,
        autoreset: str = "next_step",
        illegal: str = "lose",
        threads: int = 1,
        parallel: str = "auto",
        orientation: str = "absolute",
    ) -> None:
        self.variant: Variant = get_variant(variant)
        if self.variant.composition != "exact" or self.variant.setup_area != "home_rows":
            raise ValueError(f"{variant}: the vector environments need a fixed roster set up in the home rows")
        if n_envs < 1 or threads < 1:
            raise ValueError("n_envs and threads must be at least 1")
        _check("opponent", opponent, ("random", None))
        _check("setup", setup, SETUPS)
        _check("autoreset", autoreset, AUTORESETS)
        _check("illegal", illegal, ("lose", "raise"))
        _check("parallel", parallel, ("auto", "threads", "prange"))
        _check("seat", seat, (0, 1, "random"))
        _check("orientation", orientation, ORIENTATIONS)
        cap = DEFAULT_CAPS.get(self.variant.name, 2000) if max_moves is None else int(max_moves)
        if cap < 0 or two_squares < 0:
            raise ValueError("max_moves and two_squares must be >= 0 (0 turns them off)")
        self.n_envs, self.max_moves, self.setup, self.illegal = n_envs, cap, setup, illegal
        self.opponent, self.seat, self.autoreset = opponent, seat, autoreset
        self.roster = roster_counts(self.variant)
        pieces = np.array([int(r) for r, c in self.variant.roster for _ in range(c)], np.int64)
        home = np.array([[r * SIZE + c for r in HOME_ROWS[p] for c in range(SIZE)] for p in (0, 1)], np.int64)
        if setup == "menu":
            self.setup_menu = list(setup_menu) if setup_menu is not None else default_menu(self.variant)
        else:
            self.setup_menu = []
        menu = menu_table(self.variant, self.setup_menu) if self.setup_menu else np.zeros((1, 40), np.int64)
        if len(self.setup_menu) > NUM_COMPACT_ACTIONS:
            raise ValueError(f"a setup menu holds at most {NUM_COMPACT_ACTIONS} setups")
        self.cfg = np.zeros(V.NUM_CFG, np.int64)
        self.cfg[V.CFG_LIMIT], self.cfg[V.CFG_MORE], self.cfg[V.CFG_MAX_MOVES] = two_squares, more_squares, cap
        self.cfg[V.CFG_OPPONENT] = opponent == "random"
        self.cfg[V.CFG_SETUP] = SETUPS.index(setup)
        self.cfg[V.CFG_AUTORESET] = AUTORESETS.index(autoreset)
        self.cfg[V.CFG_SEAT] = V.SEAT_RANDOM if seat == "random" else int(seat)
        self.cfg[V.CFG_MENU], self.cfg[V.CFG_PIECES] = len(self.setup_menu), len(pieces)
        self.cfg[V.CFG_ORIENT] = orientation == "own"
        self.orientation = orientation
        self.tables = (pieces, home, CHAIR, menu, self.roster)
        n = n_envs
        self.board = np.zeros((n, SIZE * SIZE), np.uint8)
        self.st = np.zeros((n, K.NUM_FIELDS), np.int64)
        self.st[:, K.DONE] = 1
        self._pos = np.zeros((n, 2, INITIAL_CHASE_CAPACITY), np.int64)
        self.ctl = np.zeros((n, V.NUM_CTL), np.int64)
        self.codes = np.zeros((n, SIZE * SIZE), np.uint8)
        self._rest = (
            np.zeros((n, 2, K.NUM_BOUNDARIES), np.int64),  # runs
            np.zeros((n, 2, 40), np.int64),  # mob
            np.full((n, SIZE * SIZE), -1, np.int64),  # mobidx
            np.zeros((n, max_legal_moves(self.variant)), np.int64),  # legal
            np.zeros((n, 2, NUM_RANKS), np.int64),  # captured
        )
        self.rng = np.zeros(n, np.uint64)
        self._act_rng = np.zeros(n, np.uint64)
        self._seeded = False
        self.planes = np.zeros((n, V.NUM_OBS_PLANES, SIZE, SIZE), np.uint8)
        self.counts = np.zeros((n, NUM_RANKS), np.uint8)
        self.to_place = np.zeros((n, NUM_RANKS), np.uint8)
        self.mask = np.zeros((n, NUM_COMPACT_ACTIONS), np.bool_)
        self.seat_rewards = np.zeros((n, 2), np.float32)
        self.terminated = np.zeros(n, np.bool_)
        self.truncated = np.zeros(n, np.bool_)
        m = n if autoreset == "same_step" else 0
        self.final_planes = np.zeros((m, V.NUM_OBS_PLANES, SIZE, SIZE), np.uint8)
        self.final_counts = np.zeros((m, NUM_RANKS), np.uint8)
        self.rewards = np.zeros(n, np.float32)
        self.out = (
            self.planes, self.counts, self.to_place, self.mask, self.seat_rewards, self.rewards, self.terminated,
            self.truncated, self.final_planes, self.final_counts,
        )  # fmt: skip
        self._most = 0
        if parallel == "auto":
            parallel = "prange" if threads > 1 and n_envs >= PRANGE_FROM else "threads"
        self.threads, self.parallel = threads, parallel
        self._chunks = [(n * i // threads, n * (i + 1) // threads) for i in range(threads)]
        self._prange = parallel == "prange"
        self._numba_threads = min(threads, int(numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]
        self._pool = ThreadPoolExecutor(threads - 1) if threads > 1 and not self._prange else None
        self._chunk_kernel: Callable[..., int] | None = None  # decided at the first step (_pick_chunk_kernel)
        self._pack()

    def _pack(self) -> None:
        runs, mob, mobidx, legal, captured = self._rest
        self.S = (self.board, self.st, runs, self._pos, mob, mobidx, legal, captured, self.ctl, self.codes)

    # --- episodes ------------------------------------------------------------------------------------
    def reset(self, seed: int | Sequence[int] | None = None, envs: npt.ArrayLike | None = None) -> None:
        """Start new episodes (all games, or those of the bool mask / indices `envs`). With `seed`, game i
        draws from the seed `seed + i` (or `seed[i]` for a list); without, each game's stream goes on (first
        use: OS entropy)."""
        which = np.ones(self.n_envs, np.bool_) if envs is None else _mask_of(envs, self.n_envs)
        if seed is None and not self._seeded:
            seed = int(np.random.SeedSequence().entropy) % 2**63  # type: ignore[arg-type]
        if seed is not None:
            V.seed_kernel(self.rng, _seed_array(seed, self.n_envs), which)
            V.seed_kernel(self._act_rng, _seed_array(seed, self.n_envs, _ACTION_SALT), which)
            self._seeded = True
        V.reset_range(self.S, self.tables, self.cfg, self.rng, which, self.out)

    def step(self, actions: npt.ArrayLike) -> None:
        """One step of every game (one action per game: compact move ids, setup choices in the setup
        phase; ignored by games that start again at this step). The buffers then hold the results."""
        acts = np.asarray(actions, np.int64).reshape(self.n_envs)
        if self.illegal == "raise":
            bad = V.check_kernel(self.S, self.tables, self.cfg, acts)
            if bad >= 0:
                raise ValueError(f"env {bad}: action {int(acts[bad])} is not legal now")
        if self._most + _CHASE_MARGIN > self._pos.shape[2]:
            self._grow_positions(self._most + _CHASE_MARGIN)
        args: tuple[Any, ...] = (self.S, self.tables, self.cfg, self.rng, acts)
        if self._prange:
            numba.set_num_threads(self._numba_threads)
            self._most = _STEP_PRANGE(*args, 0, self.n_envs, self.out)
            return
        kernel: Callable[..., int] = self._chunk_kernel or self._pick_chunk_kernel(args)
        if self._pool is None:
            self._most = kernel(*args, 0, self.n_envs, self.out)
            return
        futures = [self._pool.submit(kernel, *args, lo, hi, self.out) for lo, hi in self._chunks[1:]]
        lo, hi = self._chunks[0]
        most = kernel(*args, lo, hi, self.out)
        self._most = max([most, *(f.result() for f in futures)])

    def _pick_chunk_kernel(self, args: tuple[Any, ...]) -> Callable[..., int]:
        """The kernel each thread runs on its chunk: the prange one on one numba thread for large chunks, if
        numba's threading layer may be entered from several threads at once (OpenMP, TBB; not workqueue)."""
        kernel: Callable[..., int] = V.step_range
        if self.n_envs // self.threads >= PRANGE_FROM:
            _on_one_numba_thread(*args, 0, 0, self.out)  # an empty range: starts numba's threading layer
            if self.threads == 1 or numba.threading_layer() in ("omp", "tbb"):
                kernel = _on_one_numba_thread
        self._chunk_kernel = kernel
        return kernel

    def _grow_positions(self, need: int) -> None:
        cap = self._pos.shape[2]
        while cap < need:
            cap *= 2
        bigger = np.zeros((self.n_envs, 2, cap), np.int64)
        bigger[:, :, : self._pos.shape[2]] = self._pos
        self._pos = bigger
        self._pack()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    # --- reading the games ----------------------------------------------------------------------------
    @property
    def view(self) -> npt.NDArray[np.int64]:
        """The seat whose observation the buffers hold, per game."""
        return self.ctl[:, V.C_VIEW]

    @property
    def in_setup(self) -> npt.NDArray[np.bool_]:
        """Games in the setup phase (their actions choose setups)."""
        out: npt.NDArray[np.bool_] = self.ctl[:, V.C_PHASE] == V.PHASE_SETUP
        return out

    def endings(self) -> dict[str, Any]:
        """The ending of each game that ended at the last step: termination code (`VECTOR_TERMINATIONS`),
        winner (-1 a draw), moves played; meaningless where neither `terminated` nor `truncated` is set."""
        return {
            "termination": self.ctl[:, V.C_END_TERM].copy(),
            "winner": self.ctl[:, V.C_END_WINNER].copy(),
            "moves": self.ctl[:, V.C_END_MOVES].copy(),
        }

    def observe(self, seats: int | npt.ArrayLike) -> dict[str, npt.NDArray[Any]]:
        """Fresh arrays of the observation and mask of `seats` (one seat, or one per game)."""
        n = self.n_envs
        who = np.broadcast_to(np.asarray(seats, np.int64), (n,)).copy()
        planes = np.empty_like(self.planes)
        counts, to_place = np.empty_like(self.counts), np.empty_like(self.to_place)
        mask = np.empty_like(self.mask)
        V.observe_kernel(self.S, self.tables, self.cfg, who, planes, counts, to_place, mask)
        return {"planes": planes, "counts": counts, "to_place": to_place, "action_mask": mask}

    def sample_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action per game (-1 where none), from a stream apart from the games'."""
        out = np.empty(self.n_envs, np.int64)
        runs, mob, mobidx, legal, captured = self._rest
        V.sample_kernel(self.st, legal, self.ctl, self.cfg, self.mask, self._act_rng, out)
        return out

    def full_planes(self, seat_planes: U8 | None = None, counts: U8 | None = None) -> npt.NDArray[np.float32]:
        """The 45 float32 planes of `sim.planes` (as `BatchSim.observe`) rebuilt from compact ones."""
        p = self.planes if seat_planes is None else seat_planes
        c = self.counts if counts is None else counts
        out = np.zeros((p.shape[0], 45, SIZE, SIZE), np.float32)
        out[:, : V.NUM_OBS_PLANES] = p
        out[:, V.NUM_OBS_PLANES :] = c[:, :, None, None]
        return out


def _on_one_numba_thread(*args: Any) -> int:
    """step_prange on the calling thread alone (numba's thread count is per calling thread)."""
    numba.set_num_threads(1)
    return _STEP_PRANGE(*args)


def _check(name: str, value: object, allowed: tuple[object, ...]) -> None:
    if value not in allowed or isinstance(value, bool):
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}, not {value!r}")


def _mask_of(envs: npt.ArrayLike, n: int) -> npt.NDArray[np.bool_]:
    arr = np.asarray(envs)
    if arr.dtype == np.bool_:
        return arr.reshape(n).copy()
    which = np.zeros(n, np.bool_)
    which[arr.astype(np.int64)] = True
    return which
