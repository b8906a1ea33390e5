"""Game-agnostic core: the State/Game protocol, agents, records, randomness and the match runner."""

from fogofwar.core.protocol import (
    CHANCE,
    TERMINAL,
    Game,
    GameError,
    IllegalActionError,
    InvalidSetupError,
    NotationError,
    Observation,
    Outcome,
    RecordError,
    State,
    Termination,
)
from fogofwar.core.registry import game_names, make_game, register_game

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Game",
    "GameError",
    "IllegalActionError",
    "InvalidSetupError",
    "NotationError",
    "Observation",
    "Outcome",
    "RecordError",
    "State",
    "Termination",
    "game_names",
    "make_game",
    "register_game",
]
