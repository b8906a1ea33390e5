"""The bookkeeping that the two-player games on the square grid (Stratego, LOTR) keep the same way.

A state keeps whose turn it is, the actions played, the phase, the moves played, the outcome,
a public event per action (None for actions nobody else sees, such as placing a piece) and, for a
crafted position, its start; the protocol's plain accessors over those, the state's JSON and the
ending from outside the board live here once, and each game keeps its rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from fogofwar.core import inputs
from fogofwar.core.protocol import (
    JSON,
    TERMINAL,
    Game,
    GameError,
    IllegalActionError,
    InvalidSetupError,
    Outcome,
    RecordError,
    State,
    Termination,
)
from fogofwar.core.state_json import OUTSIDE_ENDINGS, outside_ending
from fogofwar.grid.board import NUM_SQUARES, square_name

E = TypeVar("E")


class GridGame(Game, Protocol):
    """What a grid state needs of its game beyond the core protocol."""

    max_moves: int  # the move cap, 0 for none


G = TypeVar("G", bound=GridGame)
S = TypeVar("S", bound=State)


Piece = tuple[int, int, int, bool, bool]
"""A piece of a crafted start: (square, owner, kind, moved, revealed); the kind is the game's (rank, character)."""


class GridStateBase(Generic[E, G]):
    """Protocol accessors over `_player`, `_history`, `_phase`, `_moves`, `_outcome` and `_events`; the
    state's JSON from `_game`'s options, the `_start` position and the actions; the constructor, the turn's
    checks (an action id, the game not over, the action legal now), undo, clone's shared part, a crafted start
    put on the board. Each game keeps its rules behind the hooks: `_set_rules`, `_read_start`,
    `_generate_legal`, `_act`, `_finish_turn`, `_unplace`, `_unmove`, `_set_square`, `_piece_code`,
    `_nothing_to_place`, `_copy_parts`."""

    game_name: ClassVar[str]
    """The registry's name of the game (the "game" of the state's JSON)."""
    seat_names: ClassVar[tuple[str, str]]
    """The seats in the game's words (red/blue, evil/good)."""
    title: ClassVar[str]
    """How messages name the game ("Stratego")."""

    def __init_subclass__(cls, *, game: str, seats: tuple[str, str], title: str, **kwargs: Any) -> None:
        """A game's state class names its game, seats and title where it is declared:
        `class StrategoState(GridStateBase[...], game="stratego", seats=PLAYER_NAMES, title="Stratego")`."""
        super().__init_subclass__(**kwargs)
        cls.game_name, cls.seat_names, cls.title = game, seats, title

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
    _max_moves: int  # the move cap, 0 for none

    _game: G

    def __init__(self, game: G, start: Sequence[object] | None = None, to_move: int = 0) -> None:
        """A new game's state (the setup to come), or a crafted position: `start` is the game's pieces as its
        `_read_start` reads them, `to_move` the seat to move."""
        self._game = game
        self._max_moves = game.max_moves
        self._new_bookkeeping(to_move)
        self._set_rules(game)
        self._begin(None if start is None else self._read_start(start), to_move)

    # --- hooks: each game's rules ----------------------------------------------------------------
    def _set_rules(self, game: G) -> None:
        """The game's own parts of a new state (its limits, the pieces to place, the repetition records)."""
        raise NotImplementedError

    def _read_start(self, rows: Sequence[object]) -> list[Piece]:
        """The pieces of a crafted start, checked (`inputs.start_pieces` with the game's board and kinds)."""
        raise NotImplementedError

    def _generate_legal(self) -> list[int]:
        """The legal actions now, sorted (the game is not over)."""
        raise NotImplementedError

    def _act(self, action: int) -> None:
        """Play a legal action."""
        raise NotImplementedError

    def _finish_turn(self, mover: int) -> None:
        """After `mover`'s turn: the next side's legal actions and the endings they decide."""
        raise NotImplementedError

    def _set_square(self, sq: int, code: int) -> None:
        """Put the piece `code` on the empty square `sq`, with whatever the game keeps of it."""
        raise NotImplementedError

    @staticmethod
    def _piece_code(owner: int, kind: int, moved: bool, revealed: bool, /) -> int:
        raise NotImplementedError

    def _nothing_to_place(self) -> None:
        """Both sides have nothing more to place (a crafted start is already set up)."""
        raise NotImplementedError

    def _copy_parts(self, other: Any) -> None:
        """Give the clone `other` copies of the game's own mutable parts (the shared ones are copied)."""

    # --- the shared part of a state's life -------------------------------------------------------
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

    def _begin(self, start: Sequence[Piece] | None, to_move: object) -> None:
        """The setup phase with red to place first, or (a crafted start, already read) those pieces on the
        board and the play phase with `to_move` to move."""
        if start is None:
            self._phase = "setup"
            self._player = 0
            return
        self._start = list(start)
        for sq, owner, kind, moved, revealed in self._start:
            if self._board[sq]:
                raise InvalidSetupError(f"two pieces on {square_name(sq)}")
            self._set_square(sq, self._piece_code(owner, kind, moved, revealed))
        self._nothing_to_place()
        self._phase = "play"
        self._player = self._start_to_move = inputs.seat(to_move, self.seat_names, "to_move", InvalidSetupError)
        self._finish_turn(1 - self._player)

    @property
    def game(self) -> G:
        return self._game

    def legal_actions(self) -> list[int]:
        if self._outcome is not None:
            return []
        if self._legal is None:
            self._legal = self._generate_legal()
        return self._legal

    def apply(self, action: int) -> None:
        if type(action) is not int:
            action = inputs.action_id(action, self.title)
        if self._outcome is not None:
            raise IllegalActionError(f"the game is over ({self._outcome.reason})")
        if action not in self.legal_actions():
            raise IllegalActionError(self.explain_illegal(action))
        self._act(action)

    def explain_illegal(self, action: object) -> str:
        raise NotImplementedError

    def _illegal_at_once(self, action: object, num_actions: int, space: str) -> int | str:
        """What `explain_illegal` says before the game's own reasons: the game is over, no action id (of
        `space`, the game's words for its actions), or nothing to say (legal). Else the action, to explain."""
        if self._outcome is not None:
            return f"the game is over ({self._outcome.reason})"
        number = inputs.whole_number(action)
        if number is None:
            return inputs.not_an_action_id(action, self.title)
        if not 0 <= number < num_actions:
            return f"{inputs.show(number)} is not an action id of {space}"
        if number in self.legal_actions():
            return ""
        return number

    def undo(self) -> None:
        """Take back the last action (a resignation or other outside ending first, on its own)."""
        rec = self._undo_record()
        if rec is None:
            return
        if rec[0] == "place":  # ("place", square, what the game restores, seat, phase, legal actions)
            _, sq, placed, player, phase, legal = rec
            self._unplace(sq, placed, player)
            self._player, self._phase, self._legal, self._outcome = player, phase, legal, None
            return
        self._unmove(rec)

    def _unplace(self, sq: int, placed: Any, player: int) -> None:
        """Take a placement back: the square emptied, `player`'s pieces to place as `placed` says."""
        raise NotImplementedError

    def _unmove(self, rec: tuple[Any, ...]) -> None:
        """Take a move (or power) back from its undo record."""
        raise NotImplementedError

    def _undo_record(self) -> tuple[Any, ...] | None:
        """The undo record of the last action, taken off with its action and event; None when what is
        undone is an ending from outside the board (a resignation is taken back before any move)."""
        if self._outcome is not None and self._outcome.termination in OUTSIDE_ENDINGS:
            self._outcome = None
            return None
        if not self._undo:
            raise IllegalActionError("nothing to undo")
        rec = self._undo.pop()
        self._history.pop()
        self._events.pop()
        return rec

    def clone(self) -> Self:
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._board = self._board.copy()
        other._mobile = (self._mobile[0].copy(), self._mobile[1].copy())
        other._captured = (self._captured[0].copy(), self._captured[1].copy())
        other._history = self._history.copy()
        other._events = self._events.copy()
        other._undo = self._undo.copy()
        other._legal = None if self._legal is None else self._legal.copy()
        self._copy_parts(other)
        return other

    def _move_cap(self) -> Outcome | None:
        """The draw by the move cap when this turn reached it (STR-END-4, LOTR-END-3), else None."""
        if self._max_moves and self._moves >= self._max_moves:
            return Outcome(Termination.MOVE_LIMIT, None, f"the move cap of {self._max_moves} was reached")
        return None

    def _placement_ids(self, base: int, kinds: Iterable[int], squares: Iterable[int]) -> list[int]:
        """Placing any of `kinds` on any empty one of `squares`: the setup's action ids (`base` + kind * 100 +
        square), sorted."""
        board = self._board
        free = [sq for sq in squares if not board[sq]]
        out = [base + kind * 100 + sq for kind in kinds for sq in free]
        out.sort()
        return out

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
