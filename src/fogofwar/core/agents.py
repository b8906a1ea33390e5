"""The Agent protocol and a registry of agents by name, so every front end can pick one by a string."""

from __future__ import annotations

import importlib
import importlib.util
import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from fogofwar.core.protocol import JSON, Game, GameError, Observation
from fogofwar.core.registry import plugin_modules
from fogofwar.core.spec_options import number_option


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


class Explanation(Protocol):
    """Why an agent did what it just did: the rule it followed (an id such as SOLO-TAB-4) and the reason."""

    @property
    def rule(self) -> str: ...

    @property
    def text(self) -> str: ...


def take_explanations(agent: object) -> list[Explanation]:
    """What the agent explained since it was last asked: its `drain_explanations()` (an agent that explains
    its decisions has one, like Admiral's solo AI), or nothing for an agent that explains nothing."""
    drain = getattr(agent, "drain_explanations", None)
    return list(drain()) if callable(drain) else []


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


class BlunderingAgent:
    """Another agent that plays a random legal move instead of its own with chance `blunder` (a weaker level:
    `novice` is `heuristic:blunder=0.5`); never while setting up (an observation whose "phase" is "setup")."""

    def __init__(self, name: str, make: Callable[[], Agent], blunder: float = 0.0) -> None:
        self.name = name
        self._make = make
        self._impl = make()
        self.blunder = blunder
        self._rng = random.Random(0)

    @classmethod
    def factory(cls, name: str, make: Callable[[], Agent]) -> AgentFactory:
        """The factory of `name` and `name:blunder=P`; `GameError` names a bad option."""
        return lambda arg: cls(name, make, number_option(name, arg, "blunder", 0.0, 1.0, 0.0, "P"))

    def start(self, game: Game, player: int, rng: random.Random) -> None:
        self._impl = self._make()
        self._impl.start(game, player, rng)
        self._rng = rng

    def act(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        if self.blunder and observation.data.get("phase") != "setup" and self._rng.random() < self.blunder:
            return self._rng.choice(list(legal_actions))
        return self._impl.act(observation, legal_actions)


AgentFactory = Callable[[str], Agent]
"""Builds an agent from the text after 'name:' in a player spec (empty when there is none)."""

ANY_GAME = "*"
"""The game of an agent registered for every game (`random`)."""

_AGENTS: dict[str, dict[str, AgentFactory]] = {"random": {ANY_GAME: lambda arg: RandomAgent()}}
_EXAMPLES: dict[tuple[str, str], str | None] = {}
_TITLES: dict[tuple[str, str], str] = {("random", ANY_GAME): "Beginner"}


def register_agent(
    name: str, factory: AgentFactory, game: str = ANY_GAME, example: str | None = "", title: str = ""
) -> None:
    """Make `make_agent("name:arg")` build `factory(arg)` for `game` (a registered game's name). Several games
    may register one name (`heuristic`): the agent then becomes the game's own when a game starts.

    `example` is the spec the conformance test plays it with (by default its name); None for an agent that
    cannot play without something outside (a bot program it talks to) or is made to break the rules (a test's).
    `title` is what people read (`agent_title`)."""
    _AGENTS.setdefault(name, {})[game] = factory
    _EXAMPLES[(name, game)] = name if example == "" else example
    if title:
        _TITLES[(name, game)] = title


def agent_title(name: str, game: str) -> str:
    """The name people read for the computer player `name` in `game` ("Admiral Stratego", "Strong"): its
    registered title, else its name.

    >>> agent_title("random", "lotr"), agent_title("nobody", "lotr")
    ('Beginner', 'nobody')
    """
    _load_builtin_agents()
    return _TITLES.get((name, game)) or _TITLES.get((name, ANY_GAME)) or name


def game_agents(game: str) -> dict[str, str | None]:
    """The agents that play `game` (its own and those of every game), each with the spec that plays it (None:
    it needs something outside, see `register_agent`)."""
    _load_builtin_agents()
    return {
        name: _EXAMPLES.get((name, game), _EXAMPLES.get((name, ANY_GAME), name))
        for name, by_game in sorted(_AGENTS.items())
        if game in by_game or ANY_GAME in by_game
    }


def agent_names() -> list[str]:
    _load_builtin_agents()
    return sorted(_AGENTS)


def make_agent(spec: str, game: str | None = None) -> Agent:
    """Build an agent from a spec like 'random' or 'name:argument'; `GameError` lists the known names.

    With `game`, that game's agent of this name (`GameError` if it has none); without, the one agent of the
    name or, when several games register it, a `GameAgent` that becomes the right one at `start`."""
    _load_builtin_agents()
    name, _, arg = spec.partition(":")
    by_game = _AGENTS.get(name)
    if by_game is None:
        raise GameError(f"unknown agent {name!r}; known agents: {', '.join(sorted(_AGENTS))}")
    if game is not None:
        factory = by_game.get(game) or by_game.get(ANY_GAME)
        if factory is None:
            raise GameError(f"agent {name!r} does not play {game}; it plays {', '.join(sorted(by_game))}")
        return factory(arg)
    if len(by_game) == 1:
        return next(iter(by_game.values()))(arg)
    return GameAgent(name, arg, by_game)


class GameAgent:
    """An agent name registered by several games (`heuristic`, `search`): one agent per game, built from the
    same spec, and the game's own plays once a game starts. Other attributes (`close`, explanations) are the
    current agent's.

    A spec option that only one game's agent knows is refused at once when no game's agent takes it; when
    some do, it is refused when a game whose agent does not take it starts."""

    def __init__(self, name: str, arg: str, factories: dict[str, AgentFactory]) -> None:
        self.name = name
        self._agents: dict[str, Agent] = {}
        self._errors: dict[str, GameError] = {}
        for game, factory in factories.items():
            try:
                self._agents[game] = factory(arg)
            except GameError as exc:
                self._errors[game] = exc
        if not self._agents:
            messages = dict.fromkeys(str(exc) for exc in self._errors.values())
            if len(messages) == 1:
                raise next(iter(self._errors.values()))
            raise GameError("; ".join(f"in {game}, {exc}" for game, exc in sorted(self._errors.items())))
        self.current: Agent = next(iter(self._agents.values()))
        """The agent that plays the game started last (before any: the first game's)."""

    def agent_for(self, game: str) -> Agent:
        """The agent that plays `game` (a GameError when none does)."""
        agent = self._agents.get(game) or self._agents.get(ANY_GAME)
        if agent is None:
            if game in self._errors:
                raise self._errors[game]
            raise GameError(f"agent {self.name!r} does not play {game}; it plays {', '.join(sorted(self._agents))}")
        return agent

    def game_options(self, game: str, seat: int) -> dict[str, JSON]:
        declare = getattr(self.agent_for(game), "game_options", None)
        return dict(declare(game, seat)) if callable(declare) else {}

    def start(self, game: Game, player: int, rng: random.Random) -> None:
        self.current = self.agent_for(game.name)
        self.current.start(game, player, rng)

    def act(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        return self.current.act(observation, legal_actions)

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__") or attr in ("current", "_agents", "_errors"):
            raise AttributeError(attr)
        return getattr(self.current, attr)


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
