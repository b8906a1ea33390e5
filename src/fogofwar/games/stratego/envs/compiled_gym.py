"""A single Gymnasium env over the fused kernel: one learner against the kernel's random opponent.

>>> env = CompiledStrategoEnv("barrage")
>>> obs, info = env.reset(seed=1)
>>> obs["planes"].shape, obs["counts"].shape, obs["action_mask"].dtype
((33, 10, 10), (12,), dtype('int8'))

It is `StrategoVectorEnv` with one game: a step is one compiled call (the learner's move, the opponent's
reply, the next observation and mask), so it runs at kernel speed, unlike `gym_env.StrategoEnv`, which plays
the reference engine and accepts any fogofwar agent as the opponent. Spaces: `Discrete(1368)` actions (compact
move ids; setup choices in the setup phase) and the observations of `compiled_common`. Rewards +1 / -1 / 0 at
the end for the learner; the move cap truncates, every other ending terminates; an illegal action loses
(`illegal="lose"`, `info["termination"] == "illegal_action"`) or raises (`"raise"`). `seat` 0, 1 or
"random" (per episode); `setup` "random", "menu" or "pieces" (see `sim.vector`). As blue, the learner sees the
board turned round and acts in that view (`orientation="own"`, the default; "absolute": the board's own squares).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from fogofwar.games.stratego.envs.compiled_common import Obs, ending_info, observation_space, single_obs
from fogofwar.games.stratego.rules import DEFAULT_TWO_SQUARES
from fogofwar.games.stratego.sim import NUM_COMPACT_ACTIONS
from fogofwar.games.stratego.sim.vector import VectorStratego


class CompiledStrategoEnv(gym.Env[dict[str, Any], np.int64]):
    metadata = {"render_modes": []}

    def __init__(
        self,
        variant: str = "classic",
        *,
        seat: int | str = 0,
        setup: str = "random",
        setup_menu: Sequence[str] | None = None,
        max_moves: int | None = None,
        two_squares: int = DEFAULT_TWO_SQUARES,
        more_squares: bool = True,
        illegal: str = "lose",
        orientation: str = "own",
    ) -> None:
        self.sim = VectorStratego(
            variant, 1, seat=seat, setup=setup, setup_menu=setup_menu, max_moves=max_moves, two_squares=two_squares,
            more_squares=more_squares, illegal=illegal, autoreset="disabled", orientation=orientation,
        )  # fmt: skip
        self.action_space = spaces.Discrete(NUM_COMPACT_ACTIONS)
        self.observation_space: spaces.Dict = observation_space(setup)
        self._action = np.zeros(1, np.int64)
        self._over = True

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        self.sim.reset(seed=seed)
        self._over = False
        return single_obs(self.sim), {"seat": int(self.sim.view[0])}

    def step(self, action: np.int64 | int) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        if self._over:
            raise RuntimeError("step() after the episode ended: call reset()")
        self._action[0] = action
        sim = self.sim
        sim.step(self._action)
        terminated, truncated = bool(sim.terminated[0]), bool(sim.truncated[0])
        info: dict[str, Any] = {}
        if terminated or truncated:
            self._over = True
            info = ending_info(sim)
        return single_obs(sim), float(sim.rewards[0]), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions now (the name sb3-contrib's MaskablePPO looks for)."""
        mask: np.ndarray = self.sim.mask[0].copy()  # bool
        return mask

    def close(self) -> None:
        self.sim.close()
