"""The material values fitted to who won (`fogofwar train material`): the fit finds values it was given, the
command runs on a tiny budget, and the search reads the shipped file."""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from fogofwar.frontends.cli import app
from fogofwar.games.stratego.agents.knowledge import VALUE
from fogofwar.games.stratego.agents.material_training import COUNTED, fit, log_loss
from fogofwar.games.stratego.agents.search import (
    WIN_MARGIN,
    SearchAgent,
    _fitted_values,
    fitted_material_with_marshal_step,
)
from fogofwar.games.stratego.pieces import Rank


def synthetic(
    values: list[float], sharpness: float, n: int, seed: int, marshal_step: float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """Random armies (n, 2, 12) and who won, drawn from the search's win-chance curve with these values (and the
    marshal's step; a side has at most one marshal)."""
    rng = np.random.default_rng(seed)
    pieces = rng.integers(0, 5, size=(n, 2, 12)).astype(np.float64)
    pieces[:, :, Rank.MARSHAL] = rng.integers(0, 2, size=(n, 2))
    v = np.zeros(12)
    v[list(COUNTED)] = values
    own, enemy = pieces[:, 0] @ v, pieces[:, 1] @ v
    z = sharpness * (own - enemy) / np.maximum(own + enemy, 1e-9)
    z += marshal_step * (pieces[:, 0, Rank.MARSHAL] - pieces[:, 1, Rank.MARSHAL])
    p = WIN_MARGIN + (1 - 2 * WIN_MARGIN) / (1 + np.exp(-z))
    return pieces, (rng.random(n) < p).astype(np.float64)


def test_the_fit_finds_the_values_the_games_were_drawn_from() -> None:
    truth = [30.0, 10.0, 50.0, 20.0, 30.0, 60.0, 90.0, 140.0, 200.0, 260.0, 15.0]
    pieces, won = synthetic(truth, 6.0, 20_000, seed=1)
    start = [VALUE[Rank(r)] for r in COUNTED]
    values, sharpness, step = fit(pieces, won, start, 8.0, steps=800, lr=0.05)
    assert log_loss(pieces, won, values, sharpness) < log_loss(pieces, won, start, 8.0)
    assert abs(sharpness - 6.0) < 1.0 and step == 0.0
    for got, want in zip(values, truth, strict=True):
        assert abs(got - want) < 0.25 * want + 8, (values, truth)


def test_the_fit_with_the_marshals_step_finds_the_step_the_games_were_drawn_from() -> None:
    truth = [30.0, 10.0, 50.0, 20.0, 30.0, 60.0, 90.0, 140.0, 200.0, 260.0, 15.0]
    pieces, won = synthetic(truth, 6.0, 20_000, seed=2, marshal_step=1.5)
    start = [VALUE[Rank(r)] for r in COUNTED]
    plain = fit(pieces, won, start, 8.0, steps=800, lr=0.05)
    values, sharpness, step = fit(pieces, won, start, 8.0, steps=800, lr=0.05, marshal_step=True)
    assert abs(step - 1.5) < 0.3 and abs(sharpness - 6.0) < 1.0
    assert log_loss(pieces, won, values, sharpness, step) < log_loss(pieces, won, *plain)


def test_the_search_reads_the_shipped_values_and_blends_them() -> None:
    fitted = _fitted_values()
    assert len(fitted) == 12 and fitted[int(Rank.MARSHAL)] == 260.0
    agent = SearchAgent()
    hand = agent._material_values()
    agent.material = 1.0
    assert agent._material_values() == fitted
    agent.material = 0.5
    assert agent._material_values() == [(a + b) / 2 for a, b in zip(hand, fitted, strict=True)]


@pytest.mark.data
def test_train_material_runs_on_a_tiny_budget(tmp_path: Path, gravon_archive: Path) -> None:
    out = tmp_path / "material.toml"
    args = ["train", "material", str(gravon_archive), "--max-games", "6", "--max-held-out", "2", "--steps", "5"]
    result = CliRunner().invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "held out, plain: log-loss" in result.output and "held out, with the marshal's step" in result.output
    data = tomllib.loads(out.read_text(encoding="utf-8"))
    assert set(data["values"]) == {Rank(r).name.lower() for r in range(12)} and data["sharpness"] > 0
    stepped = data["with_marshal_step"]
    assert set(stepped["values"]) == set(data["values"]) and stepped["sharpness"] > 0 and "marshal_step" in stepped


def test_the_roll_outs_read_the_shipped_fit_with_the_marshals_step() -> None:
    values, sharpness, step = fitted_material_with_marshal_step()
    assert len(values) == 12 and values[int(Rank.MARSHAL)] == 260.0 and sharpness > 0 and step > 0
