"""The research adapters pass their frameworks' own checkers: Gymnasium's env_checker, PettingZoo's
api_test and OpenSpiel's random_sim_test (each skipped with a message when the `research` extra is missing)."""

from __future__ import annotations

import numpy as np
import pytest

from fogofwar.games.stratego.envs.common import NUM_ACTIONS, legal_mask, planes, random_start, to_action, to_move_id
from fogofwar.games.stratego.rules import StrategoGame
from fogofwar.games.stratego.sim import BatchSim, setup_codes


def test_actions_round_trip() -> None:
    assert all(to_action(to_move_id(a)) == a for a in range(NUM_ACTIONS))
    with pytest.raises(ValueError):
        to_action(0)  # A1-A1 is no move
    with pytest.raises(ValueError):
        to_move_id(NUM_ACTIONS)


def test_reference_planes_and_masks_match_the_simulator() -> None:
    import random

    game = StrategoGame("barrage", max_moves=200)
    rng = random.Random(5)
    state = random_start(game, rng)
    placements = [
        {
            sq: int(r)
            for sq, (o, r, _, _) in ((sq, state.piece_at(sq)) for sq in range(100) if state.piece_at(sq))
            if o == p
        }  # fmt: skip
        for p in (0, 1)
    ]
    sim = BatchSim("barrage", 1, max_moves=200)
    sim.reset(setups=setup_codes(placements)[None])
    for _ in range(40):
        if state.is_terminal():
            break
        assert (legal_mask(state).astype(bool) == sim.legal_mask(compact=True)[0]).all()
        for p in (0, 1):
            assert np.array_equal(planes(state, p), sim.observe(p)[0])
        move = rng.choice(state.legal_actions())
        state.apply(move)
        sim.step([move])


def test_gymnasium_env_checker() -> None:
    pytest.importorskip("gymnasium", reason="gymnasium is not installed: pip install -e .[research]")
    from gymnasium.utils.env_checker import check_env

    from fogofwar.games.stratego.envs.gym_env import StrategoEnv

    for variant, seat in (("barrage", 0), ("classic", 1)):
        env = StrategoEnv(variant, opponent="random", seat=seat)
        check_env(env, skip_render_check=True)
        obs, info = env.reset(seed=3)
        rng = np.random.default_rng(0)
        done, reward, steps = False, 0.0, 0
        while not done and steps < 3000:
            action = rng.choice(np.flatnonzero(obs["action_mask"]))
            obs, reward, done, truncated, info = env.step(action)
            steps += 1
        assert done and reward in (-1.0, 0.0, 1.0) and info["termination"]
    env = StrategoEnv("barrage")
    obs, _ = env.reset(seed=1)
    _, reward, done, _, info = env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert done and reward == -1.0 and info["illegal_action"]


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_api_test() -> None:
    pytest.importorskip("pettingzoo", reason="pettingzoo is not installed: pip install -e .[research]")
    from pettingzoo.test import api_test

    from fogofwar.games.stratego.envs.pettingzoo_env import StrategoAECEnv

    api_test(StrategoAECEnv("barrage"), num_cycles=400)
    env = StrategoAECEnv("barrage", max_moves=60)
    env.reset(seed=2)
    for _agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        action = None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0])
        env.step(action)
    assert all(env.terminations.values()) or not env.agents


def test_openspiel_random_sim_test() -> None:
    pyspiel = pytest.importorskip(
        "pyspiel", reason="open_spiel is not installed (pip install -e .[research]): OpenSpiel part skipped"
    )
    import fogofwar.games.stratego.envs.openspiel_game  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_fogofwar_stratego", {"variant": "barrage", "max_moves": 200})
    assert game.observation_tensor_shape() == [45, 10, 10]
    assert game.information_state_tensor_shape() == [109, 10, 10]
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    classic = pyspiel.load_game("python_fogofwar_stratego", {"variant": "classic", "max_moves": 60})
    pyspiel.random_sim_test(classic, num_sims=1, serialize=False, verbose=False)
    state = classic.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.current_player() == 0 and len(state.legal_actions()) > 0
    assert len(state.information_state_tensor(1)) == 109 * 100
