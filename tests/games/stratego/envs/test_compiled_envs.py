"""The environments over the fused kernel pass their frameworks' checkers (Gymnasium's env_checker, PettingZoo's
api_test and parallel_api_test), and the vector env behaves exactly as Gymnasium's own SyncVectorEnv of the single
env (step and reset shapes, seeding, autoreset in NEXT_STEP and SAME_STEP modes)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium", reason="gymnasium is not installed: pip install -e .[research]")

from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402

from fogofwar.games.stratego.envs.compiled_gym import CompiledStrategoEnv  # noqa: E402
from fogofwar.games.stratego.envs.vector_env import StrategoVectorEnv  # noqa: E402

MENU = ["9...1..2.9/....S...../........../..BF...8..", "..9.1..2.9/....S...../........../..BF...8.."]


@pytest.mark.parametrize(
    "kw",
    [
        {"variant": "barrage"},
        {"variant": "classic", "seat": "random"},
        {"variant": "barrage", "seat": 1, "setup": "pieces"},
        {"variant": "barrage", "setup": "menu", "setup_menu": MENU},
    ],
)
def test_single_env_passes_the_gymnasium_checker(kw: dict[str, Any]) -> None:
    from gymnasium.utils.env_checker import check_env

    env = CompiledStrategoEnv(**kw)
    check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    done, steps, reward = False, 0, 0.0
    while not done:
        assert env.observation_space.contains(obs)
        obs, reward, term, trunc, info = env.step(rng.choice(np.flatnonzero(obs["action_mask"])))
        done, steps = term or trunc, steps + 1
    assert reward in (-1.0, 0.0, 1.0) and info["termination"] in ("flag_captured", "no_moves", "move_limit")
    with pytest.raises(RuntimeError):
        env.step(0)
    env.reset(seed=1)
    _, reward, term, _, info = env.step(int(np.flatnonzero(~env.action_masks())[0]))
    assert term and reward == -1.0 and info["termination"] == "illegal_action"


def _masked_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_vector_env_matches_a_sync_vector_env_of_the_single_env(mode: AutoresetMode) -> None:
    n = 3
    ours = StrategoVectorEnv(n, "barrage", seat="random", max_moves=40, autoreset_mode=mode)
    theirs = SyncVectorEnv(
        [lambda: CompiledStrategoEnv("barrage", seat="random", max_moves=40) for _ in range(n)], autoreset_mode=mode
    )
    assert ours.metadata["autoreset_mode"] == theirs.metadata["autoreset_mode"] == mode
    assert ours.observation_space == theirs.observation_space and ours.action_space == theirs.action_space
    a, a_info = ours.reset(seed=5)
    b, b_info = theirs.reset(seed=5)
    assert np.array_equal(a_info["seat"], b_info["seat"])
    rng = np.random.default_rng(1)
    endings = 0
    for _ in range(150):
        assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
        assert ours.observation_space.contains(a)
        actions = _masked_actions(a["action_mask"], rng)
        a, ra, ta, ua, a_info = ours.step(actions)
        b, rb, tb, ub, b_info = theirs.step(actions)
        ia, ib = a_info, b_info
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb) and np.array_equal(ua, ub)
        assert ra.shape == ta.shape == ua.shape == (n,) and ta.dtype == ua.dtype == np.bool_
        if (ta | ua).any():
            endings += int((ta | ua).sum())
            ended = ta | ua
            if mode == AutoresetMode.SAME_STEP:
                ia, ib = ia["final_info"], ib["final_info"]
            assert np.array_equal(ia["_termination"], ended) and np.array_equal(ib["_termination"], ended)
            assert list(ia["termination"][ended]) == list(ib["termination"][ended])
            assert np.array_equal(ia["winner"][ended], ib["winner"][ended])
            if mode == AutoresetMode.SAME_STEP:
                for e in np.flatnonzero(ended):
                    fa, fb = a_info["final_obs"][e], b_info["final_obs"][e]
                    assert all(np.array_equal(fa[k], fb[k]) for k in fb)
    assert endings >= 3
    ours.close()
    theirs.close()


def test_vector_env_disabled_autoreset_and_buffers() -> None:
    envs = StrategoVectorEnv(4, "barrage", max_moves=30, autoreset_mode="Disabled", copy=False)
    obs, _ = envs.reset(seed=2)
    assert obs["planes"] is envs.sim.planes  # copy=False: the kernel's buffers
    for _ in range(40):
        obs, rewards, term, trunc, info = envs.step(envs.sample_actions())
    assert (term | trunc).all()  # every game over (the cap is 30 moves), none restarted
    obs, _ = envs.reset(options={"reset_mask": np.array([True, False, False, False])})
    assert obs["action_mask"][0].any() and not obs["action_mask"][1:].any()
    envs.close()


def test_vector_env_on_two_threads_is_the_same() -> None:
    one, two = StrategoVectorEnv(64, "barrage"), StrategoVectorEnv(64, "barrage", threads=2)
    a, _ = one.reset(seed=9)
    b, _ = two.reset(seed=9)
    for _ in range(50):
        actions = one.sample_actions()
        assert np.array_equal(actions, two.sample_actions())
        a, *_ = one.step(actions)
        b, *_ = two.step(actions)
        assert all(np.array_equal(a[k], b[k]) for k in a)
    two.close()


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("setup", ["random", "pieces"])
def test_pettingzoo_api_tests(setup: str) -> None:
    pytest.importorskip("pettingzoo", reason="pettingzoo is not installed: pip install -e .[research]")
    from pettingzoo.test import api_test, parallel_api_test

    from fogofwar.games.stratego.envs.compiled_pettingzoo import CompiledStrategoAECEnv, StrategoParallelEnv

    api_test(CompiledStrategoAECEnv("barrage", setup=setup), num_cycles=300)
    parallel_api_test(StrategoParallelEnv("barrage", setup=setup, max_moves=100), num_cycles=400)


def test_pettingzoo_games_play_to_the_end() -> None:
    pytest.importorskip("pettingzoo", reason="pettingzoo is not installed: pip install -e .[research]")
    from fogofwar.games.stratego.envs.compiled_pettingzoo import CompiledStrategoAECEnv, StrategoParallelEnv

    env = CompiledStrategoAECEnv("barrage", max_moves=80)
    env.reset(seed=2)
    rng = np.random.default_rng(3)
    for _agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        assert obs["action_mask"].any() != (term or trunc)
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sum(env.rewards.values()) == 0 and not env.agents
    par = StrategoParallelEnv("barrage", max_moves=80)
    obs, _ = par.reset(seed=2)
    rewards: dict[str, float] = {}
    while par.agents:
        actor = next(a for a in par.agents if obs[a]["action_mask"].any())
        obs, rewards, term, trunc, infos = par.step({actor: int(rng.choice(np.flatnonzero(obs[actor]["action_mask"])))})
    assert sum(rewards.values()) == 0 and infos["red"]["termination"]
    with pytest.raises(ValueError, match="not legal"):
        par.reset(seed=1)
        par.step({"red": 0, "blue": 0})


def test_blue_sees_the_board_from_its_own_side() -> None:
    """By default a learner playing blue sees its home in rows 0-3 of its planes and acts in that view, as the policy
    net reads the board (`policy_model.oriented_planes`); orientation="absolute" gives the board's own squares."""
    from fogofwar.games.stratego.agents.policy_model import oriented_planes
    from fogofwar.games.stratego.sim.tables import FLIP_COMPACT

    own, absolute = (
        CompiledStrategoEnv("barrage", seat=1),
        CompiledStrategoEnv("barrage", seat=1, orientation="absolute"),
    )
    a, _ = own.reset(seed=6)
    b, _ = absolute.reset(seed=6)
    assert a["planes"][:12, 4:].sum() == 0 < a["planes"][:12, :4].sum()  # its army stands in its home rows...
    assert b["planes"][:12, :6].sum() == 0  # ...which are rows 6-9 of the board
    rng = np.random.default_rng(2)
    for _ in range(30):
        assert np.array_equal(a["planes"], oriented_planes(b["planes"], 1))
        assert np.array_equal(a["action_mask"], b["action_mask"][FLIP_COMPACT])
        move = int(rng.choice(np.flatnonzero(b["action_mask"])))
        a, ra, ta, ua, _ = own.step(FLIP_COMPACT[move])
        b, rb, tb, ub, _ = absolute.step(move)
        assert (ra, ta, ua) == (rb, tb, ub)
        if ta or ua:
            break
    red = CompiledStrategoEnv("barrage", seat=0)
    r, _ = red.reset(seed=6)
    assert r["planes"][:12, 4:].sum() == 0  # red's home is rows 0-3 in either orientation
