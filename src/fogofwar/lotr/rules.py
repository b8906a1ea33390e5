"""Stratego, The Lord of the Rings Trilogy edition: the rules engine, as a mutable state with undo.

Rule ids (LOTR-...) refer to docs/rules/lotr.md. Only Game 1 (Classic) is implemented; asking for
Game 2 (Special Powers) or Game 3 (Destroy the Ring) raises `NotImplementedYetError` rather than
playing something else under their name.

Seats: 0 = Forces of Evil (grey, home rows 1-4, first to move: LOTR-PLAY-1),
1 = Forces of Good (beige, home rows 7-10).

The state follows the classic engine (`fogofwar.stratego.rules`): the board is a list of 100
ints, one piece code per square, `kind | owner << 5 | moved | revealed | present`, where `kind`
is the character's index in its army's roster (several characters share a rank, and Game 2
tells them apart). Each side keeps the squares of its movable pieces; legal moves are generated
once per turn and cached; every applied action pushes an undo record.

Action ids are stable: a move or attack is `from * 100 + to` (0..9999), as in the classic
engine; placing a piece of kind k during the setup is `10000 + k * 100 + square`. Ids from
`NUM_ACTIONS` up are left for the special powers of Games 2 and 3.

>>> game = LotrGame()
>>> state = game.new_initial_state()
>>> state.current_player(), state.phase, len(state.legal_actions())
(0, 'setup', 480)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fogofwar.core.protocol import (
    JSON,
    TERMINAL,
    GameError,
    IllegalActionError,
    InvalidSetupError,
    NotationError,
    Observation,
    Outcome,
    RecordError,
    Termination,
)
from fogofwar.lotr.roster import (
    FLAG,
    FORTRESS,
    KNIGHT,
    MINER,
    SIDE_NAMES,
    SPY,
    TOP,
    Army,
    BoardMap,
    Roster,
    rank_label,
    rank_symbol,
    roster,
)
from fogofwar.stratego.board import FILES, NUM_SQUARES, SIZE, parse_square, square_name
from fogofwar.stratego.rules import parse_action

# --- piece codes --------------------------------------------------------------------------
KIND_MASK = 31
OWNER_SHIFT = 5
OWNER_BIT = 1 << OWNER_SHIFT
SLOT_MASK = KIND_MASK | OWNER_BIT  # owner and kind: indexes the rank table
MOVED_BIT = 64
REVEALED_BIT = 128
PRESENT_BIT = 256

PLACE_BASE = 10000
NUM_ACTIONS = PLACE_BASE + 32 * 100
"""Moves 0..9999 and placements 10000..13199; Games 2 and 3 will add power actions above."""

GAME_MODES = ("classic", "powers", "ring")
GAME_TITLES = {"classic": "Game 1, Classic", "powers": "Game 2, Special Powers", "ring": "Game 3, Destroy the Ring"}
IMPLEMENTED_MODES = ("classic",)
CAPTURED_MODES = ("free", "prisoner", "secret", "hidden")
"""LOTR-CAPT-2..5: who sees the ranks of captured pieces (see `captured_visible`)."""

DEFAULT_BACK_AND_FORTH = 3
"""LOTR-MOVE-5: a piece may not move between the same two squares on three consecutive turns."""


class NotImplementedYetError(GameError, NotImplementedError):
    """A part of the rulebook the engine does not play yet; refused rather than played wrongly."""


def piece_code(owner: int, kind: int, moved: bool = False, revealed: bool = False) -> int:
    return PRESENT_BIT | (owner << OWNER_SHIFT) | kind | (MOVED_BIT if moved else 0) | (REVEALED_BIT if revealed else 0)


def battle(attacker: int, defender: int) -> tuple[bool, bool]:
    """Which of (attacker, defender) survive a Game 1 battle between these ranks (LOTR-ATK-3, -SPY-*, -FORT-*).

    >>> battle(SPY, TOP), battle(TOP, SPY), battle(SPY, 9), battle(SPY, FLAG)
    ((True, False), (True, False), (False, True), (True, False))
    >>> battle(MINER, FORTRESS), battle(TOP, FORTRESS), battle(7, 7), battle(KNIGHT, SPY)
    ((True, False), (False, True), (False, False), (True, False))
    """
    if defender == FLAG:
        return True, False  # LOTR-END-1 (the spy too: LOTR-SPY-2)
    if defender == FORTRESS:
        return (True, False) if attacker == MINER else (False, True)  # LOTR-FORT-1, LOTR-MINER-1
    if attacker == SPY and defender == TOP:
        return True, False  # LOTR-SPY-2
    if attacker == defender:
        return False, False  # LOTR-ATK-3 (spy against spy too)
    return (True, False) if attacker > defender else (False, True)


def captured_visible(mode: str, viewer: int, owner: int) -> bool:
    """Whether `viewer` may see which pieces of `owner` were captured (LOTR-CAPT-2..5).

    Free: everybody. Prisoner: the captor (always the owner's opponent) keeps them.
    Secret: the owner keeps them. Hidden: face down, nobody.

    >>> [captured_visible(m, 0, 1) for m in CAPTURED_MODES], [captured_visible(m, 0, 0) for m in CAPTURED_MODES]
    ([True, True, False, False], [True, False, True, False])
    """
    if mode == "free":
        return True
    if mode == "prisoner":
        return viewer != owner
    if mode == "secret":
        return viewer == owner
    return False


def _tables(board: BoardMap) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[tuple[int, ...], ...], ...]]:
    """Orthogonal neighbours off the Forbidden Zones, and per direction the straight line to the
    edge or a zone (for the Knights: LOTR-KNIGHT-1)."""
    blocked = board.forbidden
    neighbours: list[tuple[int, ...]] = []
    rays: list[tuple[tuple[int, ...], ...]] = []
    for sq in range(NUM_SQUARES):
        r, c = divmod(sq, SIZE)
        near: list[int] = []
        sq_rays: list[tuple[int, ...]] = []
        for dr, dc in ((1, 0), (-1, 0), (0, -1), (0, 1)):
            ray: list[int] = []
            rr, cc = r + dr, c + dc
            while 0 <= rr < SIZE and 0 <= cc < SIZE and rr * SIZE + cc not in blocked:
                ray.append(rr * SIZE + cc)
                rr, cc = rr + dr, cc + dc
            if ray:
                near.append(ray[0])
                sq_rays.append(tuple(ray))
        neighbours.append(tuple(near))
        rays.append(tuple(sq_rays))
    return tuple(neighbours), tuple(rays)


@dataclass(frozen=True)
class MoveEvent:
    """What both players saw of one move: the squares, and the pieces a battle or a Knight's run showed."""

    player: int
    src: int
    dst: int
    attacker: str | None  # kind key, shown by a battle or a Knight's long move (LOTR-KNIGHT-2)
    attacker_rank: int | None
    defender: str | None  # kind key, shown by a battle (LOTR-ATK-3)
    defender_rank: int | None
    attacker_survived: bool
    defender_survived: bool

    @property
    def is_battle(self) -> bool:
        return self.defender is not None

    def to_json(self) -> dict[str, JSON]:
        d: dict[str, JSON] = {
            "player": self.player,
            "side": SIDE_NAMES[self.player],
            "from": square_name(self.src),
            "to": square_name(self.dst),
        }
        if self.attacker is not None and self.attacker_rank is not None:
            d["attacker"] = self.attacker
            d["attacker_rank"] = rank_label(self.attacker_rank)
        if self.defender is not None and self.defender_rank is not None:
            d["defender"] = self.defender
            d["defender_rank"] = rank_label(self.defender_rank)
            d["result"] = (
                "attacker_won"
                if self.attacker_survived
                else ("defender_won" if self.defender_survived else "both_lost")
            )
        return d


NO_STREAK = (-1, -1, -1, 0)
"""Back-and-forth streak of one player: (square of the piece, one square, the other, moves in a row)."""


class LotrGame:
    """Stratego LOTR with fixed options: which game, how captured pieces are kept, the limits."""

    name = "lotr"
    num_players = 2

    def __init__(
        self,
        game: str = "classic",
        captured_mode: str = "free",
        back_and_forth: int = DEFAULT_BACK_AND_FORTH,
        max_moves: int = 0,
    ) -> None:
        if game not in GAME_MODES:
            raise GameError(f"unknown Stratego LOTR game {game!r}; the rulebook has {', '.join(GAME_MODES)}")
        if game not in IMPLEMENTED_MODES:
            raise NotImplementedYetError(
                f"Stratego LOTR {GAME_TITLES[game]} ({game!r}) is not implemented yet; "
                f"implemented: {', '.join(IMPLEMENTED_MODES)}"
            )
        if captured_mode not in CAPTURED_MODES:
            raise ValueError(f"captured_mode must be one of {', '.join(CAPTURED_MODES)}, not {captured_mode!r}")
        bad_limit = not isinstance(back_and_forth, int) or isinstance(back_and_forth, bool)
        if bad_limit or back_and_forth < 0 or back_and_forth == 1:
            raise ValueError("back_and_forth must be 0 (rule off) or a whole number >= 2")
        if not isinstance(max_moves, int) or isinstance(max_moves, bool) or max_moves < 0:
            raise ValueError("max_moves must be a whole number >= 0 (0 means no cap)")
        self.mode = game
        self.captured_mode = captured_mode
        self.back_and_forth = back_and_forth
        self.max_moves = max_moves
        self.roster: Roster = roster()
        self.board: BoardMap = self.roster.board
        self.forbidden: frozenset[int] = self.board.forbidden
        self.neighbours, self.rays = _tables(self.board)
        armies = self.roster.armies
        self.rank_of: tuple[int, ...] = tuple(
            armies[slot >> OWNER_SHIFT].kinds[slot & KIND_MASK].rank
            if (slot & KIND_MASK) < len(armies[slot >> OWNER_SHIFT].kinds)
            else -1
            for slot in range(2 * 32)
        )
        """Rank of each slot (owner << 5 | kind), -1 for unused kind numbers."""

    @property
    def options(self) -> dict[str, JSON]:
        return {
            "game": self.mode,
            "captured_mode": self.captured_mode,
            "back_and_forth": self.back_and_forth,
            "max_moves": self.max_moves,
        }

    def __repr__(self) -> str:
        return f"LotrGame({', '.join(f'{k}={v!r}' for k, v in self.options.items())})"

    def army(self, seat: int) -> Army:
        return self.roster.army(seat)

    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def new_initial_state(self) -> LotrState:
        return LotrState(self)

    def state_from_position(
        self,
        pieces: Iterable[tuple[Any, ...]] | Mapping[Any, tuple[Any, ...]],
        to_move: int = 0,
    ) -> LotrState:
        """A play-phase state with the given pieces, for crafted positions (tests, puzzles).

        Pieces are (square, owner, piece[, moved, revealed]) tuples or {square: (owner, piece[, ...])}; a
        square is an int or a name like 'B2'; a piece is a character key ('gandalf'), a rank label
        ('spy', 'fortress', 'flag') or a rank number (the army's first character of that rank).
        No setup validation beyond the board itself.
        """
        rows: list[tuple[Any, ...]] = (
            [(sq, *v) for sq, v in pieces.items()] if isinstance(pieces, Mapping) else list(pieces)
        )
        start: list[tuple[int, int, int, bool, bool]] = []
        for row in rows:
            sq, owner, piece = row[0], row[1], row[2]
            moved = bool(row[3]) if len(row) > 3 else False
            revealed = bool(row[4]) if len(row) > 4 else False
            if owner not in (0, 1):
                raise InvalidSetupError(f"owner must be 0 (evil) or 1 (good), not {owner!r}")
            start.append((_square(sq), owner, self.kind_of(owner, piece), moved, revealed))
        return LotrState(self, start=start, to_move=to_move)

    def kind_of(self, owner: int, piece: int | str) -> int:
        """The kind index of a piece given by key, rank label or rank number (first character of that rank)."""
        army = self.army(owner)
        if isinstance(piece, str):
            for i, k in enumerate(army.kinds):
                if k.key == piece:
                    return i
            for i, k in enumerate(army.kinds):
                if rank_label(k.rank) == piece:
                    return i
        elif isinstance(piece, int):
            for i, k in enumerate(army.kinds):
                if k.rank == piece:
                    return i
        raise InvalidSetupError(f"{piece!r} is not a piece of the {army.side} army")

    def state_from_json(self, data: dict[str, JSON]) -> LotrState:
        return LotrState.from_json(data)


def _square(sq: int | str) -> int:
    if isinstance(sq, str):
        return parse_square(sq)
    return int(sq)


class LotrState:
    """One Stratego LOTR position; see the module docstring for the encoding."""

    def __init__(
        self,
        game: LotrGame,
        start: Sequence[tuple[int, int, int, bool, bool]] | None = None,
        to_move: int = 0,
    ) -> None:
        self._game = game
        self._rank = game.rank_of
        self._limit = game.back_and_forth
        self._max_moves = game.max_moves
        self._board: list[int] = [0] * NUM_SQUARES
        self._mobile: tuple[set[int], set[int]] = (set(), set())
        self._to_place: list[list[int]] = [[k.count for k in game.army(p).kinds] for p in (0, 1)]
        self._captured: tuple[list[int], list[int]] = ([], [])
        self._streak: list[tuple[int, int, int, int]] = [NO_STREAK, NO_STREAK]
        self._moves = 0
        self._outcome: Outcome | None = None
        self._history: list[int] = []
        self._events: list[MoveEvent | None] = []
        self._undo: list[tuple[Any, ...]] = []
        self._legal: list[int] | None = None
        self._start: list[tuple[int, int, int, bool, bool]] | None = None
        self._start_to_move = to_move
        if start is None:
            self._phase = "setup"
            self._player = 0
            return
        self._start = [(int(sq), int(o), int(k), bool(m), bool(v)) for sq, o, k, m, v in start]
        for sq, owner, kind, moved, revealed in self._start:
            if not 0 <= sq < NUM_SQUARES or sq in game.forbidden:
                raise InvalidSetupError(f"square {sq} is not a square off the Forbidden Zones")
            if owner not in (0, 1) or not 0 <= kind < len(game.army(owner).kinds):
                raise InvalidSetupError(f"bad piece owner {owner} / kind {kind} on {square_name(sq)}")
            if self._board[sq]:
                raise InvalidSetupError(f"two pieces on {square_name(sq)}")
            self._put(sq, piece_code(owner, kind, moved, revealed))
        self._to_place = [[0] * len(game.army(p).kinds) for p in (0, 1)]
        self._phase = "play"
        if to_move not in (0, 1):
            raise InvalidSetupError("to_move must be 0 (evil) or 1 (good)")
        self._player = to_move
        self._finish_turn(mover=1 - to_move)

    # --- the core protocol -------------------------------------------------------------------
    @property
    def game(self) -> LotrGame:
        return self._game

    @property
    def phase(self) -> str:
        """'setup' while pieces are being placed, then 'play' (also once the game is over)."""
        return self._phase

    @property
    def history(self) -> Sequence[int]:
        return self._history

    @property
    def move_count(self) -> int:
        """Moves played since the setup (both players' moves count)."""
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
        return []  # no dice in Stratego LOTR

    def legal_actions(self) -> list[int]:
        if self._outcome is not None:
            return []
        if self._legal is None:
            self._legal = self._placements() if self._phase == "setup" else self._gen_moves(self._player)
        return self._legal

    def apply(self, action: int) -> None:
        if self._outcome is not None:
            raise IllegalActionError(f"the game is over ({self._outcome.reason})")
        if not isinstance(action, int) or action not in self.legal_actions():
            raise IllegalActionError(self.explain_illegal(action))
        if action >= PLACE_BASE:
            self._place(action)
        else:
            self._move(action)

    def undo(self) -> None:
        if not self._undo:
            raise IllegalActionError("nothing to undo")
        rec = self._undo.pop()
        self._history.pop()
        self._events.pop()
        if rec[0] == "place":
            _, sq, kind, player, phase, legal = rec
            self._remove(sq)
            self._to_place[player][kind] += 1
            self._player, self._phase, self._legal, self._outcome = player, phase, legal, None
            return
        _, src, dst, code_src, code_dst, streak, player, outcome, n_cap, legal = rec
        self._remove(src)
        self._remove(dst)
        self._put(src, code_src)
        if code_dst:
            self._put(dst, code_dst)
        self._streak = streak
        self._player, self._outcome, self._legal = player, outcome, legal
        del self._captured[0][n_cap[0] :]
        del self._captured[1][n_cap[1] :]
        self._moves -= 1

    def clone(self) -> LotrState:
        other = LotrState.__new__(LotrState)
        other.__dict__.update(self.__dict__)
        other._board = self._board.copy()
        other._mobile = (self._mobile[0].copy(), self._mobile[1].copy())
        other._to_place = [c.copy() for c in self._to_place]
        other._captured = (self._captured[0].copy(), self._captured[1].copy())
        other._streak = self._streak.copy()
        other._history = self._history.copy()
        other._events = self._events.copy()
        other._undo = self._undo.copy()
        other._legal = None if self._legal is None else self._legal.copy()
        return other

    def end_by(self, termination: Termination, winner: int | None, reason: str = "") -> None:
        """End the game for a reason outside the board (resignation, agreed draw, clock, forfeit)."""
        if self._outcome is not None:
            raise IllegalActionError(f"the game is over ({self._outcome.reason})")
        self._outcome = Outcome(termination, winner, reason or termination.value.replace("_", " "))

    # --- notation --------------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        """'B1-B2' for a move, 'B1xB2' when it attacks, 'gandalf@B9' for placing a piece."""
        if action >= PLACE_BASE:
            kind, sq = divmod(action - PLACE_BASE, 100)
            kinds = self._game.army(self._player).kinds
            key = kinds[kind].key if kind < len(kinds) else f"kind{kind}"
            return f"{key}@{square_name(sq)}"
        src, dst = divmod(action, 100)
        a, d = self._board[src], self._board[dst]
        sep = "x" if a and d and (a ^ d) & OWNER_BIT else "-"
        return f"{square_name(src)}{sep}{square_name(dst)}"

    def string_to_action(self, text: str) -> int:
        """Read 'B1-B2' (also 'b1b2', 'B1 B2', 'B1xB2') or a placement 'gandalf@B9'; must be legal now."""
        t = text.strip()
        if "@" in t:
            key, _, sq_text = t.partition("@")
            kind = self._game.army(self._player).index(key.strip().lower())
            action = PLACE_BASE + kind * 100 + parse_square(sq_text)
        else:
            action = parse_action(t)
        if action not in self.legal_actions():
            raise IllegalActionError(self.explain_illegal(action))
        return action

    def explain_illegal(self, action: object) -> str:
        """Say in words why `action` is not legal now (empty string if it is)."""
        if self._outcome is not None:
            return f"the game is over ({self._outcome.reason})"
        if not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
            return f"{action!r} is not an action id of Stratego LOTR {GAME_TITLES[self._game.mode]}"
        if action in self.legal_actions():
            return ""
        p = self._player
        who = SIDE_NAMES[p]
        army = self._game.army(p)
        if action >= PLACE_BASE:
            kind, sq = divmod(action - PLACE_BASE, 100)
            if self._phase != "setup":
                return "the setup is over: pieces are placed only before the first move"
            if kind >= len(army.kinds):
                return f"{who} has no character number {kind}"
            if self._to_place[p][kind] == 0:
                return f"{who} has no {army.kinds[kind].name} left to place"
            if sq not in self._game.board.setup_squares(p):
                return f"{square_name(sq)} is not in {who}'s four home rows (LOTR-SETUP-1)"
            return f"{square_name(sq)} is already occupied"
        if self._phase == "setup":
            return "pieces cannot move yet: the setup is not finished"
        src, dst = divmod(action, 100)
        s, d = square_name(src), square_name(dst)
        code = self._board[src]
        if not code:
            return f"there is no piece on {s}"
        if (code >> OWNER_SHIFT) & 1 != p:
            return f"the piece on {s} is not {who}'s"
        rank = self._rank[code & SLOT_MASK]
        if rank in (FLAG, FORTRESS):
            return f"the {army.kinds[code & KIND_MASK].name} on {s} can never move (LOTR-MOVE-1)"
        if dst in self._game.forbidden:
            return f"{d} is in a Forbidden Zone (LOTR-MOVE-4)"
        sr, sc = divmod(src, SIZE)
        dr, dc = divmod(dst, SIZE)
        if (sr != dr) == (sc != dc):
            return f"{s}-{d} is not a move along a row or column (LOTR-MOVE-2)"
        dist = abs(sr - dr) + abs(sc - dc)
        if dist > 1 and rank != KNIGHT:
            return f"only the Knights (2) move more than one square (LOTR-MOVE-2); {s}-{d} is {dist} squares"
        step = (1 if dc > sc else -1) if sr == dr else (SIZE if dr > sr else -SIZE)
        sq = src + step
        while sq != dst:
            if sq in self._game.forbidden:
                return f"the path {s}-{d} crosses the Forbidden Zone at {square_name(sq)} (LOTR-KNIGHT-1)"
            if self._board[sq]:
                return f"the path {s}-{d} is blocked at {square_name(sq)} (LOTR-MOVE-3)"
            sq += step
        target = self._board[dst]
        if target and (target >> OWNER_SHIFT) & 1 == p:
            return f"{d} holds {who}'s own piece (LOTR-MOVE-3)"
        if self._breaks_back_and_forth(p, src, dst):
            return (
                f"back-and-forth rule (LOTR-MOVE-5): this piece may not move between {s} and {d} "
                f"on {self._limit} turns in a row"
            )
        return f"{s}-{d} is not legal"  # pragma: no cover - every case is named above

    # --- setup -----------------------------------------------------------------------------------
    def _placements(self) -> list[int]:
        p = self._player
        board = self._board
        squares = [sq for sq in self._game.board.setup_squares(p) if not board[sq]]
        out = [PLACE_BASE + kind * 100 + sq for kind, n in enumerate(self._to_place[p]) if n for sq in squares]
        out.sort()
        return out

    def pieces_to_place(self, player: int) -> dict[str, int]:
        """Characters (by key) that `player` has still to place, with their counts."""
        kinds = self._game.army(player).kinds
        return {kinds[i].key: n for i, n in enumerate(self._to_place[player]) if n}

    def apply_setup(self, player: int, placement: Mapping[Any, int | str]) -> None:
        """Place a whole army at once ({square: character key or kind index}); nothing changes on error."""
        if self._phase != "setup" or self._outcome is not None:
            raise InvalidSetupError("the setup phase is over")
        if player != self._player:
            raise InvalidSetupError(f"it is {SIDE_NAMES[self._player]}'s turn to set up, not {SIDE_NAMES[player]}'s")
        army = self._game.army(player)
        if self._to_place[player] != [k.count for k in army.kinds]:
            raise InvalidSetupError(f"{SIDE_NAMES[player]} has already placed some pieces one by one")
        kinds: dict[int, int] = {}
        for sq, piece in placement.items():
            try:
                kind = army.index(piece) if isinstance(piece, str) else int(piece)
                kinds[_square(sq)] = kind
            except (NotationError, ValueError, TypeError) as exc:
                raise InvalidSetupError(str(exc)) from None
        check_setup(self._game, player, kinds)
        for sq, kind in sorted(kinds.items()):
            self.apply(PLACE_BASE + kind * 100 + sq)

    def _place(self, action: int) -> None:
        kind, sq = divmod(action - PLACE_BASE, 100)
        p = self._player
        self._undo.append(("place", sq, kind, p, self._phase, self._legal))
        self._history.append(action)
        self._events.append(None)
        self._to_place[p][kind] -= 1
        self._put(sq, piece_code(p, kind))
        self._legal = None
        if not any(self._to_place[p]):
            if p == 0:
                self._player = 1  # LOTR-SETUP-2: Evil sets up first, then Good
            else:
                self._phase = "play"
                self._player = 0  # LOTR-PLAY-1: Evil moves first
                self._finish_turn(mover=1)

    # --- play ------------------------------------------------------------------------------------
    def _put(self, sq: int, code: int) -> None:
        self._board[sq] = code
        if self._rank[code & SLOT_MASK] not in (FLAG, FORTRESS):
            self._mobile[(code >> OWNER_SHIFT) & 1].add(sq)

    def _remove(self, sq: int) -> None:
        code = self._board[sq]
        if code:
            self._board[sq] = 0
            self._mobile[(code >> OWNER_SHIFT) & 1].discard(sq)

    def _gen_moves(self, p: int) -> list[int]:
        """Legal moves and attacks of player p (LOTR-MOVE-*, LOTR-KNIGHT-*, LOTR-ATK-2)."""
        board = self._board
        rank_of = self._rank
        neighbours, rays = self._game.neighbours, self._game.rays
        own = p << OWNER_SHIFT
        out: list[int] = []
        append = out.append
        for src in self._mobile[p]:
            base = src * 100
            if rank_of[board[src] & SLOT_MASK] == KNIGHT:
                for ray in rays[src]:
                    for dst in ray:
                        c = board[dst]
                        if not c:
                            append(base + dst)
                        else:
                            if c & OWNER_BIT != own:
                                append(base + dst)  # LOTR-KNIGHT-3: a run may end in an attack
                            break
            else:
                for dst in neighbours[src]:
                    c = board[dst]
                    if not c or c & OWNER_BIT != own:
                        append(base + dst)
        if self._limit and self._streak[p][3] + 1 >= self._limit:
            out = [m for m in out if not self._breaks_back_and_forth(p, m // 100, m % 100)]
        out.sort()
        return out

    def _breaks_back_and_forth(self, p: int, src: int, dst: int) -> bool:
        """LOTR-MOVE-5: the move would be this piece's `limit`-th turn in a row between the same two squares."""
        at, a, b, count = self._streak[p]
        if not self._limit or src != at or count + 1 < self._limit:
            return False
        return (min(src, dst), max(src, dst)) == (a, b)

    def _move(self, action: int) -> None:
        src, dst = divmod(action, 100)
        board = self._board
        p = self._player
        q = 1 - p
        code = board[src]
        target = board[dst]
        army_p, army_q = self._game.army(p), self._game.army(q)
        self._undo.append(
            (
                "move",
                src,
                dst,
                code,
                target,
                self._streak.copy(),
                p,
                self._outcome,
                (len(self._captured[0]), len(self._captured[1])),
                self._legal,
            )
        )
        self._history.append(action)
        rank = self._rank[code & SLOT_MASK]
        kind = code & KIND_MASK
        long_run = abs(src - dst) not in (1, SIZE)  # LOTR-KNIGHT-2: a Knight shows itself before running
        moved = code | MOVED_BIT | (REVEALED_BIT if long_run else 0)
        self._remove(src)
        attacker_alive = True
        flag_taken = False
        if not target:
            self._put(dst, moved)
            shown = army_p.kinds[kind].key if long_run else None
            self._events.append(MoveEvent(p, src, dst, shown, rank if long_run else None, None, None, True, False))
        else:
            dkind = target & KIND_MASK
            drank = self._rank[target & SLOT_MASK]
            attacker_alive, defender_alive = battle(rank, drank)
            self._events.append(
                MoveEvent(
                    p,
                    src,
                    dst,
                    army_p.kinds[kind].key,
                    rank,
                    army_q.kinds[dkind].key,
                    drank,
                    attacker_alive,
                    defender_alive,
                )
            )
            self._remove(dst)
            if not defender_alive:
                self._captured[q].append(dkind)  # LOTR-CAPT-1
                flag_taken = drank == FLAG
                if self._streak[q][0] == dst:
                    self._streak[q] = NO_STREAK
                if attacker_alive:
                    self._put(dst, moved | REVEALED_BIT)  # LOTR-ATK-4
            else:
                self._put(dst, target | REVEALED_BIT)
            if not attacker_alive:
                self._captured[p].append(kind)
        # LOTR-MOVE-5: count this piece's turns in a row between the same two squares.
        at, a, b, count = self._streak[p]
        pair = (min(src, dst), max(src, dst))
        if not attacker_alive:
            self._streak[p] = NO_STREAK
        elif src == at and pair == (a, b):
            self._streak[p] = (dst, a, b, count + 1)
        else:
            self._streak[p] = (dst, pair[0], pair[1], 1)
        self._moves += 1
        self._player = q
        self._legal = None
        if flag_taken:
            self._outcome = Outcome(
                Termination.FLAG_CAPTURED, p, f"{SIDE_NAMES[p]} captured the flag on {square_name(dst)}"
            )
            return
        self._finish_turn(mover=p)

    def _finish_turn(self, mover: int) -> None:
        """LOTR-END-2: the player who cannot move or attack on their turn loses; then the move cap (LOTR-END-3)."""
        nxt = self._player
        legal = self._gen_moves(nxt)
        self._legal = legal
        if not legal:
            self._outcome = Outcome(Termination.NO_MOVES, mover, f"{SIDE_NAMES[nxt]} cannot move or attack")
        elif self._max_moves and self._moves >= self._max_moves:
            self._outcome = Outcome(Termination.MOVE_LIMIT, None, f"the move cap of {self._max_moves} was reached")

    # --- what players see ---------------------------------------------------------------------
    def piece_at(self, sq: int | str) -> tuple[int, str, int, bool, bool] | None:
        """(owner, character key, rank, moved, revealed) on a square, or None. Full knowledge: not for players."""
        code = self._board[_square(sq)]
        if not code:
            return None
        owner = (code >> OWNER_SHIFT) & 1
        kind = self._game.army(owner).kinds[code & KIND_MASK]
        return owner, kind.key, kind.rank, bool(code & MOVED_BIT), bool(code & REVEALED_BIT)

    def captured(self, owner: int) -> list[str]:
        """Character keys of `owner`'s pieces taken off the board, in order. Full knowledge: not for players."""
        kinds = self._game.army(owner).kinds
        return [kinds[k].key for k in self._captured[owner]]

    def last_event(self) -> MoveEvent | None:
        for ev in reversed(self._events):
            if ev is not None:
                return ev
        return None

    def _recent_events(self, n: int) -> list[MoveEvent]:
        out: list[MoveEvent] = []
        for ev in reversed(self._events):
            if ev is None or len(out) == n:
                break
            out.append(ev)
        return out[::-1]

    def public_history(self) -> list[MoveEvent]:
        """Every move as both players saw it at the time it was played."""
        return [ev for ev in self._events if ev is not None]

    def observation(self, player: int) -> Observation:
        """LOTR-INFO-1..3: own pieces fully; enemy pieces unknown unless shown; captured pieces per the mode."""
        if player not in (0, 1):
            raise ValueError("player must be 0 (evil) or 1 (good)")
        game = self._game
        board = self._board
        hide_enemy = self._phase == "setup"  # setups are secret: nothing of the other side shows
        cells: list[JSON] = []
        for sq in range(NUM_SQUARES):
            code = board[sq]
            if sq in game.forbidden:
                cells.append("zone")
            elif not code:
                cells.append(None)
            else:
                owner = (code >> OWNER_SHIFT) & 1
                if owner != player and hide_enemy:
                    cells.append(None)
                    continue
                known = owner == player or bool(code & REVEALED_BIT)
                kind = game.army(owner).kinds[code & KIND_MASK]
                cells.append(
                    {
                        "owner": owner,
                        "kind": kind.key if known else None,
                        "name": kind.name if known else None,
                        "rank": rank_label(kind.rank) if known else None,
                        "moved": bool(code & MOVED_BIT),
                        "revealed": bool(code & REVEALED_BIT),
                    }
                )
        mode = game.captured_mode
        last = self.last_event()
        data: dict[str, JSON] = {
            "game": "lotr",
            "mode": game.mode,
            "captured_mode": mode,
            "player": player,
            "side": SIDE_NAMES[player],
            "phase": self._phase,
            "to_move": self.current_player(),
            "move_count": self._moves,
            "board": cells,
            "captured": [self.captured(o) if captured_visible(mode, player, o) else None for o in (0, 1)],
            "captured_count": [len(self._captured[0]), len(self._captured[1])],
            "last_move": last.to_json() if last is not None else None,
            "recent_moves": [ev.to_json() for ev in self._recent_events(2)],
            "to_place": self.pieces_to_place(player),
            "outcome": self._outcome.to_json() if self._outcome is not None else None,
        }
        return Observation(player, data, render_text(data))

    # --- serialization --------------------------------------------------------------------------
    def to_json(self) -> dict[str, JSON]:
        """The whole state as options + start position + actions: replaying rebuilds it exactly."""
        data: dict[str, JSON] = {"game": "lotr", "options": self._game.options, "actions": list(self._history)}
        if self._start is not None:
            armies = self._game.roster.armies
            data["start"] = {
                "to_move": self._start_to_move,
                "pieces": [[square_name(sq), o, armies[o].kinds[k].key, m, v] for sq, o, k, m, v in self._start],
            }
        if self._outcome is not None and self._outcome.termination in _OUTSIDE_ENDINGS:
            data["ended_by"] = self._outcome.to_json()
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> LotrState:
        if not isinstance(data, Mapping) or data.get("game") != "lotr":
            raise RecordError('not a Stratego LOTR state: expected an object with "game": "lotr"')
        try:
            game = LotrGame(**dict(data.get("options") or {}))
        except (TypeError, ValueError, GameError) as exc:
            raise RecordError(f"bad Stratego LOTR options: {exc}") from exc
        start = data.get("start")
        if start is None:
            state = game.new_initial_state()
        else:
            try:
                state = game.state_from_position(
                    [(sq, int(o), str(k), bool(m), bool(v)) for sq, o, k, m, v in start["pieces"]],
                    to_move=int(start.get("to_move", 0)),
                )
            except (KeyError, TypeError, ValueError, NotationError, InvalidSetupError) as exc:
                raise RecordError(f"bad start position: {exc}") from exc
        actions = data.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError('"actions" must be a list of action ids')
        for i, action in enumerate(actions):
            if not isinstance(action, int):
                raise RecordError(f"action {i + 1} is not an integer: {action!r}")
            try:
                state.apply(action)
            except IllegalActionError as exc:
                raise RecordError(f"action {i + 1} ({action}) is illegal: {exc}") from exc
        ended = data.get("ended_by")
        if ended is not None:
            o = Outcome.from_json(dict(ended))
            state.end_by(o.termination, o.winner, o.reason)
        return state


_LABEL_RANKS = {"flag": FLAG, "spy": SPY, "fortress": FORTRESS}
_OUTSIDE_ENDINGS = {Termination.RESIGNATION, Termination.AGREED_DRAW, Termination.TIMEOUT, Termination.FORFEIT}


def check_setup(game: LotrGame, player: int, placement: Mapping[int, int]) -> None:
    """Raise `InvalidSetupError` naming the first problem of a whole-army placement {square: kind} (LOTR-SETUP-1)."""
    who = SIDE_NAMES[player]
    army = game.army(player)
    area = set(game.board.setup_squares(player))
    counts = [0] * len(army.kinds)
    for sq, kind in placement.items():
        if not isinstance(sq, int) or not 0 <= sq < NUM_SQUARES:
            raise InvalidSetupError(f"{sq!r} is not a square")
        if sq not in area:
            raise InvalidSetupError(f"{square_name(sq)} is not in {who}'s four home rows (LOTR-SETUP-1)")
        if not isinstance(kind, int) or not 0 <= kind < len(army.kinds):
            raise InvalidSetupError(f"{kind!r} on {square_name(sq)} is not a {who} piece")
        counts[kind] += 1
    for character, got in zip(army.kinds, counts, strict=True):
        if got != character.count:
            raise InvalidSetupError(f"{who}'s setup has {got} x {character.name}; the army has {character.count}")


def random_setup(game: LotrGame, player: int, rng: random.Random) -> dict[int, int]:
    """A uniformly random legal setup {square: kind} in the player's four home rows."""
    pieces = [i for i, k in enumerate(game.army(player).kinds) for _ in range(k.count)]
    squares = rng.sample(list(game.board.setup_squares(player)), len(pieces))
    return dict(zip(squares, pieces, strict=True))


def render_text(obs: Mapping[str, Any]) -> str:
    """A plain-text drawing of an observation, row 10 at the top: 'e'/'g' side, rank ('?' unknown, '!' moved)."""
    cells = obs["board"]
    me = obs["player"]
    lines = []
    for row in range(SIZE - 1, -1, -1):
        parts = []
        for col in range(SIZE):
            cell = cells[row * SIZE + col]
            if cell == "zone":
                parts.append(" ~~ ")
            elif cell is None:
                parts.append(" .  ")
            else:
                rank = cell["rank"]
                if rank is None:
                    mark = "!" if cell["owner"] != me and cell["moved"] else "?"
                else:
                    mark = rank_symbol(_LABEL_RANKS[rank] if rank in _LABEL_RANKS else int(rank))
                side = SIDE_NAMES[cell["owner"]][0]
                parts.append(f" {side}{mark:<2}")
        lines.append(f"{row + 1:>2} " + "".join(parts).rstrip())
    lines.append("    " + "   ".join(FILES))
    for owner in (0, 1):
        lost = obs["captured"][owner]
        shown = ", ".join(lost) if lost is not None else "hidden"
        lines.append(f"{SIDE_NAMES[owner]} lost {obs['captured_count'][owner]}: {shown}")
    return "\n".join(lines)


__all__ = [
    "CAPTURED_MODES",
    "DEFAULT_BACK_AND_FORTH",
    "GAME_MODES",
    "NUM_ACTIONS",
    "PLACE_BASE",
    "LotrGame",
    "LotrState",
    "MoveEvent",
    "NotImplementedYetError",
    "battle",
    "captured_visible",
    "check_setup",
    "random_setup",
    "render_text",
]
