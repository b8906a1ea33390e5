"""Computer players, registered by name in `fogofwar.core.agents` (random is built in)."""

import functools

from fogofwar.core.agents import Agent, agent_names, make_agent, register_agent
from fogofwar.games.lotr.agents.heuristic import GameHeuristicAgent
from fogofwar.games.stratego.agents.levels import levels
from fogofwar.games.stratego.agents.ucc import UccBotAgent

register_agent("heuristic", GameHeuristicAgent.from_spec)  # classic Stratego or LOTR, by the game
register_agent("ucc", UccBotAgent.from_spec)

from fogofwar.games.stratego.agents.policy_agent import PolicyAgent  # noqa: E402
from fogofwar.games.stratego.agents.search import _parse_spec  # noqa: E402

register_agent("search", _parse_spec)
register_agent("policy", PolicyAgent.from_spec)  # the learned move policy alone (classic Stratego)


def _register_levels() -> None:
    """Every level whose name is no agent yet plays as its spec (`novice` is `heuristic:blunder=0.5`)."""
    known = set(agent_names())
    for level in levels():
        if level.name not in known:
            register_agent(level.name, functools.partial(_level_agent, level.name, level.spec))


def _level_agent(name: str, spec: str, arg: str) -> Agent:
    """The level's agent, named after the level (so records and tables say `novice`), with `arg`'s options
    after the level's own."""
    base, _, own = spec.partition(":")
    agent = make_agent(base + ":" + ",".join(filter(None, (own, arg))))
    agent.name = name
    return agent


_register_levels()
