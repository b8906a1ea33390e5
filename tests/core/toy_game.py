"""A toy game written the way docs/architecture.md says a game is added: hidden Nim.

A die (the chance player) makes a pile of 3 to 5 stones that only the first seat sees; then the seats take
one or two stones in turn, and a seat left with no stone to take loses (Termination.NO_MOVES). The second
seat sees only how many stones were taken, until the end. It is small, but it has what the real games have:
a chance node, hidden information, notation, undo, serialization and records, all through the core protocol,
so the shared conformance test can run on it (tests/core/test_toy_game.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import Field

from fogofwar.core.inputs import state_json
from fogofwar.core.params import GameParams, checked_by
from fogofwar.core.protocol import (
    CHANCE,
    JSON,
    TERMINAL,
    IllegalActionError,
    NotationError,
    Observation,
    Outcome,
    Termination,
)
from fogofwar.core.state_json import outside_ending, replay_actions

NAME = "hidden-nim"
TAKE = {0: 1, 1: 2}  # action id -> stones taken
PILES = {2: 3, 3: 4, 4: 5}  # chance action id -> pile size
NUM_ACTIONS = 5


class HiddenNimParams(GameParams):
    """The toy's one option, declared once: the registry and the game check it through this model."""

    title = "hidden Nim"
    first_sees_pile: bool = Field(True, description="the first seat sees the pile the die made")


class HiddenNimGame:
    """The game with its options (none that change the rules: `max_take` is fixed at two)."""

    name = NAME
    num_players = 2

    @checked_by(HiddenNimParams)
    def __init__(self, first_sees_pile: bool = True) -> None:
        self.first_sees_pile = first_sees_pile

    @property
    def options(self) -> dict[str, JSON]:
        return {"first_sees_pile": self.first_sees_pile}

    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def new_initial_state(self) -> HiddenNimState:
        return HiddenNimState(self)

    def state_from_json(self, data: dict[str, JSON]) -> HiddenNimState:
        state_json(data, NAME, "a hidden-Nim state", "start")
        return replay_actions(HiddenNimState(self), data)


class HiddenNimState:
    def __init__(self, game: HiddenNimGame) -> None:
        self._game = game
        self._history: list[int] = []
        self._pile: int | None = None
        self._taken = 0
        self._ended: Outcome | None = None  # an ending from outside the rules (end_by)

    @property
    def game(self) -> HiddenNimGame:
        return self._game

    def _left(self) -> int:
        return 0 if self._pile is None else self._pile - self._taken

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        if self._pile is None:
            return CHANCE
        return (len(self._history) - 1) % 2

    def legal_actions(self) -> list[int]:
        if self.current_player() < 0:
            return []
        return [a for a, n in TAKE.items() if n <= self._left()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(a, 1 / len(PILES)) for a in PILES] if self.current_player() == CHANCE else []

    def apply(self, action: int) -> None:
        playable = [a for a, _ in self.chance_outcomes()] if self.current_player() == CHANCE else self.legal_actions()
        if action not in playable:
            raise IllegalActionError(f"action {action!r} is not legal now (legal: {playable})")
        if action in PILES:
            self._pile = PILES[action]
        else:
            self._taken += TAKE[action]
        self._history.append(action)

    def undo(self) -> None:
        action = self._history.pop()
        if action in PILES:
            self._pile = None
        else:
            self._taken -= TAKE[action]
        self._ended = None

    def is_terminal(self) -> bool:
        return self._ended is not None or (self._pile is not None and self._left() == 0)

    def outcome(self) -> Outcome | None:
        if self._ended is not None:
            return self._ended
        if self._pile is None or self._left() > 0:
            return None
        loser = (len(self._history) - 1) % 2  # to move, with nothing to take
        return Outcome(Termination.NO_MOVES, 1 - loser, "the pile is empty")

    def returns(self) -> list[float]:
        outcome = self.outcome()
        return [0.0, 0.0] if outcome is None else outcome.returns(2)

    def observation(self, player: int) -> Observation:
        sees_pile = self.is_terminal() or (player == 0 and self._game.first_sees_pile)
        data: dict[str, Any] = {"pile": self._pile if sees_pile else None, "taken": self._taken}
        return Observation(player, data, lambda d: f"{d['taken']} taken of {d['pile'] or '?'}")

    def action_to_string(self, action: int) -> str:
        if action in PILES:
            return f"pile{PILES[action]}"
        if action in TAKE:
            return f"take{TAKE[action]}"
        raise IllegalActionError(f"no action {action!r} in hidden Nim")

    def string_to_action(self, text: str) -> int:
        for action in (*TAKE, *PILES):
            if self.action_to_string(action) == text.strip():
                if action not in self.legal_actions():
                    raise IllegalActionError(f"{text!r} is not legal now")
                return action
        raise NotationError(f"{text!r} is no hidden-Nim move: take1 or take2")

    @property
    def history(self) -> Sequence[int]:
        return tuple(self._history)

    def clone(self) -> HiddenNimState:
        other = HiddenNimState(self._game)
        other._history, other._pile, other._taken, other._ended = (
            list(self._history),
            self._pile,
            self._taken,
            self._ended,
        )
        return other

    def to_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {"game": NAME, "options": self._game.options, "actions": list(self._history)}
        ended = outside_ending(self._ended)
        if ended is not None:
            data["ended_by"] = ended
        return data

    def end_by(self, termination: Termination, winner: int | None, reason: str = "") -> None:
        if self.is_terminal():
            raise IllegalActionError("the game is over")
        self._ended = Outcome(termination, winner, reason)


EXAMPLES: dict[str, dict[str, JSON]] = {"open": {}, "blind": {"first_sees_pile": False}}
