"""`VectorStratego`, the fused step: move by move against the reference engine, seeding, threads, autoreset,
illegal actions and the chosen-setup phase."""

from __future__ import annotations

import numpy as np
import pytest

from fogofwar.games.stratego.agents.policy_model import FLIP_COMPACT as POLICY_FLIP
from fogofwar.games.stratego.agents.policy_model import oriented_planes
from fogofwar.games.stratego.sim.tables import FLIP_COMPACT
from fogofwar.games.stratego.sim.vector import VECTOR_TERMINATIONS, VectorStratego
from fogofwar.games.stratego.sim.vector_differential import compare_vector_games


@pytest.mark.parametrize(
    ("variant", "games", "policy", "opponent", "setup"),
    [
        ("barrage", 8, "random", None, "random"),
        ("barrage", 8, "chase", None, "random"),
        ("barrage", 8, "chase", "random", "random"),
        ("classic", 3, "random", None, "random"),
        ("classic", 3, "chase", "random", "random"),
        ("classic", 3, "repetitive", None, "random"),
        ("barrage", 4, "random", None, "menu"),
        ("barrage", 4, "chase", "random", "pieces"),
        ("classic", 2, "random", "random", "menu"),
        ("classic", 2, "random", None, "pieces"),
    ],
)
def test_fused_path_agrees_with_the_reference(
    variant: str, games: int, policy: str, opponent: str | None, setup: str
) -> None:
    report = compare_vector_games(variant, games, seed=7, n_envs=4, policy=policy, opponent=opponent, setup=setup)
    assert report.mismatches == [], report.line()
    assert report.games >= games and report.observation_checks > report.moves
    if policy == "chase" and opponent is None:
        assert report.two_squares_blocks > 0 and report.more_squares_blocks > 0, report.line()


@pytest.mark.parametrize(("two_squares", "more_squares"), [(0, False), (3, True), (5, False)])
def test_fused_path_agrees_with_repetition_rules_varied(two_squares: int, more_squares: bool) -> None:
    report = compare_vector_games(
        "barrage", 6, seed=3, n_envs=3, policy="chase", two_squares=two_squares, more_squares=more_squares, threads=2
    )
    assert report.mismatches == [], report.line()


_STATE = ("ctl", "st", "board", "codes", "rng", "planes", "counts", "to_place", "mask", "seat_rewards", "rewards")
_MORE = ("terminated", "truncated", "final_planes", "final_counts")


@pytest.mark.parametrize(
    "kw",
    [
        {"seat": "random"},
        {"opponent": None, "setup": "pieces", "autoreset": "same_step"},
        {"setup": "menu", "seat": "random", "autoreset": "same_step"},
    ],
)
def test_seeded_and_the_same_on_any_number_of_threads(kw: dict[str, object]) -> None:
    """Every array of the games, step by step, whichever kernel and threads step them: 64 games, so one Python
    thread or two run the prange kernel on their share, three the plain one (the prange kernel once lost writes of
    an inlined helper: this compares the whole state, not only what the envs return)."""
    ways: list[dict[str, object]] = [{"parallel": "threads"}, {"threads": 2, "parallel": "threads"}]
    ways += [{"parallel": "prange"}, {"threads": 2, "parallel": "prange"}, {"threads": 3, "parallel": "threads"}]
    sims = [VectorStratego("barrage", 64, **kw, **way) for way in ways]  # type: ignore[arg-type]
    for sim in sims:
        sim.reset(seed=11)
    ended = 0
    for step in range(250):
        actions = sims[0].sample_actions()
        for sim in sims[1:]:
            assert np.array_equal(sim.sample_actions(), actions)
        for sim in sims:
            sim.step(actions)
        ended += int((sims[0].terminated | sims[0].truncated).sum())
        for sim, way in zip(sims[1:], ways[1:], strict=True):
            for name in _STATE + _MORE:
                assert np.array_equal(getattr(sim, name), getattr(sims[0], name)), (step, name, way)
    assert ended > 5  # games ended (and restarted) on the way
    for sim in sims:
        sim.close()
    other = VectorStratego("barrage", 3)
    other.reset(seed=12)
    assert not np.array_equal(other.codes, sims[0].codes[:3])  # another seed, other setups


def test_game_i_of_a_batch_is_the_single_game_seeded_seed_plus_i() -> None:
    batch = VectorStratego("barrage", 3)
    batch.reset(seed=20)
    single = VectorStratego("barrage", 1)
    single.reset(seed=22)
    assert np.array_equal(batch.codes[2], single.codes[0])


def _play_until_an_ending(vs: VectorStratego) -> int:
    for _ in range(5000):
        vs.step(vs.sample_actions())
        done = np.flatnonzero(vs.terminated | vs.truncated)
        if len(done):
            return int(done[0])
    raise AssertionError("no game ended")


def test_next_step_autoreset_ignores_the_action_and_starts_again() -> None:
    vs = VectorStratego("barrage", 4, max_moves=60)
    vs.reset(seed=2)
    e = _play_until_an_ending(vs)
    ending = vs.endings()
    assert VECTOR_TERMINATIONS[ending["termination"][e]] in ("flag_captured", "no_moves", "move_limit")
    assert not vs.mask[e].any() and vs.rewards[e] in (-1.0, 0.0, 1.0)
    assert vs.truncated[e] == (VECTOR_TERMINATIONS[ending["termination"][e]] == "move_limit")
    actions = vs.sample_actions()
    assert actions[e] == -1
    vs.step(actions)  # -1 would be illegal in a running game; here it is ignored
    assert not vs.terminated[e] and not vs.truncated[e] and vs.rewards[e] == 0 and vs.mask[e].any()
    assert int(vs.st[e, 1]) <= 1  # a fresh game (the opponent may have moved first)


def test_same_step_autoreset_keeps_the_final_observation() -> None:
    vs = VectorStratego("barrage", 4, max_moves=60, autoreset="same_step")
    vs.reset(seed=2)
    e = _play_until_an_ending(vs)
    assert vs.mask[e].any() and int(vs.st[e, 1]) <= 1  # already the next game
    assert vs.final_planes[e].any() and not np.array_equal(vs.final_planes[e], vs.planes[e])


@pytest.mark.parametrize("autoreset", ["same_step", "next_step"])
def test_no_episode_is_over_before_the_learner_acts(autoreset: str) -> None:
    """Seed 1, game 49 of 64: a new deal whose opponent (red) takes the learner's flag with its first move (a scout
    down an open file). Such deals are dealt again; they once left a game stuck at its end (same_step) or ended it
    unreported (next_step)."""
    vs = VectorStratego("barrage", 64, seat="random", autoreset=autoreset)
    vs.reset(seed=1)
    endings = 0
    for _ in range(600):
        vs.step(vs.sample_actions())
        ended = vs.terminated | vs.truncated
        endings += int(ended.sum())
        decided = ended & (vs.ctl[:, 6] >= 0)  # C_END_WINNER
        assert (np.abs(vs.rewards[decided]) == 1).all()
        if autoreset == "same_step":
            assert not vs.st[:, 2].any()  # K.DONE: every game is running again
    assert 150 < endings < 400


def test_disabled_autoreset_waits_for_reset() -> None:
    vs = VectorStratego("barrage", 4, max_moves=60, autoreset="disabled")
    vs.reset(seed=2)
    e = _play_until_an_ending(vs)
    planes = vs.planes[e].copy()
    vs.step(vs.sample_actions())
    assert vs.terminated[e] or vs.truncated[e]
    assert np.array_equal(vs.planes[e], planes) and vs.rewards[e] == 0
    vs.reset(envs=[e])
    assert vs.mask[e].any() and not vs.terminated[e]


def test_illegal_actions_lose_or_raise() -> None:
    vs = VectorStratego("barrage", 2, seat=1)
    vs.reset(seed=4)
    illegal = int(np.flatnonzero(~vs.mask[0])[0])
    vs.step([illegal, vs.sample_actions()[1]])
    assert vs.terminated[0] and vs.rewards[0] == -1.0 and vs.seat_rewards[0].tolist() == [1.0, -1.0]
    assert VECTOR_TERMINATIONS[vs.endings()["termination"][0]] == "illegal_action"
    strict = VectorStratego("barrage", 2, illegal="raise")
    strict.reset(seed=4)
    before = strict.planes.copy()
    with pytest.raises(ValueError, match="env 1"):
        strict.step([strict.sample_actions()[0], 5000])
    assert np.array_equal(strict.planes, before)


def test_setup_phase_by_menu_and_piece_by_piece() -> None:
    menu = ["9...1..2.9/....S...../........../..BF...8..", "..9.1..2.9/....S...../........../..BF...8.."]
    vs = VectorStratego("barrage", 2, setup="menu", setup_menu=menu, opponent=None)
    vs.reset(seed=1)
    assert vs.in_setup.all() and vs.view.tolist() == [0, 0] and vs.mask.sum(axis=1).tolist() == [2, 2]
    assert vs.to_place[0].sum() == 8 and vs.planes[:, :26].sum() == 0  # the enemy's army is not shown
    vs.step([0, 1])
    assert vs.view.tolist() == [1, 1] and vs.in_setup.all()
    vs.step([1, 1])
    assert not vs.in_setup.any() and vs.view.tolist() == [0, 0] and vs.to_place.sum() == 0
    pieces = VectorStratego("barrage", 1, setup="pieces", seat=1)
    pieces.reset(seed=1)
    assert pieces.view[0] == 1 and pieces.mask[0, 60:100].all() and pieces.mask[0].sum() == 40
    for _ in range(8):
        assert pieces.in_setup[0]
        pieces.step(pieces.sample_actions())
    assert not pieces.in_setup[0] and int(pieces.st[0, 1]) == 1  # red, the opponent, has moved


def test_options_are_checked() -> None:
    for kw in ({"setup": "free"}, {"opponent": "heuristic"}, {"seat": True}, {"autoreset": "never"}):
        with pytest.raises(ValueError):
            VectorStratego("barrage", 1, **kw)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="fixed roster"):
        VectorStratego("classicfree", 1)


def _in_own_view(vs: VectorStratego, actions: np.ndarray) -> np.ndarray:
    """Absolute actions as an oriented blue gives them: moves turned round, setup squares s as 99 - s."""
    out = actions.copy()
    for e in np.flatnonzero((vs.view == 1) & (actions >= 0)):
        if not vs.in_setup[e]:
            out[e] = FLIP_COMPACT[actions[e]]
        elif vs.setup == "pieces":
            out[e] = 99 - actions[e]
    return out


@pytest.mark.parametrize(
    "kw",
    [
        {"opponent": None, "setup": "pieces"},
        {"seat": "random"},
        {"seat": 1, "setup": "menu", "illegal": "raise"},
    ],
)
def test_own_orientation_is_the_absolute_view_turned_round_for_blue(kw: dict[str, object]) -> None:
    """orientation="own": blue's planes are the absolute ones turned round (as the policy net's oriented planes),
    its mask and actions are the absolute ones through FLIP_COMPACT (setup squares s as 99 - s), and the games are
    the same; red's view does not change."""
    n = 12
    absolute = VectorStratego("barrage", n, max_moves=80, autoreset="next_step", **kw)  # type: ignore[arg-type]
    own = VectorStratego("barrage", n, max_moves=80, autoreset="next_step", orientation="own", **kw)  # type: ignore[arg-type]
    absolute.reset(seed=4)
    own.reset(seed=4)
    blue_moves = blue_setups = 0
    for _ in range(150):
        assert np.array_equal(own.view, absolute.view)
        blue = absolute.view == 1
        assert np.array_equal(own.planes[~blue], absolute.planes[~blue])
        assert np.array_equal(own.planes[blue], oriented_planes(absolute.planes[blue], 1))
        assert np.array_equal(own.counts, absolute.counts) and np.array_equal(own.to_place, absolute.to_place)
        for e in range(n):
            expected = absolute.mask[e]
            if blue[e] and not absolute.in_setup[e]:
                expected = expected[FLIP_COMPACT]
            elif blue[e] and absolute.setup == "pieces":
                expected = np.concatenate([expected[:100][::-1], expected[100:]])
            assert np.array_equal(own.mask[e], expected), e
        sampled = own.sample_actions()
        has = own.mask.any(axis=1)
        assert own.mask[np.flatnonzero(has), sampled[has]].all()  # the sampler speaks the own view too
        actions = absolute.sample_actions()
        blue_moves += int((blue & ~absolute.in_setup & absolute.mask.any(axis=1)).sum())
        blue_setups += int((blue & absolute.in_setup & absolute.mask.any(axis=1)).sum())
        own_actions = _in_own_view(absolute, actions)
        absolute.step(actions)
        own.step(own_actions)
        for name in ("rewards", "seat_rewards", "terminated", "truncated"):
            assert np.array_equal(getattr(own, name), getattr(absolute, name)), name
        assert np.array_equal(own.board, absolute.board) and np.array_equal(own.codes, absolute.codes)
    assert blue_moves > 50
    assert blue_setups > 0 or kw.get("setup", "random") == "random"
    own.close()
    absolute.close()


def test_flip_table_is_the_policy_nets() -> None:
    assert np.array_equal(FLIP_COMPACT, POLICY_FLIP) and np.array_equal(FLIP_COMPACT[FLIP_COMPACT], np.arange(1368))
