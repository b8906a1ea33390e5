"""Expert iteration (`expert_training`): the labels are what `rollout` saw and chose (the move it played is the one
the labels say it chose, for both seats, turned round for blue), they do not depend on the worker processes, the
target keeps the start outside the compared moves, a fit moves the net towards the look-ahead's choices, and
`fogofwar train expert` on a tiny budget (a smoke run that proves the command works, not a strength test)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from tests.games.stratego.agents.test_rollout import HOME, crafted
from tests.games.stratego.agents.test_selfplay_training import tiny_policy
from typer.testing import CliRunner

from fogofwar.core.protocol import GameError
from fogofwar.core.registry import make_game
from fogofwar.frontends.cli import app
from fogofwar.games.stratego.agents import expert_training as et
from fogofwar.games.stratego.agents.knowledge import Knowledge
from fogofwar.games.stratego.agents.policy_model import PolicyNet, oriented_compact, oriented_move
from fogofwar.games.stratego.agents.rollout import RolloutAgent, flag_threats, watch_values
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.sim.tables import COMPACT_OF_MOVE

QUICK = "guesses=2,depth=2"


@pytest.fixture(scope="module")
def labels() -> et.Labels:
    found, plies = et.label_games(2, seed=3, spec=QUICK, max_plies=160)
    assert plies == 320
    return found


def test_the_labels_are_the_positions_and_moves_rollout_chose_for_both_seats() -> None:
    sink: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    game = make_game("stratego")
    agents = [et.LabellingAgent.keeping(QUICK, sink) for _ in range(2)]
    for p, agent in enumerate(agents):
        agent.start(game, p, random.Random(p))
    state = game.new_initial_state()
    played: list[int] = []
    seats: set[int] = set()
    while not state.is_terminal() and len(played) < 40:
        player = state.current_player()
        before = len(sink)
        action = agents[player].act(state.observation(player), state.legal_actions())
        if len(sink) > before:
            played.append(COMPACT_OF_MOVE[oriented_move(action, player)])
            seats.add(player)
        state.apply(action)
    assert seats == {0, 1} and len(sink) == len(played)
    found = et._stack(sink)
    net = agents[0]._net
    assert net is not None
    assert np.array_equal(et.choices(found, net), played)
    mask = found.legal_mask(slice(None))
    rows = np.arange(len(found))[:, None]
    valid = found.candidates >= 0
    assert mask[rows, np.maximum(found.candidates, 0)][valid].all()
    assert np.all(np.abs(found.scores[valid]) <= 1)


def test_a_label_scores_the_moves_as_the_agent_compared_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the flag watch on, a label's scores are the roll-outs' means plus the watch's bonus: here the roll-outs
    see nothing (all 0) and the general's steps towards the shown miner by red's flag score 0.5 x their value."""
    monkeypatch.setattr(RolloutAgent, "look_ahead", lambda self, d, c, *given: np.zeros(len(c)))
    state, data = crafted([*HOME, ("C2", 1, Rank.MINER, True, True)])
    sink: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    agent = et.LabellingAgent.keeping("watch=0.5", sink)
    agent.start(state.game, 0, random.Random(1))
    agent.act(state.observation(0), state.legal_actions())
    know = Knowledge.from_observation(data)
    values = watch_values(know, state.legal_actions(), flag_threats(know, {}))
    expected = {oriented_compact(a, 0): 0.5 * v for a, v in values.items()}
    ((_, _, ids, scores),) = sink
    assert set(expected) <= set(ids.tolist())
    assert [round(float(x), 6) for x in scores] == [round(expected.get(int(i), 0.0), 6) for i in ids]


def test_labels_do_not_depend_on_the_workers(labels: et.Labels, tmp_path: Path) -> None:
    again, _ = et.label_games(2, seed=3, spec=QUICK, max_plies=160, jobs=2)
    assert len(labels) > 20
    assert np.array_equal(again.planes, labels.planes) and np.array_equal(again.candidates, labels.candidates)
    assert np.allclose(again.scores, labels.scores, equal_nan=True)
    path = tmp_path / "labels.npz"
    labels.save(str(path))
    back = et.Labels.load(str(path))
    assert np.array_equal(back.legal, labels.legal) and np.allclose(back.scores, labels.scores, equal_nan=True)
    with pytest.raises(GameError, match="unknown option 'deep'"):
        et.label_games(1, spec="deep=3")
    np.savez(tmp_path / "other.npz", planes=labels.planes)
    with pytest.raises(ValueError, match="holds no labels: candidates, legal, scores missing"):
        et.Labels.load(str(tmp_path / "other.npz"))
    np.savez(tmp_path / "cut.npz", planes=labels.planes, legal=labels.legal[1:], candidates=labels.candidates,
             scores=labels.scores)  # fmt: skip
    with pytest.raises(ValueError, match="do not fit together"):
        et.Labels.load(str(tmp_path / "cut.npz"))


def test_the_target_keeps_the_start_outside_the_compared_moves(labels: et.Labels) -> None:
    start = tiny_policy(5)
    p = np.exp(et._log_probs(start, labels))
    soft = et.targets(labels, start, temperature=1.0)
    hard = et.targets(labels, start, temperature=1e-4)
    assert np.allclose(soft.sum(axis=1), 1, atol=1e-5) and np.allclose(hard.sum(axis=1), 1, atol=1e-5)
    rows = np.arange(len(labels))
    outside = np.ones_like(p, dtype=bool)
    for i, cands in enumerate(labels.candidates):
        outside[i, cands[cands >= 0]] = False
        assert np.isclose(hard[i, cands[cands >= 0]].sum(), p[i, cands[cands >= 0]].sum(), atol=1e-5)
    assert np.allclose(hard[outside], p[outside], atol=1e-6)
    chosen = et.choices(labels, start)  # the cold target's likeliest compared move is the one chosen
    shares = np.where(labels.candidates >= 0, hard[rows[:, None], np.maximum(labels.candidates, 0)], -1)
    assert np.allclose(hard[rows, chosen], shares.max(axis=1))
    assert (soft[rows, chosen] < hard[rows, chosen] + 1e-6).all()


def test_a_fit_moves_the_net_towards_the_look_ahead(labels: et.Labels) -> None:
    pytest.importorskip("torch", reason="PyTorch (requirements-train.txt) is needed to train")
    start = tiny_policy(6)
    target, chosen = et.targets(labels, start, 0.01), et.choices(labels, start)
    before = et.agreement(start, labels, target, chosen)
    net = et.train(labels, start, steps=200, batch=32, lr=1e-2, temperature=0.01, seed=1)
    after = et.agreement(net, labels, target, chosen)
    rows = np.arange(len(labels))

    def p_chosen(n: PolicyNet) -> float:
        return float(np.exp(et._log_probs(n, labels)[rows, chosen]).mean())

    assert after.cross_entropy < before.cross_entropy - 0.02 and after.top1 > before.top1 + 0.1
    assert p_chosen(net) > p_chosen(start) * 1.2
    again = et.train(labels, start, steps=200, batch=32, lr=1e-2, temperature=0.01, seed=1)
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(net.convs, again.convs, strict=True))
    train_part, held = et.split(labels, 0.25, seed=2)
    assert len(train_part) + len(held) == len(labels) and len(held) == round(len(labels) * 0.25)


def test_train_expert_runs_on_a_tiny_budget(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="PyTorch (requirements-train.txt) is needed to train")
    start = tmp_path / "start.npz"
    tiny_policy().save(start)
    out, kept = tmp_path / "better.npz", tmp_path / "labels.npz"
    args = ["train", "expert", "--start", str(start), "--games", "1", "--max-plies", "120", "--rollout", QUICK]
    tiny = ["--steps", "3", "--batch", "8", "--match", "2", "--out", str(out)]
    result = CliRunner().invoke(app, [*args, *tiny, "--labels", str(kept), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert "held out, the net: " in result.output and "against the start:" in result.output
    assert kept.exists() and "fitted to `rollout`'s choices" in PolicyNet.load(out).note
    result = CliRunner().invoke(app, [*args, *tiny, "--labels", str(kept)])
    assert result.exit_code == 0, result.output
    assert "the labels in labels.npz" in PolicyNet.load(out).note
    result = CliRunner().invoke(app, [*args[:-1], "deep=3", *tiny])
    assert result.exit_code == 2 and "unknown option 'deep'" in result.output
    result = CliRunner().invoke(app, [*args, *tiny[:-1], str(out), "--start", str(tmp_path / "gone.npz")])
    assert result.exit_code == 2 and "gone.npz" in result.output
    np.savez(tmp_path / "bad.npz", planes=np.zeros(3))
    result = CliRunner().invoke(app, [*args, *tiny, "--labels", str(tmp_path / "bad.npz")])
    assert result.exit_code == 2 and "cannot read the labels" in result.output
