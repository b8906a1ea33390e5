"""Find games by name, so the CLI, records and the server can build them from strings.

Every game is a plugin: a package under `fogofwar.games` (or, from another distribution, a module named in
the `fogofwar.games` entry-point group) that calls `register_game` when it is imported. Core names no game:
`load_plugins` imports whatever is there.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import TYPE_CHECKING

from fogofwar.core.params import GameParams
from fogofwar.core.protocol import JSON, Game, GameError
from fogofwar.core.web_adapter import Adapter

if TYPE_CHECKING:  # the terminal's types only: registering a game imports nothing of the terminal
    from fogofwar.core.console_session import TerminalRunner

GameFactory = Callable[..., Game]
ProgramOptions = Callable[[Mapping[str, JSON]], Mapping[str, JSON]]
"""The options a series between programs adds to the options it has (`GameEntry.program_options`)."""


def _no_program_options(options: Mapping[str, JSON]) -> Mapping[str, JSON]:
    """A game whose rules end every game needs nothing added."""
    return {}


@dataclass(frozen=True)
class GameEntry:
    """A registered game: how to build it, its options, and (when the web app hosts it) its web adapter."""

    name: str
    factory: GameFactory
    """Builds the game from its options: the game's class, whose constructor checks them with `params`
    (`core.params.checked_by`; the conformance test checks that it does, with the model's defaults)."""
    params: type[GameParams]
    """The game's options: names, types, defaults, limits and meaning (`fogofwar games` lists them)."""
    web_adapter: Callable[[], Adapter] | None = None
    """Builds the game's web adapter; called once, when the server first asks (so that registering
    imports nothing of the server's)."""
    order: int = 100
    """Where the lobby lists the game (lower first; ties by name)."""
    console: Callable[[], TerminalRunner] | None = None
    """Gives the game's terminal (`fogofwar play <name>`); called when a game starts, so that registering imports
    nothing of the terminal's."""
    examples: Mapping[str, Mapping[str, JSON]] = field(default_factory=dict)
    """Named option sets, short games of each of its modes: what the conformance test plays."""
    program_options: ProgramOptions = _no_program_options
    """The options a series between programs adds, given the options it has, unless told otherwise (`fogofwar
    arena`): a move cap (a variant's), so that two players that never end a game cannot keep a series going for
    ever. People play without them."""


_GAMES: dict[str, GameEntry] = {}
_ADAPTERS: dict[str, Adapter] = {}
_PLUGINS: list[str] = []
_loaded = False

PLUGIN_PACKAGE = "fogofwar.games"
"""The package whose every subpackage is a game plugin."""
ENTRY_POINT_GROUP = "fogofwar.games"
"""Where other distributions name their game plugins (a module that calls `register_game`)."""


def register_game(
    name: str,
    factory: GameFactory,
    *,
    params: type[GameParams],
    web_adapter: Callable[[], Adapter] | None = None,
    console: Callable[[], TerminalRunner] | None = None,
    order: int = 100,
    examples: Mapping[str, Mapping[str, JSON]] | None = None,
    program_options: ProgramOptions = _no_program_options,
) -> None:
    """Make `make_game(name, **options)` build games with `factory(**options)` (which checks the options with
    `params`), the web app host the game through `web_adapter()` and `fogofwar play` through `console()` when
    they are given. `examples` name option sets of short games, one for each mode worth testing (the
    conformance test plays every one; none: the game with its defaults). `program_options(options)` gives the
    options a series between programs adds to `options` unless told otherwise (a move cap)."""
    examples = dict(examples or {"default": {}})
    _GAMES[name] = GameEntry(name, factory, params, web_adapter, order, console, examples, program_options)
    _ADAPTERS.pop(name, None)


def unregister_game(name: str) -> None:
    """Forget a game (a test's toy game, when the test is over)."""
    _GAMES.pop(name, None)
    _ADAPTERS.pop(name, None)


def load_plugins() -> None:
    """Import every game plugin (once): the packages under `fogofwar.games`, then the entry points."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    package = importlib.import_module(PLUGIN_PACKAGE)
    names = [f"{PLUGIN_PACKAGE}.{i.name}" for i in sorted(pkgutil.iter_modules(package.__path__)) if i.ispkg]
    names += [point.value for point in entry_points(group=ENTRY_POINT_GROUP)]
    for name in names:
        importlib.import_module(name)
        _PLUGINS.append(name)


def plugin_modules() -> list[str]:
    """The game plugins' modules, loaded (`load_plugins`); a plugin's agents live in its `agents` module."""
    load_plugins()
    return list(_PLUGINS)


def game_names() -> list[str]:
    load_plugins()
    return sorted(_GAMES)


def game_entry(name: str) -> GameEntry:
    """The registered game `name`; `GameError` names the known games otherwise."""
    load_plugins()
    entry = _GAMES.get(name) if isinstance(name, str) else None
    if entry is None:
        raise GameError(f"unknown game {name!r}; known games: {', '.join(sorted(_GAMES))}")
    return entry


def make_game(name: str, /, **options: JSON) -> Game:
    """Build the named game with its options; `GameError` names the known games otherwise.

    >>> make_game("chess")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    fogofwar.core.protocol.GameError: unknown game 'chess'; known games: admiral, lotr, ...stratego...
    """
    return game_entry(name).factory(**options)


def web_adapters() -> dict[str, Adapter]:
    """The web adapter of every game that has one, in the lobby's order (each built once)."""
    load_plugins()
    out: dict[str, Adapter] = {}
    for entry in sorted(_GAMES.values(), key=lambda e: (e.order, e.name)):
        if entry.web_adapter is None:
            continue
        if entry.name not in _ADAPTERS:
            _ADAPTERS[entry.name] = entry.web_adapter()
        out[entry.name] = _ADAPTERS[entry.name]
    return out
