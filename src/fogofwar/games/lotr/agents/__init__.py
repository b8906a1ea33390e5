"""Stratego LOTR's computer players, registered by name for the game "lotr" in `fogofwar.core.agents`."""

from fogofwar.core.agents import BlunderingAgent, register_agent
from fogofwar.games.lotr.agents.heuristic import LotrHeuristicAgent
from fogofwar.games.lotr.agents.search import LotrSearchAgent

register_agent("heuristic", BlunderingAgent.factory("heuristic", LotrHeuristicAgent), "lotr", title="Club")
register_agent("search", LotrSearchAgent.from_spec, "lotr", title="Strong")
