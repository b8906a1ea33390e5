"""The belief net: its input says what the tracker says, a net with no correction is the belief itself, its
marginals keep the belief's squares and never revive a rank the belief rules out, the numpy net is the
torch net, the weights round-trip, and `fogofwar train belief-net` runs on a tiny budget (a smoke run)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from tests.paths import ROOT
from typer.testing import CliRunner

from fogofwar.core.agents import make_agent
from fogofwar.frontends.cli import app
from fogofwar.games.stratego.agents.belief import BeliefTracker
from fogofwar.games.stratego.agents.belief_model import RANKS
from fogofwar.games.stratego.agents.belief_net import MARGINALS, PLANES, BeliefNet, belief_planes, shipped_belief_net
from fogofwar.games.stratego.agents.knowledge import Knowledge
from fogofwar.games.stratego.agents.policy_model import PolicyNet
from fogofwar.games.stratego.rules import StrategoGame, StrategoState
from fogofwar.games.stratego.setup import random_setup


def _tracked_game(seed: int, plies: int) -> tuple[StrategoState, list[BeliefTracker]]:
    """A seeded random classic game with each seat's tracker fed every observation of its turns."""
    game = StrategoGame("classic", max_moves=0)
    rng = random.Random(seed)
    state = game.new_initial_state()
    for p in (0, 1):
        state.apply_setup(p, random_setup(game.variant, p, rng))
    trackers = [BeliefTracker(), BeliefTracker()]
    for _ in range(plies):
        if state.is_terminal():
            break
        player = state.current_player()
        trackers[player].update(state.observation(player).data)
        state.apply(rng.choice(state.legal_actions()))
    return state, trackers


def _tiny_net(seed: int = 0, scale: float = 0.3) -> BeliefNet:
    rng = np.random.default_rng(seed)
    convs = (
        (rng.normal(0, 0.2, (6, PLANES, 3, 3)).astype(np.float32), rng.normal(0, 0.1, 6).astype(np.float32)),
        (rng.normal(0, 0.2, (6, 6, 3, 3)).astype(np.float32), rng.normal(0, 0.1, 6).astype(np.float32)),
    )
    head = (rng.normal(0, scale, (RANKS, 6, 1, 1)).astype(np.float32), rng.normal(0, 0.1, RANKS).astype(np.float32))
    return BeliefNet(convs, head, "tiny")


def _seat(state: StrategoState, trackers: list[BeliefTracker], player: int):  # type: ignore[no-untyped-def]
    data = state.observation(player).data
    trackers[player].update(data)
    know = Knowledge.from_observation(data)
    return data, trackers[player], know, trackers[player].marginals(know)


@pytest.mark.parametrize("player", [0, 1])
def test_the_input_holds_the_trackers_marginals_on_the_turned_board(player: int) -> None:
    state, trackers = _tracked_game(1, 120)
    data, tracker, know, marginals = _seat(state, trackers, player)
    planes = belief_planes(data, tracker, know, marginals)
    assert planes.shape == (PLANES, 10, 10)
    for sq, row in marginals.items():
        r, c = divmod(sq if player == 0 else 99 - sq, 10)
        for rank in range(RANKS):
            assert planes[MARGINALS + rank, r, c] == pytest.approx(row.get(rank, 0.0))
    hidden = {sq if player == 0 else 99 - sq for sq in marginals}
    assert all(planes[MARGINALS:, sq // 10, sq % 10].sum() == 0 for sq in range(100) if sq not in hidden)


def test_a_net_that_corrects_nothing_is_the_belief_itself() -> None:
    state, trackers = _tracked_game(2, 90)
    data, tracker, know, marginals = _seat(state, trackers, state.current_player())
    tiny = _tiny_net()
    zero = BeliefNet(tiny.convs, (np.zeros_like(tiny.head[0]), np.zeros_like(tiny.head[1])))
    got = zero.marginals(data, tracker, know, marginals)
    assert set(got) == set(marginals)
    for sq, row in marginals.items():
        assert set(got[sq]) == set(row)
        assert all(got[sq][r] == pytest.approx(p, rel=1e-4, abs=1e-6) for r, p in row.items())


@pytest.mark.parametrize("seed", [3, 4])
def test_the_net_keeps_the_beliefs_squares_and_never_revives_a_ruled_out_rank(seed: int) -> None:
    state, trackers = _tracked_game(seed, 200)
    for player in (0, 1):
        data, tracker, know, marginals = _seat(state, trackers, player)
        got = _tiny_net(seed, scale=2.0).marginals(data, tracker, know, marginals)
        assert set(got) == set(marginals)
        for sq, row in got.items():
            assert set(row) == set(marginals[sq])  # a moved piece stays no bomb, a rank with none left stays out
            assert sum(row.values()) == pytest.approx(1.0) and min(row.values()) >= 0
        assert got != marginals  # a real correction moves the odds


def test_the_numpy_net_computes_what_the_torch_net_does() -> None:
    torch = pytest.importorskip("torch", reason="PyTorch (requirements-train.txt) is needed to compare with it")
    from fogofwar.games.stratego.agents.belief_net import SCALE
    from fogofwar.games.stratego.agents.net_training import torch_net

    tiny = _tiny_net()
    net = torch_net(PLANES, RANKS, 6, 1, SCALE.tolist())
    with torch.no_grad():
        for conv, (w, b) in zip(net.convs, tiny.convs, strict=True):
            conv.weight.copy_(torch.from_numpy(w))
            conv.bias.copy_(torch.from_numpy(b))
        net.head.weight.copy_(torch.from_numpy(tiny.head[0]))
        net.head.bias.copy_(torch.from_numpy(tiny.head[1]))
    state, trackers = _tracked_game(5, 80)
    x = np.stack([belief_planes(*_seat(state, trackers, p)) for p in (0, 1)])
    with torch.no_grad():
        want = net(torch.from_numpy(x)).numpy()
    assert np.allclose(tiny.forward(x * SCALE[None, :, None, None]), want, atol=1e-4)


def test_weights_round_trip_and_a_policy_file_is_refused(tmp_path: Path) -> None:
    tiny = _tiny_net()
    tiny.save(tmp_path / "b.npz")
    again = BeliefNet.load(tmp_path / "b.npz")
    assert again.note == "tiny" and (again.head[0] == tiny.head[0]).all()
    with pytest.raises(ValueError, match="not a policy net"):
        PolicyNet.load(tmp_path / "b.npz")
    with pytest.raises(ValueError, match="not a belief net"):
        BeliefNet.load(ROOT / "src/fogofwar/games/stratego/agents/data/policy_net.npz")


def test_the_shipped_net_loads_and_search_plays_with_it() -> None:
    net = shipped_belief_net()
    assert net is not None, "src/fogofwar/games/stratego/agents/data/belief_net.npz is missing"
    assert "Held out" in net.note
    state, _ = _tracked_game(6, 60)
    player = state.current_player()
    agent = make_agent("search:guesses=4,prior=0.01,belief_net=1")
    agent.start(state.game, player, random.Random(0))
    assert agent.act(state.observation(player), state.legal_actions()) in state.legal_actions()


@pytest.mark.data
def test_train_belief_net_runs_on_a_tiny_budget(tmp_path: Path, gravon_archive: Path) -> None:
    pytest.importorskip("torch", reason="PyTorch (requirements-train.txt) is needed to train")
    out = tmp_path / "b.npz"
    args = ["train", "belief-net", str(gravon_archive), "--max-games", "4", "--max-held-out", "2", "--steps", "3"]
    result = CliRunner().invoke(app, [*args, "--width", "8", "--blocks", "1", "--jobs", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "held out, with the net: log-loss" in result.output and "the belief alone" in result.output
    assert "Held out" in BeliefNet.load(out).note
