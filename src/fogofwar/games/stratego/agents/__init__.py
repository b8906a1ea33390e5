"""Stratego's computer players, registered by name for the game "stratego" in `fogofwar.core.agents`."""

import functools

from fogofwar.core.agents import Agent, BlunderingAgent, game_agents, make_agent, register_agent
from fogofwar.games.stratego.agents.heuristic import HeuristicAgent
from fogofwar.games.stratego.agents.levels import level_named, levels
from fogofwar.games.stratego.agents.ucc import UccBotAgent

register_agent(
    "heuristic", BlunderingAgent.factory("heuristic", HeuristicAgent), "stratego", title=level_named("heuristic").label
)
register_agent("ucc", UccBotAgent.from_spec, "stratego", example=None)  # needs a bot program: ucc:COMMAND

from fogofwar.games.stratego.agents.policy_agent import PolicyAgent, SelfPlayAgent  # noqa: E402
from fogofwar.games.stratego.agents.rollout import RolloutAgent  # noqa: E402
from fogofwar.games.stratego.agents.search import parse_spec  # noqa: E402

register_agent("search", parse_spec, "stratego", title=level_named("search").label)
register_agent("policy", PolicyAgent.from_spec, "stratego")  # the learned move policy alone
# the learned move policy improved by self-play
register_agent("selfplay", SelfPlayAgent.from_spec, "stratego", title=level_named("selfplay").label)
# the self-played net, its likeliest moves tried in short games over guessed armies (the conformance test plays a
# light one: the full one takes a tenth of a second a move)
_LIGHT = "rollout:guesses=2,depth=2"
register_agent("rollout", RolloutAgent.from_spec, "stratego", example=_LIGHT, title=level_named("rollout").label)


def _register_levels() -> None:
    """Every level whose name is no agent yet plays as its spec (`novice` is `heuristic:blunder=0.5`); the levels
    are classic Stratego's (their ratings were measured there). Only Stratego's own names count: LOTR has an
    `expert` of its own (`fogofwar.games.lotr_transfer`)."""
    known = set(game_agents("stratego"))
    for level in levels():
        if level.name not in known:
            register_agent(
                level.name, functools.partial(_level_agent, level.name, level.spec), "stratego", title=level.label
            )


def _level_agent(name: str, spec: str, arg: str) -> Agent:
    """The level's agent, named after the level (so records and tables say `novice`), with `arg`'s options
    after the level's own."""
    base, _, own = spec.partition(":")
    agent = make_agent(base + ":" + ",".join(filter(None, (own, arg))), "stratego")
    agent.name = name
    return agent


_register_levels()
