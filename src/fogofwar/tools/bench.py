"""`fogofwar bench`: how fast the engines play random games (both repetition rules on).

`bench_random_play` measures the reference engine (`fogofwar.games.stratego.rules`) in this process;
`bench_batched` the batched simulator (`fogofwar.games.stratego.sim`, numba); `bench_parallel` runs either in `jobs`
worker processes at once (all cores) and adds up their moves and games over the wall-clock time.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fogofwar.core.protocol import State
from fogofwar.games.stratego.rules import StrategoGame
from fogofwar.games.stratego.setup import random_setup
from fogofwar.games.stratego.variants import DEFAULT_CAPS


@dataclass
class BenchResult:
    variant: str
    games: int
    moves: int
    seconds: float
    setup_seconds: float
    endings: dict[str, int]
    engine: str = "reference"
    jobs: int = 1
    cpu_seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def moves_per_second(self) -> float:
        return self.moves / max(self.seconds - self.setup_seconds, 1e-9)

    @property
    def games_per_second(self) -> float:
        return self.games / max(self.seconds, 1e-9)

    @property
    def cpu_moves_per_second(self) -> float:
        """Moves per second of CPU time of the playing processes (what a busy machine's other load hides)."""
        return self.moves / max(self.cpu_seconds - self.setup_seconds * self.jobs, 1e-9) if self.cpu_seconds else 0.0

    def line(self, labelled: bool = False) -> str:
        ends = ", ".join(f"{k} {v}" for k, v in sorted(self.endings.items()))
        if labelled or self.engine != "reference" or self.jobs != 1:
            cores = f"{self.jobs} core{'s' if self.jobs > 1 else ''}"
            cpu = f"  [{self.cpu_moves_per_second:,.0f} moves/s of CPU time]" if self.cpu_seconds else ""
            return (
                f"{self.variant:<8} {self.engine:<9} {cores:<8} {self.games:>7} games {self.moves:>10} moves  "
                f"{self.moves_per_second:>11,.0f} moves/s  {self.games_per_second:>8.1f} games/s  ({ends}){cpu}"
            )
        return (
            f"{self.variant:<8} {self.games:>6} games {self.moves:>9} moves  "
            f"{self.moves_per_second:>9,.0f} moves/s  {self.games_per_second:>7.1f} games/s  ({ends})"
        )


def bench_random_play(variant: str, seconds: float = 5.0, seed: int = 1, max_games: int | None = None) -> BenchResult:
    """Play uniformly random games for about `seconds`: setups are random, every move goes through
    `legal_actions()` and `apply()` with the two-squares and more-squares rules on."""
    game = StrategoGame(variant, max_moves=DEFAULT_CAPS.get(variant, 2000))

    def set_up(rng: random.Random) -> State:
        state = game.new_initial_state()
        for player in (0, 1):
            state.apply_setup(player, random_setup(game.variant, player, rng))
        return state

    return _random_games(variant, set_up, seconds, seed, max_games)


def bench_lotr(
    variant: str = "powers", seconds: float = 5.0, seed: int = 1, max_games: int | None = None, max_moves: int = 2000
) -> BenchResult:
    """Random Stratego LOTR games of one rulebook game (`classic`, `powers`, `ring`) for about `seconds`: random
    armies, then uniformly random legal actions (moves and, in Games 2 and 3, powers) through `legal_actions()` and
    `apply()`, the back-and-forth rule on; a game reaching `max_moves` moves is a draw."""
    from fogofwar.games.lotr.rules import LotrGame
    from fogofwar.games.lotr.rules import random_setup as lotr_setup

    game = LotrGame(variant, max_moves=max_moves)

    def set_up(rng: random.Random) -> State:
        state = game.new_initial_state()
        for player in (0, 1):
            state.apply_setup(player, lotr_setup(game, player, rng))
        return state

    return _random_games(f"lotr-{variant}", set_up, seconds, seed, max_games)


def _random_games(
    label: str, set_up: Callable[[random.Random], State], seconds: float, seed: int, max_games: int | None
) -> BenchResult:
    """Whole random games for about `seconds`: `set_up` places both armies (timed apart), then uniformly random
    legal actions until the game ends; the endings are counted."""
    rng = random.Random(seed)
    games = moves = 0
    setup_time = 0.0
    endings: dict[str, int] = {}
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds and (max_games is None or games < max_games):
        t0 = time.perf_counter()
        state = set_up(rng)
        setup_time += time.perf_counter() - t0
        choice = rng.choice
        while not state.is_terminal():
            state.apply(choice(state.legal_actions()))
            moves += 1
        games += 1
        outcome = state.outcome()
        assert outcome is not None
        endings[outcome.termination.value] = endings.get(outcome.termination.value, 0) + 1
    return BenchResult(
        label, games, moves, time.perf_counter() - start, setup_time, endings, cpu_seconds=time.process_time() - cpu
    )


def jit_warmup(variant: str = "classic") -> tuple[float, bool]:
    """Compile (or load from numba's cache) the simulator's kernels.

    Returns the seconds it took and whether every kernel came from the cache."""
    start = time.perf_counter()
    from fogofwar.games.stratego.sim import BatchSim, kernels

    sim = BatchSim(variant, 2, max_moves=DEFAULT_CAPS.get(variant, 2000))
    sim.random_rollouts(1, seed=0)
    sim.reset(seed=0)
    sim.step(sim.sample_actions(seed=0))
    sim.observe(0)
    sim.legal_mask()
    seconds = time.perf_counter() - start
    missed = sum(
        sum(obj.stats.cache_misses.values())
        for obj in vars(kernels).values()
        if hasattr(obj, "stats") and hasattr(obj, "py_func")
    )
    return seconds, missed == 0


def bench_batched(variant: str, seconds: float = 5.0, seed: int = 1, chunk: int = 20) -> BenchResult:
    """Random games in the batched simulator's compiled loop (`BatchSim.random_rollouts`) for about `seconds`
    (call `jit_warmup` first: compile time is not counted here). Setups are random and counted in."""
    from fogofwar.games.stratego.sim import BatchSim

    sim = BatchSim(variant, 1, max_moves=DEFAULT_CAPS.get(variant, 2000))
    games = moves = 0
    endings: dict[str, int] = {}
    start, cpu = time.perf_counter(), time.process_time()
    i = 0
    while time.perf_counter() - start < seconds:
        stats = sim.random_rollouts(chunk, seed=seed * 1_000_003 + i)
        i += 1
        games += stats.games
        moves += stats.moves
        for k, v in stats.terminations.items():
            endings[k] = endings.get(k, 0) + v
    return BenchResult(
        variant, games, moves, time.perf_counter() - start, 0.0, endings, "batched", 1, time.process_time() - cpu
    )


def _worker(args: tuple[str, str, float, int]) -> BenchResult:
    engine, variant, seconds, seed = args
    if engine == "batched":
        return bench_batched(variant, seconds=seconds, seed=seed)
    return bench_random_play(variant, seconds=seconds, seed=seed)


def bench_parallel(
    engine: str, variant: str, seconds: float = 5.0, seed: int = 1, jobs: int | None = None
) -> BenchResult:
    """`engine` ('reference' or 'batched') in `jobs` processes at once (default: every core)."""
    jobs = jobs or os.cpu_count() or 1
    if engine == "batched":
        jit_warmup(variant)  # the forked workers inherit the compiled kernels
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    start = time.perf_counter()
    with ctx.Pool(jobs) as pool:
        parts = pool.map(_worker, [(engine, variant, seconds, seed + 7919 * k) for k in range(jobs)])
    wall = time.perf_counter() - start
    endings: dict[str, int] = {}
    for part in parts:
        for k, v in part.endings.items():
            endings[k] = endings.get(k, 0) + v
    # Rates over the workers' common measuring window (pool start-up is not play).
    window = max(p.seconds for p in parts)
    return BenchResult(
        variant,
        sum(p.games for p in parts),
        sum(p.moves for p in parts),
        window,
        sum(p.setup_seconds for p in parts) / len(parts),
        endings,
        engine,
        jobs,
        sum(p.cpu_seconds for p in parts),
        {"wall_with_startup": wall},
    )


def versions() -> str:
    """numba, llvmlite and numpy versions (or what is missing)."""
    out = []
    for name in ("numba", "llvmlite", "numpy"):
        try:
            mod = __import__(name)
            out.append(f"{name} {mod.__version__}")
        except ImportError:
            out.append(f"{name} missing")
    return ", ".join(out)


def machine() -> str:
    """The CPU model, core count, OS and load average (a shared machine shows in the load)."""
    import platform

    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), model)
    except OSError:
        pass
    load = f", load average {os.getloadavg()[0]:.2f} at the start" if hasattr(os, "getloadavg") else ""
    return f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}{load}"


ADMIRAL_CAP = 100
"""Turn cap of `bench_admiral` (ADM-END-3): a random game still going after it is a draw."""


@dataclass
class AdmiralBenchResult:
    games: int
    turns: int
    actions: int
    chance: int
    seconds: float
    max_turns: int
    endings: dict[str, int]

    def line(self) -> str:
        s = max(self.seconds, 1e-9)
        ends = ", ".join(f"{k} {v}" for k, v in sorted(self.endings.items()))
        return (
            f"admiral  {self.games:>5} games {self.turns:>7} turns {self.actions:>9} actions "
            f"({self.chance} dice)  {self.turns / s:>8,.1f} turns/s  {self.games / s:>6.2f} games/s  "
            f"{self.actions / s:>9,.0f} actions/s  (cap {self.max_turns} turns; {ends})"
        )


def bench_admiral(
    seconds: float = 5.0, seed: int = 1, max_turns: int = ADMIRAL_CAP, max_games: int | None = None
) -> AdmiralBenchResult:
    """Random Admiral games for about `seconds` (whole games: the last one is finished): both seats pick
    uniformly among `legal_actions()`, dice (chance nodes) are sampled from `chance_outcomes()`; deployment
    included. A game reaching `max_turns` turns ends in a draw."""
    from fogofwar.core.protocol import CHANCE
    from fogofwar.games.admiral import AdmiralGame

    game = AdmiralGame(max_turns=max_turns)
    rng = random.Random(seed)
    games = turns = actions = chance = 0
    endings: dict[str, int] = {}
    start = time.perf_counter()
    while time.perf_counter() - start < seconds and (max_games is None or games < max_games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                outcomes = state.chance_outcomes()
                state.apply(rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0])
                chance += 1
            else:
                state.apply(rng.choice(state.legal_actions()))
            actions += 1
        games += 1
        turns += state.turn
        outcome = state.outcome()
        assert outcome is not None
        endings[outcome.termination.value] = endings.get(outcome.termination.value, 0) + 1
    return AdmiralBenchResult(games, turns, actions, chance, time.perf_counter() - start, max_turns, endings)
