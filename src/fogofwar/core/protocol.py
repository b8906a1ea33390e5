"""The game-agnostic protocol every fogofwar game implements.

Modelled on OpenSpiel's State API: a state knows whose turn it is (a seat number,
the chance player for dice, or nobody once the game is over), lists its legal
actions as stable integer ids, applies one, and can be undone, cloned, serialized
and observed from each seat. Everything else (agents, the match runner, records,
the CLI, the server) talks to games only through this module.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

CHANCE = -1
"""`current_player()` of a state where a chance event (a die roll) happens next."""
TERMINAL = -4
"""`current_player()` of a finished game."""

JSON = Any
"""A value made of dicts, lists, str, int, float, bool and None."""


class GameError(Exception):
    """Base class of every error a game raises about what it was asked to do."""


class IllegalActionError(GameError):
    """The action is not legal in this state; the state is left unchanged."""


class InvalidSetupError(GameError):
    """A setup (initial placement) breaks the rules; nothing was placed."""


class NotationError(GameError):
    """A string (move, square, setup, record) cannot be read; the message says why."""


class RecordError(GameError):
    """A stored game or state cannot be read back; the message says what is wrong."""


class InvalidArgumentError(GameError, ValueError):
    """An argument no game could accept: a seat that does not exist, a game option of the wrong type or
    one the game does not have. Nothing changed. Also a ValueError, which these calls used to raise."""


class Termination(enum.Enum):
    """Why a game ended."""

    FLAG_CAPTURED = "flag_captured"
    NO_MOVES = "no_moves"
    NO_MOVES_EITHER = "no_moves_either"
    MOVE_LIMIT = "move_limit"
    FLEET_DESTROYED = "fleet_destroyed"
    RESIGNATION = "resignation"
    AGREED_DRAW = "agreed_draw"
    TIMEOUT = "timeout"
    FORFEIT = "forfeit"
    ABORTED = "aborted"  # called off in its first moves: nobody won, nobody drew


@dataclass(frozen=True)
class Outcome:
    """The end of a game: why, and who won (None for a draw)."""

    termination: Termination
    winner: int | None
    reason: str = ""

    def returns(self, num_players: int = 2) -> list[float]:
        """+1 for the winner, -1 for the others; all zero on a draw."""
        if self.winner is None:
            return [0.0] * num_players
        return [1.0 if p == self.winner else -1.0 for p in range(num_players)]

    def to_json(self) -> dict[str, JSON]:
        return {"termination": self.termination.value, "winner": self.winner, "reason": self.reason}

    @classmethod
    def from_json(cls, data: dict[str, JSON]) -> Outcome:
        try:
            return cls(Termination(data["termination"]), data.get("winner"), data.get("reason", ""))
        except (KeyError, ValueError, TypeError) as exc:
            raise RecordError(f"bad outcome {data!r}: {exc}") from exc


class Observation:
    """What one seat may know of a state, as plain JSON-able data plus a text drawing.

    The drawing is made from the data on first use (`text=` a function of the data, or a string):
    agents and the server read only the data, so most observations never pay for it.

    >>> obs = Observation(0, {"board": [1, 2]}, lambda data: f"{len(data['board'])} squares")
    >>> obs.text
    '2 squares'
    >>> obs == Observation(0, {"board": [1, 2]})
    True
    """

    __slots__ = ("player", "data", "_text")

    def __init__(
        self,
        player: int,
        data: dict[str, JSON] | None = None,
        text: str | Callable[[dict[str, JSON]], str] = "",
    ) -> None:
        self.player = player
        self.data: dict[str, JSON] = {} if data is None else data
        self._text = text

    @property
    def text(self) -> str:
        if not isinstance(self._text, str):
            self._text = self._text(self.data)
        return self._text

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Observation):
            return NotImplemented
        return self.player == other.player and self.data == other.data

    __hash__ = None  # type: ignore[assignment]  # the data is a mutable dict

    def __repr__(self) -> str:
        return f"Observation(player={self.player!r}, data={self.data!r})"


@runtime_checkable
class State(Protocol):
    """One position of one game, mutable, with undo."""

    @property
    def game(self) -> Game: ...

    def current_player(self) -> int:
        """Seat to act, `CHANCE` for a chance event, `TERMINAL` when the game is over."""
        ...

    def legal_actions(self) -> list[int]:
        """The legal action ids, sorted; empty when terminal."""
        ...

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node: (action id, probability) pairs summing to 1."""
        ...

    def apply(self, action: int) -> None:
        """Play one action id; raise `IllegalActionError` and change nothing if it is illegal."""
        ...

    def undo(self) -> None:
        """Take back the last applied action."""
        ...

    def is_terminal(self) -> bool: ...

    def outcome(self) -> Outcome | None: ...

    def returns(self) -> list[float]: ...

    def observation(self, player: int) -> Observation:
        """What `player` may know now: never anything the rules hide from that seat."""
        ...

    def action_to_string(self, action: int) -> str: ...

    def string_to_action(self, text: str) -> int:
        """Parse notation into a legal action id; `NotationError`/`IllegalActionError` says why not."""
        ...

    @property
    def history(self) -> Sequence[int]:
        """Every action id applied since the initial state, in order."""
        ...

    def clone(self) -> State: ...

    def to_json(self) -> dict[str, JSON]:
        """Serialize the full state (hidden information included: for storage, not for players)."""
        ...

    def end_by(self, termination: Termination, winner: int | None, reason: str = "") -> None:
        """End the game for a reason outside the rules of play (resignation, forfeit, clock, agreed draw)."""
        ...


@runtime_checkable
class Game(Protocol):
    """A game with fixed options: the factory of its states."""

    name: str
    num_players: int

    @property
    def options(self) -> dict[str, JSON]: ...

    def num_distinct_actions(self) -> int: ...

    def new_initial_state(self) -> State: ...

    def state_from_json(self, data: dict[str, JSON]) -> State:
        """Rebuild a state written by `State.to_json`; `RecordError` on bad data."""
        ...
