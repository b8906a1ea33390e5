"""The Agent protocol and a registry of agents by name, so every front end can pick one by a string."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from fogofwar.core.protocol import Game, GameError, Observation


class AgentForfeit(Exception):
    """Raised by an agent that gives up the game: an external bot that crashed, timed out or broke
    its protocol. The match runner scores it as a forfeit with this message as the reason."""


@runtime_checkable
class Agent(Protocol):
    """A player program: it sees only its own observation and the legal action ids, and picks one."""

    name: str

    def start(self, game: Game, player: int, rng: random.Random) -> None:
        """Called once before a game: which game, which seat, and the agent's own random stream."""
        ...

    def act(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        """Return one of `legal_actions`."""
        ...


class RandomAgent:
    """Uniform over the legal actions: the baseline every other agent must beat."""

    name = "random"

    def __init__(self) -> None:
        self._rng = random.Random(0)

    def start(self, game: Game, player: int, rng: random.Random) -> None:
        self._rng = rng

    def act(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        return self._rng.choice(legal_actions)


AgentFactory = Callable[[str], Agent]
"""Builds an agent from the text after 'name:' in a player spec (empty when there is none)."""

_AGENTS: dict[str, AgentFactory] = {"random": lambda arg: RandomAgent()}


def register_agent(name: str, factory: AgentFactory) -> None:
    _AGENTS[name] = factory


def agent_names() -> list[str]:
    _load_builtin_agents()
    return sorted(_AGENTS)


def make_agent(spec: str) -> Agent:
    """Build an agent from a spec like 'random' or 'name:argument'; `GameError` lists the known names."""
    _load_builtin_agents()
    name, _, arg = spec.partition(":")
    try:
        factory = _AGENTS[name]
    except KeyError:
        raise GameError(f"unknown agent {name!r}; known agents: {', '.join(sorted(_AGENTS))}") from None
    return factory(arg)


def _load_builtin_agents() -> None:
    import fogofwar.agents  # noqa: F401  (registers its agents on import)
