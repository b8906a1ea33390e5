"""The round-robin arena: reproducible games, alternating colours, forfeits, ratings, output files, CLI."""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fogofwar.arena import (
    ArenaResult,
    ArenaSettings,
    GameResult,
    bootstrap_elo,
    fit_elo,
    game_seed,
    name_players,
    run_arena,
    split_players,
    write_outputs,
)
from fogofwar.cli import app
from fogofwar.core.agents import register_agent
from fogofwar.core.protocol import Game, GameError, Observation


class ForfeitAgent:
    """Always answers with an action that is never legal: loses every game by forfeit."""

    name = "forfeiter"

    def start(self, game: Game, player: int, rng: object) -> None:
        pass

    def act(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        return -1


def _broken(arg: str) -> ForfeitAgent:
    raise RuntimeError("this agent cannot be built")


# Registered at import: worker processes fork from this one, and `preload` imports this module again
# where they do not.
register_agent("forfeiter", lambda arg: ForfeitAgent())
register_agent("broken", _broken)

PLAYERS = ["random", "random", "forfeiter"]
GAMES = 4


def _settings(jobs: int, players: list[str] | None = None, games: int = GAMES, seed: int = 7) -> ArenaSettings:
    return ArenaSettings(
        players=players or PLAYERS, games=games, seed=seed, jobs=jobs, variant="barrage", preload=[__name__]
    )


def _rows(result: ArenaResult) -> list[tuple[object, ...]]:
    return [(g.pairing, g.index, g.red, g.blue, g.winner, g.termination, g.moves, g.seed) for g in result.games]


@pytest.fixture(scope="module")
def serial() -> ArenaResult:
    return run_arena(_settings(jobs=1), progress=False)


@pytest.fixture(scope="module")
def parallel() -> ArenaResult:
    return run_arena(_settings(jobs=2), progress=False)


def test_split_and_name_players() -> None:
    assert split_players("random, 'search:time=0.5,depth=2' ,ucc:./bot") == [
        "random",
        "search:time=0.5,depth=2",
        "ucc:./bot",
    ]
    with pytest.raises(ValueError):
        split_players('random,"search')
    assert [p.name for p in name_players(["a", "b", "a", "a"])] == ["a#1", "b", "a#2", "a#3"]


def test_game_seeds_depend_only_on_seed_pairing_and_index() -> None:
    assert game_seed(1, 0, 0) == game_seed(1, 0, 0)
    seeds = {game_seed(s, p, g) for s in (1, 2) for p in range(3) for g in range(10)}
    assert len(seeds) == 60
    assert all(0 <= s < 2**63 for s in seeds)


def test_same_seed_same_games_whatever_the_jobs(serial: ArenaResult, parallel: ArenaResult) -> None:
    assert len(serial.games) == 3 * GAMES  # three pairings
    assert _rows(serial) == _rows(parallel)
    again = run_arena(_settings(jobs=1), progress=False)
    assert _rows(again) == _rows(serial)
    other = run_arena(_settings(jobs=1, seed=8), progress=False)
    assert [g.seed for g in other.games] != [g.seed for g in serial.games]


def test_colours_alternate(serial: ArenaResult) -> None:
    names = [p.name for p in serial.players]
    assert names == ["random#1", "random#2", "forfeiter"]
    pairings = [(0, 1), (0, 2), (1, 2)]
    for g in serial.games:
        first, second = (names[k] for k in pairings[g.pairing])
        assert (g.red, g.blue) == ((first, second) if g.index % 2 == 0 else (second, first))


def test_forfeiter_loses_every_game_and_is_rated_last(serial: ArenaResult) -> None:
    games = [g for g in serial.games if "forfeiter" in (g.red, g.blue)]
    assert len(games) == 2 * GAMES
    for g in games:
        assert g.termination == "forfeit"
        assert g.winner is not None and g.winner != "forfeiter"
        assert "illegal" in g.reason
    standing = {s.name: s for s in serial.standings}
    bad = standing["forfeiter"]
    assert (bad.wins, bad.draws, bad.losses, bad.score) == (0, 0, 2 * GAMES, 0.0)
    assert serial.standings[-1].name == "forfeiter"
    assert bad.elo is not None and bad.elo_high is not None
    for name in ("random#1", "random#2"):
        s = standing[name]
        assert s.elo is not None and s.elo > bad.elo
        assert s.elo_low is not None and s.elo_high is not None and s.elo_low <= s.elo <= s.elo_high
    # The two random players are the anchor: their mean is 0.
    assert standing["random#1"].elo + standing["random#2"].elo == pytest.approx(0.0, abs=1e-6)  # type: ignore[operator]
    assert serial.pair("random#1", "forfeiter").wins == GAMES
    assert any(line.startswith("random#1 vs forfeiter: 4 games, 4-0-0 (100.0%)") for line in serial.summary_lines())


def test_elo_fit() -> None:
    # 0 beats 1 and 2 every time; 1 and 2 share their games.
    results = [(0, 1, 1.0)] * 6 + [(0, 2, 1.0)] * 6 + [(1, 2, 1.0), (1, 2, 0.0)] * 3
    ratings = fit_elo(3, results)
    assert ratings[0] > ratings[1] + 200 and ratings[0] > ratings[2] + 200
    assert ratings[1] == pytest.approx(ratings[2], abs=1e-6)
    assert sum(ratings) == pytest.approx(0.0, abs=1e-6)
    # Without the prior, a 75% score is 400 * log10(3) Elo: about 191.
    a, b = fit_elo(2, [(0, 1, 1.0)] * 3 + [(0, 1, 0.0)], prior_draws=0)
    assert a - b == pytest.approx(400 * math.log10(3), abs=1e-6)
    # Draws are half points: all draws means equal ratings.
    assert fit_elo(2, [(0, 1, 0.5)] * 5) == pytest.approx([0.0, 0.0], abs=1e-9)
    # The bootstrap is seeded: the same games give the same intervals.
    by_pairing = {(0, 1): [1.0, 1.0, 0.0, 0.5, 1.0], (0, 2): [1.0] * 5, (1, 2): [0.0, 1.0, 0.5, 0.5, 1.0]}
    first = bootstrap_elo(3, by_pairing, resamples=50)
    assert first == bootstrap_elo(3, by_pairing, resamples=50)
    assert all(lo <= hi for lo, hi in first)


def test_outputs(serial: ArenaResult, tmp_path: Path) -> None:
    paths = write_outputs(serial, tmp_path / "out")
    data = json.loads(paths["json"].read_text(encoding="utf-8"))
    assert data["format"] == "fogofwar-arena"
    assert data["settings"]["seed"] == 7
    assert "--players random,random,forfeiter" in data["settings"]["command_line"]
    assert data["versions"]["fogofwar"]
    assert len(data["games"]) == len(serial.games)
    assert {s["name"] for s in data["standings"]} == {"random#1", "random#2", "forfeiter"}
    assert len(data["pairwise"]) == 6
    with paths["csv"].open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == len(serial.games)
    assert rows[0]["red"] == "random#1" and rows[0]["seed"] == str(serial.games[0].seed)
    assert paths["png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_failing_game_is_an_error_not_the_end(tmp_path: Path) -> None:
    result = run_arena(_settings(jobs=2, players=["random", "broken", "forfeiter"], games=2), progress=False)
    assert len(result.games) == 6
    errors = result.errors
    assert len(errors) == 4  # every game of the broken agent
    assert all("cannot be built" in (g.error or "") for g in errors)
    standing = {s.name: s for s in result.standings}
    assert standing["broken"].games == 0 and standing["broken"].elo is None
    assert standing["random"].wins == 2
    assert "2 errors" in result.summary_lines()[0]
    assert write_outputs(result, tmp_path)["png"].exists()


def test_unknown_agent_fails_fast() -> None:
    with pytest.raises(GameError, match="unknown agent"):
        run_arena(_settings(jobs=1, players=["random", "nosuchagent"]), progress=False)


def test_cli(tmp_path: Path) -> None:
    out = tmp_path / "arena"
    args = ["arena", "--variant", "barrage", "--players", "random,forfeiter", "--games", "3", "--jobs", "2"]
    res = CliRunner().invoke(app, [*args, "--seed", "3", "--out", str(out), "--preload", __name__])
    assert res.exit_code == 0, res.output
    assert "random vs forfeiter: 3 games, 3-0-0 (100.0%)" in res.output
    assert "arena.png" in res.output
    assert {p.name for p in out.iterdir()} == {"arena.json", "arena.csv", "arena.png"}
    data = json.loads((out / "arena.json").read_text(encoding="utf-8"))
    assert [g["winner"] for g in data["games"]] == ["random"] * 3

    bad = CliRunner().invoke(app, ["arena", "--players", "random,nosuchagent", "--out", str(tmp_path / "x")])
    assert bad.exit_code == 2
    assert "unknown agent" in bad.output


def test_game_result_score() -> None:
    g = GameResult(0, 0, "a", "b", None, "move_limit", 1000, 1, 0.1)
    assert g.score("a") == g.score("b") == 0.5
