"""The learned value: afterstates built by hand are what the reference engine shows the mover after its move,
the training positions are the engine's too, the numpy net reads its weights back, the shipped weights load
and play, and `fogofwar train value` runs on a tiny budget (a smoke run, not a strength test)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from tests.games.stratego.agents.random_games import random_game
from typer.testing import CliRunner

from fogofwar.core.agents import make_agent
from fogofwar.frontends.cli import app
from fogofwar.games.stratego.agents.policy_model import PolicyNet, oriented_planes
from fogofwar.games.stratego.agents.value_model import (
    ValueNet,
    afterstate,
    material_chance,
    material_logit,
    shipped_value,
)
from fogofwar.games.stratego.agents.value_training import afterstates, constant_score, horizon_targets, score
from fogofwar.games.stratego.formats.gravon import gravon_from_state
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import StrategoGame
from fogofwar.games.stratego.sim.planes import NUM_PLANES, planes_from_observation


def test_an_afterstate_is_what_the_engine_shows_the_mover_after_its_move() -> None:
    """Quiet moves, scout runs and every kind of battle: the hand-built planes equal the engine's, and
    the planes before the move are left as they were."""
    before = [pair for seed in range(8) for pair in random_game(seed, 1500)[1]]
    battles = 0
    for state, move in before:
        player = state.current_player()
        planes = planes_from_observation(state.observation(player).data, state.game.variant)
        kept = planes.copy()
        src, dst = divmod(move, 100)
        defender = state.piece_at(dst)
        rank = None if defender is None else defender[1]
        after = afterstate(planes, src, dst, rank)
        assert (planes == kept).all()
        state.apply(move)
        if rank == Rank.FLAG:
            assert after is None
            continue
        battles += rank is not None
        assert after is not None
        want = planes_from_observation(state.observation(player).data, state.game.variant)
        assert (after == want).all(), f"afterstate differs after {move}"
    assert battles > 40


def test_training_afterstates_are_the_engines_and_labelled_by_the_winner() -> None:
    final, before = random_game(5, 2000)
    assert final.is_terminal()
    record = gravon_from_state(final)
    winner = final.outcome().winner
    assert winner in (0, 1)
    data = afterstates([record], every=3)
    assert len(data) == len(before) // 3
    for i in range(len(data)):
        ply = int(data.ply[i])
        state, move = before[ply - 1]
        mover = state.current_player()
        after = state.clone()
        after.apply(move)
        want = oriented_planes(planes_from_observation(after.observation(mover).data, state.game.variant), mover)
        assert (data.planes[i] == want.astype(np.uint8)).all(), f"afterstate differs at ply {ply}"
        assert data.won[i] == (1.0 if mover == winner else 0.0)


def test_the_target_is_the_material_later_in_the_same_game_or_the_result() -> None:
    games = [gravon_from_state(random_game(seed, 2000)[0]) for seed in (5, 8)]
    data = afterstates(games, every=2)
    target = horizon_targets(data, 10)
    chance = material_chance(data.planes)
    rows = {(int(g), int(t)): i for i, (g, t) in enumerate(zip(data.game, data.ply, strict=True))}
    later = 0
    for i, (g, t) in enumerate(zip(data.game, data.ply, strict=True)):
        j = rows.get((int(g), int(t) + 10))
        assert target[i] == (data.won[i] if j is None else chance[j])
        later += j is not None
    assert 0 < later < len(data)
    assert set(np.unique(data.game).tolist()) == {0, 1}
    assert (horizon_targets(data, 0) == data.won).all()


def _tiny_net(seed: int = 0) -> ValueNet:
    rng = np.random.default_rng(seed)
    convs = (
        (rng.normal(0, 0.2, (4, NUM_PLANES, 3, 3)).astype(np.float32), rng.normal(0, 0.1, 4).astype(np.float32)),
        (rng.normal(0, 0.2, (4, 4, 3, 3)).astype(np.float32), rng.normal(0, 0.1, 4).astype(np.float32)),
    )
    head = (rng.normal(0, 0.2, (1, 4, 1, 1)).astype(np.float32), np.zeros(1, np.float32))
    return ValueNet(convs, head, "tiny")


def test_the_net_reads_back_what_it_wrote_and_refuses_another_models_file(tmp_path: Path) -> None:
    net = _tiny_net()
    net.save(tmp_path / "v.npz")
    again = ValueNet.load(tmp_path / "v.npz")
    x = np.random.default_rng(1).integers(0, 2, (3, NUM_PLANES, 10, 10)).astype(np.float32)
    assert np.allclose(net.win_chances(x), again.win_chances(x))
    with pytest.raises(ValueError, match="not a policy net"):
        PolicyNet.load(tmp_path / "v.npz")


def test_material_alone_says_even_at_the_start_and_more_with_more() -> None:
    start, _ = random_game(6, 0)
    planes = planes_from_observation(start.observation(0).data, start.game.variant)[None]
    assert abs(float(material_logit(planes)[0])) < 1e-6
    fewer = planes.copy()
    fewer[0, 33 + int(Rank.MARSHAL)] = 0.0  # the enemy marshal accounted for: taken
    assert float(material_logit(fewer)[0]) > 0.5


def test_move_values_cover_every_move_and_the_flag_is_a_sure_win() -> None:
    net = _tiny_net()
    _, before = random_game(7, 120)
    for state, _ in before[-20:]:
        player = state.current_player()
        planes = planes_from_observation(state.observation(player).data, state.game.variant)
        moves = state.legal_actions()
        unknown = {sq: {int(Rank.FLAG): 0.2, int(Rank.BOMB): 0.3, int(Rank.SCOUT): 0.5} for sq in range(100)}
        values = net.move_values(planes, player, moves, unknown)
        assert set(values) == set(moves)
        assert all(0.0 < v <= 1.0 for v in values.values())
        for move in moves:
            target = state.piece_at(move % 100)
            if target is not None and not target[3]:  # an unknown piece: a fifth of the time the flag
                assert values[move] >= 0.2


def test_scores_of_a_perfect_and_a_constant_guess() -> None:
    final, _ = random_game(5, 2000)
    data = afterstates([gravon_from_state(final)], every=2)
    floor = constant_score(data, data)
    assert floor.positions == len(data) and 0.0 < floor.log_loss < 1.0
    assert score(_tiny_net(), data).positions == len(data)


def test_the_shipped_net_loads_and_the_search_with_it_plays_legal_moves() -> None:
    assert shipped_value() is not None
    game = StrategoGame("classic", max_moves=0)
    agents = [make_agent("search:prior=0.01,value=1,mirror=1", "stratego"), make_agent("search", "stratego")]
    state = game.new_initial_state()
    for p, agent in enumerate(agents):
        agent.start(game, p, random.Random(p))
    for _ in range(120):
        if state.is_terminal():
            break
        p = state.current_player()
        legal = state.legal_actions()
        action = agents[p].act(state.observation(p), legal)
        assert action in legal
        state.apply(action)


def test_train_value_smoke_run(gravon_archive: Path, tmp_path: Path) -> None:
    pytest.importorskip("torch")
    out = tmp_path / "value.npz"
    result = CliRunner().invoke(
        app,
        ["train", "value", str(gravon_archive), "--max-games", "30", "--max-held-out", "5", "--steps", "20",
         "--width", "8", "--blocks", "1", "--out", str(out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "held out, the net: log-loss" in result.output
    assert ValueNet.load(out).note.startswith("Value net")
