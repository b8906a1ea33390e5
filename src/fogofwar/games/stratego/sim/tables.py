"""Constant tables of the batched simulator: board geometry, Zobrist keys, action ids, plane layout.

Everything here is plain numpy, derived from `fogofwar.grid.board` and `fogofwar.games.stratego.rules`
so that the simulator uses the very same squares, segments and Zobrist keys as the reference engine.

Action ids
----------
The simulator speaks the reference engine's move ids, `from * 100 + to` (0..9999, `NUM_MOVE_ACTIONS`).
For learning code it also offers a *compact* id space: every (from, to) pair that some piece (a scout)
could ever move along, i.e. every land square to every square of its four rays (stopping at the board's
edge or a lake), numbered in increasing order of the reference id. `NUM_COMPACT_ACTIONS` such ids exist
(1,368 on the 10x10 board with its lakes); `COMPACT_OF_MOVE[move]` maps a reference id to its compact
id (-1 if no piece can ever make it) and `MOVE_OF_COMPACT[i]` maps back. `FLIP_COMPACT[i]` is the compact id
of the same move on the board turned round (square s <-> 99 - s: blue's own view of it), its own inverse.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from fogofwar.games.stratego.rules import ZOBRIST_KEYS
from fogofwar.games.stratego.variants import Variant
from fogofwar.grid.board import LAKES, NEIGHBOURS, NUM_SQUARES, RAYS, SEGMENTS

NUM_MOVE_ACTIONS = NUM_SQUARES * NUM_SQUARES
"""Reference move ids `from * 100 + to`."""

# Piece codes: the reference engine's bits (rules.py).
RANK_MASK, OWNER_BIT, MOVED_BIT, REVEALED_BIT, PRESENT_BIT, IDENTITY_MASK = 15, 16, 32, 64, 128, 31
FLAG, SPY, SCOUT, MINER, MARSHAL, BOMB = 0, 1, 2, 3, 10, 11
NUM_RANKS = 12

# Terminations, as small ints (index into TERMINATIONS).
ONGOING, FLAG_CAPTURED, NO_MOVES, NO_MOVES_EITHER, MOVE_LIMIT = 0, 1, 2, 3, 4
TERMINATIONS = ("", "flag_captured", "no_moves", "no_moves_either", "move_limit")
"""`Termination.value` of the reference engine for each termination code (0 = the game goes on)."""

MAX_PIECES = 40
"""Most pieces of one side on the board (a classic army)."""

I64 = npt.NDArray[np.int64]


def _tables() -> tuple[I64, I64, I64, I64, I64, I64, I64, I64, I64, I64]:
    nb = np.full((NUM_SQUARES, 4), -1, np.int64)
    nb_n = np.zeros(NUM_SQUARES, np.int64)
    ray = np.full((NUM_SQUARES, 4, 9), -1, np.int64)
    ray_n = np.zeros((NUM_SQUARES, 4), np.int64)
    for sq in range(NUM_SQUARES):
        for i, n in enumerate(NEIGHBOURS[sq]):
            nb[sq, i] = n
        nb_n[sq] = len(NEIGHBOURS[sq])
        for d, r in enumerate(RAYS[sq]):
            ray[sq, d, : len(r)] = r
            ray_n[sq, d] = len(r)
    seg_line = np.full(NUM_MOVE_ACTIONS, -1, np.int64)
    seg_lo = np.full(NUM_MOVE_ACTIONS, -1, np.int64)
    seg_hi = np.full(NUM_MOVE_ACTIONS, -1, np.int64)
    for key, (line, lo, hi) in SEGMENTS.items():
        seg_line[key], seg_lo[key], seg_hi[key] = line, lo, hi
    lake = np.zeros(NUM_SQUARES, np.int64)
    lake[list(LAKES)] = 1
    moves = sorted(sq * 100 + dst for sq in range(NUM_SQUARES) if sq not in LAKES for r in RAYS[sq] for dst in r)
    zob = np.ascontiguousarray(np.array(ZOBRIST_KEYS, dtype=np.uint64).view(np.int64))
    return nb, nb_n, ray, ray_n, seg_line, seg_lo, seg_hi, lake, zob, np.array(moves, np.int64)


NB, NB_N, RAY, RAY_N, SEG_LINE, SEG_LO, SEG_HI, LAKE, ZOBRIST, MOVE_OF_COMPACT = _tables()
COMPACT_OF_MOVE: I64 = np.full(NUM_MOVE_ACTIONS, -1, np.int64)
COMPACT_OF_MOVE[MOVE_OF_COMPACT] = np.arange(len(MOVE_OF_COMPACT))
NUM_COMPACT_ACTIONS = len(MOVE_OF_COMPACT)
FLIP_COMPACT: I64 = COMPACT_OF_MOVE[(99 - MOVE_OF_COMPACT // 100) * 100 + 99 - MOVE_OF_COMPACT % 100]
"""compact id -> the compact id of the same move with the board turned round (the lakes are symmetric, so every
move has one)."""


def roster_counts(variant: Variant) -> I64:
    """How many pieces of each rank (0..11) one side has in `variant`."""
    out = np.zeros(NUM_RANKS, np.int64)
    for rank, n in variant.roster:
        out[int(rank)] = n
    return out


def max_legal_moves(variant: Variant) -> int:
    """An upper bound of the legal moves of one side: 18 squares for a scout, 4 for other movable pieces."""
    counts = roster_counts(variant)
    return int(max(8, sum(n * (18 if r == SCOUT else 4) for r, n in enumerate(counts) if r not in (FLAG, BOMB))))
