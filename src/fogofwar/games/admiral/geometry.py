"""Squares, distances, steps and lines of fire on Admiral's 8 x 8 battlefield (docs/rules/admiral.md).

Squares are numbered 0-63: `row * 8 + column`, row 0 being row 1 (South's edge, ADM-GEN-2).

>>> from fogofwar.games.admiral.data_model import square_index as sq
>>> distance(sq("A1"), sq("C2"), "chebyshev"), distance(sq("A1"), sq("C2"), "manhattan")
(2, 3)
>>> [square_name(s) for s in crossed(sq("A1"), sq("C2"))]
['B1', 'B2']
>>> [square_name(s) for s in crossed(sq("A1"), sq("C3"))]  # touching corners of B1 and A2 is not crossing
['B2']
"""

from __future__ import annotations

from functools import cache

from fogofwar.games.admiral.data_model import BOARD_SIZE, DEPLOYMENT_ROWS, square_name

NUM_SQUARES = BOARD_SIZE * BOARD_SIZE

ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
"""(row step, column step) of a surface move (ADM-MOVE-2)."""
KING = (*ORTHOGONAL, (1, 1), (1, -1), (-1, 1), (-1, -1))
"""Steps of a submerged submarine (ADM-SUB-3) and the 8 squares around (ADM-SUB-4, ADM-AIR-13)."""


def row_col(square: int) -> tuple[int, int]:
    return divmod(square, BOARD_SIZE)


def at(row: int, col: int) -> int | None:
    """The square at (row, col), or None off the board."""
    if 0 <= row < BOARD_SIZE and 0 <= col < BOARD_SIZE:
        return row * BOARD_SIZE + col
    return None


def distance(a: int, b: int, metric: str) -> int:
    """Squares from a to b, not counting a's own square (ADM-ART-2): 'chebyshev' or 'manhattan'."""
    ra, ca = row_col(a)
    rb, cb = row_col(b)
    if metric == "manhattan":
        return abs(ra - rb) + abs(ca - cb)
    return max(abs(ra - rb), abs(ca - cb))


def neighbours(square: int, steps: tuple[tuple[int, int], ...] = KING) -> list[int]:
    r, c = row_col(square)
    out = []
    for dr, dc in steps:
        s = at(r + dr, c + dc)
        if s is not None:
            out.append(s)
    return out


def deployment_squares(player: int) -> tuple[int, ...]:
    """The two rows nearest to `player` (ADM-SETUP-2)."""
    rows = range(DEPLOYMENT_ROWS) if player == 0 else range(BOARD_SIZE - DEPLOYMENT_ROWS, BOARD_SIZE)
    return tuple(r * BOARD_SIZE + c for r in rows for c in range(BOARD_SIZE))


def corner_order(player: int) -> tuple[int, ...]:
    """The solo mode's deployment order (SOLO-SET-1/3): from the player's right-hand corner along the edge row,
    then the second row the same way. South sits at row 1 facing north (right hand: file H): H1..A1, H2..A2;
    North sits at row 8 facing south (right hand: file A): A8..H8, A7..H7."""
    if player == 0:
        rows: tuple[int, ...] = tuple(range(DEPLOYMENT_ROWS))
        cols: tuple[int, ...] = tuple(range(BOARD_SIZE - 1, -1, -1))
    else:
        rows = tuple(range(BOARD_SIZE - 1, BOARD_SIZE - 1 - DEPLOYMENT_ROWS, -1))
        cols = tuple(range(BOARD_SIZE))
    return tuple(r * BOARD_SIZE + c for r in rows for c in cols)


def home_half(player: int) -> tuple[int, ...]:
    """The player's half of the board, where submarines are placed (ADM-SETUP-6)."""
    half = BOARD_SIZE // 2
    rows = range(half) if player == 0 else range(half, BOARD_SIZE)
    return tuple(r * BOARD_SIZE + c for r in rows for c in range(BOARD_SIZE))


def last_row(player: int) -> tuple[int, ...]:
    """The edge row a player's reserve enters from (ADM-SETUP-5): row 1 for South, row 8 for North."""
    row = 0 if player == 0 else BOARD_SIZE - 1
    return tuple(row * BOARD_SIZE + c for c in range(BOARD_SIZE))


@cache
def crossed(a: int, b: int) -> tuple[int, ...]:
    """Squares (other than a and b) whose interior the segment between the centres of a and b crosses.

    A segment that only touches a corner of a square does not cross it (ADM-ART-3 reading).
    Liang-Barsky clipping against each square of the box, in units of half a square: every bound is a
    ratio of small integers, and IEEE division rounds equal ratios to the same float, so corner
    contacts (equal bounds) are detected exactly.
    """
    ra, ca = row_col(a)
    rb, cb = row_col(b)
    x0, y0 = 2 * ca + 1, 2 * ra + 1
    dx, dy = 2 * (cb - ca), 2 * (rb - ra)
    out = []
    for r in range(min(ra, rb), max(ra, rb) + 1):
        for c in range(min(ca, cb), max(ca, cb) + 1):
            s = r * BOARD_SIZE + c
            if s in (a, b):
                continue
            lo, hi = 0.0, 1.0
            inside = True
            for p0, d, low in ((x0, dx, 2 * c), (y0, dy, 2 * r)):
                if d == 0:
                    if not low < p0 < low + 2:
                        inside = False
                        break
                    continue
                t1, t2 = (low - p0) / d, (low + 2 - p0) / d
                if t1 > t2:
                    t1, t2 = t2, t1
                lo, hi = max(lo, t1), min(hi, t2)
            if inside and lo < hi:
                out.append(s)
    return tuple(out)


def l_path(start: int, end: int, vertical_first: bool) -> list[int]:
    """The squares of the L-shaped orthogonal path from start to end, start excluded, end included.

    >>> from fogofwar.games.admiral.data_model import square_index as sq
    >>> [square_name(s) for s in l_path(sq("A1"), sq("B2"), vertical_first=True)]
    ['A2', 'B2']
    """
    r, c = row_col(start)
    r1, c1 = row_col(end)
    path = []
    legs = ((r1, None), (None, c1)) if vertical_first else ((None, c1), (r1, None))
    for target_row, target_col in legs:
        while target_row is not None and r != target_row:
            r += 1 if target_row > r else -1
            path.append(r * BOARD_SIZE + c)
        while target_col is not None and c != target_col:
            c += 1 if target_col > c else -1
            path.append(r * BOARD_SIZE + c)
    return path


__all__ = [
    "KING",
    "NUM_SQUARES",
    "ORTHOGONAL",
    "at",
    "corner_order",
    "crossed",
    "deployment_squares",
    "distance",
    "home_half",
    "l_path",
    "last_row",
    "neighbours",
    "row_col",
    "square_name",
]
