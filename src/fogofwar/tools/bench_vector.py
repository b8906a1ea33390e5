"""`fogofwar bench --engine vector`: steps/s of the Gymnasium vector env over the fused kernel.

A measured step is what a training loop does: draw a random legal action per game (`sample_actions`), then
`StrategoVectorEnv.step` (the learner's move, the kernel's random opponent's reply, autoreset, the next
observation and mask into the buffers; `copy=False`). Every configuration (batch size x threads, of numba's pool
or "py-threads", Python threads, or processes) is measured in `rounds` slices taken in turn, so that a busy
machine's load falls on all of them alike; the rate is the total over the slices. CPU time is reported beside
wall time: on a shared machine it shows what the process itself did.
"""

from __future__ import annotations

import multiprocessing
import time
from dataclasses import dataclass, field
from typing import Any

from fogofwar.games.stratego.variants import DEFAULT_CAPS


@dataclass
class VectorConfig:
    variant: str
    n_envs: int
    threads: int = 1
    processes: int = 1
    parallel: str = "auto"

    @property
    def label(self) -> str:
        if self.processes > 1:
            return f"{self.processes} processes"
        if self.parallel == "threads" and self.threads > 1:
            return f"{self.threads} py-threads"
        return f"{self.threads} thread{'s' if self.threads > 1 else ''}"


@dataclass
class VectorResult:
    config: VectorConfig
    steps: int = 0
    moves: int = 0
    games: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    rounds: list[float] = field(default_factory=list)  # env-steps/s of each slice

    @property
    def steps_per_second(self) -> float:
        return self.steps / max(self.seconds, 1e-9)

    def line(self) -> str:
        c = self.config
        spread = f"rounds {min(self.rounds):,.0f}-{max(self.rounds):,.0f}" if self.rounds else ""
        cpu = self.steps / max(self.cpu_seconds, 1e-9)
        return (
            f"{c.variant:<8} vector  N={c.n_envs:<5} {c.label:<12} {self.steps_per_second:>11,.0f} env-steps/s "
            f"{self.moves / max(self.seconds, 1e-9):>11,.0f} moves/s {self.games / max(self.seconds, 1e-9):>8,.0f} "
            f"games/s  [{cpu:,.0f} env-steps/s of CPU time; {spread}]"
        )


class _Runner:
    """One vector env being measured, kept between slices."""

    def __init__(self, variant: str, n_envs: int, threads: int, seed: int, parallel: str = "auto") -> None:
        from fogofwar.games.stratego.envs.vector_env import StrategoVectorEnv

        self.env = StrategoVectorEnv(
            n_envs, variant, max_moves=DEFAULT_CAPS.get(variant, 2000), threads=threads, copy=False, parallel=parallel
        )
        self.env.reset(seed=seed)
        for _ in range(3):  # warm the threads and caches
            self.env.step(self.env.sample_actions())

    def _moves_in_play(self) -> int:
        from fogofwar.games.stratego.sim import kernels as K
        from fogofwar.games.stratego.sim import vector_kernels as V

        sim = self.env.sim
        live = sim.ctl[:, V.C_NEEDS_RESET] == 0
        return int(sim.st[live, K.MOVES].sum())

    def run(self, seconds: float) -> tuple[int, int, int, float, float]:
        """(env-steps, moves, games, wall seconds, CPU seconds) of about `seconds` of stepping."""
        env, steps, moves, games = self.env, 0, -self._moves_in_play(), 0
        start, cpu = time.perf_counter(), time.process_time()
        while time.perf_counter() - start < seconds:
            for _ in range(8):
                _, _, term, trunc, info = env.step(env.sample_actions())
                if info:
                    ended = term | trunc
                    games += int(ended.sum())
                    moves += int(info["moves"][ended].sum())
            steps += 8 * env.num_envs
        wall, cpu_used = time.perf_counter() - start, time.process_time() - cpu
        return steps, moves + self._moves_in_play(), games, wall, cpu_used


def _worker(args: tuple[str, int, int, float, int, Any, Any]) -> None:
    variant, n_envs, rounds, seconds, seed, barrier, queue = args
    runner = _Runner(variant, n_envs, 1, seed)
    for _ in range(rounds):
        barrier.wait()
        queue.put(runner.run(seconds))


def _process_round_robin(config: VectorConfig, rounds: int, seconds: float, seed: int) -> VectorResult:
    """`config.processes` spawned workers (each with its own `n_envs` games) measured together, round by round."""
    ctx = multiprocessing.get_context("spawn")  # not fork: a parent that used numba's OpenMP pool must not fork
    barrier, queue = ctx.Barrier(config.processes), ctx.Queue()
    procs = [
        ctx.Process(target=_worker, args=((config.variant, config.n_envs, rounds, seconds, seed + k, barrier, queue),))
        for k in range(config.processes)
    ]
    for p in procs:
        p.start()
    result = VectorResult(config)
    for _ in range(rounds):
        parts = [queue.get() for _ in procs]
        window = max(p[3] for p in parts)
        steps = sum(p[0] for p in parts)
        result.steps += steps
        result.moves += sum(p[1] for p in parts)
        result.games += sum(p[2] for p in parts)
        result.seconds += window
        result.cpu_seconds += sum(p[4] for p in parts)
        result.rounds.append(steps / window)
    for p in procs:
        p.join()
    return result


def bench_vector(
    configs: list[VectorConfig], seconds: float = 10.0, rounds: int = 3, seed: int = 1
) -> list[VectorResult]:
    """Measure each in-process config for `seconds` in all, in `rounds` interleaved slices; then the
    multi-process ones (their workers run at the same time, so they are measured one config after another)."""
    local = [c for c in configs if c.processes == 1]
    runners = [_Runner(c.variant, c.n_envs, c.threads, seed, c.parallel) for c in local]
    results = {id(c): VectorResult(c) for c in configs}
    for _ in range(rounds):
        for c, runner in zip(local, runners, strict=True):
            steps, moves, games, wall, cpu = runner.run(seconds / rounds)
            r = results[id(c)]
            r.steps, r.moves, r.games = r.steps + steps, r.moves + moves, r.games + games
            r.seconds, r.cpu_seconds = r.seconds + wall, r.cpu_seconds + cpu
            r.rounds.append(steps / wall)
    for runner in runners:
        runner.env.close()
    for c in configs:
        if c.processes > 1:
            results[id(c)] = _process_round_robin(c, rounds, seconds / rounds, seed)
    return [results[id(c)] for c in configs]


def default_configs(
    variants: list[str], sizes: list[int], one_core: bool, all_cores: bool, jobs: int
) -> list[VectorConfig]:
    """Per variant and batch size: one thread (`one_core`); `jobs` threads (numba's pool, and Python threads from
    `PRANGE_FROM` games, where the two differ) and `jobs` processes (`all_cores`)."""
    from fogofwar.games.stratego.sim.vector import PRANGE_FROM

    out = []
    for v in variants:
        for n in sizes:
            if one_core:
                out.append(VectorConfig(v, n))
            if all_cores and jobs > 1:
                if n >= jobs:
                    out.append(VectorConfig(v, n, threads=jobs))
                if n >= PRANGE_FROM:
                    out.append(VectorConfig(v, n, threads=jobs, parallel="threads"))
                out.append(VectorConfig(v, n, processes=jobs))
    return out
