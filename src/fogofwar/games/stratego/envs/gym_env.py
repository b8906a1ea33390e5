"""A Gymnasium environment: one learner against a fogofwar agent, over the reference rules engine.

>>> env = StrategoEnv("barrage", opponent="random")
>>> obs, info = env.reset(seed=1)
>>> obs["observation"].shape, obs["action_mask"].shape
((45, 10, 10), (1368,))

Spaces
------
* action: `Discrete(1368)`, the compact move ids of `fogofwar.games.stratego.envs.common` (`to_move_id` gives the
  reference id `from * 100 + to`). `obs["action_mask"]` (and `info["action_mask"]`) marks the legal ones.
* observation: `Dict(observation=Box(0, 8, (45, 10, 10), float32), action_mask=Box(0, 1, (1368,), int8))`.
  The 45 planes, from the learner's seat, absolute board coordinates (row 0 = red's back row):

  - 0-11 own pieces by rank (0 flag, 1 spy, 2 scout, 3 miner, ... 10 marshal, 11 bomb)
  - 12-23 enemy pieces whose rank is known (revealed by a battle or a scout's long move), by rank
  - 24 enemy pieces of unknown rank that have moved; 25 enemy pieces of unknown rank that have not
  - 26 lakes
  - 27/28 from/to squares of the last move; 29/30 of the move before it
  - 31 own pieces the enemy has seen; 32 own pieces that have moved
  - 33-44 constant planes: per rank, enemy pieces not accounted for (roster - captured - revealed)

Episodes: `reset` deals the learner a uniformly random setup (or `options={"setup": {square: rank}}`);
the opponent agent sets up through its own placement actions, then the side to move plays. The reward is
+1 / -1 / 0 at the end for the learner. The game's own endings (flag, no moves, the move cap) terminate;
an illegal action ends the episode at once as a loss (`info["illegal_action"]`) unless `illegal="raise"`.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from fogofwar.core.agents import Agent, make_agent
from fogofwar.games.stratego.envs.common import NUM_ACTIONS, OBS_SHAPE, legal_mask, new_game, planes, to_move_id
from fogofwar.games.stratego.rules import DEFAULT_TWO_SQUARES, StrategoState, check_setup
from fogofwar.games.stratego.setup import random_setup


class StrategoEnv(gym.Env[dict[str, Any], np.int64]):
    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        variant: str = "classic",
        opponent: str | Agent = "random",
        seat: int = 0,
        max_moves: int | None = None,
        two_squares: int = DEFAULT_TWO_SQUARES,
        more_squares: bool = True,
        illegal: str = "lose",
        render_mode: str | None = None,
    ) -> None:
        if seat not in (0, 1):
            raise ValueError("seat must be 0 (red, moves first) or 1 (blue)")
        if illegal not in ("lose", "raise"):
            raise ValueError("illegal must be 'lose' or 'raise'")
        self.game = new_game(variant, max_moves, two_squares, more_squares)
        self.opponent_spec = opponent
        self.opponent: Agent = make_agent(opponent) if isinstance(opponent, str) else opponent
        self.seat = seat
        self.illegal = illegal
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space: spaces.Dict = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 8.0, OBS_SHAPE, np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self.state: StrategoState = self.game.new_initial_state()
        self._rng = random.Random(0)

    def _obs(self) -> dict[str, np.ndarray]:
        mask = legal_mask(self.state) if self.state.current_player() == self.seat else np.zeros(NUM_ACTIONS, np.int8)
        return {"observation": planes(self.state, self.seat), "action_mask": mask}

    def _info(self, **extra: Any) -> dict[str, Any]:
        outcome = self.state.outcome()
        return {
            "move_count": self.state.move_count,
            "termination": outcome.termination.value if outcome else None,
            "winner": outcome.winner if outcome else None,
            **extra,
        }

    def _opponent_plays(self) -> None:
        state = self.state
        while not state.is_terminal() and state.current_player() == 1 - self.seat:
            state.apply(self.opponent.act(state.observation(1 - self.seat), state.legal_actions()))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        self._rng = random.Random(int(self.np_random.integers(2**63)))
        self.opponent.start(self.game, 1 - self.seat, random.Random(self._rng.getrandbits(64)))
        self.state = self.game.new_initial_state()
        setup = (options or {}).get("setup")
        if setup is not None:
            check_setup(self.game.variant, self.seat, setup)
        else:
            setup = random_setup(self.game.variant, self.seat, self._rng)
        while self.state.phase == "setup" and not self.state.is_terminal():
            if self.state.current_player() == self.seat:
                self.state.apply_setup(self.seat, setup)
            else:
                self._opponent_plays()
        self._opponent_plays()
        obs = self._obs()
        return obs, self._info(action_mask=obs["action_mask"])

    def step(self, action: np.int64 | int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self.state.is_terminal():
            raise RuntimeError("step() after the episode ended: call reset()")
        a = int(action)
        move = to_move_id(a) if 0 <= a < NUM_ACTIONS else -1
        if move not in self.state.legal_actions():
            if self.illegal == "raise":
                raise ValueError(f"action {a} is not legal now")
            obs = self._obs()
            return obs, -1.0, True, False, self._info(illegal_action=True, action_mask=obs["action_mask"])
        self.state.apply(move)
        self._opponent_plays()
        terminated = self.state.is_terminal()
        reward = float(self.state.returns()[self.seat]) if terminated else 0.0
        obs = self._obs()
        return obs, reward, terminated, False, self._info(action_mask=obs["action_mask"])

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.state.observation(self.seat).text
        return None
