"""Helpers for the Stratego LOTR tests: crafted positions in square names and character keys."""

from __future__ import annotations

from typing import Any

from fogofwar.games.lotr import LotrGame, LotrState
from fogofwar.games.lotr.powers import decode
from fogofwar.grid.board import parse_square, square_name


def pos(pieces: dict[str, tuple[Any, ...]], to_move: int = 0, **options: Any) -> LotrState:
    """A play-phase state: {'B2': (owner, 'gandalf' | rank), ...}; 0 = evil, 1 = good."""
    return LotrGame(**options).state_from_position(pieces, to_move=to_move)


def act(a: str, b: str) -> int:
    """The action id of the move or attack a-b."""
    return parse_square(a) * 100 + parse_square(b)


def can(state: LotrState, a: str, b: str) -> bool:
    return act(a, b) in state.legal_actions()


def play(state: LotrState, *moves: str) -> LotrState:
    """Apply moves written 'A1-A2', 'fly E4-E8', 'stop' (any notation `string_to_action` reads); returns the state."""
    for m in moves:
        state.apply(state.string_to_action(m))
    return state


def powers(state: LotrState, power: str, src: str | None = None) -> set[str]:
    """The legal uses of one power (of the piece on `src`, if given), written in notation."""
    out = set()
    for a in state.legal_actions():
        pa = decode(a)
        if pa is not None and pa.power == power and (src is None or square_name(pa.src) == src.upper()):
            out.add(state.action_to_string(a))
    return out


def snapshot(state: LotrState) -> tuple[Any, ...]:
    """Everything the protocol shows of a state, to check that a refused action changed nothing."""
    return (
        state.to_json(),
        list(state.legal_actions()),
        state.current_player(),
        state.observation(0),
        state.observation(1),
        state.captured(0),
        state.captured(1),
    )
