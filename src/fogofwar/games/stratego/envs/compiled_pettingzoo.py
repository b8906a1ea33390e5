"""PettingZoo environments over the fused kernel: both seats played from outside, one compiled call a step.

>>> env = CompiledStrategoAECEnv("barrage")
>>> env.reset(seed=1)
>>> env.agent_selection, env.observe("red")["planes"].shape
('red', (33, 10, 10))
>>> par = StrategoParallelEnv("barrage")
>>> obs, infos = par.reset(seed=1)
>>> obs["blue"]["action_mask"].any()  # red moves first: blue's action is a no-op
np.False_

Agents "red" (moves first) and "blue"; actions `Discrete(1368)` (compact move ids; setup choices in a
chosen-setup phase) and the observations of `compiled_common` from each agent's seat, blue's turned round (its
actions too; `orientation="absolute"` keeps the board's own squares for both). The agent whose
action the game waits for is the one with legal actions in its mask: in the setup phase ("menu" or "pieces")
red chooses its army first, then blue; then the side to move. Rewards +1 / -1 / 0 at the end; the move cap
truncates, every other ending terminates. An illegal action raises `ValueError` (or loses the game with
`illegal="lose"`).

* `CompiledStrategoAECEnv`: the AEC API, as `pettingzoo_env.StrategoAECEnv` (which plays the reference engine).
* `StrategoParallelEnv`: the parallel API. Stratego is turn-based, so each step takes an action from both agents
  and plays the one of the agent to act; **the other agent's action is a no-op**: ignored, whatever it is (its
  mask is all False, so a masked sampler gives 0), and it may be left out of the dict.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped,unused-ignore]

from fogofwar.games.stratego.envs.common import PLAYER_IDS
from fogofwar.games.stratego.envs.compiled_common import Obs, ending_info, observation_space, single_obs
from fogofwar.games.stratego.rules import DEFAULT_TWO_SQUARES
from fogofwar.games.stratego.sim import NUM_COMPACT_ACTIONS
from fogofwar.games.stratego.sim.vector import VectorStratego


def _game(variant: str, setup: str, setup_menu: Sequence[str] | None, illegal: str, **rules: Any) -> VectorStratego:
    return VectorStratego(
        variant, 1, opponent=None, setup=setup, setup_menu=setup_menu, illegal=illegal, autoreset="disabled", **rules
    )


def _other_obs(sim: VectorStratego, seat: int) -> Obs:
    out = sim.observe(seat)
    obs = {"planes": out["planes"][0], "counts": out["counts"][0], "action_mask": out["action_mask"][0].view(np.int8)}
    if sim.setup != "random":
        obs["to_place"] = out["to_place"][0]
    return obs


class CompiledStrategoAECEnv(AECEnv[str, Obs, int]):  # type: ignore[misc]  # pettingzoo is untyped
    metadata = {"render_modes": [], "name": "fogofwar_stratego_compiled_v0", "is_parallelizable": False}

    def __init__(
        self,
        variant: str = "classic",
        *,
        setup: str = "random",
        setup_menu: Sequence[str] | None = None,
        max_moves: int | None = None,
        two_squares: int = DEFAULT_TWO_SQUARES,
        more_squares: bool = True,
        illegal: str = "raise",
        orientation: str = "own",
    ) -> None:
        super().__init__()
        self.sim = _game(
            variant, setup, setup_menu, illegal, max_moves=max_moves, two_squares=two_squares,
            more_squares=more_squares, orientation=orientation,
        )  # fmt: skip
        self.possible_agents = list(PLAYER_IDS)
        self.render_mode = None
        self._action_space = spaces.Discrete(NUM_COMPACT_ACTIONS)
        self._observation_space = observation_space(setup)
        self._action = np.zeros(1, np.int64)
        self.sim.reset(seed=0)
        self._bookkeeping()

    def _bookkeeping(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = {"red": 0.0, "blue": 0.0}
        self._cumulative_rewards = {"red": 0.0, "blue": 0.0}
        self.terminations = {"red": False, "blue": False}
        self.truncations = {"red": False, "blue": False}
        self.infos: dict[str, dict[str, Any]] = {"red": {}, "blue": {}}
        self.agent_selection = PLAYER_IDS[int(self.sim.view[0])]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def observe(self, agent: str) -> Obs:
        seat = PLAYER_IDS.index(agent)
        if seat == self.sim.view[0]:
            return single_obs(self.sim)
        return _other_obs(self.sim, seat)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.sim.reset(seed=seed)
        self._bookkeeping()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent}: an action is needed (None is for agents that are done)")
        sim = self.sim
        self._action[0] = action
        sim.step(self._action)
        self._cumulative_rewards[agent] = 0.0
        if sim.terminated[0] or sim.truncated[0]:
            info = ending_info(sim)
            red, blue = (float(r) for r in sim.seat_rewards[0])
            self.rewards = {"red": red, "blue": blue}
            done = {"red": bool(sim.terminated[0]), "blue": bool(sim.terminated[0])}
            cut = {"red": bool(sim.truncated[0]), "blue": bool(sim.truncated[0])}
            self.terminations, self.truncations = done, cut
            self.infos = {"red": info, "blue": dict(info)}
            self.agent_selection = "blue" if agent == "red" else "red"
            self._accumulate_rewards()
        else:
            self.agent_selection = PLAYER_IDS[int(sim.view[0])]

    def close(self) -> None:
        self.sim.close()


class StrategoParallelEnv(ParallelEnv[str, Obs, int]):  # type: ignore[misc]  # pettingzoo is untyped
    metadata = {"render_modes": [], "name": "fogofwar_stratego_parallel_v0"}

    def __init__(
        self,
        variant: str = "classic",
        *,
        setup: str = "random",
        setup_menu: Sequence[str] | None = None,
        max_moves: int | None = None,
        two_squares: int = DEFAULT_TWO_SQUARES,
        more_squares: bool = True,
        illegal: str = "raise",
        orientation: str = "own",
    ) -> None:
        self.sim = _game(
            variant, setup, setup_menu, illegal, max_moves=max_moves, two_squares=two_squares,
            more_squares=more_squares, orientation=orientation,
        )  # fmt: skip
        self.possible_agents = list(PLAYER_IDS)
        self.render_mode = None
        self.agents: list[str] = []
        self._action = np.zeros(1, np.int64)
        self._spaces = (spaces.Discrete(NUM_COMPACT_ACTIONS), observation_space(setup))

    @functools.cache  # noqa: B019  (two agents: the same space object every call, as parallel_api_test wants)
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._spaces[1]

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._spaces[0]

    def _observations(self) -> dict[str, Obs]:
        seat = int(self.sim.view[0])
        return {PLAYER_IDS[seat]: single_obs(self.sim), PLAYER_IDS[1 - seat]: _other_obs(self.sim, 1 - seat)}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        self.sim.reset(seed=seed)
        self.agents = self.possible_agents[:]
        return self._observations(), {"red": {}, "blue": {}}

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, Obs], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]
    ]:  # fmt: skip
        if not self.agents:
            raise RuntimeError("step() after the game ended: call reset()")
        sim = self.sim
        actor = PLAYER_IDS[int(sim.view[0])]
        if actions.get(actor) is None:
            raise ValueError(f"{actor} is to act: its action is missing")
        self._action[0] = actions[actor]
        sim.step(self._action)
        obs = self._observations()
        term, trunc = bool(sim.terminated[0]), bool(sim.truncated[0])
        red, blue = (float(r) for r in sim.seat_rewards[0])
        infos: dict[str, dict[str, Any]] = {"red": {}, "blue": {}}
        if term or trunc:
            infos = {"red": ending_info(sim), "blue": ending_info(sim)}
            self.agents = []
        done = {"red": term, "blue": term}
        cut = {"red": trunc, "blue": trunc}
        return obs, {"red": red, "blue": blue}, done, cut, infos

    def close(self) -> None:
        self.sim.close()
