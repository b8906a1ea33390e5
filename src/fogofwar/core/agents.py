"""The Agent protocol and a registry of agents by name, so every front end can pick one by a string."""

from __future__ import annotations

import importlib
import importlib.util
import random
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from fogofwar.core.protocol import JSON, Game, GameError, Observation
from fogofwar.core.registry import plugin_modules


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


def agent_game_options(agents: Sequence[object], game: str, options: dict[str, JSON] | None = None) -> dict[str, JSON]:
    """`options` with what the agents need from `game` at their seats added.

    An agent may declare `game_options(game, seat) -> dict` (Admiral's `stratego` asks for the solo rules at
    its seat: `{"solo_seat": seat}`). Front ends that build the game after seating the agents (the arena, the
    terminal, the web app) pass their options through here. A `GameError` says when two agents, or an
    agent and a given option (other than None), want different values."""
    out: dict[str, JSON] = dict(options or {})
    wanted: dict[str, tuple[JSON, str]] = {}
    for seat, agent in enumerate(agents):
        declare = getattr(agent, "game_options", None)
        if not callable(declare):
            continue
        name = str(getattr(agent, "name", type(agent).__name__))
        for key, value in dict(declare(game, seat)).items():
            if key in wanted and wanted[key][0] != value:
                raise GameError(
                    f"{wanted[key][1]} and {name} need different game options {key}: {wanted[key][0]!r} and {value!r}"
                )
            if out.get(key) is not None and key not in wanted and out[key] != value:
                raise GameError(
                    f"{name} (seat {seat}) needs the game option {key}={value!r}, the options say {out[key]!r}"
                )
            wanted[key] = (value, name)
            out[key] = value
    return out


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


_agents_loaded = False


def _load_builtin_agents() -> None:
    """Import the `agents` module of every game plugin that has one (each registers its agents on import)."""
    global _agents_loaded
    if _agents_loaded:
        return
    _agents_loaded = True
    for plugin in plugin_modules():
        module = f"{plugin}.agents"
        if importlib.util.find_spec(module) is not None:
            importlib.import_module(module)
