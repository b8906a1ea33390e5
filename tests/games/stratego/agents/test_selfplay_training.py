"""The policy improved by self-play (`selfplay_training`): the credit each decision gets (material win chance,
results, a game's end cutting a seat's chain of turns), a seeded run that returns a net of its start's shape,
a match that plays every game to its end, the shipped net's player, and `fogofwar train selfplay` on a tiny
budget (a smoke run that proves the command works end to end, not a strength test)."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import numpy as np
import pytest
from tests.games.stratego.agents.random_games import random_game
from typer.testing import CliRunner

from fogofwar.core.agents import make_agent
from fogofwar.core.protocol import GameError
from fogofwar.frontends.cli import app
from fogofwar.games.stratego.agents.material_chance import Potential
from fogofwar.games.stratego.agents.policy_agent import SelfPlayAgent
from fogofwar.games.stratego.agents.policy_model import HEADS, PolicyNet, shipped_net, shipped_policy
from fogofwar.games.stratego.agents.selfplay_training import (
    SelfPlayConfig,
    UpdateReport,
    _Pool,
    advantages,
    match,
    train,
)
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import StrategoGame
from fogofwar.games.stratego.sim.planes import NUM_PLANES


def tiny_policy(seed: int = 0, width: int = 8) -> PolicyNet:
    """A small random policy net, so that runs in tests take a second."""
    rng = np.random.default_rng(seed)

    def layer(out: int, inp: int, k: int) -> tuple[np.ndarray, np.ndarray]:
        w = rng.normal(0, 0.1, (out, inp, k, k)).astype(np.float32)
        return w, np.zeros(out, np.float32)

    return PolicyNet((layer(width, NUM_PLANES, 3), layer(width, width, 3)), layer(HEADS, width, 1))


def test_the_material_potential_is_zero_between_equal_armies_and_turns_with_a_loss() -> None:
    pot = Potential()
    captured = np.zeros((2, 2, 12), np.int64)
    seats = np.array([0, 1])
    assert np.allclose(pot(captured, seats), 0.0)
    captured[:, 0, Rank.MARSHAL] = 1  # red lost its marshal in both games
    red, blue = pot(captured, np.array([0, 0])), pot(captured, np.array([1, 1]))
    assert (red < -0.1).all() and np.allclose(red, -blue)
    captured[:, 0, Rank.FLAG] = 1  # the flag is worth nothing: taking it ends the game
    assert np.allclose(pot(captured, np.array([0, 0])), red)
    captured[:, 1, Rank.SCOUT] = 1
    assert (pot(captured, np.array([0, 0])) > red).all()


def test_the_marshals_step_weighs_the_marshal_that_outlives_the_others_and_nothing_else() -> None:
    plain, stepped = Potential("classic"), Potential("classic", marshal_step=True)
    assert plain.marshal_step == 0 and stepped.marshal_step > 0
    seats = np.zeros(4, np.int64)
    captured = np.zeros((4, 2, 12), np.int64)
    captured[1, 0, Rank.MARSHAL] = captured[1, 1, Rank.SPY] = 1  # red's marshal lost to blue's spy
    captured[2, :, Rank.MARSHAL] = 1  # both marshals lost: neither outlives the other
    captured[3, 1, Rank.MARSHAL] = 1  # blue's marshal lost
    p, s = plain(captured, seats), stepped(captured, seats)
    assert s[0] == p[0] == 0 and s[2] == 0  # equal armies
    assert s[1] < p[1] < 0 and s[3] > p[3] > 0  # the marshal that outlives the other's counts for more
    assert np.allclose(s[3], -stepped(captured, np.ones(4, np.int64))[3])


def test_a_turn_is_credited_up_to_its_seats_next_turn_and_a_games_end_cuts_the_chain() -> None:
    cfg = SelfPlayConfig(gamma=1.0, lam=1.0)
    length, n = 6, 2  # a horizon of four decisions, two plies to look ahead
    values = np.zeros((length, n), np.float32)
    phi = np.array([[0.0, 0.0], [0.1, 0.0], [0.2, 0.0], [0.3, 0.0], [0.5, 0.0], [0.7, 0.0]], np.float32)
    ended = np.zeros((length, n), np.bool_)
    result = np.zeros((length, n, 2), np.float32)
    movers = np.tile(np.array([[0], [1]]), (3, n))
    # game 1 ends at ply 1 (blue's move takes red's flag), a new game starts at ply 2
    ended[1, 1] = True
    result[1, 1] = (-1.0, 1.0)
    adv, target = advantages(values, phi, ended, result, movers, cfg)
    assert adv.shape == (4, n)
    # game 0: red's turns 0 and 2 are credited with the change to its turn 4; blue's 1 and 3 up to 5
    assert adv[0, 0] == pytest.approx(0.5 - 0.0) and adv[2, 0] == pytest.approx(0.5 - 0.2)
    assert adv[1, 0] == pytest.approx(0.7 - 0.1) and adv[3, 0] == pytest.approx(0.7 - 0.3)
    # game 1: red's turn 0 gets its loss, blue's turn 1 its win; neither reaches into the next game
    assert adv[0, 1] == pytest.approx(-1.0) and adv[1, 1] == pytest.approx(1.0)
    assert np.allclose(target, adv)  # the values were zero
    discounted = advantages(values, phi, ended, result, movers, SelfPlayConfig(gamma=0.5, lam=1.0))[0]
    assert discounted[0, 0] == pytest.approx((0.2 - 0.0) + 0.5 * (0.5 - 0.2))


def test_bad_settings_are_refused() -> None:
    for bad in ({"envs": 0}, {"gamma": 0.0}, {"lam": 1.5}, {"max_moves": 1}, {"pool_share": 1.5}, {"pool_size": 0}):
        with pytest.raises(ValueError):
            SelfPlayConfig(**bad)  # type: ignore[arg-type]


def test_a_seeded_run_returns_a_net_of_its_starts_shape_and_repeats() -> None:
    pytest.importorskip("torch", reason="PyTorch (requirements-train.txt) is needed to train")
    import torch

    torch.set_num_threads(1)
    start = tiny_policy()
    cfg = SelfPlayConfig(envs=4, horizon=6, minibatch=8, warmup=1, max_moves=30, lr=1e-3)
    seen: list[int] = []
    kept: list[int] = []
    first = train(
        start, cfg, updates=3, report=lambda r: seen.append(r.update), checkpoint=lambda u, _: kept.append(u), every=2
    )
    assert seen == [1, 2, 3] and kept == [2]
    assert [w.shape for w, _ in first.convs] == [w.shape for w, _ in start.convs]
    assert not np.allclose(first.head[0], start.head[0])  # it learnt something
    again = train(start, cfg, updates=3)
    assert all(np.allclose(a[0], b[0]) for a, b in zip(first.convs, again.convs, strict=True))


def test_the_pool_seats_the_learner_in_its_share_of_games_and_keeps_the_newest_snapshots() -> None:
    pool = _Pool(["start", "past"], n=8, share=0.5, size=2, seed=0)
    assert pool.seat.tolist() == [0, 1, 0, 1, -1, -1, -1, -1]
    mover = np.array([0, 0, 1, 1, 0, 1, 0, 1])
    assert pool.learner_moves(mover).tolist() == [True, False, False, True, True, True, True, True]
    for snap in ("a", "b", "c"):
        pool.add(snap)
    assert pool.nets == ["start", "past", "b", "c"]
    pool.draw(np.ones(8, np.bool_))
    assert set(pool.which[:4]) <= {0, 1, 2, 3} and not pool.which[4:].any()
    assert _Pool([], n=8, share=0.5, size=2, seed=0).learner_moves(mover).all()  # no pool: self-play


def _keep_positions(seen: list[int], report: UpdateReport) -> None:
    seen.append(report.positions)


def test_against_a_pool_only_the_learners_decisions_are_learnt_from() -> None:
    pytest.importorskip("torch", reason="PyTorch (requirements-train.txt) is needed to train")
    import torch

    torch.set_num_threads(1)
    start = tiny_policy()
    base = {"envs": 4, "horizon": 8, "minibatch": 8, "warmup": 1, "max_moves": 30, "lr": 1e-3}
    counts: dict[float, list[int]] = {}
    for share in (0.0, 1.0):
        cfg = SelfPlayConfig(**base, pool_share=share, snapshot=1)  # type: ignore[arg-type]
        seen = counts.setdefault(share, [])
        net = train(start, cfg, updates=2, report=functools.partial(_keep_positions, seen), pool=[tiny_policy(5)])
        assert not np.allclose(net.head[0], start.head[0])
    assert counts[0.0] == [32, 64]  # every ply of every game is a decision of the learner
    assert 0 < counts[1.0][0] < 32 and counts[1.0][1] - counts[1.0][0] < 32  # about half: one seat of each game


def test_a_match_plays_every_game_to_its_end() -> None:
    pytest.importorskip("torch", reason="PyTorch (requirements-train.txt) is needed to train")
    result = match(tiny_policy(1), tiny_policy(2), games=6, seed=3, max_moves=40)
    assert result.wins + result.draws + result.losses == 6
    assert result.line().endswith("%)")
    with pytest.raises(ValueError):
        match(tiny_policy(1), tiny_policy(2), games=0)


def test_train_selfplay_runs_on_a_tiny_budget(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="PyTorch (requirements-train.txt) is needed to train")
    start = tmp_path / "start.npz"
    tiny_policy().save(start)
    out = tmp_path / "better.npz"
    args = ["train", "selfplay", "--start", str(start), "--updates", "2", "--envs", "2", "--horizon", "3"]
    result = CliRunner().invoke(app, [*args, "--warmup", "1", "--games", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "against the start:" in result.output
    assert "improved by self-play" in PolicyNet.load(out).note
    pooled = [*args, "--pool", str(start), "--pool-share", "0.5", "--snapshot", "1", "--games", "0"]
    result = CliRunner().invoke(app, [*pooled, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (
        "50% of the games against a pool (the start, 1 more net, a snapshot every 1 updates)"
        in PolicyNet.load(out).note
    )
    result = CliRunner().invoke(app, [*args, "--pool", str(tmp_path / "gone.npz"), "--out", str(out)])
    assert result.exit_code == 2 and "cannot read the pool's weights" in result.output
    result = CliRunner().invoke(app, [*args, "--start", str(tmp_path / "missing.npz"), "--out", str(out)])
    assert result.exit_code == 2 and "cannot read the weights to start from" in result.output


def test_the_shipped_selfplay_net_loads_and_its_player_plays_it() -> None:
    net = shipped_net(SelfPlayAgent.weights)
    assert net is not None, "src/fogofwar/games/stratego/agents/data/selfplay_net.npz is missing"
    assert "improved by self-play" in net.note
    people = shipped_policy()
    assert people is not None and not np.allclose(net.head[0], people.head[0])
    final, _ = random_game(8, 30)
    player = final.current_player()
    obs, legal = final.observation(player), final.legal_actions()
    probs = net.move_probabilities(obs.data, legal)
    agent = make_agent("selfplay")
    assert isinstance(agent, SelfPlayAgent)
    agent.start(final.game, player, random.Random(0))
    assert agent.act(obs, legal) == max(sorted(probs), key=lambda a: (probs[a], -a))
    with pytest.raises(GameError, match="selfplay: unknown option"):
        make_agent("selfplay:speed=2")


def test_selfplay_plays_barrage_with_the_net_self_played_in_barrage() -> None:
    barrage = shipped_net(SelfPlayAgent.variant_weights["barrage"])
    assert barrage is not None, "src/fogofwar/games/stratego/agents/data/selfplay_barrage_net.npz is missing"
    assert "barrage Stratego" in barrage.note
    classic = SelfPlayAgent.weights
    assert barrage is not shipped_net(classic)
    for variant, file in (
        ("barrage", SelfPlayAgent.variant_weights["barrage"]),
        ("classic", classic),
        ("duel", classic),
    ):
        agent = make_agent("selfplay")
        assert isinstance(agent, SelfPlayAgent)
        agent.start(StrategoGame(variant=variant), 0, random.Random(0))
        assert agent._net is shipped_net(file), variant
