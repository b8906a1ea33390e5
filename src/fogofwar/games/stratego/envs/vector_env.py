"""A Gymnasium `VectorEnv` over the fused kernel: `num_envs` games, one compiled call per step.

>>> envs = StrategoVectorEnv(4, "barrage")
>>> obs, info = envs.reset(seed=1)
>>> obs["planes"].shape, obs["action_mask"].shape, envs.action_space
((4, 33, 10, 10), (4, 1368), MultiDiscrete([1368 1368 1368 1368]))
>>> obs, rewards, terminated, truncated, info = envs.step(envs.sample_actions())

Each game is a learner against the kernel's random opponent (as `CompiledStrategoEnv`, which is this with one
game: game i of a batch reset with `seed` plays as that env reset with `seed + i`). Autoreset follows
`autoreset_mode` (`metadata["autoreset_mode"]`): NEXT_STEP (Gymnasium's default: the step after an ending
starts the game again and ignores its action), SAME_STEP (the new game's first observation comes at once;
`info["final_obs"]` holds the last one) or DISABLED (`reset(options={"reset_mask": ...})` restarts games).
When games end, `info` holds "termination" (names), "winner" and "moves" with their "_key" masks (in
`info["final_info"]` with SAME_STEP); `reset` gives each game's learner seat in `info["seat"]`.

`copy=False` returns the kernel's buffers themselves (valid until the next step); `threads` steps the games
on that many cores, `parallel` "prange" (numba's pool, the default) or "threads" (Python threads, better on a
machine shared with other work; see `sim.vector`). `sample_actions()` draws a uniformly random legal action per game.
A learner playing blue sees the board turned round, its home at the top rows of the planes, and gives its actions
in that view (`orientation="own"`, the default; "absolute" keeps the board's own squares for both seats).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from fogofwar.games.stratego.envs.compiled_common import Obs, batch_obs, observation_space
from fogofwar.games.stratego.rules import DEFAULT_TWO_SQUARES
from fogofwar.games.stratego.sim import NUM_COMPACT_ACTIONS
from fogofwar.games.stratego.sim import vector_kernels as V
from fogofwar.games.stratego.sim.vector import VECTOR_TERMINATIONS, VectorStratego

_MODES = {
    AutoresetMode.NEXT_STEP: "next_step",
    AutoresetMode.SAME_STEP: "same_step",
    AutoresetMode.DISABLED: "disabled",
}
_NAMES = np.array(VECTOR_TERMINATIONS, dtype=object)


class StrategoVectorEnv(VectorEnv[Obs, np.ndarray, np.ndarray]):
    def __init__(
        self,
        num_envs: int,
        variant: str = "classic",
        *,
        seat: int | str = 0,
        setup: str = "random",
        setup_menu: Sequence[str] | None = None,
        max_moves: int | None = None,
        two_squares: int = DEFAULT_TWO_SQUARES,
        more_squares: bool = True,
        illegal: str = "lose",
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        threads: int = 1,
        parallel: str = "auto",
        copy: bool = True,
        orientation: str = "own",
    ) -> None:
        mode = AutoresetMode(autoreset_mode)
        self.metadata = {"autoreset_mode": mode}
        self.sim = VectorStratego(
            variant, num_envs, seat=seat, setup=setup, setup_menu=setup_menu, max_moves=max_moves,
            two_squares=two_squares, more_squares=more_squares, illegal=illegal, autoreset=_MODES[mode],
            threads=threads, parallel=parallel, orientation=orientation,
        )  # fmt: skip
        self.num_envs = num_envs
        self.copy = copy
        self.single_action_space = spaces.Discrete(NUM_COMPACT_ACTIONS)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.single_observation_space = observation_space(setup)
        self.observation_space = batch_space(self.single_observation_space, num_envs)

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Start every game (or those of `options["reset_mask"]`); with `seed`, game i uses `seed + i`."""
        super().reset(seed=seed if seed is None or isinstance(seed, int) else None)
        which = (options or {}).get("reset_mask")
        self.sim.reset(seed=seed, envs=which)
        return batch_obs(self.sim, self.copy), {"seat": self.sim.view.copy(), "_seat": np.ones(self.num_envs, bool)}

    def step(self, actions: Any) -> tuple[Obs, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        sim = self.sim
        sim.step(actions)
        ended = sim.terminated | sim.truncated
        info: dict[str, Any] = {}
        if ended.any():
            info = self._ending_info(ended)
        rewards, terminated, truncated = sim.rewards, sim.terminated, sim.truncated
        if self.copy:
            rewards, terminated, truncated = rewards.copy(), terminated.copy(), truncated.copy()
        return batch_obs(sim, self.copy), rewards, terminated, truncated, info

    def _ending_info(self, ended: np.ndarray) -> dict[str, Any]:
        """The endings (under "final_info" with SAME_STEP, as Gymnasium's own vector envs put them)."""
        ctl = self.sim.ctl
        names = np.full(self.num_envs, None, dtype=object)
        names[ended] = _NAMES[ctl[ended, V.C_END_TERM]]
        info: dict[str, Any] = {
            "termination": names,
            "winner": ctl[:, V.C_END_WINNER].copy(),
            "moves": ctl[:, V.C_END_MOVES].copy(),
        }
        for key in ("termination", "winner", "moves"):
            info["_" + key] = ended
        if self.metadata["autoreset_mode"] != AutoresetMode.SAME_STEP:
            return info
        final = np.full(self.num_envs, None, dtype=object)
        for e in np.flatnonzero(ended):
            final[e] = {
                "planes": self.sim.final_planes[e].copy(),
                "counts": self.sim.final_counts[e].copy(),
                "action_mask": np.zeros(NUM_COMPACT_ACTIONS, np.int8),
            }
            if self.sim.setup != "random":
                final[e]["to_place"] = np.zeros(12, np.uint8)
        return {"final_obs": final, "_final_obs": ended, "final_info": info, "_final_info": ended}

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action per game (what `action_space.sample()` is not: it ignores masks)."""
        return self.sim.sample_actions()

    def close_extras(self, **kwargs: Any) -> None:
        self.sim.close()
