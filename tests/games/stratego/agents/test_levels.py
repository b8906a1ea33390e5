"""The computer's levels (`agents/data/levels.toml`): each one a working agent, named after its level."""

from __future__ import annotations

import pytest

from fogofwar.core.agents import agent_names, agent_title, make_agent
from fogofwar.core.protocol import GameError
from fogofwar.games.stratego.agents.levels import levels, parse_levels


def test_every_level_is_an_agent_named_after_it() -> None:
    assert len(levels()) >= 4
    names = set(agent_names())
    for level in levels():
        assert level.name in names
        agent = make_agent(level.name)
        assert agent.name == level.name
        assert agent_title(level.name, "stratego") == level.label  # what the lobby's game lists call it


def test_a_level_takes_more_options_after_its_own() -> None:
    agent = make_agent("novice")
    assert agent.name == "novice" and agent.blunder == 0.5  # type: ignore[attr-defined]
    with pytest.raises(GameError, match="unknown option 'x'"):
        make_agent("novice:x=1")


def test_rated_levels_are_ordered_weakest_first() -> None:
    rated = [level.elo for level in levels() if level.elo is not None]
    assert rated == sorted(rated)


def test_bad_level_files_say_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="level 1 has no 'spec'"):
        parse_levels('[[level]]\nname = "x"\nlabel = "X"\n')
    with pytest.raises(ValueError, match="repeat"):
        parse_levels('[[level]]\nname = "x"\nspec = "random"\nlabel = "X"\n' * 2)


def test_titles_show_the_rating_once_measured() -> None:
    (level,) = parse_levels('[[level]]\nname = "x"\nspec = "random"\nlabel = "Strong"\nelo = 1649.6\n')
    assert level.title() == "Strong (Elo 1650)"
    assert level.describe()["elo"] == 1650
