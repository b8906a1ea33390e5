"""Rebuilding a state from its JSON: the part every game shares.

A game's `to_json` is its options, an optional start position and the actions played; an
ending the board cannot produce (a resignation, a forfeit, ...) travels as "ended_by". Each
game builds its initial state from the options and start; `replay_actions` then applies the
actions and the ending, and says exactly what is wrong with a bad record (RecordError) —
one checker for every game, so a bad file is refused the same way everywhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from fogofwar.core.protocol import JSON, Game, GameError, Outcome, RecordError, State, Termination

OUTSIDE_ENDINGS: frozenset[Termination] = frozenset(
    {Termination.RESIGNATION, Termination.AGREED_DRAW, Termination.TIMEOUT, Termination.FORFEIT, Termination.ABORTED}
)
"""Endings decided outside the board: a replay of the actions cannot reproduce them, so they are stored."""

S = TypeVar("S", bound=State)


def outside_ending(outcome: Outcome | None) -> dict[str, JSON] | None:
    """The "ended_by" entry for a state's outcome, or None when the actions themselves end the game."""
    if outcome is None or outcome.termination not in OUTSIDE_ENDINGS:
        return None
    return outcome.to_json()


def replay_actions(state: S, data: Mapping[str, JSON]) -> S:
    """Apply `data`'s "actions" (then its "ended_by") to `state`, in place; returns it.

    >>> from fogofwar.core.registry import make_game
    >>> game = make_game("stratego", variant="barrage")
    >>> replay_actions(game.new_initial_state(), {"actions": [1]})
    Traceback (most recent call last):
    ...
    fogofwar.core.protocol.RecordError: action 1 (1) is illegal: ...
    """
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError('"actions" must be a list of action ids')
    for i, action in enumerate(actions):
        if isinstance(action, bool) or not isinstance(action, int):
            raise RecordError(f"action {i + 1} is not an integer: {action!r}")
        try:
            state.apply(action)
        except GameError as exc:
            raise RecordError(f"action {i + 1} ({action}) is illegal: {exc}") from exc
    ended = data.get("ended_by")
    if ended is not None:
        if not isinstance(ended, Mapping):
            raise RecordError('"ended_by" must be an object with termination, winner and reason')
        outcome = Outcome.from_json(dict(ended))
        if outcome.termination not in OUTSIDE_ENDINGS:
            raise RecordError(f'"ended_by" must be an ending from outside the board, not {outcome.termination.value}')
        if state.is_terminal():
            raise RecordError('"ended_by" ends a game that the rules had already ended')
        state.end_by(outcome.termination, outcome.winner, outcome.reason)
    return state


def start_of(game: Game, data: Mapping[str, JSON]) -> State:
    """The state before the first action of a state's JSON: its options and start position, without its
    actions and its outside ending (what a replay steps forward from)."""
    base = {k: v for k, v in data.items() if k != "ended_by"}
    base["actions"] = []
    return game.state_from_json(base)
