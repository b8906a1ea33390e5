"""A PettingZoo AEC environment: both seats of Stratego (classic, Barrage, ...), over the reference engine.

>>> env = StrategoAECEnv("barrage")
>>> env.reset(seed=1)
>>> env.agent_selection, env.observe("red")["observation"].shape
('red', (45, 10, 10))

Agents "red" (moves first) and "blue". Each has the action space `Discrete(1368)` (the compact move ids
of `fogofwar.games.stratego.envs.common`) and the observation space `Dict(observation=Box(0, 8, (45, 10, 10), float32),
action_mask=Box(0, 1, (1368,), int8))`; the mask is all zeros for the agent not to move. The 45 planes
(from that agent's seat, absolute board coordinates, row 0 = red's back row):

* 0-11 own pieces by rank (0 flag, 1 spy, 2 scout, 3 miner, ... 10 marshal, 11 bomb)
* 12-23 enemy pieces whose rank is known (revealed by a battle or a scout's long move), by rank
* 24 enemy pieces of unknown rank that have moved; 25 enemy pieces of unknown rank that have not
* 26 lakes
* 27/28 from/to squares of the last move; 29/30 of the move before it
* 31 own pieces the enemy has seen; 32 own pieces that have moved
* 33-44 constant planes: per rank, enemy pieces not accounted for (roster - captured - revealed)

`reset(seed)` deals both seats uniformly random setups (or `options={"setups": (red, blue)}` as
{square: rank} placements). Rewards are +1 / -1 / 0 at the end; every ending of the rules (flag, no
moves, the move cap) is a termination. An illegal action raises `ValueError`.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped,unused-ignore]

from fogofwar.games.stratego.envs.common import (
    NUM_ACTIONS,
    OBS_SHAPE,
    PLAYER_IDS,
    legal_mask,
    new_game,
    planes,
    random_start,
    to_move_id,
)
from fogofwar.games.stratego.rules import DEFAULT_TWO_SQUARES, StrategoState


class StrategoAECEnv(AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]  # pettingzoo is untyped
    metadata = {"render_modes": ["ansi"], "name": "fogofwar_stratego_v0", "is_parallelizable": False}

    def __init__(
        self,
        variant: str = "classic",
        max_moves: int | None = None,
        two_squares: int = DEFAULT_TWO_SQUARES,
        more_squares: bool = True,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.game = new_game(variant, max_moves, two_squares, more_squares)
        self.render_mode = render_mode
        self.possible_agents = list(PLAYER_IDS)
        self.agents = self.possible_agents[:]
        self._action_space = spaces.Discrete(NUM_ACTIONS)
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 8.0, OBS_SHAPE, np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self.state: StrategoState = random_start(self.game, random.Random(0))
        self._reset_bookkeeping()

    def _reset_bookkeeping(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = PLAYER_IDS[max(self.state.current_player(), 0)]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = PLAYER_IDS.index(agent)
        mask = legal_mask(self.state) if self.state.current_player() == seat else np.zeros(NUM_ACTIONS, np.int8)
        return {"observation": planes(self.state, seat), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        setups = (options or {}).get("setups")
        if setups is not None:
            self.state = self.game.new_initial_state()
            for p in (0, 1):
                self.state.apply_setup(p, setups[p])
        else:
            self.state = random_start(self.game, random.Random(seed))
        self._reset_bookkeeping()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None
        move = to_move_id(int(action)) if 0 <= int(action) < NUM_ACTIONS else -1
        if move not in self.state.legal_actions():
            raise ValueError(f"{agent}: action {action} is not legal now")
        self._cumulative_rewards[agent] = 0.0
        self.state.apply(move)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.state.is_terminal():
            returns = self.state.returns()
            outcome = self.state.outcome()
            for seat, a in enumerate(PLAYER_IDS):
                self.rewards[a] = float(returns[seat])
                self.terminations[a] = True
                self.infos[a] = {
                    "termination": outcome.termination.value if outcome else None,
                    "winner": outcome.winner if outcome else None,
                    "move_count": self.state.move_count,
                }
            self.agent_selection = PLAYER_IDS[1 - PLAYER_IDS.index(agent)]
        else:
            self.agent_selection = PLAYER_IDS[self.state.current_player()]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.state.observation(max(self.state.current_player(), 0)).text
        return None

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> StrategoAECEnv:
    """PettingZoo's usual constructor name."""
    return StrategoAECEnv(**kwargs)
