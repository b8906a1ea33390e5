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
from fogofwar.games.stratego.agents.material_chance import Potential
from fogofwar.games.stratego.agents.material_training import COUNTED, fit, log_loss
from fogofwar.games.stratego.agents.search import (
    WIN_MARGIN,
    SearchAgent,
    _fitted_values,
    fitted_material,
    fitted_material_with_marshal_step,
    fitted_material_with_reveal,
)
from fogofwar.games.stratego.pieces import Rank


def synthetic(
    values: list[float],
    sharpness: float,
    n: int,
    seed: int,
    marshal_step: float = 0.0,
    reveal: list[float] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Random armies (n, 2, 12), who won and the pieces revealed (n, 2, 12), drawn from the search's win-chance
    curve with these values (and the marshal's step, and the revealed ranks' steps by counted rank; a side has at
    most one marshal)."""
    rng = np.random.default_rng(seed)
    pieces = rng.integers(0, 5, size=(n, 2, 12)).astype(np.float64)
    pieces[:, :, Rank.MARSHAL] = rng.integers(0, 2, size=(n, 2))
    revealed = rng.binomial(pieces.astype(np.int64), 0.4).astype(np.float64)
    v = np.zeros(12)
    v[list(COUNTED)] = values
    own, enemy = pieces[:, 0] @ v, pieces[:, 1] @ v
    z = sharpness * (own - enemy) / np.maximum(own + enemy, 1e-9)
    z += marshal_step * (pieces[:, 0, Rank.MARSHAL] - pieces[:, 1, Rank.MARSHAL])
    if reveal is not None:
        c = np.zeros(12)
        c[list(COUNTED)] = reveal
        z += (revealed[:, 0] - revealed[:, 1]) @ c
    p = WIN_MARGIN + (1 - 2 * WIN_MARGIN) / (1 + np.exp(-z))
    return pieces, (rng.random(n) < p).astype(np.float64), revealed


def test_the_fit_finds_the_values_the_games_were_drawn_from() -> None:
    truth = [30.0, 10.0, 50.0, 20.0, 30.0, 60.0, 90.0, 140.0, 200.0, 260.0, 15.0]
    pieces, won, _ = synthetic(truth, 6.0, 20_000, seed=1)
    start = [VALUE[Rank(r)] for r in COUNTED]
    got = fit(pieces, won, start, 8.0, steps=800, lr=0.05)
    assert log_loss(pieces, won, got.values, got.sharpness) < log_loss(pieces, won, start, 8.0)
    assert abs(got.sharpness - 6.0) < 1.0 and got.marshal_step == 0.0 and got.reveal is None
    for value, want in zip(got.values, truth, strict=True):
        assert abs(value - want) < 0.25 * want + 8, (got.values, truth)


def test_the_fit_with_the_marshals_step_finds_the_step_the_games_were_drawn_from() -> None:
    truth = [30.0, 10.0, 50.0, 20.0, 30.0, 60.0, 90.0, 140.0, 200.0, 260.0, 15.0]
    pieces, won, _ = synthetic(truth, 6.0, 20_000, seed=2, marshal_step=1.5)
    start = [VALUE[Rank(r)] for r in COUNTED]
    plain = fit(pieces, won, start, 8.0, steps=800, lr=0.05)
    got = fit(pieces, won, start, 8.0, steps=800, lr=0.05, marshal_step=True)
    assert abs(got.marshal_step - 1.5) < 0.3 and abs(got.sharpness - 6.0) < 1.0
    assert got.log_loss(pieces, won) < plain.log_loss(pieces, won)


def test_the_fit_of_the_revealed_ranks_finds_the_steps_the_games_were_drawn_from() -> None:
    truth = [30.0, 10.0, 50.0, 20.0, 30.0, 60.0, 90.0, 140.0, 200.0, 260.0, 15.0]
    shown = [-0.4, 0.2, 0.3, 0.0, 0.0, 0.0, 0.0, -0.3, -0.5, -0.8, -0.4]
    pieces, won, revealed = synthetic(truth, 6.0, 40_000, seed=3, marshal_step=1.0, reveal=shown)
    start = [VALUE[Rank(r)] for r in COUNTED]
    stepped = fit(pieces, won, start, 8.0, steps=800, lr=0.05, marshal_step=True)
    got = fit(pieces, won, start, 8.0, steps=800, lr=0.05, marshal_step=True, revealed=revealed)
    assert got.reveal is not None and got.log_loss(pieces, won, revealed) < stepped.log_loss(pieces, won, revealed)
    for step, want in zip(got.reveal, shown, strict=True):
        assert abs(step - want) < 0.2, (got.reveal, shown)
    assert abs(got.marshal_step - 1.0) < 0.3


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
    shown = data["with_reveal"]
    assert set(shown["reveal"]) == set(data["values"]) and "held out, with the revealed ranks" in result.output


def test_the_roll_outs_read_the_shipped_fit_with_the_marshals_step() -> None:
    values, sharpness, step = fitted_material_with_marshal_step()
    assert len(values) == 12 and values[int(Rank.MARSHAL)] == 260.0 and sharpness > 0 and step > 0


def test_the_roll_outs_read_the_shipped_fit_of_the_revealed_ranks() -> None:
    values, sharpness, step, shown = fitted_material_with_reveal()
    assert len(values) == len(shown) == 12 and values[int(Rank.MARSHAL)] == 260.0 and sharpness > 0 and step > 0
    assert shown[Rank.FLAG] == 0 and shown[Rank.MARSHAL] < 0  # a shown marshal counts against its side


@pytest.mark.data
def test_train_material_fits_one_variants_games_apart(tmp_path: Path, gravon_archive: Path) -> None:
    archives = [str(path) for path in sorted(gravon_archive.parent.glob("*.zip"))]  # Barrage's games are few
    out = tmp_path / "material_barrage.toml"
    args = ["train", "material", *archives, "--variant", "barrage", "--max-games", "6", "--max-held-out", "2"]
    result = CliRunner().invoke(app, [*args, "--steps", "5", "--every", "4", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "6 training games, 2 held out" in result.output
    assert "held out, the classic fit with the revealed ranks: log-loss" in result.output
    text = out.read_text(encoding="utf-8")
    assert "fogofwar train material --variant barrage" in text and "rollout:ownfit=1" in text
    assert set(tomllib.loads(text)["with_reveal"]["reveal"]) == {Rank(r).name.lower() for r in range(12)}


def test_train_material_refuses_a_variant_no_player_reads(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["train", "material", str(tmp_path), "--variant", "duel"])
    assert result.exit_code == 2 and "no fit of 'duel' games is read by any player" in result.output


def test_barrage_has_a_fit_of_its_own_and_classic_keeps_its_own() -> None:
    """Barrage's shipped fit (`data/material_barrage.toml`) is read only where asked (`own_fit`, `rollout:ownfit=1`):
    self-play and the other variants score with the classic fit."""
    classic, barrage = fitted_material(), fitted_material("barrage")
    assert barrage != classic and barrage[0][int(Rank.MARSHAL)] == 260.0 and barrage[1] < classic[1]
    assert fitted_material("duel") == classic  # no fit of its own: the classic games'
    plain, own = Potential("barrage", True, True), Potential("barrage", True, True, own_fit=True)
    assert plain.sharpness == fitted_material_with_reveal()[1] != own.sharpness
    assert np.array_equal(Potential("classic", True, True, own_fit=True).values, plain.values)
