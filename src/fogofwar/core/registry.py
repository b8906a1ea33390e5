"""Find games by name, so the CLI, records and the server can build them from strings."""

from __future__ import annotations

from collections.abc import Callable

from fogofwar.core.protocol import JSON, Game, GameError

GameFactory = Callable[..., Game]

_GAMES: dict[str, GameFactory] = {}


def register_game(name: str, factory: GameFactory) -> None:
    """Make `make_game(name, **options)` build games with `factory(**options)`."""
    _GAMES[name] = factory


def game_names() -> list[str]:
    _load_builtin_games()
    return sorted(_GAMES)


def make_game(name: str, /, **options: JSON) -> Game:
    """Build the named game with its options; `GameError` names the known games otherwise.

    >>> make_game("chess")
    Traceback (most recent call last):
    ...
    fogofwar.core.protocol.GameError: unknown game 'chess'; known games: admiral, lotr, stratego
    """
    _load_builtin_games()
    factory = _GAMES.get(name) if isinstance(name, str) else None
    if factory is None:
        raise GameError(f"unknown game {name!r}; known games: {', '.join(sorted(_GAMES))}")
    return factory(**options)


def _load_builtin_games() -> None:
    # Imported lazily so that `core` never depends on a particular game at import time.
    import fogofwar.games.admiral  # noqa: F401
    import fogofwar.games.lotr  # noqa: F401
    import fogofwar.games.stratego  # noqa: F401
