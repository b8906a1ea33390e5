"""The `fogofwar` command (replay, bench) through typer's test runner, and the match runner behind records."""

from __future__ import annotations

import json
import re
import zipfile
from collections.abc import Sequence
from pathlib import Path

import pytest
from tests.tiny_barrage import MOVES as GOOD_MOVES
from tests.tiny_barrage import PIECES
from typer.testing import CliRunner

from fogofwar.core import Game, Observation, Termination
from fogofwar.core.agents import RandomAgent
from fogofwar.core.match import play_match
from fogofwar.core.records import GameRecord
from fogofwar.frontends import cli
from fogofwar.frontends.cli import app
from fogofwar.games.stratego.formats.gravon import format_field
from fogofwar.games.stratego.rules import StrategoGame, StrategoState

runner = CliRunner()


def gravon_xml(moves: list[tuple[str, str]], result: tuple[int, int]) -> str:
    body = "".join(f'<move id="{i}" source="{a}" target="{b}"/>' for i, (a, b) in enumerate(moves, 1))
    return (
        f'<stratego><game type="barrage"><field content="{format_field(PIECES)}"/>{body}'
        f'<result type="{result[0]}" winner="{result[1]}"/></game></stratego>'
    )


def write_zip(path: Path, games: dict[str, str]) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        for name, xml in games.items():
            z.writestr(name, xml)
    return path


def flat(text: str) -> str:
    """The output with line wrapping undone (rich wraps long lines at the console width)."""
    return " ".join(text.split())


# --- replay -----------------------------------------------------------------------------------------------


def test_replay_check_good_zip(tmp_path: Path) -> None:
    path = write_zip(
        tmp_path / "good.zip",
        {"a.xml": gravon_xml(GOOD_MOVES, (1, 1)), "b.xml": gravon_xml(GOOD_MOVES[:3], (3, 1))},
    )
    result = runner.invoke(app, ["replay", "--check", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1] == "2 games, 8 moves, 0 violations"


def test_replay_check_verbose_lists_every_game(tmp_path: Path) -> None:
    path = write_zip(tmp_path / "good.zip", {"a.xml": gravon_xml(GOOD_MOVES, (1, 1))})
    result = runner.invoke(app, ["replay", "--check", "--verbose", str(path)])
    assert result.exit_code == 0, result.output
    assert "good.zip:a.xml: 5 moves, ok" in flat(result.output)


def test_replay_counts_records_never_played_apart(tmp_path: Path) -> None:
    empty = '<stratego><game type="classic"><field content=""/><result type="3" winner="1"/></game></stratego>'
    path = write_zip(
        tmp_path / "strados2014-3.zip",
        {"barrage-2014.3-1.xml": gravon_xml(GOOD_MOVES, (1, 1)), "classic-2014.3-2.xml": empty},
    )
    result = runner.invoke(app, ["replay", "--check", "--verbose", str(path)])
    assert result.exit_code == 0, result.output
    out = flat(result.output)
    assert "classic-2014.3-2.xml: not played (no setup and no move: the game was never played (result type 3))" in out
    assert "barrage-2014.3-1.xml: 5 moves, ok (gravon-2013)" in out
    assert "1 games not played (no setup and no move; not counted)" in out
    assert "repetition rules: gravon-2013 1 games" in out
    assert result.output.strip().splitlines()[-1] == "1 games, 5 moves, 0 violations"


def test_replay_repetition_option(tmp_path: Path) -> None:
    path = write_zip(tmp_path / "good.zip", {"a.xml": gravon_xml(GOOD_MOVES, (1, 1))})
    result = runner.invoke(app, ["replay", "--check", "--repetition", "gravon-2004", str(path)])
    assert result.exit_code == 0, result.output
    assert "repetition rules: gravon-2004 1 games" in flat(result.output)
    result = runner.invoke(app, ["replay", "--check", "--repetition", "gravon-1999", str(path)])
    assert result.exit_code == 2
    assert "--repetition is auto or one of isf, gravon-2004, gravon-2013, not gravon-1999" in flat(result.output)


def test_replay_check_bad_zip(tmp_path: Path) -> None:
    bad_moves = [("G1", "G2"), ("A:", "A9")]  # blue's bomb moves
    path = write_zip(
        tmp_path / "bad.zip",
        {"a.xml": gravon_xml(GOOD_MOVES, (1, 1)), "b.xml": gravon_xml(bad_moves, (3, 1))},
    )
    result = runner.invoke(app, ["replay", "--check", str(path)])
    assert result.exit_code == 1, result.output
    out = flat(result.output)
    assert "bad.zip:b.xml: move 2 A:-A9: the bomb on A10 can never move (STR-MOVE-1)" in out
    assert result.output.strip().splitlines()[-1] == "2 games, 6 moves, 1 violations"
    # Without --check the same report, but the exit status stays 0.
    assert runner.invoke(app, ["replay", str(path)]).exit_code == 0


def test_replay_check_unreadable_game(tmp_path: Path) -> None:
    path = write_zip(tmp_path / "broken.zip", {"a.xml": "<stratego><game>"})
    result = runner.invoke(app, ["replay", "--check", str(path)])
    assert result.exit_code == 1
    assert "broken.zip:a.xml: not well-formed XML" in flat(result.output)


def test_replay_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.zip"
    result = runner.invoke(app, ["replay", "--check", str(missing)])
    assert result.exit_code == 2
    assert "no such file" in flat(result.output) and "nowhere.zip" in flat(result.output)


def saved_record(tmp_path: Path) -> Path:
    record = play_match(StrategoGame("barrage", max_moves=300), [RandomAgent(), RandomAgent()], seed=1)
    path = tmp_path / "game.json"
    record.save(path)
    return path


def test_replay_json_record(tmp_path: Path) -> None:
    path = saved_record(tmp_path)
    record = GameRecord.load(path)
    state = record.replay()
    assert isinstance(state, StrategoState)
    moves = state.move_count
    result = runner.invoke(app, ["replay", "--check", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1] == f"1 games, {moves} moves, 0 violations"


@pytest.mark.parametrize(
    ("corrupt", "message"),
    [
        ("text", "not JSON"),
        ("format", "not a fogofwar record"),
        ("action", "is illegal"),
        ("notation", "notation does not match"),
        ("outcome", "the record says"),
        ("game", "cannot build game 'chess'"),
    ],
)
def test_replay_corrupted_json_record(tmp_path: Path, corrupt: str, message: str) -> None:
    path = saved_record(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    if corrupt == "text":
        path.write_text(path.read_text(encoding="utf-8")[:-40], encoding="utf-8")
    else:
        if corrupt == "format":
            data["format"] = "something-else"
        elif corrupt == "action":
            data["actions"][-1] = 9999  # K10-K10
        elif corrupt == "notation":
            data["notation"][-1] = "A1-A2" if data["notation"][-1] != "A1-A2" else "A2-A3"
        elif corrupt == "outcome":
            data["outcome"] = {"termination": "no_moves", "winner": 0, "reason": "made up"}
        elif corrupt == "game":
            data["game"] = "chess"
        path.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(app, ["replay", "--check", str(path)])
    assert result.exit_code == 1, result.output
    out = flat(result.output)
    assert re.search(rf"game\.json: .*{re.escape(message)}", out), out
    assert result.output.strip().splitlines()[-1].endswith("1 violations")


# --- bench ------------------------------------------------------------------------------------------------


def test_games_lists_every_game_with_its_options(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli.console, "width", 200)  # the tables' cells on one line each
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0, result.output
    for title in ("stratego: Stratego", "lotr: Stratego LOTR", "admiral: Admiral"):
        assert title in result.output
    assert result.output.index("stratego: Stratego") < result.output.index("lotr: Stratego LOTR")  # lobby order
    assert "two_squares" in result.output and "whole number" in result.output
    assert "captured_mode" in result.output and "free, prisoner, secret, hidden" in result.output


def test_bench_prints_moves_per_second() -> None:
    result = runner.invoke(app, ["bench", "--seconds", "0.5", "-v", "barrage"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if line.startswith("barrage")]
    assert len(lines) == 1, result.output
    assert re.search(r"barrage\s+\d+ games\s+\d+ moves\s+[\d,]+ moves/s", lines[0]), lines[0]


def test_bench_measures_each_lotr_game() -> None:
    result = runner.invoke(app, ["bench", "--game", "lotr", "--seconds", "0.3", "-v", "powers", "-v", "ring"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if line.startswith("lotr-")]
    assert [line.split()[0] for line in lines] == ["lotr-powers", "lotr-ring"], result.output
    assert all(re.search(r"\d+ games\s+\d+ moves\s+[\d,]+ moves/s", line) for line in lines), lines
    bad = runner.invoke(app, ["bench", "--game", "lotr", "-v", "barrage"])
    assert bad.exit_code == 2 and "LOTR's games are classic, powers, ring, not 'barrage'" in bad.output


# --- the match runner -------------------------------------------------------------------------------------


class IllegalAgent(RandomAgent):
    name = "cheater"

    def act(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        return max(legal_actions) + 1


class CrashingAgent(RandomAgent):
    name = "crasher"

    def __init__(self, after: int = 0) -> None:
        super().__init__()
        self.after = after

    def act(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        if self.after <= 0:
            raise RuntimeError("out of cheese")
        self.after -= 1
        return super().act(observation, legal_actions)


def barrage() -> Game:
    return StrategoGame("barrage", max_moves=300)


@pytest.mark.parametrize("seat", [0, 1])
def test_illegal_action_loses_by_forfeit(seat: int) -> None:
    agents = [RandomAgent(), RandomAgent()]
    agents[seat] = IllegalAgent()
    record = play_match(barrage(), agents, seed=3)
    outcome = record.outcome
    assert outcome is not None
    assert outcome.termination is Termination.FORFEIT
    assert outcome.winner == 1 - seat
    assert "cheater" in outcome.reason and "illegal" in outcome.reason
    assert record.players[seat] == "cheater"
    # The forfeit is part of the record: it replays to the same ending.
    replayed = GameRecord.loads(record.dumps()).replay()
    assert replayed.outcome() == outcome


def test_crashing_agent_loses_by_forfeit() -> None:
    record = play_match(barrage(), [RandomAgent(), CrashingAgent(after=20)], seed=4)
    outcome = record.outcome
    assert outcome is not None
    assert outcome.termination is Termination.FORFEIT and outcome.winner == 0
    assert "crasher" in outcome.reason and "out of cheese" in outcome.reason
    # Blue acted 20 times (8 placements, 12 moves) and crashed on its 13th move; red had made 13.
    assert len(record.actions) == 8 + 8 + 13 + 12
    assert GameRecord.loads(record.dumps()).replay().outcome() == outcome


def test_agent_crash_at_the_first_action() -> None:
    record = play_match(barrage(), [CrashingAgent(), RandomAgent()], seed=5)
    assert record.outcome is not None and record.outcome.winner == 1
    assert record.outcome.termination is Termination.FORFEIT
    assert record.actions == []


def test_seeded_matches_are_reproducible() -> None:
    def match(seed: int) -> GameRecord:
        return play_match(barrage(), [RandomAgent(), RandomAgent()], seed=seed)

    first, second = match(11), match(11)
    assert first.to_json() == second.to_json()
    assert first.dumps() == second.dumps()
    assert first.outcome is not None and first.metadata == {"seed": 11}
    assert match(12).actions != first.actions


def test_play_match_needs_one_agent_per_seat() -> None:
    with pytest.raises(ValueError, match="needs 2 agents"):
        play_match(barrage(), [RandomAgent()], seed=1)


def test_play_match_stops_after_max_actions() -> None:
    record = play_match(barrage(), [RandomAgent(), RandomAgent()], seed=1, max_actions=10)
    assert len(record.actions) == 10 and record.outcome is None
    seen: list[tuple[int, int]] = []
    agents = [RandomAgent(), RandomAgent()]
    play_match(barrage(), agents, seed=1, max_actions=5, on_action=lambda state, p, a: seen.append((p, a)))
    assert [a for _, a in seen] == record.actions[:5]
    assert [p for p, _ in seen] == [0] * 5
