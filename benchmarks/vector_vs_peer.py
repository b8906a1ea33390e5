"""fogofwar's environments over the fused kernel side by side with stratego_env (J.B. Lanier, Python + numba).

    .venv/bin/python benchmarks/vector_vs_peer.py --peer PATH [--seconds 30] [--rounds 5] [--paths all|envs|layer]

PATH is a checkout of https://github.com/JBLanier/stratego_env (the folder that holds the `stratego_env`
package), kept outside this repository and never committed. With numpy 2 its `np.reshape(..., newshape=...)`
calls in `stratego_env/stratego_multiagent_env.py` must pass the shape positionally (`sed -i 's/newshape=//'`).
It imports the old `gym` (only `gym.spaces.Box/Dict/Discrete`) and `h5py` (only for curriculum start states,
unused here): when they are not installed this script stands in gymnasium's spaces and an empty `h5py`, so both
sides run on the same numpy and numba.

Measured, in CPU time of this process, interleaved in `--rounds` slices so that a busy machine's load falls on
every path alike (classic = the peer's STANDARD, barrage = its BARRAGE; move caps 2,000 / 1,000 on both sides).
The compiled layers (`--paths layer`), whole random games without observations, each side's fastest way:

* peer compiled layer: `StrategoProceduralEnv`, the numba functions under the peer's env, called once a move from
  Python as its env calls them (the mover's legal-move mask, a uniformly random legal move, the next state, the
  ending), random setups from its own `random_initial_state_fn`; it has no whole-game compiled loop;
* our compiled random rollouts: `BatchSim.random_rollouts`, whole random games in one compiled loop (setups
  included), 16 games a call, as `fogofwar bench`'s "batched 1 core" row; ratios are to the peer's compiled layer.

The environments (`--paths envs`):

* peer env.step: `StrategoMultiAgentEnv` (partially observable observations, the cheapest mode for the peer)
  stepped with a uniformly random legal action from its mask, resetting at each game's end;
* our AEC: `CompiledStrategoAECEnv`: `last()` then `step()` with a random legal action from the mask;
* our Gymnasium env: `CompiledStrategoEnv`: a step is the learner's move *and* the kernel's random opponent's
  reply (two moves), each learner action drawn from the mask as above;
* our vector env, N games: `StrategoVectorEnv(copy=False)`, actions from `sample_actions()` (compiled); a game's
  step is two moves (the learner's and the opponent's reply) but one observation and mask;
* our VectorStratego self-play, N games: the engine under the envs with `opponent=None`, so a game's step is one
  move, one observation and one mask, as the peer's env.step.

The single-game paths draw actions with the same numpy code on both sides (it is counted in). Reported: env
steps (of the vector env: game steps) and moves per second of CPU time, steps per second of wall time (what
the two-thread path gains), and the ratios to the peer's env.step per step and per move (CPU time).
The rules differ (the peer has its own two-squares rule and no more-squares rule): these are speeds, not a
differential test.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
import types
from collections.abc import Callable
from typing import Any

import numpy as np

Step = Callable[[], tuple[int, int]]  # one call: (env steps, moves played)


def _stand_ins() -> None:
    """gymnasium's spaces as `gym.spaces`, and an empty `h5py`, when the real ones are missing."""
    if importlib.util.find_spec("gym") is None:
        import gymnasium.spaces

        gym = types.ModuleType("gym")
        gym.spaces = gymnasium.spaces  # type: ignore[attr-defined]
        sys.modules["gym"], sys.modules["gym.spaces"] = gym, gymnasium.spaces
    if importlib.util.find_spec("h5py") is None:
        sys.modules["h5py"] = types.ModuleType("h5py")


def _pick(rng: np.random.Generator) -> Callable[[np.ndarray], int]:
    def pick(mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        return int(legal[rng.integers(len(legal))])

    return pick


def peer_step(variant: str) -> Step:
    from stratego_env import GameVersions, ObservationModes, StrategoMultiAgentEnv

    version = {"classic": GameVersions.STANDARD, "barrage": GameVersions.BARRAGE}[variant]
    config = {"version": version, "observation_mode": ObservationModes.PARTIALLY_OBSERVABLE}
    env = StrategoMultiAgentEnv(env_config=config)
    pick = _pick(np.random.default_rng(1))
    state: dict[str, Any] = {"obs": env.reset()}

    def step() -> int:
        obs = state["obs"]
        player = next(iter(obs))
        obs, _, done, _ = env.step({player: pick(obs[player]["valid_actions_mask"])})
        state["obs"] = env.reset() if done["__all__"] else obs
        return 1, 1

    return step


def peer_layer(variant: str) -> Step:
    """The peer's compiled layer: a random game move by move through its numba functions, no observations."""
    from stratego_env import GameVersions, ObservationModes, StrategoMultiAgentEnv

    version = {"classic": GameVersions.STANDARD, "barrage": GameVersions.BARRAGE}[variant]
    env = StrategoMultiAgentEnv(
        env_config={"version": version, "observation_mode": ObservationModes.PARTIALLY_OBSERVABLE}
    )
    base, deal = env.base_env, env.random_initial_state_fn  # its StrategoProceduralEnv, its random setups
    rng = np.random.default_rng(1)
    game: dict[str, Any] = {"state": deal(), "player": 1}

    def step() -> tuple[int, int]:
        state, player = game["state"], game["player"]
        legal = np.flatnonzero(base.get_valid_moves_as_1d_mask(state, player))
        if len(legal) == 0:  # the mover cannot move: the game is over
            game["state"], game["player"] = deal(), 1
            return 0, 0
        state, player = base.get_next_state(state, player, int(legal[rng.integers(len(legal))]))
        if base.get_game_ended(state, player) != 0:
            state, player = deal(), 1
        game["state"], game["player"] = state, player
        return 1, 1

    return step


def our_rollouts(variant: str) -> Step:
    """Our compiled random rollouts: whole random games in one compiled loop, 16 a call."""
    from fogofwar.games.stratego.sim import BatchSim
    from fogofwar.games.stratego.variants import DEFAULT_CAPS

    sim = BatchSim(variant, 1, max_moves=DEFAULT_CAPS[variant])
    seeds = iter(range(1, 1 << 62))

    def step() -> tuple[int, int]:
        moves = sim.random_rollouts(16, seed=next(seeds)).moves
        return moves, moves

    return step


def aec_step(variant: str) -> Step:
    from fogofwar.games.stratego.envs.compiled_pettingzoo import CompiledStrategoAECEnv

    env = CompiledStrategoAECEnv(variant)
    env.reset(seed=1)
    pick = _pick(np.random.default_rng(1))

    def step() -> int:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.reset()
            obs, *_ = env.last()
        env.step(pick(obs["action_mask"]))
        return 1, 1

    return step


def gym_step(variant: str) -> Step:
    from fogofwar.games.stratego.envs.compiled_gym import CompiledStrategoEnv

    env = CompiledStrategoEnv(variant)
    pick = _pick(np.random.default_rng(1))
    state: dict[str, Any] = {"obs": env.reset(seed=1)[0], "moves": 0}
    sim = env.sim

    def step() -> int:
        before = int(sim.st[0, 1])
        obs, _, term, trunc, info = env.step(pick(state["obs"]["action_mask"]))
        moves = (info["moves"] if info else int(sim.st[0, 1])) - before
        state["obs"] = env.reset()[0] if term or trunc else obs
        return 1, moves

    return step


def vector_step(variant: str, n: int, threads: int) -> Step:
    from fogofwar.games.stratego.envs.vector_env import StrategoVectorEnv

    env = StrategoVectorEnv(n, variant, copy=False, threads=threads)
    env.reset(seed=1)
    sim = env.sim

    def in_play() -> int:
        return int(sim.st[sim.ctl[:, 4] == 0, 1].sum())  # moves of the games not waiting to restart

    def step() -> tuple[int, int]:
        before = in_play()
        _, _, term, trunc, info = env.step(env.sample_actions())
        ended = info["moves"][term | trunc].sum() if info else 0
        return n, in_play() - before + int(ended)

    return step


def self_play_step(variant: str, n: int) -> Step:
    from fogofwar.games.stratego.sim.vector import VectorStratego

    sim = VectorStratego(variant, n, opponent=None)
    sim.reset(seed=1)

    def step() -> tuple[int, int]:
        sim.step(sim.sample_actions())
        return n, n - int(sim.ctl[:, 4].sum())  # games restarting at this step (NEXT_STEP) play no move

    return step


def measure(step: Step, seconds: float) -> tuple[int, int, float, float]:
    """(env steps, moves, CPU seconds, wall seconds) of stepping for about `seconds` of CPU time."""
    steps = moves = 0
    start, wall = time.process_time(), time.perf_counter()
    while time.process_time() - start < seconds:
        for _ in range(16):
            s, m = step()
            steps, moves = steps + s, moves + m
    return steps, moves, time.process_time() - start, time.perf_counter() - wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--peer", required=True, help="folder holding the stratego_env package (a scratch checkout)")
    parser.add_argument("--seconds", type=float, default=30.0, help="CPU seconds per path and variant, in all")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--variant", action="append", help="classic and/or barrage (default both)")
    parser.add_argument("--envs", type=int, default=256, help="games of the vector env")
    parser.add_argument(
        "--paths",
        choices=("all", "envs", "layer"),
        default="all",
        help="the environments, the compiled layers, or both",
    )
    args = parser.parse_args()
    sys.path.insert(0, args.peer)
    _stand_ins()
    import numba

    print(f"Python {sys.version.split()[0]}, numpy {np.__version__}, numba {numba.__version__}; CPU time per path")
    for variant in args.variant or ["classic", "barrage"]:
        paths: dict[str, Step] = {}
        if args.paths in ("all", "layer"):
            paths["peer compiled layer"] = peer_layer(variant)
            paths["our compiled random rollouts"] = our_rollouts(variant)
        if args.paths in ("all", "envs"):
            paths["peer env.step"] = peer_step(variant)
            paths["our AEC env"] = aec_step(variant)
            paths["our Gymnasium env"] = gym_step(variant)
            paths[f"our vector env N={args.envs}"] = vector_step(variant, args.envs, 1)
            paths[f"our vector env N={args.envs}, 2 threads"] = vector_step(variant, args.envs, 2)
            paths[f"our VectorStratego N={args.envs} self-play"] = self_play_step(variant, args.envs)
        totals = {name: [0.0, 0.0, 0.0, 0.0] for name in paths}
        for step in paths.values():  # warm-up: compile or load every kernel first
            measure(step, 0.2)
        for _ in range(args.rounds):
            for name, step in paths.items():
                for i, x in enumerate(measure(step, args.seconds / args.rounds)):
                    totals[name][i] += x
        for name, (steps, moves, cpu, wall) in totals.items():
            base = (
                "peer compiled layer"
                if name in ("peer compiled layer", "our compiled random rollouts")
                else "peer env.step"
            )
            peer_steps, peer_moves, peer_cpu, _ = totals[base]
            peer_rate, peer_move_rate = peer_steps / peer_cpu, peer_moves / peer_cpu
            rate, move_rate = steps / cpu, moves / cpu
            print(
                f"{variant:<8} {name:<32} {rate:>10,.0f} steps/s {move_rate:>10,.0f} moves/s of CPU time "
                f"({steps / wall:>10,.0f} steps/s of wall time)  {rate / peer_rate:6.2f}x per step "
                f"{move_rate / peer_move_rate:6.2f}x per move",
                flush=True,
            )


if __name__ == "__main__":
    main()
