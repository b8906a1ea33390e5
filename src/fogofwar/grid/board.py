"""The 10x10 board: squares, their names, lakes, and precomputed neighbour and ray tables.

A square is an int 0..99, `row * 10 + column`, row 0 being rank 1 (red's back row) and
column 0 being file A. Files are lettered A-K without J, as on Gravon and in ISF
notation (STR-BOARD-2); J is accepted on input as the tenth file, and ':' as row 10
(Gravon's spelling).

>>> square_name(0), square_name(99), parse_square("k10"), parse_square("J:")
('A1', 'K10', 99, 99)
>>> is_lake(parse_square("C5")), is_lake(parse_square("E5"))
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from fogofwar.core.protocol import NotationError

SIZE = 10
NUM_SQUARES = SIZE * SIZE
FILES = "ABCDEFGHIK"

LAKES: frozenset[int] = frozenset(r * SIZE + c for r in (4, 5) for c in (2, 3, 6, 7))
"""C5 D5 G5 H5 C6 D6 G6 H6: impassable (STR-BOARD-1)."""

HOME_ROWS: tuple[tuple[int, ...], tuple[int, ...]] = ((0, 1, 2, 3), (6, 7, 8, 9))
"""The four rows nearest each player: red (player 0) rows 1-4, blue (player 1) rows 7-10."""

PLAYER_NAMES = ("red", "blue")

# Directions: up (towards row 10), down, left, right.
_DELTAS = ((1, 0), (-1, 0), (0, -1), (0, 1))


def row_of(sq: int) -> int:
    return sq // SIZE


def col_of(sq: int) -> int:
    return sq % SIZE


def distance(a: int, b: int) -> int:
    """Steps between two squares along rows and columns, lakes aside (the Manhattan distance).

    >>> distance(parse_square("A1"), parse_square("C4"))
    5
    """
    return abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE)


def is_lake(sq: int) -> bool:
    return sq in LAKES


def square_name(sq: int) -> str:
    return f"{FILES[sq % SIZE]}{sq // SIZE + 1}"


def parse_square(text: str) -> int:
    """Read a square name like 'B2', 'k10', 'J:' (Gravon); `NotationError` says what is wrong."""
    t = text.strip().upper()
    if len(t) < 2:
        raise NotationError(f"{text!r} is not a square: write a file A-K and a row 1-10, like B2")
    letter, rest = t[0], t[1:]
    if letter == "J":
        letter = "K"
    if letter not in FILES:
        raise NotationError(f"{text!r} is not a square: the file must be one of A-K (no J), got {t[0]!r}")
    if rest == ":":
        row = 10
    elif rest.isdigit():
        row = int(rest)
    else:
        raise NotationError(f"{text!r} is not a square: the row must be a number 1-10, got {rest!r}")
    if not 1 <= row <= SIZE:
        raise NotationError(f"{text!r} is not a square: the row must be 1-10, got {row}")
    return (row - 1) * SIZE + FILES.index(letter)


def move_id(src: int, dst: int) -> int:
    """The action id of a move from `src` to `dst`, in every game on this board.

    >>> move_id(parse_square("B1"), parse_square("B2"))
    111
    """
    return src * 100 + dst


def parse_move(text: str) -> int:
    """Read move notation ('B1-B2', 'b4xb5', 'A1 A3', 'B1B2') into a move id (legality is not checked here).

    >>> parse_move("B1-B2"), parse_move("b4xb5"), parse_move("A1 A3"), parse_move("A10A9")
    (111, 3141, 20, 9080)
    """
    t = text.strip()
    for sep in ("-", "x", "X", " "):
        if sep in t:
            a, _, b = t.partition(sep)
            if a.strip() and b.strip():
                return move_id(parse_square(a), parse_square(b))
    # No separator: split after the first row number ("B1B2", "A10A9").
    for cut in range(2, len(t) - 1):
        if t[cut].isalpha() and t[cut - 1].isdigit() or t[cut - 1] == ":":
            return move_id(parse_square(t[:cut]), parse_square(t[cut:]))
    raise NotationError(f"{text!r} is not a move: write it like B1-B2 (from-to)")


Tables = tuple[tuple[tuple[int, ...], ...], tuple[tuple[tuple[int, ...], ...], ...]]


def build_tables(blocked: frozenset[int]) -> Tables:
    """Per square: its orthogonal neighbours, and per direction the straight line of squares up to
    the edge or a blocked square, nearest first. Any 10x10 board with impassable squares uses it
    (the classic lakes here, LOTR's Forbidden Zones in `fogofwar.games.lotr`)."""
    neighbours: list[tuple[int, ...]] = []
    rays: list[tuple[tuple[int, ...], ...]] = []
    for sq in range(NUM_SQUARES):
        r, c = divmod(sq, SIZE)
        near: list[int] = []
        sq_rays: list[tuple[int, ...]] = []
        for dr, dc in _DELTAS:
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


def step_moves(
    board: Sequence[int],
    squares: Iterable[int],
    own: int,
    owner_bit: int,
    runs: Sequence[bool],
    tables: Tables,
) -> list[int]:
    """The moves and attacks of the pieces on `squares` (action ids `from * 100 + to`, unsorted), on a board
    of piece codes (0: empty) whose `owner_bit` is `own` for the mover's pieces: one step to a free or enemy
    neighbour, or, for a piece whose code `runs[code]` says runs (a scout, a knight), any number of free
    squares along a line, ending there or in an attack (STR-MOVE-*, LOTR-MOVE-*, LOTR-KNIGHT-*). The
    repetition rules are each game's."""
    neighbours, rays = tables
    out: list[int] = []
    append = out.append
    for src in squares:
        base = src * 100
        if runs[board[src]]:
            for ray in rays[src]:
                for dst in ray:
                    c = board[dst]
                    if not c:
                        append(base + dst)
                    else:
                        if c & owner_bit != own:
                            append(base + dst)
                        break
        else:
            for dst in neighbours[src]:
                c = board[dst]
                if not c or c & owner_bit != own:
                    append(base + dst)
    return out


def draw_board(cells: Sequence[object], blocked: str, mark: Callable[[Any], str]) -> list[str]:
    """The rows of a plain-text board, row 10 at the top, files under it: `blocked` for a lake or zone cell
    ('lake', 'zone'), '.' for an empty one, `mark(cell)` (two or three letters: side and rank) for a piece."""
    lines = []
    for row in range(SIZE - 1, -1, -1):
        parts = []
        for col in range(SIZE):
            cell = cells[row * SIZE + col]
            if cell == blocked:
                parts.append(" ~~ ")
            elif cell is None:
                parts.append(" .  ")
            else:
                parts.append(f" {mark(cell):<3}")
        lines.append(f"{row + 1:>2} " + "".join(parts).rstrip())
    lines.append("    " + "   ".join(FILES))
    return lines


NEIGHBOURS, RAYS = build_tables(LAKES)
"""NEIGHBOURS[sq]: orthogonal neighbours off the lakes. RAYS[sq]: per direction, the squares
in a straight line up to the edge or a lake, nearest first (for scouts)."""

SETUP_SQUARES: tuple[tuple[int, ...], tuple[int, ...]] = tuple(  # type: ignore[assignment]
    tuple(r * SIZE + c for r in rows for c in range(SIZE)) for rows in HOME_ROWS
)
LAND_SQUARES: tuple[int, ...] = tuple(sq for sq in range(NUM_SQUARES) if sq not in LAKES)


def segment(src: int, dst: int) -> tuple[int, int, int] | None:
    """The square boundaries a straight move crosses, as (line, first, last) or None if not straight.

    Lines 0-9 are rows, 10-19 columns; boundary k lies between positions k and k+1 on the line.
    The two-squares rule compares these (STR-REP-2).

    >>> segment(parse_square("A1"), parse_square("A4"))
    (10, 0, 2)
    """
    sr, sc = divmod(src, SIZE)
    dr, dc = divmod(dst, SIZE)
    if sr == dr and sc != dc:
        return (sr, min(sc, dc), max(sc, dc) - 1)
    if sc == dc and sr != dr:
        return (SIZE + sc, min(sr, dr), max(sr, dr) - 1)
    return None


SEGMENTS: dict[int, tuple[int, int, int]] = {
    src * NUM_SQUARES + dst: seg
    for src in range(NUM_SQUARES)
    for dst in range(NUM_SQUARES)
    if (seg := segment(src, dst)) is not None
}
