"""The games the server hosts: the web adapter of every registered game (`core.registry`), by name."""

from __future__ import annotations

from fogofwar.core.protocol import GameError
from fogofwar.core.registry import web_adapters
from fogofwar.core.web_adapter import Adapter

ADAPTERS: dict[str, Adapter] = web_adapters()


def get_adapter(game: str) -> Adapter:
    try:
        return ADAPTERS[game]
    except KeyError:
        raise GameError(f"the server does not host {game!r} yet; it hosts: {', '.join(sorted(ADAPTERS))}") from None


__all__ = ["ADAPTERS", "Adapter", "get_adapter"]
