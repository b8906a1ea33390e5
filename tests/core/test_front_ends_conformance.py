"""Every registered game through its front ends, built from the registry as the engine's conformance test is: each
agent a game's plugin registers plays legal actions to the end from either seat, and each game's terminal starts,
takes a command and ends with a saved record. A new game joins by registering; nothing here names a game."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

from fogofwar.core import Termination, make_game
from fogofwar.core.agents import agent_game_options, game_agents, make_agent
from fogofwar.core.console_session import PlaySettings
from fogofwar.core.match import play_match
from fogofwar.core.records import GameRecord
from fogofwar.core.registry import game_entry, game_names

AGENTS = [(game, name, spec) for game in game_names() for name, spec in game_agents(game).items()]
"""(game, agent name, the spec that plays it) of every agent of every registered game."""


@pytest.mark.parametrize(("game", "name", "spec"), AGENTS, ids=[f"{g}-{n}" for g, n, _ in AGENTS])
def test_every_agent_of_every_game_plays_legal_actions_to_the_end(game: str, name: str, spec: str | None) -> None:
    if spec is None:
        pytest.skip(f"{name} plays only with a program outside fogofwar (its own tests start one)")
    options = dict(next(iter(game_entry(game).examples.values())))
    for seat in (0, 1):
        seats = [make_agent("random", game), make_agent("random", game)]
        seats[seat] = make_agent(spec, game)
        built = make_game(game, **agent_game_options(seats, game, options))
        record = play_match(built, seats, seed=seat, max_actions=3000)
        outcome = record.outcome
        assert outcome is not None, f"{name} as seat {seat} did not finish a short game of {game}"
        assert "illegal" not in outcome.reason and "crashed" not in outcome.reason, outcome.reason
        assert record.replay().is_terminal()  # its record replays to the same end


def scripted(lines: list[str]) -> Callable[[], str]:
    """The person at the keyboard: these lines, then the end of the input."""
    feed = iter(lines)

    def read() -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return read


TERMINALS = [game for game in game_names() if game_entry(game).console is not None]


@pytest.mark.parametrize("game", TERMINALS)
def test_every_games_terminal_plays_until_a_resignation_and_saves_the_record(game: str, tmp_path: Path) -> None:
    entry = game_entry(game)
    assert entry.console is not None
    out = io.StringIO()
    save = tmp_path / "game.json"
    settings = PlaySettings(
        opponent="random",
        seed=1,
        save=save,
        console=Console(file=out, width=120),
        read=scripted(["random", "resign"]),  # a setup where one is asked for, then the resignation
    )
    code = entry.console()(settings)
    text = out.getvalue()
    assert code == 0, text[-2000:]
    assert "Game over" in text and "resign" in text
    record = GameRecord.from_json(json.loads(save.read_text()))
    assert record.game == game and record.outcome is not None
    assert record.outcome.termination == Termination.RESIGNATION
    assert record.replay().is_terminal()  # the saved record replays to the same end


@pytest.mark.parametrize("game", TERMINALS)
def test_every_games_terminal_refuses_an_option_of_another_game(game: str) -> None:
    entry = game_entry(game)
    assert entry.console is not None
    settings = PlaySettings(extras={"no_such_option": 1}, console=Console(file=io.StringIO()))
    with pytest.raises(Exception, match="--no-such-option is not an option of"):
        entry.console()(settings)
