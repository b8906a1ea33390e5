"""The batched simulator against the reference engine, game by game and step by step.

A reduced run (well under a minute): seeded random games in both engines with legal sets, boards,
hashes, both seats' observation planes and endings compared at every step, games whose moves are drawn
to provoke the two-squares and more-squares rules, and real Gravon games replayed in both engines.
The full run (>= 2,000 games per variant, every Gravon game) is `benchmarks/differential.py`.
"""

from __future__ import annotations

import pytest
from tests.paths import GRAVON

from fogofwar.games.stratego.sim.differential import compare_gravon, compare_random_games, gravon_files

DATA = GRAVON


@pytest.mark.parametrize(
    ("variant", "games", "policy", "observations"),
    [
        ("barrage", 16, "random", True),
        ("classic", 4, "random", True),
        ("barrage", 24, "chase", False),
        ("classic", 8, "chase", False),
        ("classic", 8, "repetitive", False),
    ],
)
def test_random_games_agree(variant: str, games: int, policy: str, observations: bool) -> None:
    report = compare_random_games(variant, games, seed=7, batch=games, policy=policy, observations=observations)
    assert report.mismatches == [], report.line()
    assert report.games == games
    assert report.moves > games * 50
    if observations:
        assert report.observation_checks >= 2 * report.moves
    if policy == "chase":
        assert report.more_squares_blocks > 0 and report.two_squares_blocks > 0, report.line()


def test_rules_off_agree() -> None:
    report = compare_random_games("barrage", 8, seed=3, batch=8, policy="chase", two_squares=0, more_squares=False)
    assert report.mismatches == [], report.line()
    report = compare_random_games("barrage", 8, seed=4, batch=8, policy="chase", two_squares=3, observations=False)
    assert report.mismatches == [], report.line()


@pytest.mark.data
def test_gravon_games_replay_in_the_simulator() -> None:
    if not DATA.is_dir():
        pytest.skip("../shared/data/gravon not found: the Gravon replay check needs the shared data")
    reports = compare_gravon(gravon_files(DATA), max_games=60)
    assert set(reports) == {"classic", "barrage"}
    for report in reports.values():
        assert report.mismatches == [], report.line()
        assert report.illegal_recorded == 0, report.line()
        assert report.games == 60
