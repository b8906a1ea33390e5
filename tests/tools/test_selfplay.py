"""`fogofwar selfplay`: the same files for the same seed whatever the workers, the arena's games, records that the
training commands read; and local runs need no Ray."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fogofwar.core.records import GameRecord
from fogofwar.frontends.cli import app
from fogofwar.games.stratego.formats.gravon import GravonGame, UnreadableGame, read_games
from fogofwar.tools.arena import TIMING_METADATA, ArenaSettings, run_arena, untimed
from fogofwar.tools.selfplay import SelfplaySettings, run_selfplay

TINY = SelfplaySettings(players=["random"], games=4, seed=5, variant="barrage", max_moves=60)


def files(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` by its relative path, with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_same_files_in_one_process_and_in_a_pool(tmp_path: Path) -> None:
    one = run_selfplay(TINY, tmp_path / "one", progress=False)
    pool = run_selfplay(replace(TINY, jobs=2), tmp_path / "pool", progress=False)
    assert one.where == "this process" and pool.where == "2 local processes"
    serial, parallel = files(tmp_path / "one"), files(tmp_path / "pool")
    assert sorted(serial) == [f"games/00000{i}.json" for i in range(1, 5)] + ["selfplay.csv", "selfplay.json"]
    assert serial == parallel
    other = run_selfplay(replace(TINY, seed=6), tmp_path / "other", progress=False)
    assert [r.seed for r in other.rows] != [r.seed for r in one.rows]
    # Nothing measured is written: the records lose their think times, selfplay.json its jobs.
    record = json.loads(serial["games/000001.json"])
    assert not set(TIMING_METADATA) & set(record["metadata"])
    assert "--jobs" not in json.loads(serial["selfplay.json"])["settings"]["command_line"]
    assert one.tally().games == 4 and one.tally().errors == 0


def test_the_games_are_the_arenas(tmp_path: Path) -> None:
    """Self-play with two specs plays game for game the arena of the same seed, colours alternating."""
    settings = replace(TINY, players=["random", "heuristic"])
    result = run_selfplay(settings, tmp_path / "sp", progress=False)
    arena = run_arena(
        ArenaSettings(players=["random", "heuristic"], games=4, seed=5, variant="barrage", max_moves=60), progress=False
    )
    assert [(r.red, r.blue) for r in result.rows] == [(g.red, g.blue) for g in arena.games]
    assert [r.red for r in result.rows] == ["random", "heuristic", "random", "heuristic"]
    for row, game in zip(result.rows, arena.games, strict=True):
        assert game.record_json is not None
        written = json.loads((tmp_path / "sp" / row.record).read_text(encoding="utf-8"))
        assert written == untimed(json.loads(game.record_json))
        assert (row.seed, row.winner, row.moves) == (game.seed, game.winner, game.moves)
    assert result.tally().wins_by_player == {
        "random": sum(1 for g in arena.games if g.winner == "random"),
        "heuristic": sum(1 for g in arena.games if g.winner == "heuristic"),
    }


def test_refuses_to_mix_two_runs(tmp_path: Path) -> None:
    run_selfplay(replace(TINY, games=1), tmp_path, progress=False)
    with pytest.raises(ValueError, match="holds a self-play run"):
        run_selfplay(replace(TINY, games=1), tmp_path, progress=False)
    with pytest.raises(ValueError, match="one agent spec .* or two"):
        run_selfplay(replace(TINY, players=["random"] * 3), tmp_path / "three", progress=False)


def test_a_single_named_spec_plays_both_seats(tmp_path: Path) -> None:
    result = run_selfplay(replace(TINY, players=["r=random"], games=2), tmp_path, progress=False)
    assert [(r.red, r.blue) for r in result.rows] == [("r1", "r2"), ("r2", "r1")]


def test_records_read_as_training_games(tmp_path: Path) -> None:
    """read_games turns the folder's records into Gravon games (what `fogofwar train` learns from), move for move."""
    run_selfplay(replace(TINY, variant=None, games=2, max_moves=40), tmp_path, progress=False)
    (tmp_path / "games" / "broken.json").write_text("{}", encoding="utf-8")
    games = list(read_games(tmp_path / "games"))
    assert isinstance(games[-1], UnreadableGame) and "not a fogofwar record" in str(games[-1])
    for game in games[:-1]:
        assert isinstance(game, GravonGame)
        record = GameRecord.load(game.source)
        assert game.game_type == "classic"
        assert len(game.moves) == record.replay().move_count  # type: ignore[attr-defined]
    assert len(games) == 3


def test_cli_and_training_on_its_output(tmp_path: Path) -> None:
    out = tmp_path / "sp"
    args = ["selfplay", "--players", "random", "--games", "4", "--max-moves", "150", "--seed", "2", "--out", str(out)]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "4 games" in res.output and "red won" in res.output
    assert len(list((out / "games").iterdir())) == 4
    trained = tmp_path / "belief.toml"
    res = CliRunner().invoke(
        app, ["train", "belief", str(out / "games"), "--held-out", "2", "--steps", "2", "--out", str(trained)]
    )
    assert res.exit_code == 0, res.output
    assert "2 training games, 2 held out" in res.output
    assert trained.exists()


def test_local_runs_need_no_ray_and_ray_without_it_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError, as where it is not installed
    result = run_selfplay(replace(TINY, games=2, jobs=2), tmp_path / "local", progress=False)
    assert result.tally().errors == 0
    for command in ("selfplay", "arena"):
        args = [command, "--players", "random,random", "--games", "1", "--ray", "auto", "--out", str(tmp_path / "r")]
        res = CliRunner().invoke(app, args)
        assert res.exit_code == 2, res.output
        assert "--ray needs Ray, which is not installed: pip install ray" in res.output
