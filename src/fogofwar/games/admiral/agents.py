"""Admiral's computer players, registered by name in `fogofwar.core.agents` when the agents are first asked for."""

from fogofwar.core.agents import register_agent
from fogofwar.games.admiral.solo import StrategoAgent

register_agent("stratego", StrategoAgent.from_spec, "admiral", title="Admiral Stratego")  # the solo mode's computer
