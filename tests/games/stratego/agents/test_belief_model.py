"""The learned part of the belief: features, the weights file, the fit, and `fogofwar train belief` on a
tiny budget (a smoke run that proves the command works end to end, not a strength test)."""

from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from fogofwar.core.agents import make_agent
from fogofwar.frontends.cli import app
from fogofwar.games.stratego.agents.belief_model import (
    FEATURES,
    RANKS,
    BeliefWeights,
    PieceHistory,
    features,
    learned_weights,
)
from fogofwar.games.stratego.agents.belief_training import Examples, fit
from fogofwar.games.stratego.rules import StrategoGame


def test_features_read_a_pieces_history() -> None:
    early_runner = PieceHistory(moves=5, first_moved=3, start_row=3, row=7, turns=60)
    f = dict(zip(FEATURES, features(early_runner), strict=True))
    assert f["moved 4-9 times"] == f["first move in the first 10 turns"] == f["advanced 3+ rows"] == 1.0
    assert f["in the other half"] == 1.0 and f["moved once"] == 0.0
    sitter = PieceHistory(moves=0, first_moved=None, start_row=0, row=0, turns=200)
    g = dict(zip(FEATURES, features(sitter), strict=True))
    assert g["unmoved after 50 turns"] == g["unmoved after 150 turns"] == 1.0
    assert sum(g.values()) == 2.0


def test_weights_round_trip_and_refuse_other_features() -> None:
    w = BeliefWeights(FEATURES, tuple(tuple(0.25 * r for _ in FEATURES) for r in range(RANKS)))
    again = BeliefWeights.from_toml(w.to_toml("a note\nof two lines"))
    assert again == w
    assert again.factors(PieceHistory(0, None, 0, 0, 0)) == [1.0] * RANKS  # no feature on: no change
    text = w.to_toml("x").replace('"moved once"', '"something else"')
    with pytest.raises(ValueError, match="features"):
        BeliefWeights.from_toml(text)


def test_the_shipped_weights_load_when_the_search_asks_for_them() -> None:
    shipped = learned_weights()
    assert shipped is not None, "src/fogofwar/games/stratego/agents/data/belief_weights.toml is missing"
    assert all(math.isfinite(x) and abs(x) < 5 for row in shipped.w for x in row)
    game = StrategoGame("classic")
    on, off = make_agent("search:learned=1"), make_agent("search")
    for agent in (on, off):
        agent.start(game, 0, random.Random(0))
    assert on._belief.weights is shipped  # type: ignore[attr-defined]
    assert off._belief.weights is None  # type: ignore[attr-defined]


def test_the_learned_belief_changes_the_odds_and_keeps_a_distribution() -> None:
    """A piece that ran far forward early: the learned part moves its odds, the marginals still sum to 1."""
    shipped = learned_weights()
    assert shipped is not None
    runner = PieceHistory(moves=6, first_moved=2, start_row=3, row=8, turns=30)
    factors = shipped.factors(runner)
    assert len(factors) == RANKS and max(factors) / min(factors) > 1.2


def test_fit_learns_what_a_feature_says() -> None:
    """Synthetic examples: rank 2 whenever the first feature is on, else rank 5; the base is uniform."""
    rng = np.random.default_rng(0)
    n = 2000
    x = (rng.random((n, len(FEATURES))) < 0.5).astype(float)
    y = np.where(x[:, 0] == 1, 2, 5)
    base = np.full((n, RANKS), math.log(1 / RANKS))
    base[:, 0] = -np.inf  # an impossible rank stays impossible
    losses: list[float] = []
    weights = fit(Examples(x, base, y), steps=200, lr=0.1, report=lambda _s, loss: losses.append(loss))
    assert losses[-1] < 0.5 * losses[0]
    w = np.array(weights.w)
    assert w[2, 0] > 1.0 and w[5, 0] < -1.0


@pytest.mark.data
def test_train_belief_runs_on_a_tiny_budget(tmp_path: Path, gravon_archive: Path) -> None:
    out = tmp_path / "w.toml"
    args = ["train", "belief", str(gravon_archive), "--max-games", "6", "--max-held-out", "2", "--steps", "5"]
    result = CliRunner().invoke(app, [*args, "--every", "20", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "held out, with it: log-loss" in result.output
    assert BeliefWeights.from_toml(out.read_text(encoding="utf-8")).names == FEATURES
