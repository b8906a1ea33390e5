"""Tournament (ISF) Stratego: the one rules engine, as a mutable state with undo.

Rule ids (STR-...) refer to docs/rules/stratego.md.

The state is compact on purpose: the board is a list of 100 ints, one piece code per
square (rank | owner | moved | revealed bits); each side keeps the set of squares of its
movable pieces; a Zobrist hash of the board follows every move for the more-squares rule.
Legal moves are generated once per turn and cached.

Action ids are stable: a move is `from * 100 + to` (0..9999); placing a piece during the
setup phase is `10000 + rank * 100 + square`.

>>> game = StrategoGame("barrage")
>>> state = game.new_initial_state()
>>> state.current_player(), state.phase
(0, 'setup')
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, cast

from fogofwar.core import inputs
from fogofwar.core.params import GameBase, checked_by
from fogofwar.core.protocol import (
    JSON,
    IllegalActionError,
    InvalidSetupError,
    Observation,
    Outcome,
    RecordError,
    Termination,
)
from fogofwar.games.stratego.observation import CellView, MoveView, StrategoView
from fogofwar.games.stratego.params import (
    DEFAULT_REPETITION,
    DEFAULT_TWO_SQUARES,
    END_COUNTS,
    Repetition,
    StrategoParams,
)
from fogofwar.games.stratego.pieces import Rank, RankNotation, parse_rank
from fogofwar.games.stratego.variants import Variant, get_variant
from fogofwar.grid.board import (
    LAKES,
    NEIGHBOURS,
    NUM_SQUARES,
    PLAYER_NAMES,
    RAYS,
    SEGMENTS,
    SIZE,
    draw_board,
    parse_move,
    parse_square,
    square_name,
    step_moves,
)
from fogofwar.grid.state import GridStateBase, Piece, state_from_json

# --- piece codes --------------------------------------------------------------------------
RANK_MASK = 15
OWNER_BIT = 16
MOVED_BIT = 32
REVEALED_BIT = 64
PRESENT_BIT = 128
IDENTITY_MASK = 31  # rank and owner: what the more-squares rule compares

FLAG, SPY, SCOUT, MINER, MARSHAL, BOMB = 0, 1, 2, 3, 10, 11

PLACE_BASE = 10000
FINISH_SETUP = PLACE_BASE + 12 * 100
"""Ends a side's setup early where the variant lets an army be any part of the roster (classicfree)."""
NUM_ACTIONS = FINISH_SETUP + 1


_rng = random.Random(20261121)
ZOBRIST_KEYS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_rng.getrandbits(64) for _ in range(32)) for _ in range(NUM_SQUARES)
)


_RANK_NAMES: tuple[str, ...] = tuple(Rank(r).name.lower() for r in range(12))
"""Rank names by rank, as observations and move events spell them (a table: no enum call per piece)."""
_RUNS: tuple[bool, ...] = tuple(code & RANK_MASK == SCOUT for code in range(256))
"""By piece code: whether the piece runs along lines (a scout, STR-MOVE-3)."""
_TABLES = (NEIGHBOURS, RAYS)
_SQUARE_NAMES: tuple[str, ...] = tuple(square_name(sq) for sq in range(NUM_SQUARES))
_EMPTY_CELLS: tuple[Literal["lake"] | None, ...] = tuple("lake" if sq in LAKES else None for sq in range(NUM_SQUARES))
"""The cells of an observation's board before the pieces are put on it."""


def piece_code(owner: int, rank: int, moved: bool = False, revealed: bool = False) -> int:
    return PRESENT_BIT | (owner << 4) | rank | (MOVED_BIT if moved else 0) | (REVEALED_BIT if revealed else 0)


def battle(attacker: int, defender: int) -> tuple[bool, bool]:
    """Which of (attacker, defender) survive a battle between these ranks (STR-BATTLE-*).

    >>> battle(Rank.SPY, Rank.MARSHAL), battle(Rank.MARSHAL, Rank.SPY)
    ((True, False), (True, False))
    >>> battle(Rank.MINER, Rank.BOMB), battle(Rank.MARSHAL, Rank.BOMB), battle(Rank.MAJOR, Rank.MAJOR)
    ((True, False), (False, True), (False, False))
    """
    if defender == FLAG:
        return True, False
    if defender == BOMB:
        return (True, False) if attacker == MINER else (False, True)
    if attacker == SPY and defender == MARSHAL:
        return True, False
    if attacker == defender:
        return False, False
    return (True, False) if attacker > defender else (False, True)


class Chase(NamedTuple):
    """One player's continuous chase, for the more-squares rule (STR-REP-4..7)."""

    active: bool  # the opponent's last move evaded: the chaser's next move may be a chasing move
    threatened: frozenset[int]  # enemy squares next to the chaser's last moved piece
    evaders: frozenset[int]  # current squares of enemy pieces that evaded during this chase
    positions: frozenset[int]  # board hashes of the positions that occurred during this chase
    last_from: int
    last_to: int


_EMPTY: frozenset[int] = frozenset()
NO_CHASE = Chase(False, _EMPTY, _EMPTY, _EMPTY, -1, -1)
_NO_RUNS: tuple[int, ...] = (0,) * (SIZE - 1)
Streak = tuple[int, int, tuple[int, ...], int]
NO_STREAK: Streak = (-1, -1, _NO_RUNS, 0)
"""Two-squares streak: (square of the piece, line, for each boundary of that line how many of the
piece's latest moves in a row crossed it, the largest of those counts)."""


@dataclass(frozen=True)
class MoveEvent:
    """What everybody saw of one move: the squares, and the ranks a battle or long scout move showed."""

    player: int
    src: int
    dst: int
    attacker: int | None  # rank, shown by a battle or a scout's long move (STR-INFO-2)
    defender: int | None  # rank, shown by a battle
    attacker_survived: bool
    defender_survived: bool

    @property
    def is_battle(self) -> bool:
        return self.defender is not None

    def to_json(self) -> MoveView:
        d: MoveView = {"player": self.player, "from": _SQUARE_NAMES[self.src], "to": _SQUARE_NAMES[self.dst]}
        if self.attacker is not None:
            d["attacker"] = _RANK_NAMES[self.attacker]
        if self.defender is not None:
            d["defender"] = _RANK_NAMES[self.defender]
            d["result"] = (
                "attacker_won"
                if self.attacker_survived
                else ("defender_won" if self.defender_survived else "both_lost")
            )
        return d


class StrategoGame(GameBase):
    """Stratego with fixed options: variant, two-squares limit, more-squares rule, move cap, and how the
    no-move ending counts the two-squares rule (`repetition`, STR-REP-8)."""

    name = "stratego"
    num_players = 2

    @checked_by(StrategoParams)
    def __init__(
        self,
        variant: str = "classic",
        two_squares: int = DEFAULT_TWO_SQUARES,
        more_squares: bool = True,
        max_moves: int | None = None,
        repetition: Repetition = DEFAULT_REPETITION,
    ) -> None:
        self.variant: Variant = get_variant(variant)
        self.two_squares = two_squares
        self.more_squares = more_squares
        self.repetition: Repetition = repetition
        self.max_moves = self.variant.max_moves if max_moves is None else max_moves
        self.resolve(max_moves=self.max_moves)

    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def new_initial_state(self) -> StrategoState:
        return StrategoState(self)

    def state_from_position(
        self, pieces: Iterable[tuple[int, int, int]] | Mapping[int, tuple[int, int]], to_move: int = 0
    ) -> StrategoState:
        """A play-phase state with the given pieces: (square, owner, rank) triples, or {square: (owner, rank)}.

        For crafted positions (tests, puzzles): no setup validation beyond the board itself.
        """
        if isinstance(pieces, Mapping):
            where = "a piece {square: (owner, rank)}"
            rows = [(sq, *inputs.json_list(v, where, InvalidSetupError, 2)) for sq, v in pieces.items()]
        elif isinstance(pieces, str) or not isinstance(pieces, Iterable):
            raise InvalidSetupError(
                f"pieces are (square, owner, rank) triples or {{square: (owner, rank)}}, not {inputs.show(pieces)}"
            )
        else:
            rows = list(pieces)
            for row in rows:
                if not isinstance(row, list | tuple) or len(row) != 3:
                    raise InvalidSetupError(f"a piece is (square, owner, rank), not {inputs.show(row)}")
        return StrategoState(self, start=[(sq, o, r, False, False) for sq, o, r in rows], to_move=to_move)

    def state_from_json(self, data: dict[str, JSON]) -> StrategoState:
        return StrategoState.from_json(data)


class StrategoState(GridStateBase[MoveEvent, StrategoGame], game="stratego", seats=PLAYER_NAMES, title="Stratego"):
    """One Stratego position; see the module docstring for the encoding."""

    def _set_rules(self, game: StrategoGame) -> None:
        self._variant = game.variant
        self._limit = game.two_squares
        end = END_COUNTS[game.repetition]
        # STR-REP-8: the limit at which the no-move check bars moves of its own (0: none beyond validation's),
        # and whether it then bars that piece's attacks too. The rule switched off (0) is off here too.
        self._end_limit = min(end.limit, self._limit) if end.limit and self._limit else 0
        self._end_bars_attacks = end.bars_attacks and self._end_limit > 0
        self._repetition = game.repetition
        self._more_squares = game.more_squares
        self._to_place: list[dict[int, int]] = [{int(r): n for r, n in self._variant.roster if n} for _ in range(2)]
        self._streak: list[Streak] = [NO_STREAK, NO_STREAK]
        self._chase: list[Chase] = [NO_CHASE, NO_CHASE]
        self._hash = 0

    def _read_start(self, rows: Sequence[object]) -> list[Piece]:
        return _start_pieces(rows)

    # --- the core protocol -------------------------------------------------------------------
    def _generate_legal(self) -> list[int]:
        return self._placements() if self._phase == "setup" else self._gen_moves(self._player)

    def _act(self, action: int) -> None:
        if action == FINISH_SETUP:
            self._finish_setup()
        elif action >= PLACE_BASE:
            self._place(action)
        else:
            self._move(action)

    def _unplace(self, sq: int, placed: Any, player: int) -> None:
        if sq >= 0:  # -1: the end of a free setup (FINISH_SETUP) placed nothing
            self._remove(sq)
        self._to_place[player] = placed  # `placed`: the pieces to place before it

    def _unmove(self, rec: tuple[Any, ...]) -> None:
        _, src, dst, code_src, code_dst, streak, chase, hsh, player, outcome, n_cap, legal = rec
        self._remove(src)
        self._remove(dst)
        self._set_square(src, code_src)
        if code_dst:
            self._set_square(dst, code_dst)
        self._streak, self._chase, self._hash = streak, chase, hsh
        self._player, self._outcome, self._legal = player, outcome, legal
        del self._captured[0][n_cap[0] :]
        del self._captured[1][n_cap[1] :]
        self._moves -= 1

    def _copy_parts(self, other: StrategoState) -> None:
        other._to_place = [d.copy() for d in self._to_place]
        other._streak = self._streak.copy()
        other._chase = self._chase.copy()

    # --- notation --------------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        """'B1-B2' for a move, 'B1xB2' when it attacks, '1@A1' for placing a piece (classic notation)."""
        action = inputs.action_in_range(action, "Stratego", NUM_ACTIONS)
        if action == FINISH_SETUP:
            return "done"
        if action >= PLACE_BASE:
            rank, sq = divmod(action - PLACE_BASE, 100)
            return f"{Rank(rank).symbol()}@{square_name(sq)}"
        src, dst = divmod(action, 100)
        a, d = self._board[src], self._board[dst]
        sep = "x" if a and d and (a ^ d) & OWNER_BIT else "-"
        return f"{square_name(src)}{sep}{square_name(dst)}"

    def string_to_action(self, text: str, notation: RankNotation = "classic") -> int:
        """Read 'B1-B2' (also 'b1b2', 'B1 B2', 'B1xB2') or a placement '1@A1'; must be legal now."""
        action = parse_action(inputs.text(text, "a Stratego move"), notation)
        if action not in self.legal_actions():
            raise IllegalActionError(self.explain_illegal(action))
        return action

    def explain_illegal(self, action: object) -> str:
        """Say in words why `action` is not legal now (empty string if it is)."""
        action = self._illegal_at_once(action, NUM_ACTIONS, "Stratego")
        if isinstance(action, str):
            return action
        who = PLAYER_NAMES[self._player]
        if action == FINISH_SETUP:
            if self._phase != "setup":
                return "the setup is over"
            if self._variant.composition != "at_most":
                return f"{self._variant.name} needs the whole army on the board before play starts"
            return "place at least one piece before finishing the setup"
        if action >= PLACE_BASE:
            rank, sq = divmod(action - PLACE_BASE, 100)
            if self._phase != "setup":
                return "the setup is over: pieces are placed only before the first move"
            if self._to_place[self._player].get(rank, 0) == 0:
                return f"{who} has no {Rank(rank).name.lower()} left to place"
            if sq not in self._variant.setup_squares(self._player):
                return f"{square_name(sq)} is not in {who}'s setup area"
            return f"{square_name(sq)} is already occupied"
        if self._phase == "setup":
            return "pieces cannot move yet: the setup is not finished"
        src, dst = divmod(action, 100)
        s, d = square_name(src), square_name(dst)
        code = self._board[src]
        if not code:
            return f"there is no piece on {s}"
        if (code >> 4) & 1 != self._player:
            return f"the piece on {s} is not {who}'s"
        rank = code & RANK_MASK
        if rank in (FLAG, BOMB):
            return f"the {Rank(rank).name.lower()} on {s} can never move (STR-MOVE-1)"
        if dst in LAKES:
            return f"{d} is a lake (STR-BOARD-1)"
        seg = SEGMENTS.get(action)
        if seg is None:
            return f"{s}-{d} is not a move along a row or column (STR-MOVE-2)"
        dist = seg[2] - seg[1] + 1
        if dist > 1 and rank != SCOUT:
            return f"only scouts move more than one square (STR-MOVE-3); {s}-{d} is {dist} squares"
        unit = 1 if seg[0] < SIZE else SIZE
        step = unit if dst > src else -unit
        sq = src + step
        while sq != dst:
            if sq in LAKES:
                return f"the path {s}-{d} crosses the lake at {square_name(sq)} (STR-MOVE-3)"
            if self._board[sq]:
                return f"the path {s}-{d} is blocked at {square_name(sq)} (STR-MOVE-3)"
            sq += step
        target = self._board[dst]
        if target and (target >> 4) & 1 == self._player:
            return f"{d} holds {who}'s own piece"
        if self._breaks_two_squares(self._player, src, dst):
            return (
                f"two-squares rule (STR-REP-1): this piece may not move between the same squares "
                f"more than {self._limit} times in a row"
            )
        if self._breaks_more_squares(self._player, src, dst):
            return "more-squares rule (STR-REP-4): this chasing move repeats a position of the current chase"
        return f"{s}-{d} is not legal"  # pragma: no cover - every case is named above

    # --- setup -----------------------------------------------------------------------------------
    def _placements(self) -> list[int]:
        p = self._player
        ranks = [rank for rank, n in self._to_place[p].items() if n]
        out = self._placement_ids(PLACE_BASE, ranks, self._variant.setup_squares(p))
        if self._variant.composition == "at_most" and any(
            self._to_place[p].get(int(r), 0) < n for r, n in self._variant.roster
        ):
            out.append(FINISH_SETUP)
        return out

    def pieces_to_place(self, player: int) -> dict[Rank, int]:
        return {Rank(r): n for r, n in self._to_place[player].items() if n}

    def apply_setup(self, player: int, placement: Mapping[int, Rank | int]) -> None:
        """Place a whole army at once ({square: rank}), after checking it; nothing changes on error."""
        player = inputs.seat(player, PLAYER_NAMES, error=InvalidSetupError)
        if self._phase != "setup" or self._outcome is not None:
            raise InvalidSetupError("the setup phase is over")
        if player != self._player:
            raise InvalidSetupError(
                f"it is {PLAYER_NAMES[self._player]}'s turn to set up, not {PLAYER_NAMES[player]}'s"
            )
        check_setup(self._variant, player, placement, occupied=[sq for sq in range(NUM_SQUARES) if self._board[sq]])
        if any(self._to_place[player].get(int(r), 0) != self._variant.count(Rank(r)) for r in Rank):
            raise InvalidSetupError(f"{PLAYER_NAMES[player]} has already placed some pieces one by one")
        for sq, rank in sorted(placement.items()):
            self.apply(PLACE_BASE + int(rank) * 100 + int(sq))
        if self._phase == "setup" and self._player == player:
            self.apply(FINISH_SETUP)

    def _place(self, action: int) -> None:
        rank, sq = divmod(action - PLACE_BASE, 100)
        p = self._player
        self._undo.append(("place", sq, self._to_place[p].copy(), p, self._phase, self._legal))
        self._history.append(action)
        self._events.append(None)
        self._to_place[p][rank] -= 1
        self._set_square(sq, piece_code(p, rank))
        self._end_setup_turn(p)

    def _finish_setup(self) -> None:
        p = self._player
        self._undo.append(("place", -1, self._to_place[p].copy(), p, self._phase, self._legal))
        self._history.append(FINISH_SETUP)
        self._events.append(None)
        self._to_place[p] = {}
        self._end_setup_turn(p)

    def _end_setup_turn(self, p: int) -> None:
        self._legal = None
        if not any(self._to_place[p].values()):
            if p == 0:
                self._player = 1
            else:
                self._phase = "play"
                self._player = 0
                self._finish_turn(mover=1)

    # --- play ------------------------------------------------------------------------------------
    _piece_code = staticmethod(piece_code)

    def _nothing_to_place(self) -> None:
        self._to_place = [{}, {}]

    def _set_square(self, sq: int, code: int) -> None:
        self._board[sq] = code
        self._hash ^= ZOBRIST_KEYS[sq][code & IDENTITY_MASK]
        if (code & RANK_MASK) not in (FLAG, BOMB):
            self._mobile[(code >> 4) & 1].add(sq)

    def _remove(self, sq: int) -> None:
        code = self._board[sq]
        if code:
            self._board[sq] = 0
            self._hash ^= ZOBRIST_KEYS[sq][code & IDENTITY_MASK]
            self._mobile[(code >> 4) & 1].discard(sq)

    def _gen_moves(self, p: int) -> list[int]:
        """Legal moves of player p: pseudo-legal moves filtered by the repetition rules."""
        out = step_moves(self._board, self._mobile[p], p << 4, OWNER_BIT, _RUNS, _TABLES)
        streak = self._streak[p]
        if self._limit and streak[3] >= self._limit:
            out = [m for m in out if not self._breaks_two_squares(p, m // 100, m % 100)]
        if self._more_squares and self._chase[p].active:
            out = [m for m in out if not self._breaks_more_squares(p, m // 100, m % 100)]
        out.sort()
        return out

    def _breaks_two_squares(self, p: int, src: int, dst: int, limit: int | None = None) -> bool:
        """STR-REP-1/2: the move would cross, once more, a boundary crossed by each of the last `limit` moves
        (the game's limit unless another is given: the no-move check's, STR-REP-8)."""
        limit = self._limit if limit is None else limit
        last_to, line, runs, longest = self._streak[p]
        if not limit or longest < limit or src != last_to:
            return False
        seg_line, lo, hi = SEGMENTS[src * 100 + dst]
        return seg_line == line and max(runs[lo : hi + 1]) >= limit

    def _stuck(self, p: int, moves: list[int] | None = None) -> bool:
        """STR-END-2 with STR-REP-8: whether player p has no move left as the no-move check counts. `moves`:
        p's legal moves when already generated. Under a Gravon era the check may bar moves that move
        validation allows: the move back from the era's limit on, and (gravon-2013) that piece's attacks."""
        if moves is None:
            moves = self._gen_moves(p)
        if not moves:
            return True
        last_to, _, _, longest = self._streak[p]
        limit = self._end_limit
        if not limit or longest < limit:
            return False
        board = self._board
        bars_attacks = self._end_bars_attacks
        for m in moves:
            src, dst = divmod(m, 100)
            if not (bars_attacks and src == last_to and board[dst]) and not self._breaks_two_squares(
                p, src, dst, limit
            ):
                return False
        return True

    def _no_move_reason(self, p: int) -> str:
        """Why p has no move: say so when only the no-move check's own count of STR-REP-8 bars p's moves."""
        if not self._gen_moves(p):
            return ""
        what = (
            "neither the move back nor an attack of that piece counts"
            if self._end_bars_attacks
            else ("the move back counts as barred")
        )
        return (
            f" ({self._repetition}: after {self._end_limit} moves in a row between the same squares, "
            f"{what} at the end of the game, STR-REP-8)"
        )

    def _breaks_more_squares(self, p: int, src: int, dst: int) -> bool:
        """STR-REP-4..7: a chasing move may not recreate a position of the current chase."""
        chase = self._chase[p]
        if not self._more_squares or not chase.active or self._board[dst]:
            return False  # attacks change the material, so never repeat a position
        if not any(n in chase.evaders for n in NEIGHBOURS[dst]):
            return False  # not a chasing move: it threatens no evading piece
        if src == chase.last_to and dst == chase.last_from:
            return False  # STR-REP-6: back to where the chasing piece just came from
        key = self._board[src] & IDENTITY_MASK
        new_hash = self._hash ^ ZOBRIST_KEYS[src][key] ^ ZOBRIST_KEYS[dst][key]
        return new_hash in chase.positions

    def _move(self, action: int) -> None:
        src, dst = divmod(action, 100)
        board = self._board
        p = self._player
        q = 1 - p
        code = board[src]
        target = board[dst]
        old_hash = self._hash
        self._undo.append(
            (
                "move",
                src,
                dst,
                code,
                target,
                self._streak.copy(),
                self._chase.copy(),
                old_hash,
                p,
                self._outcome,
                (len(self._captured[0]), len(self._captured[1])),
                self._legal,
            )
        )
        self._history.append(action)
        rank = code & RANK_MASK
        seg = SEGMENTS[action]
        long_scout = seg[2] > seg[1]
        moved = code | MOVED_BIT | (REVEALED_BIT if long_scout else 0)
        self._remove(src)
        attacker_alive = True
        flag_taken = False
        if not target:
            self._set_square(dst, moved)
            self._events.append(MoveEvent(p, src, dst, SCOUT if long_scout else None, None, True, False))
        else:
            drank = target & RANK_MASK
            attacker_alive, defender_alive = battle(rank, drank)
            self._events.append(MoveEvent(p, src, dst, rank, drank, attacker_alive, defender_alive))
            if not defender_alive:
                self._remove(dst)
                self._captured[q].append(drank)
                flag_taken = drank == FLAG
                if self._streak[q][0] == dst:
                    self._streak[q] = NO_STREAK
                if attacker_alive:
                    self._set_square(dst, moved | REVEALED_BIT)
            else:
                self._remove(dst)
                self._set_square(dst, target | REVEALED_BIT)
            if not attacker_alive:
                self._captured[p].append(rank)
        # Two-squares streak (STR-REP-1/2).
        # Per boundary, count the piece's moves in a row that crossed it: +1 if this move crosses
        # it too (same piece, same line), else the count starts again.
        if not attacker_alive:
            self._streak[p] = NO_STREAK
        else:
            last_to, line, runs, _ = self._streak[p]
            same = src == last_to and seg[0] == line
            lo, hi = seg[1], seg[2]
            if lo == hi:  # a one-square move crosses one boundary
                n = runs[lo] + 1 if same else 1
                self._streak[p] = (dst, seg[0], _NO_RUNS[:lo] + (n,) + _NO_RUNS[lo + 1 :], n)
            else:
                new_runs = tuple((runs[b] + 1 if same else 1) if lo <= b <= hi else 0 for b in range(SIZE - 1))
                self._streak[p] = (dst, seg[0], new_runs, max(new_runs))
        # More-squares chase records (STR-REP-4..7).
        if self._more_squares:
            if target:
                self._chase = [NO_CHASE, NO_CHASE]
            else:
                new_hash = self._hash
                chase_q = self._chase[q]
                if src in chase_q.threatened:
                    self._chase[q] = chase_q._replace(
                        active=True,
                        threatened=_EMPTY,
                        evaders=(chase_q.evaders - {src}) | {dst},
                        positions=chase_q.positions | {new_hash},
                    )
                elif chase_q is not NO_CHASE:
                    self._chase[q] = NO_CHASE
                enemy = q << 4
                threats = frozenset(n for n in NEIGHBOURS[dst] if board[n] and board[n] & OWNER_BIT == enemy)
                chase_p = self._chase[p]
                if chase_p.active and threats & chase_p.evaders:
                    self._chase[p] = Chase(False, threats, chase_p.evaders, chase_p.positions | {new_hash}, src, dst)
                elif threats:
                    self._chase[p] = Chase(False, threats, _EMPTY, frozenset((old_hash, new_hash)), src, dst)
                elif chase_p is not NO_CHASE:
                    self._chase[p] = NO_CHASE
        self._moves += 1
        self._player = q
        self._legal = None
        if flag_taken:
            self._outcome = Outcome(
                Termination.FLAG_CAPTURED, p, f"{PLAYER_NAMES[p]} captured the flag on {square_name(dst)}"
            )
            return
        # The mover can surely step back to `src` unless its piece died or the two-squares rule bars it
        # (for the no-move check, from its own limit on: STR-REP-8).
        threshold = self._end_limit or self._limit
        may_be_stuck = not attacker_alive or (threshold > 0 and self._streak[p][3] >= threshold)
        self._finish_turn(mover=p, mover_may_be_stuck=may_be_stuck)

    def _finish_turn(self, mover: int, mover_may_be_stuck: bool = True) -> None:
        """After a move: decide a no-move loss or draw (STR-END-2/3) and the move cap (STR-END-4).

        The side to move loses when it has no legal move; the side that just moved loses at once
        when it has none left (STR-END-2), as on Gravon. `mover_may_be_stuck` is False when the
        mover's piece can surely step back to the square it left, which spares that search.
        """
        nxt = self._player
        legal = self._gen_moves(nxt)
        self._legal = legal
        next_stuck = self._stuck(nxt, legal)
        mover_stuck = (mover_may_be_stuck or next_stuck) and self._stuck(mover)
        if next_stuck and mover_stuck:
            self._outcome = Outcome(Termination.NO_MOVES_EITHER, None, "neither player can move")
        elif next_stuck:
            why = self._no_move_reason(nxt)
            self._outcome = Outcome(Termination.NO_MOVES, mover, f"{PLAYER_NAMES[nxt]} has no legal move{why}")
        elif mover_stuck:
            why = self._no_move_reason(mover)
            self._outcome = Outcome(Termination.NO_MOVES, nxt, f"{PLAYER_NAMES[mover]} has no legal move left{why}")
        else:
            self._outcome = self._move_cap()

    # --- what players see ---------------------------------------------------------------------
    def piece_at(self, sq: int) -> tuple[int, Rank, bool, bool] | None:
        """(owner, rank, moved, revealed) of the piece on `sq`, or None. Full knowledge: not for players."""
        code = self._board[sq]
        if not code:
            return None
        return (code >> 4) & 1, Rank(code & RANK_MASK), bool(code & MOVED_BIT), bool(code & REVEALED_BIT)

    def captured(self, owner: int) -> list[Rank]:
        """Pieces of `owner` taken off the board (public: every battle shows both ranks)."""
        return [Rank(r) for r in self._captured[owner]]

    def observation(self, player: int) -> Observation:
        """STR-INFO-1..4: own pieces fully; enemy pieces as 'unknown' unless revealed, plus moved flags."""
        player = inputs.seat(player, PLAYER_NAMES)
        hide_enemy = self._phase == "setup"  # setups are simultaneous: nothing of the other side shows
        cells: list[CellView | Literal["lake"] | None] = list(_EMPTY_CELLS)
        for sq, code in enumerate(self._board):
            if not code:
                continue
            owner = (code >> 4) & 1
            if owner != player and hide_enemy:
                continue
            cells[sq] = {
                "owner": owner,
                "rank": _RANK_NAMES[code & RANK_MASK] if owner == player or code & REVEALED_BIT else None,
                "moved": bool(code & MOVED_BIT),
                "revealed": bool(code & REVEALED_BIT),
            }
        last = self.last_event()
        data: StrategoView = {
            "game": "stratego",
            "variant": self._variant.name,
            "player": player,
            "phase": self._phase,
            "to_move": self.current_player(),
            "move_count": self._moves,
            "board": cells,
            "captured": [[_RANK_NAMES[r] for r in self._captured[o]] for o in (0, 1)],
            "last_move": last.to_json() if last is not None else None,
            "recent_moves": [ev.to_json() for ev in self._recent_events(2)],
            "to_place": {_RANK_NAMES[r]: n for r, n in self._to_place[player].items() if n},
            "outcome": self._outcome.to_json() if self._outcome is not None else None,
        }
        return Observation(player, cast(dict[str, JSON], data), render_text)

    # --- serialization --------------------------------------------------------------------------
    def piece_key(self, owner: int, kind: int) -> str:
        return Rank(kind).name.lower()

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> StrategoState:
        return state_from_json(data, "stratego", "Stratego", OPTION_NAMES, StrategoGame, _start_state)


def _start_state(game: StrategoGame, rows: Sequence[object], to_move: Any) -> StrategoState:
    """The state of a crafted start as `to_json` writes it: [square name, owner, rank name, moved, revealed]."""
    return StrategoState(game, start=[_read_piece(row) for row in rows], to_move=to_move)


OPTION_NAMES = tuple(StrategoParams.model_fields)
"""The options of `StrategoGame`, as `options` and a state's JSON write them."""


def _lake(sq: int) -> str:
    return f"square {sq} is not a land square: {square_name(sq)} is a lake"


def _start_pieces(rows: Iterable[object]) -> list[tuple[int, int, int, bool, bool]]:
    """The pieces of a crafted start, checked (see `inputs.grid_pieces`)."""
    ranks = int(Rank.BOMB) + 1
    return inputs.grid_pieces(
        rows,
        squares=NUM_SQUARES,
        forbidden=LAKES,
        why_forbidden=_lake,
        kinds=(ranks, ranks),
        kind_word="rank",
        seat_names=PLAYER_NAMES,
        square_name=square_name,
    )


def _read_piece(row: object) -> tuple[int, int, int, bool, bool]:
    """One piece of a stored start as `to_json` writes it: [square name, owner, rank name, moved, revealed]."""
    sq, owner, rank, moved, revealed = inputs.json_list(row, "a piece [square, owner, rank, moved, revealed]", length=5)
    return (
        parse_square(inputs.text(sq, "a square")),
        inputs.seat(owner, PLAYER_NAMES, "the owner of a piece", RecordError),
        int(parse_rank(inputs.text(rank, "a rank"))),
        inputs.flag(moved, "moved", RecordError),
        inputs.flag(revealed, "revealed", RecordError),
    )


def parse_action(text: str, notation: RankNotation = "classic") -> int:
    """Read move or placement notation into an action id (legality is not checked here).

    >>> parse_action("B1-B2"), parse_action("b4xb5"), parse_action("A1 A3"), parse_action("F@E1")
    (111, 3141, 20, 10004)
    """
    t = inputs.text(text, "a move").strip()
    if t.lower() == "done":
        return FINISH_SETUP  # what `action_to_string` writes for finishing the setup early
    if "@" in t:
        rank_text, _, sq_text = t.partition("@")
        return PLACE_BASE + int(parse_rank(rank_text, notation)) * 100 + parse_square(sq_text)
    return parse_move(t)


def check_setup(
    variant: Variant, player: int, placement: Mapping[int, Rank | int], occupied: Iterable[int] = ()
) -> None:
    """Raise `InvalidSetupError` naming the first problem of a whole-army placement (STR-SETUP-*)."""
    player = inputs.seat(player, PLAYER_NAMES, error=InvalidSetupError)
    if not isinstance(placement, Mapping):
        raise InvalidSetupError(f"a placement maps squares to ranks, not {inputs.show(placement)}")
    who = PLAYER_NAMES[player]
    area = set(variant.setup_squares(player))
    taken = set(occupied)
    counts: dict[int, int] = {}
    for sq, rank in placement.items():
        if inputs.whole_number(sq) is None or not 0 <= sq < NUM_SQUARES:
            raise InvalidSetupError(f"{inputs.show(sq)} is not a square")
        if sq in LAKES:
            raise InvalidSetupError(f"{square_name(sq)} is a lake: no piece may stand there")
        if sq not in area:
            raise InvalidSetupError(
                f"{square_name(sq)} is not in {who}'s setup area "
                f"({'rows 1-4' if player == 0 else 'rows 7-10'} in {variant.name})"
            )
        if sq in taken:
            raise InvalidSetupError(f"{square_name(sq)} is already occupied")
        number = inputs.whole_number(rank)
        if number is None or not Rank.FLAG <= number <= Rank.BOMB:
            raise InvalidSetupError(f"{inputs.show(rank)} on {square_name(sq)} is not a piece")
        r = Rank(number)
        counts[r] = counts.get(r, 0) + 1
    for r in Rank:
        want, got = variant.count(r), counts.get(r, 0)
        if variant.composition == "at_most" and got <= want:
            continue
        if want != got:
            raise InvalidSetupError(
                f"{who}'s setup has {_count_of(got, r)}; "
                f"{variant.name} {'allows at most' if variant.composition == 'at_most' else 'needs'} "
                f"{_count_of(want, r)}"
            )


def _count_of(n: int, rank: Rank) -> str:
    """'1 spy', '2 spies', '6 bombs'."""
    name = rank.name.lower()
    if n != 1:
        name = name[:-1] + "ies" if name.endswith("y") else name + "s"
    return f"{n} {name}"


def render_text(obs: Mapping[str, Any], notation: RankNotation = "classic") -> str:
    """A plain-text drawing of an observation, red's back row at the bottom."""
    me = obs["player"]

    def mark(cell: Mapping[str, Any]) -> str:
        shown = Rank[cell["rank"].upper()].symbol(notation) if cell["rank"] else "?"
        if cell["owner"] != me and cell["rank"] is None and cell["moved"]:
            shown = "!"
        return ("r" if cell["owner"] == 0 else "b") + shown

    lines = draw_board(obs["board"], "lake", mark)
    return "\n".join(lines)


__all__ = [
    "DEFAULT_TWO_SQUARES",
    "MoveEvent",
    "NUM_ACTIONS",
    "PLACE_BASE",
    "StrategoGame",
    "StrategoState",
    "battle",
    "check_setup",
    "parse_action",
    "render_text",
]
