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


def make_game(name: str, **options: JSON) -> Game:
    """Build the named game with its options; `GameError` names the known games otherwise."""
    _load_builtin_games()
    try:
        factory = _GAMES[name]
    except KeyError:
        raise GameError(f"unknown game {name!r}; known games: {', '.join(sorted(_GAMES))}") from None
    return factory(**options)


def _load_builtin_games() -> None:
    # Imported lazily so that `core` never depends on a particular game at import time.
    import fogofwar.admiral  # noqa: F401
    import fogofwar.lotr  # noqa: F401
    import fogofwar.stratego  # noqa: F401
