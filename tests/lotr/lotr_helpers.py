"""Helpers for the Stratego LOTR tests: crafted positions in square names and character keys."""

from __future__ import annotations

from typing import Any

from fogofwar.lotr import LotrGame, LotrState
from fogofwar.stratego.board import parse_square


def pos(pieces: dict[str, tuple[Any, ...]], to_move: int = 0, **options: Any) -> LotrState:
    """A play-phase state: {'B2': (owner, 'gandalf' | rank), ...}; 0 = evil, 1 = good."""
    return LotrGame(**options).state_from_position(pieces, to_move=to_move)


def act(a: str, b: str) -> int:
    """The action id of the move or attack a-b."""
    return parse_square(a) * 100 + parse_square(b)


def can(state: LotrState, a: str, b: str) -> bool:
    return act(a, b) in state.legal_actions()


def play(state: LotrState, *moves: str) -> LotrState:
    """Apply moves written 'A1-A2' (any notation `string_to_action` reads); returns the state."""
    for m in moves:
        state.apply(state.string_to_action(m))
    return state
