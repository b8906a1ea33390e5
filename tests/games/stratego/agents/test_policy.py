"""The learned move policy: the training positions say what the reference engine says, the numpy net is
the torch net, the shipped weights load and play, and `fogofwar train policy` runs on a tiny budget (a smoke
run that proves the command works end to end, not a strength test)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from tests.games.stratego.agents.random_games import random_game
from typer.testing import CliRunner

from fogofwar.core.agents import make_agent
from fogofwar.core.protocol import GameError
from fogofwar.frontends.cli import app
from fogofwar.games.stratego.agents.convnet import ConvNet, _conv3x3, subnormal
from fogofwar.games.stratego.agents.policy_agent import PolicyAgent
from fogofwar.games.stratego.agents.policy_model import (
    FLIP_COMPACT,
    HEADS,
    SLOT_OF_COMPACT,
    PolicyNet,
    oriented_move,
    oriented_planes,
    shipped_policy,
    weights_path,
)
from fogofwar.games.stratego.agents.policy_training import Positions, positions, score, uniform_score
from fogofwar.games.stratego.formats.gravon import gravon_from_state
from fogofwar.games.stratego.sim.planes import NUM_PLANES, planes_from_observation
from fogofwar.games.stratego.sim.tables import COMPACT_OF_MOVE, MOVE_OF_COMPACT, NUM_COMPACT_ACTIONS


def test_slots_and_the_turned_board_are_one_to_one() -> None:
    assert len(set(SLOT_OF_COMPACT.tolist())) == NUM_COMPACT_ACTIONS
    assert SLOT_OF_COMPACT.min() >= 0 and SLOT_OF_COMPACT.max() < HEADS * 100
    assert (FLIP_COMPACT[FLIP_COMPACT] == np.arange(NUM_COMPACT_ACTIONS)).all()
    m = int(MOVE_OF_COMPACT[5])
    assert MOVE_OF_COMPACT[FLIP_COMPACT[5]] == oriented_move(m, 1) and oriented_move(oriented_move(m, 1), 1) == m


@pytest.mark.parametrize("seed", [1, 2])
def test_training_positions_are_what_the_reference_engine_shows_the_mover(seed: int) -> None:
    """Positions come from the compiled simulator; each must equal the reference engine's observation of
    the mover (turned round for blue), its legal moves, and the move played."""
    final, before = random_game(seed, 150)
    pos = positions([gravon_from_state(final)])
    assert len(pos) == len(before)
    for i, (state, played) in enumerate(before):
        player = state.current_player()
        obs = state.observation(player)
        want = oriented_planes(planes_from_observation(obs.data, state.game.variant), player)
        assert (pos.planes[i] == want.astype(np.uint8)).all(), f"planes differ at ply {i}"
        legal = {int(COMPACT_OF_MOVE[oriented_move(a, player)]) for a in state.legal_actions()}
        assert set(np.flatnonzero(pos.legal_mask(np.array([i]))[0]).tolist()) == legal
        assert pos.move[i] == COMPACT_OF_MOVE[oriented_move(played, player)]


def _tiny_net(seed: int = 0) -> PolicyNet:
    rng = np.random.default_rng(seed)
    convs = (
        (rng.normal(0, 0.2, (6, NUM_PLANES, 3, 3)).astype(np.float32), rng.normal(0, 0.1, 6).astype(np.float32)),
        (rng.normal(0, 0.2, (6, 6, 3, 3)).astype(np.float32), rng.normal(0, 0.1, 6).astype(np.float32)),
    )
    head = (rng.normal(0, 0.5, (HEADS, 6, 1, 1)).astype(np.float32), rng.normal(0, 0.1, HEADS).astype(np.float32))
    return PolicyNet(convs, head, "tiny")


def test_the_numpy_net_computes_what_the_torch_net_does() -> None:
    torch = pytest.importorskip("torch", reason="PyTorch (requirements-train.txt) is needed to compare with it")
    from fogofwar.games.stratego.agents.net_training import load_weights, torch_net
    from fogofwar.games.stratego.agents.policy_model import PLANE_SCALE

    net = torch_net(NUM_PLANES, HEADS, 6, 1, PLANE_SCALE.tolist())
    tiny = _tiny_net()
    load_weights(net, tiny)
    final, _ = random_game(3, 40)
    variant = final.game.variant
    x = np.stack([oriented_planes(planes_from_observation(final.observation(p).data, variant), p) for p in (0, 1)])
    with torch.no_grad():
        want = net(torch.from_numpy(x)).flatten(1).numpy()[:, SLOT_OF_COMPACT]
    got = tiny.logits(x)[:, SLOT_OF_COMPACT]
    assert np.allclose(got, want, atol=1e-4)


def test_a_fit_can_start_from_weights_of_its_shape_only() -> None:
    """Fine-tuning starts from the numpy weights exactly (the exported net is the one loaded); weights of
    another shape are refused, saying so, before anything is changed."""
    pytest.importorskip("torch", reason="PyTorch (requirements-train.txt) is needed to train")
    from fogofwar.games.stratego.agents.net_training import export, load_weights, torch_net
    from fogofwar.games.stratego.agents.policy_model import PLANE_SCALE

    tiny = _tiny_net(3)
    net = torch_net(NUM_PLANES, HEADS, 6, 1, PLANE_SCALE.tolist())
    load_weights(net, tiny)
    back = export(net, PolicyNet)
    assert all((a[0] == b[0]).all() and (a[1] == b[1]).all() for a, b in zip(back.convs, tiny.convs, strict=True))
    assert (back.head[0] == tiny.head[0]).all()
    for wrong in (torch_net(NUM_PLANES, HEADS, 8, 1, PLANE_SCALE.tolist()), torch_net(NUM_PLANES, HEADS, 6, 2, [1.0])):
        before = [p.detach().clone() for p in wrong.parameters()]
        with pytest.raises(ValueError, match="convolutions|cannot take weights"):
            load_weights(wrong, tiny)
        assert all((a == b).all() for a, b in zip(before, wrong.parameters(), strict=True))


def test_positions_of_one_player_are_its_moves_only() -> None:
    """`player=NAME` keeps the moves of that seat and no other (a fit to one program's style)."""
    final, before = random_game(6, 80)
    game = gravon_from_state(final, ("ours", "theirs"))
    every = positions([game])
    movers = np.array([state.current_player() for state, _ in before])
    for seat, name in enumerate(("ours", "theirs")):
        mine = positions([game], player=name)
        rows = np.flatnonzero(movers == seat)
        assert len(mine) == len(rows) > 0
        assert (mine.planes == every.planes[rows]).all() and (mine.move == every.move[rows]).all()
    assert len(positions([game], player="nobody")) == 0


def test_weights_round_trip_and_refuse_a_wrong_file(tmp_path: Path) -> None:
    tiny = _tiny_net()
    tiny.save(tmp_path / "p.npz")
    again = PolicyNet.load(tmp_path / "p.npz")
    assert again.note == "tiny"
    assert all((a[0] == b[0]).all() and (a[1] == b[1]).all() for a, b in zip(again.convs, tiny.convs, strict=True))
    np.savez(tmp_path / "bad.npz", conv0_w=np.zeros((4, 3, 3, 3), np.float32), conv0_b=np.zeros(4, np.float32),
             head_w=np.zeros((HEADS, 4, 1, 1), np.float32), head_b=np.zeros(HEADS, np.float32))  # fmt: skip
    with pytest.raises(ValueError, match="not a policy net"):
        PolicyNet.load(tmp_path / "bad.npz")


@pytest.mark.parametrize(
    "file", ["policy_net.npz", "selfplay_net.npz", "selfplay_barrage_net.npz", "value_net.npz", "belief_net.npz"]
)
def test_shipped_weights_are_held_without_subnormals_and_give_the_stored_weights_outputs(file: str) -> None:
    """Subnormal weights (up to 11% of a shipped net's) are held as 0, so the CPU's slow path is never taken, and the
    net's outputs are those of the weights as stored, to the bit."""
    path = weights_path(file)
    with np.load(path) as z:
        stored = {k: z[k] for k in z.files if k != "note"}
    assert any(subnormal(a).any() for a in stored.values())  # the files hold some: the test compares something
    layers = sum(1 for k in stored if k.startswith("conv") and k.endswith("_w"))
    held = ConvNet(tuple((stored[f"conv{i}_w"], stored[f"conv{i}_b"]) for i in range(layers)),
                   (stored["head_w"], stored["head_b"]))  # fmt: skip
    weights = [*(a for w, b in held.convs for a in (w, b)), *held.head]
    assert not any(subnormal(a).any() for a in weights)
    x = np.random.default_rng(3).uniform(0, 1, (8, stored["conv0_w"].shape[1], 10, 10)).astype(np.float32)
    y = x
    for i in range(layers):
        z = np.maximum(_conv3x3(y, stored[f"conv{i}_w"], stored[f"conv{i}_b"]), 0.0)
        y = z if i == 0 else y + z
    expected = np.einsum("bchw,oc->bohw", y, stored["head_w"][:, :, 0, 0], optimize=True)
    expected += stored["head_b"][None, :, None, None]
    assert np.array_equal(held.forward(x), expected.astype(np.float32))


def test_probabilities_cover_exactly_the_legal_moves() -> None:
    final, _ = random_game(4, 30)
    player = final.current_player()
    legal = final.legal_actions()
    probs = _tiny_net().move_probabilities(final.observation(player).data, legal)
    assert set(probs) == set(legal)
    assert abs(sum(probs.values()) - 1.0) < 1e-9 and min(probs.values()) > 0


def test_score_and_the_random_floor() -> None:
    final, _ = random_game(5, 60)
    pos = positions([gravon_from_state(final)])
    s, floor = score(_tiny_net(), pos), uniform_score(pos)
    assert s.positions == floor.positions == len(pos)
    assert 0 <= s.top1 <= 1 and s.log_loss > 0 and 0 < floor.top1 < 1
    empty = Positions(pos.planes[:0], pos.legal[:0], pos.move[:0])
    assert score(_tiny_net(), empty).positions == 0


def test_the_shipped_net_loads_and_predicts_a_sensible_move() -> None:
    net = shipped_policy()
    assert net is not None, "src/fogofwar/games/stratego/agents/data/policy_net.npz is missing"
    assert "Held out" in net.note
    assert sum(w.nbytes + b.nbytes for w, b in net.convs) < 20 * 2**20
    final, _ = random_game(6, 20)
    player = final.current_player()
    probs = net.move_probabilities(final.observation(player).data, final.legal_actions())
    assert max(probs.values()) > 1.5 / len(probs)  # it prefers some moves: not a uniform net


def test_policy_spec_errors_are_clear() -> None:
    assert isinstance(make_agent("policy:temperature=0.5"), PolicyAgent)
    for bad, words in (("policy:speed=2", "unknown option"), ("policy:temperature=x", "a number"),
                       ("policy:temperature=-1", "from 0 to 100")):  # fmt: skip
        with pytest.raises(GameError, match=words):
            make_agent(bad)


def test_search_with_the_prior_still_plays_and_can_be_pulled_by_it() -> None:
    """prior=0 is today's search; a large prior plays the net's own choice."""
    final, _ = random_game(7, 40)
    player = final.current_player()
    obs, legal = final.observation(player), final.legal_actions()
    net = shipped_policy()
    assert net is not None
    probs = net.move_probabilities(obs.data, legal)
    agent = make_agent("search:guesses=4,prior=1000")
    agent.start(final.game, player, random.Random(0))
    assert agent.act(obs, legal) == max(probs, key=lambda a: probs[a])


@pytest.mark.data
def test_train_policy_runs_on_a_tiny_budget(tmp_path: Path, gravon_archive: Path) -> None:
    pytest.importorskip("torch", reason="PyTorch (requirements-train.txt) is needed to train")
    out = tmp_path / "p.npz"
    args = ["train", "policy", str(gravon_archive), "--max-games", "6", "--max-held-out", "2", "--steps", "3"]
    result = CliRunner().invoke(app, [*args, "--width", "8", "--blocks", "1", "--batch", "16", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "held out, the net: top-1" in result.output
    assert "Held out" in PolicyNet.load(out).note
    tuned = tmp_path / "tuned.npz"
    again = ["train", "policy", str(gravon_archive), "--max-games", "6", "--max-held-out", "2", "--steps", "2"]
    start = ["--start", str(out), "--lr", "0.0001"]
    result = CliRunner().invoke(app, [*again, "--batch", "16", *start, "--out", str(tuned)])
    assert result.exit_code == 0, result.output
    assert "held out, the net started from: top-1" in result.output
    assert "fine-tuned from p.npz" in PolicyNet.load(tuned).note
    assert PolicyNet.load(tuned).convs[0][0].shape == PolicyNet.load(out).convs[0][0].shape  # the start's width
    result = CliRunner().invoke(app, [*again, "--player", "nobody", "--out", str(tmp_path / "none.npz")])
    assert result.exit_code == 2 and "no move of 'nobody'" in result.output
    assert not (tmp_path / "none.npz").exists()
    result = CliRunner().invoke(app, [*again, "--start", str(tmp_path / "missing.npz")])
    assert result.exit_code == 2 and "cannot read the weights to start from" in result.output
