"""Computer players, registered by name in `fogofwar.core.agents` (random is built in)."""

from fogofwar.agents.lotr_heuristic import GameHeuristicAgent
from fogofwar.agents.ucc import UccBotAgent
from fogofwar.core.agents import register_agent

register_agent("heuristic", lambda arg: GameHeuristicAgent())  # classic Stratego or LOTR, by the game
register_agent("ucc", UccBotAgent.from_spec)

from fogofwar.agents.search import _parse_spec  # noqa: E402

register_agent("search", _parse_spec)
register_agent("stratego", lambda arg: __import__("fogofwar.admiral.solo", fromlist=["_"]).StrategoAgent.from_spec(arg))
