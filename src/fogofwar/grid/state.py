"""The bookkeeping that the two-player games on the square grid (Stratego, LOTR) keep the same way.

A state keeps whose turn it is, the actions played, the phase, the moves played, the outcome,
a public event per action (None for actions nobody else sees, such as placing a piece) and, for a
crafted position, its start; the protocol's plain accessors over those, the state's JSON and the
ending from outside the board live here once, and each game keeps its rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from fogofwar.core import inputs
from fogofwar.core.protocol import (
    JSON,
    TERMINAL,
    Game,
    GameError,
    IllegalActionError,
    Outcome,
    RecordError,
    State,
    Termination,
)
from fogofwar.core.state_json import outside_ending
from fogofwar.grid.board import NUM_SQUARES, square_name

E = TypeVar("E")
S = TypeVar("S", bound=State)


Piece = tuple[int, int, int, bool, bool]
"""A piece of a crafted start: (square, owner, kind, moved, revealed); the kind is the game's (rank, character)."""


class GridStateBase(Generic[E]):
    """Protocol accessors over `_player`, `_history`, `_phase`, `_moves`, `_outcome` and `_events`; the
    state's JSON from `_game`'s options, the `_start` position and the actions."""

    game_name: ClassVar[str]
    """The registry's name of the game (the "game" of the state's JSON)."""
    seat_names: ClassVar[tuple[str, str]]
    """The seats in the game's words (red/blue, evil/good)."""

    _start: list[Piece] | None
    _start_to_move: int
    _board: list[int]  # by square: 0 empty, else the game's piece code
    _mobile: tuple[set[int], set[int]]  # by seat: the squares of its pieces that may move
    _captured: tuple[list[int], list[int]]  # by seat: the kinds it lost, in order
    _undo: list[tuple[Any, ...]]
    _legal: list[int] | None  # the legal actions, computed once per position
    _player: int
    _history: list[int]
    _phase: str
    _moves: int
    _outcome: Outcome | None
    _events: list[E | None]

    def _new_bookkeeping(self, to_move: int) -> None:
        """A state before anything happened: an empty board, no action, event, capture or outcome, no start."""
        self._board = [0] * NUM_SQUARES
        self._mobile = (set(), set())
        self._captured = ([], [])
        self._moves = 0
        self._outcome = None
        self._history = []
        self._events = []
        self._undo = []
        self._legal = None
        self._start = None
        self._start_to_move = to_move

    @property
    def game(self) -> Game:
        raise NotImplementedError  # each game's state names its game

    @property
    def phase(self) -> str:
        """'setup' while pieces are being placed, then 'play' (also once the game is over)."""
        return self._phase

    @property
    def history(self) -> Sequence[int]:
        return self._history

    @property
    def move_count(self) -> int:
        """Turns played since the setup (both players' turns count)."""
        return self._moves

    def current_player(self) -> int:
        return TERMINAL if self._outcome is not None else self._player

    def is_terminal(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        return self._outcome

    def returns(self) -> list[float]:
        return self._outcome.returns(2) if self._outcome is not None else [0.0, 0.0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []  # no dice in these games

    def end_by(self, termination: Termination, winner: int | None, reason: str = "") -> None:
        """End the game for a reason outside the board (resignation, agreed draw, clock, forfeit), after
        checking the arguments (`inputs.outside_ending`)."""
        termination, winner, reason = inputs.outside_ending(termination, winner, reason, self.seat_names)
        if self._outcome is not None:
            raise IllegalActionError(f"the game is over ({self._outcome.reason})")
        self._outcome = Outcome(termination, winner, reason or termination.value.replace("_", " "))

    def piece_key(self, owner: int, kind: int) -> str:
        """How the state's JSON names a piece's kind (a rank, a character)."""
        raise NotImplementedError

    def to_json(self) -> dict[str, JSON]:
        """The whole state as options + start position + actions: replaying rebuilds it exactly."""
        data: dict[str, JSON] = {"game": self.game_name, "options": self.game.options, "actions": list(self._history)}
        if self._start is not None:
            data["start"] = {
                "to_move": self._start_to_move,
                "pieces": [[square_name(sq), o, self.piece_key(o, k), m, v] for sq, o, k, m, v in self._start],
            }
        ended = outside_ending(self._outcome)
        if ended is not None:
            data["ended_by"] = ended
        return data

    def last_event(self) -> E | None:
        """The last move everybody saw, or None."""
        for ev in reversed(self._events):
            if ev is not None:
                return ev
        return None

    def _recent_events(self, n: int) -> list[E]:
        """The last `n` public moves in a row (stopping at the setup), oldest first."""
        out: list[E] = []
        for ev in reversed(self._events):
            if ev is None or len(out) == n:
                break
            out.append(ev)
        return out[::-1]

    def public_history(self) -> list[E]:
        """Every move as both players saw it when it was played: the perfect-recall public information."""
        return [ev for ev in self._events if ev is not None]


def state_from_json(
    data: Mapping[str, JSON],
    game_name: str,
    title: str,
    option_names: Sequence[str],
    make_game: Callable[..., Any],
    start_state: Callable[[Any, Sequence[object], Any], S],
) -> S:
    """A grid game's state from its JSON (`GridStateBase.to_json`): its options checked and the game built
    (`make_game(**options)`), the crafted start if any (`start_state(game, pieces, to_move)`), then the actions
    and the outside ending replayed. Every fault is a `RecordError` that says what is wrong.

    `data` is any JSON value until checked: a record file is read from anywhere."""
    inputs.state_json(data, game_name, f"a {title} state", "start")
    options = inputs.state_options(data, option_names, title)
    try:
        game = make_game(**options)
    except GameError as exc:
        raise RecordError(f"bad {title} options: {exc}") from exc
    start = data.get("start")
    state: S
    if start is None:
        state = game.new_initial_state()
    else:
        try:
            start = inputs.json_object(start, '"start"', ("to_move", "pieces"), required=("pieces",))
            state = start_state(game, inputs.json_list(start["pieces"], '"pieces"'), start.get("to_move", 0))
        except GameError as exc:
            raise RecordError(f"bad start position: {exc}") from exc
    return inputs.replay(state, data, title)
