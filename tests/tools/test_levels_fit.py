"""benchmarks/levels.py: a spec is read with its agent's options (a level whose options became the default is still
that level), `--fixed` rates new series against players held where an earlier fit put them, and `--write` writes
the package's levels.toml."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest
from tests.paths import ROOT

from fogofwar.games.stratego.agents.rollout import OPTIONS


@pytest.fixture
def fit(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import levels

    return levels


def test_a_spec_is_read_with_its_agents_defaults(fit: ModuleType) -> None:
    top = OPTIONS["top"].default
    assert fit.canonical_spec(f"rollout:top={top:g}") == "rollout"
    assert fit.canonical_spec(f"rollout:top={top + 1:g},depth=3") == f"rollout:depth=3,top={top + 1:g}"
    assert fit.canonical_spec("search:prior=0.01") == "search:prior=0.01"  # no option table: kept as it is
    assert fit.canonical_spec("rollout:nosuch=1") == "rollout:nosuch=1"
    run = {"settings": {"players": [{"name": "rollout", "spec": f"rollout:top={top:g}"}, {"name": "x", "spec": "x"}]}}
    assert fit.player_keys(run) == {"rollout": "rollout", "x": "x"}
    other = {"settings": {"players": [{"name": "rollout", "spec": f"rollout:top={top + 1:g}"}]}}
    assert fit.player_keys(other) == {"rollout": f"rollout:top={top + 1:g}"}


def test_fixed_ratings_are_parsed_and_wrong_ones_named(fit: ModuleType) -> None:
    assert fit.parse_fixed("demon5=1581,search=1333") == {"demon5": 1581.0, "search": 1333.0}
    for bad in ("demon5", "demon5=high", "=1500"):
        with pytest.raises(ValueError, match="PLAYER=RATING"):
            fit.parse_fixed(bad)


def _run(path: Path, games: list[tuple[str, str, str | None]]) -> Path:
    """An arena.json of `games` (red, blue, winner) between the players `search` and `demon5`."""
    path.mkdir()
    players = [{"name": "search", "spec": "search"}, {"name": "demon5", "spec": "ucc:demon"}]
    rows = [
        {"red": r, "blue": b, "winner": w, "red_think": 1.0, "blue_think": 3.0, "red_moves": 100, "blue_moves": 100}
        for r, b, w in games
    ]
    (path / "arena.json").write_text(json.dumps({"settings": {"players": players}, "games": rows}), encoding="utf-8")
    return path


def test_a_level_is_rated_against_a_held_player_and_written(
    fit: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run = _run(tmp_path / "run", [("search", "demon5", "search")] * 3 + [("demon5", "search", "demon5")])
    levels_file = tmp_path / "agents" / "data" / "levels.toml"
    levels_file.parent.mkdir(parents=True)
    shipped = Path(fit.levels_module.__file__).resolve().parent / fit.LEVELS_FILE
    levels_file.write_text(shipped.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(fit.levels_module, "__file__", str(tmp_path / "agents" / "levels.py"))
    monkeypatch.setattr("sys.argv", ["levels.py", str(run), "--fixed", "demon5=1581", "--write"])
    assert fit.main() == 0
    out = capsys.readouterr().out
    assert "wrote" in out
    text = levels_file.read_text(encoding="utf-8")
    block = text.split('name = "search"')[1].split("[[level]]")[0]
    elo = int(block.split("elo = ")[1].split("\n")[0])
    assert 1581 + 100 < elo < 1581 + 191  # 75% with the prior's one drawn game: under 191 points above
    assert "seconds = 0.01" in block
    assert text.split('name = "search"')[0] == shipped.read_text(encoding="utf-8").split('name = "search"')[0]
    monkeypatch.setattr("sys.argv", ["levels.py", str(run), "--fixed", "search=1400", "--write"])
    assert fit.main() == 0  # search held: its line is left as it was
    assert levels_file.read_text(encoding="utf-8") == text
    monkeypatch.setattr("sys.argv", ["levels.py", str(run), "--fixed", "nobody=1500"])
    assert fit.main() == 2
    assert "no games of nobody" in capsys.readouterr().err
