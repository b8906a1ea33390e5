"""Bad stored states are refused with a RecordError that says what is wrong (STR-REC-4)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from fogofwar.core.agents import RandomAgent
from fogofwar.core.match import play_match
from fogofwar.core.protocol import RecordError, Termination
from fogofwar.frontends.cli import app
from fogofwar.games.stratego.rules import StrategoGame


def _finished_game_json() -> tuple[StrategoGame, dict]:
    game = StrategoGame("barrage", max_moves=300)
    return game, play_match(game, [RandomAgent(), RandomAgent()], seed=1).replay().to_json()


def test_ended_by_on_a_finished_game_is_a_record_error() -> None:
    game, data = _finished_game_json()
    with pytest.raises(RecordError, match="already ended"):
        game.state_from_json({**data, "ended_by": {"termination": "resignation", "winner": 0}})


def test_ended_by_not_an_object_is_a_record_error() -> None:
    game, data = _finished_game_json()
    with pytest.raises(RecordError, match="must be an object"):
        game.state_from_json({**data, "ended_by": 5})


def test_unknown_variant_in_state_json_is_a_record_error() -> None:
    game, data = _finished_game_json()
    with pytest.raises(RecordError, match="variant must be one of classic, barrage, duel, classicfree, not 'nope'"):
        game.state_from_json({**data, "options": {"variant": "nope"}})


def test_undo_takes_back_a_resignation_first() -> None:
    game = StrategoGame("barrage")
    state = play_match(game, [RandomAgent(), RandomAgent()], seed=2, max_actions=30).replay()
    before = state.to_json()
    state.end_by(Termination.RESIGNATION, 1, "red resigned")
    state.undo()
    assert state.outcome() is None and state.to_json() == before


def test_replay_lines_are_not_wrapped(tmp_path) -> None:
    path = tmp_path / ("x" * 60 + ".json")
    path.write_text("{}")
    out = CliRunner().invoke(app, ["replay", "--check", str(path)]).output
    assert f"{path.name}: not a fogofwar record" in out.splitlines()[0]


def test_missing_file_with_brackets_in_its_name() -> None:
    result = CliRunner().invoke(app, ["replay", "--check", "games[/b].zip"])
    assert result.exit_code == 2 and "games[/b].zip" in result.output
