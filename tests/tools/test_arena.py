"""The round-robin arena: reproducible games, alternating colours, forfeits, ratings, output files, CLI."""

from __future__ import annotations

import csv
import importlib.util
import json
import math
import shlex
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import pytest
from tests.paths import ROOT
from typer.testing import CliRunner

from fogofwar.core.agents import register_agent
from fogofwar.core.protocol import Game, GameError, Observation
from fogofwar.core.records import GameRecord
from fogofwar.frontends.cli import app
from fogofwar.tools.arena import (
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
# where they do not. With no example spec, so that the registry-built conformance tests (which list every
# agent when they are collected after this module) leave these two rule-breakers alone.
register_agent("forfeiter", lambda arg: ForfeitAgent(), example=None)
register_agent("broken", _broken, example=None)

PLAYERS = ["random", "random", "forfeiter"]
GAMES = 4


def _settings(jobs: int, players: list[str] | None = None, games: int = GAMES, seed: int = 7) -> ArenaSettings:
    return ArenaSettings(
        players=players or PLAYERS, games=games, seed=seed, jobs=jobs, variant="barrage", preload=[__name__]
    )


# A fake UCC bot for barrage, written from the protocol alone (no fogofwar imports). Its argument picks what it
# does: `crash` dies during the setup as Demon of Ignorance does under Java 17 without its ai.cfg; `oscillate` moves
# its general back and forth in front of the lakes' left edge until the two-squares rule stops it.
FAKE_BOT = textwrap.dedent(
    """
    import sys

    mode = sys.argv[1]

    def say(text):
        sys.stdout.write(text + "\\n")
        sys.stdout.flush()

    header = sys.stdin.readline().split()
    sys.stderr.write("fakebot says hello on stderr\\n")
    sys.stderr.flush()
    if not header or header[0] == "QUIT":
        sys.exit(0)
    if mode == "crash":
        sys.stderr.write("Exception in thread main java.lang.NullPointerException\\n")
        sys.exit(1)
    red = header[0] == "RED"
    back, empty, front = "FB189s9...", ".........." , "2........."
    for row in ([back, empty, empty, front] if red else [front, empty, empty, back]):
        say(row)
    y = 3 if red else 6
    forward, backward = ("DOWN", "UP") if red else ("UP", "DOWN")
    board, sent = [], 0
    while True:
        line = sys.stdin.readline()
        if not line or line.startswith("QUIT"):
            break
        line = line.rstrip("\\n")
        if " " in line or len(line) != 10:
            continue
        board.append(line)
        if len(board) < 10:
            continue
        board = []
        if sent % 2 == 0:
            say(f"0 {y} {forward}")
        else:
            say(f"0 {y + (1 if red else -1)} {backward}")
        sent += 1
    """
)


@pytest.fixture
def fake_bot(tmp_path: Path) -> str:
    """The command that runs FAKE_BOT (append its mode)."""
    path = tmp_path / "fakebot.py"
    path.write_text(FAKE_BOT, encoding="utf-8")
    return f"{shlex.quote(sys.executable)} -u {shlex.quote(str(path))}"


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


def test_elo_fit_with_players_held() -> None:
    # Player 2 scored 75% against 0 (held at 1500) and 50% against 1 (held at 1700): without the prior its rating is
    # the one that best explains both, between 1500 + 191 and 1700, and the held players do not move.
    results = [(2, 0, 1.0)] * 3 + [(2, 0, 0.0)] + [(2, 1, 1.0), (2, 1, 0.0)] * 2
    ratings = fit_elo(3, results, prior_draws=0, fixed={0: 1500.0, 1: 1700.0})
    assert ratings[:2] == pytest.approx([1500.0, 1700.0], abs=1e-9)
    assert 1500 + 400 * math.log10(3) < ratings[2] < 1700
    # Against one held player alone, the score says the gap exactly.
    alone = fit_elo(2, [(1, 0, 1.0)] * 3 + [(1, 0, 0.0)], prior_draws=0, fixed={0: 1500.0})
    assert alone[1] == pytest.approx(1500 + 400 * math.log10(3), abs=1e-3)
    # The intervals keep the held players where they are and bracket the fitted one.
    by_pairing = {(2, 0): [1.0, 1.0, 1.0, 0.0], (2, 1): [1.0, 0.0, 1.0, 0.0]}
    intervals = bootstrap_elo(3, by_pairing, resamples=50, fixed={0: 1500.0, 1: 1700.0})
    assert intervals[0] == (1500.0, 1500.0) and intervals[1] == (1700.0, 1700.0)
    held = fit_elo(3, [(i, j, s) for (i, j), ss in by_pairing.items() for s in ss], fixed={0: 1500.0, 1: 1700.0})
    assert intervals[2][0] <= held[2] <= intervals[2][1]


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
    args = ["arena", "--variant", "barrage", "--players", "r1=random,r2=random", "--games", "3", "--jobs", "2"]
    res = CliRunner().invoke(app, [*args, "--seed", "3", "--out", str(out), "--preload", __name__])
    assert res.exit_code == 0, res.output
    assert "r1 vs r2: 3 games" in res.output
    assert "arena.png" in res.output
    assert {p.name for p in out.iterdir()} == {"arena.json", "arena.csv", "arena.png", "games"}
    assert sorted(p.name for p in (out / "games").iterdir()) == ["0001.json", "0002.json", "0003.json"]
    data = json.loads((out / "arena.json").read_text(encoding="utf-8"))
    assert [p["name"] for p in data["settings"]["players"]] == ["r1", "r2"]
    assert [g["red"] for g in data["games"]] == ["r1", "r2", "r1"]

    bad = CliRunner().invoke(app, ["arena", "--players", "random,nosuchagent", "--out", str(tmp_path / "x")])
    assert bad.exit_code == 2
    assert "unknown agent" in bad.output


def test_game_result_score() -> None:
    g = GameResult(0, 0, "a", "b", None, "move_limit", 1000, 1, 0.1)
    assert g.score("a") == g.score("b") == 0.5


# --- honest results: forfeits apart, players that never played, records, think times, names ---------------------


def test_named_players() -> None:
    assert split_players("demon5=ucc:/tmp/demon/run5.sh,search") == ["demon5=ucc:/tmp/demon/run5.sh", "search"]
    players = name_players(["r=random", "search:guesses=150", "ucc:log=x.log:./bot --a=1", "random", "random"])
    assert [(p.name, p.spec) for p in players] == [
        ("r", "random"),
        ("search:guesses=150", "search:guesses=150"),  # '=' after ':' belongs to the spec
        ("ucc:log=x.log:./bot --a=1", "ucc:log=x.log:./bot --a=1"),
        ("random#1", "random"),
        ("random#2", "random"),
    ]
    with pytest.raises(ValueError, match="twice"):
        name_players(["a=random", "a=search"])
    with pytest.raises(ValueError, match="twice"):
        name_players(["random=search", "random"])


def test_a_bot_that_cannot_start_is_a_forfeit_and_fails_the_run(tmp_path: Path) -> None:
    """Before: 'random vs ucc:...: 2 games, 2-0-0 (100.0%)' and exit 0, a win over a bot that never ran."""
    result = run_arena(_settings(jobs=1, players=["random", "nobot=ucc:/no/such/bot"], games=2), progress=False)
    assert [g.ending for g in result.games] == ["forfeit: not started"] * 2
    assert [g.forfeited for g in result.games] == ["nobot"] * 2
    assert [(g.red_moves, g.blue_moves) for g in result.games] == [(0, 0), (0, 0)]
    standing = {s.name: s for s in result.standings}
    assert (standing["random"].wins, standing["random"].forfeit_wins) == (2, 2)
    assert (standing["nobot"].losses, standing["nobot"].forfeit_losses, standing["nobot"].moves) == (2, 2, 0)
    assert result.pair("random", "nobot").forfeit_wins == 2
    assert result.never_played() == ["nobot"]
    assert "2 won by forfeit" in result.summary_lines()[0]

    out = tmp_path / "out"
    res = CliRunner().invoke(
        app,
        ["arena", "--variant", "barrage", "--players", "random,ucc:/no/such/bot", "--games", "2", "--out", str(out)],
    )
    assert res.exit_code == 1, res.output
    assert "never played" in res.output and "ucc:/no/such/bot" in res.output
    assert "forfeit: not started" in res.output
    assert (out / "arena.json").exists()  # the outputs are still written, to see what went wrong


def test_a_bot_that_crashes_during_setup(fake_bot: str) -> None:
    result = run_arena(_settings(jobs=2, players=["random", f"crasher=ucc:{fake_bot} crash"], games=2), progress=False)
    for g in result.games:
        assert g.ending == "forfeit: crash" and g.forfeited == "crasher" and g.winner == "random"
        assert "exit status 1" in g.reason and "NullPointerException" in g.reason  # the bot's last words
    assert result.never_played() == ["crasher"]


def test_a_repetition_forfeit_names_the_rule(fake_bot: str) -> None:
    result = run_arena(_settings(jobs=1, players=["random", f"osc=ucc:{fake_bot} oscillate"], games=2), progress=False)
    for g in result.games:
        assert g.ending == "forfeit: repetition (two-squares)", g.reason
        assert g.forfeited == "osc" and "two-squares rule (STR-REP-1)" in g.reason
        assert "more-squares" not in g.reason
        assert (g.red_moves, g.blue_moves)[g.red != "osc"] == 5  # the sixth crossing is refused
    assert result.never_played() == []


def test_records_think_times_and_endings(fake_bot: str, tmp_path: Path) -> None:
    result = run_arena(
        _settings(jobs=2, players=["r=random", f"osc=ucc:{fake_bot} oscillate"], games=2), progress=False
    )
    paths = write_outputs(result, tmp_path / "out")
    for number, g in enumerate(result.games, 1):
        assert g.record == f"games/{number:04d}.json"
        record = GameRecord.load(tmp_path / "out" / g.record)
        assert record.players == [g.red, g.blue]
        assert record.outcome is not None and record.outcome.reason == g.reason
        assert record.metadata["ending"] == g.ending
        record.replay()  # the rules engine agrees with the whole game
        assert g.red_moves > 0 and g.blue_moves > 0
        assert g.red_max > 0 and g.red_think >= g.red_max and g.blue_max > 0 and g.blue_think >= g.blue_max
    standing = {s.name: s for s in result.standings}
    for s in standing.values():
        assert s.sec_per_move is not None and s.max_sec_per_move is not None
        assert 0 < s.sec_per_move <= s.max_sec_per_move + 1e-6  # (both rounded to the microsecond)
    assert result.endings() == {
        "forfeit: repetition (two-squares)": {"games": 2, "wins": {"r": 2, "osc": 0}, "draws": 0}
    }
    data = json.loads(paths["json"].read_text(encoding="utf-8"))
    assert "record_json" not in data["games"][0]
    assert data["games"][0]["ending"] == "forfeit: repetition (two-squares)"
    assert {"sec_per_move", "max_sec_per_move", "forfeit_wins", "forfeit_losses", "moves"} <= set(data["standings"][0])
    assert data["endings"]["forfeit: repetition (two-squares)"]["games"] == 2
    with paths["csv"].open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert rows[0]["ending"] == "forfeit: repetition (two-squares)" and rows[0]["record"] == "games/0001.json"
    assert float(rows[0]["red_sec_per_move"]) > 0 and float(rows[0]["blue_max_sec"]) > 0


def _strength_module() -> ModuleType:
    """benchmarks/strength.py, loaded from its file (benchmarks is not a package)."""
    path = ROOT / "benchmarks" / "strength.py"
    spec = importlib.util.spec_from_file_location("strength_benchmark", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_strength_benchmark(fake_bot: str, tmp_path: Path) -> None:
    strength = _strength_module()
    args = ["--agent", "random", "--variant", "barrage", "--games", "2", "--no-progress", "--preload", __name__]
    out = tmp_path / "series"
    assert strength.main([*args, "--opponent", f"ucc:{fake_bot} oscillate", "--name", "osc", "--out", str(out)]) == 0
    data = json.loads((out / "strength.json").read_text(encoding="utf-8"))
    assert (data["agent"], data["opponent"], data["wins"], data["wins_by_forfeit"]) == ("random", "osc", 2, 2)
    assert data["endings"] == {"forfeit: repetition (two-squares)": 2}
    assert data["as_red"]["games"] == data["as_blue"]["games"] == 1
    assert data["seconds_per_move"]["osc"]["moves"] == 10 and data["seconds_per_move"]["osc"]["sec_per_move"] > 0
    assert (out / "games" / "0002.json").exists()
    # A bot that never starts: the series fails instead of scoring 100%.
    assert strength.main([*args, "--opponent", "ucc:/no/such/bot", "--out", str(tmp_path / "none")]) == 1


@pytest.mark.parametrize(
    "args",
    [["--game", "lotr", "--variant", "powers"], ["--variant", "lotr-powers"]],
    ids=["game-and-variant", "old-spelling"],
)
def test_the_arena_plays_a_lotr_variant_by_its_one_name_or_its_old_spelling(tmp_path: Path, args: list[str]) -> None:
    out = tmp_path / "out"
    players = ["--players", "heuristic,random", "--games", "2", "--seed", "4", "--out", str(out)]
    result = CliRunner().invoke(app, ["arena", *args, *players])
    assert result.exit_code == 0, result.output
    record = json.loads((out / "games" / "0001.json").read_text())
    assert record["game"] == "lotr" and record["options"]["variant"] == "powers"


def test_a_series_of_a_game_without_a_cap_of_its_own_takes_the_cap_the_game_gives_programs() -> None:
    """LOTR's rules have no move cap, and two programs that never end a game would keep a series going for ever
    (a round robin once ran 100 minutes): the arena takes the cap LOTR registers for programs unless told."""
    from fogofwar.core.registry import game_entry

    cap = game_entry("lotr").program_options({})["max_moves"]
    assert isinstance(cap, int) and cap > 0
    assert ArenaSettings(players=["random", "random"], game="lotr").game_options()["max_moves"] == cap
    told = ArenaSettings(players=["random", "random"], game="lotr", max_moves=0)
    assert told.game_options()["max_moves"] == 0  # 0: no cap, when asked for
    assert ArenaSettings(players=["random", "random"]).game_options()["max_moves"] == 2000  # Stratego's own
    assert ArenaSettings(players=["random", "random"], variant="barrage").game_options()["max_moves"] == 1000
