"""The compiled look-ahead (`...stratego.agents.deep_kernel`): exact values, checked against a plain negamax."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fogofwar.games.stratego.agents.deep_kernel import modelled_root_values, root_values
from fogofwar.games.stratego.agents.knowledge import BOMB, FLAG, MARSHAL, MINER, SCOUT, SPY, VALUE
from fogofwar.games.stratego.rules import battle
from fogofwar.games.stratego.sim.tables import COMPACT_OF_MOVE, NUM_COMPACT_ACTIONS
from fogofwar.grid.board import LAKES, NEIGHBOURS, RAYS

VAL = np.array([VALUE[r] for r in range(12)], np.float64)
SHARP, MARGIN = 8.0, 0.05


def _result(a: int, d: int) -> int:
    win, survive = battle(a, d)
    return 0 if win and not survive else (1 if survive else 2)


def _win(own: float, enemy: float) -> float:
    total = own + enemy
    x = SHARP * (own - enemy) / total if total > 0 else 0.0
    return MARGIN + (1 - 2 * MARGIN) / (1 + math.exp(-x))


def _moves(board: list[int], side: int, captures_only: bool) -> list[tuple[int, int]]:
    out = []
    for src in range(100):
        c = board[src] * side
        if c <= 0 or c - 1 in (FLAG, BOMB):
            continue
        rays = RAYS[src] if c - 1 == SCOUT else [[n] for n in NEIGHBOURS[src]]
        for ray in rays:
            for dst in ray:
                t = board[dst] * side
                if t == 0:
                    if not captures_only:
                        out.append((src, dst))
                    continue
                if t < 0:
                    out.append((src, dst))
                break
    return out


def _play(board: list[int], side: int, src: int, dst: int) -> tuple[list[int], bool]:
    """The board after the move, and whether it took the flag."""
    b = board.copy()
    mover, target = b[src], b[dst]
    b[src] = 0
    if target == 0:
        b[dst] = mover
        return b, False
    a, d = abs(mover) - 1, abs(target) - 1
    if d == FLAG:
        return b, True
    res = _result(a, d)
    if res == 0:
        b[dst] = mover
    elif res == 2:
        b[dst] = 0
    return b, False


def _value(board: list[int], side: int) -> float:
    own = sum(VAL[c - 1] for c in board if c > 0 and c - 1 != FLAG)
    enemy = sum(VAL[-c - 1] for c in board if c < 0 and -c - 1 != FLAG)
    return (2 * _win(own, enemy) - 1) * side


def _negamax(board: list[int], side: int, depth: int, qdepth: int) -> float:
    """The kernel's definition without pruning: full width for `depth` plies, then captures or standing pat."""
    if depth <= 0:
        best = _value(board, side)
        if qdepth <= 0:
            return best
        for src, dst in _moves(board, side, True):
            b, won = _play(board, side, src, dst)
            best = max(best, 1.0 if won else -_negamax(b, -side, 0, qdepth - 1))
        return best
    moves = _moves(board, side, False)
    if not moves:
        return -1.0
    best = -math.inf
    for src, dst in moves:
        b, won = _play(board, side, src, dst)
        best = max(best, 1.0 if won else -_negamax(b, -side, depth - 1, qdepth))
    return best


def _random_board(rng: random.Random, pieces: int) -> list[int]:
    """A small random position in one corner region, so that pieces meet within a few plies."""
    squares = [sq for sq in range(100) if sq not in LAKES and sq % 10 < 5 and sq // 10 < 5]
    rng.shuffle(squares)
    board = [0] * 100
    for i, sq in enumerate(squares[:pieces]):
        rank = rng.choice([SPY, SCOUT, MINER, 4, 6, 8, MARSHAL, BOMB, BOMB, FLAG])
        board[sq] = (rank + 1) * (1 if i % 2 == 0 else -1)
    return board


def _kernel(
    board: list[int], roots: list[int], depth: int, qdepth: int, shy: list[int] | None = None, bold: int = 11
) -> np.ndarray:
    out, _, aborted = root_values(
        np.array([board], np.int64),
        np.array(shy if shy is not None else [0] * 100, np.int64),
        np.zeros(100, np.int64),
        np.array(roots, np.int64),
        VAL,
        VAL,
        SHARP,
        MARGIN,
        depth,
        qdepth,
        10**8,
        bold,
        0.0,
    )
    assert aborted == 0
    return np.asarray(out[0])


@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), pieces=st.integers(4, 8), depth=st.integers(1, 3), qdepth=st.integers(0, 3))
def test_alpha_beta_values_equal_plain_negamax(seed: int, pieces: int, depth: int, qdepth: int) -> None:
    board = _random_board(random.Random(seed), pieces)
    roots = [src * 100 + dst for src, dst in _moves(board, 1, False)]
    if not roots:
        return
    got = _kernel(board, roots, depth, qdepth)
    for i, move in enumerate(roots):
        b, won = _play(board, 1, *divmod(move, 100))
        want = 1.0 if won else -_negamax(b, -1, depth - 1, qdepth)
        assert got[i] == pytest.approx(0.5 * (want + 1.0), abs=1e-9), (board, move)


def _battle_code(board: list[int], move: int) -> int:
    """The kernel's key of a root move's battle: 0 our attacker won, 1 the defender stayed, 2 both died, 3 none."""
    src, dst = divmod(move, 100)
    return 3 if board[dst] == 0 else _result(board[src] - 1, -board[dst] - 1)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), pieces=st.integers(4, 8), depth=st.integers(2, 3), qdepth=st.integers(0, 2))
def test_a_modelled_reply_weighs_the_searched_replies_by_their_chances(
    seed: int, pieces: int, depth: int, qdepth: int
) -> None:
    """The enemy's first reply weighed by given chances (the move policy's, in play), mixed with the worst: each
    reply's value is the plain negamax's `depth - 2` plies further; with all weight on the worst it is the
    unmodelled search."""
    rng = random.Random(seed)
    board = _random_board(rng, pieces)
    roots = [src * 100 + dst for src, dst in _moves(board, 1, False)]
    if not roots:
        return
    table = np.zeros((len(roots), 4, NUM_COMPACT_ACTIONS))
    for i, move in enumerate(roots):
        b, _ = _play(board, 1, *divmod(move, 100))
        for src, dst in _moves(b, -1, False):
            table[i, _battle_code(board, move), COMPACT_OF_MOVE[src * 100 + dst]] = rng.random()
    args = (np.array([board], np.int64), np.zeros(100, np.int64), np.zeros(100, np.int64), np.array(roots, np.int64))
    rest = (VAL, VAL, SHARP, MARGIN, depth, qdepth, 10**8, 11, 0.0)
    worst_only, _, _ = modelled_root_values(*args, *rest, table, 1.0)
    assert np.allclose(worst_only[0], _kernel(board, roots, depth, qdepth), atol=1e-9)
    paranoia = 0.25
    got, _, aborted = modelled_root_values(*args, *rest, table, paranoia)
    assert aborted == 0
    for i, move in enumerate(roots):
        b, won = _play(board, 1, *divmod(move, 100))
        if won:
            assert got[0, i] == 1.0
            continue
        replies = _moves(b, -1, False)
        if not replies:
            assert got[0, i] == 1.0  # the enemy has no move left
            continue
        values, chances = [], []
        for src, dst in replies:
            after, took = _play(b, -1, src, dst)
            values.append(-1.0 if took else _negamax(after, 1, depth - 2, qdepth))
            chances.append(max(table[i, _battle_code(board, move), COMPACT_OF_MOVE[src * 100 + dst]], 1e-4))
        mean = sum(c * v for c, v in zip(chances, values, strict=True)) / sum(chances)
        want = (1 - paranoia) * mean + paranoia * min(values)
        assert got[0, i] == pytest.approx(0.5 * (want + 1.0), abs=1e-9), (board, move)


def test_it_sees_a_piece_en_prise_two_plies_on() -> None:
    """Our general next to their known marshal: a move elsewhere loses it, stepping away keeps it."""
    board = [0] * 100
    board[0], board[99] = FLAG + 1, -(FLAG + 1)
    board[74], board[75] = 9 + 1, -(MARSHAL + 1)
    board[20] = MINER + 1
    elsewhere, flee = 2030, 7473
    got = _kernel(board, [elsewhere, flee], 2, 0)
    assert got[1] > got[0] + 0.1


def test_a_fork_is_found_at_three_plies_not_one() -> None:
    """Our marshal steps next to two of their colonels at once: they save one, we take the other."""
    board = [0] * 100
    board[0], board[99] = FLAG + 1, -(FLAG + 1)
    board[21] = MARSHAL + 1
    board[32], board[23] = -(8 + 1), -(8 + 1)
    fork, quiet = 2122, 2120
    shallow = _kernel(board, [fork, quiet], 1, 0)
    deep = _kernel(board, [fork, quiet], 3, 0)
    assert shallow[0] == pytest.approx(shallow[1])
    assert deep[0] > deep[1] + 0.05


def test_taking_the_flag_is_a_win_and_losing_every_move_a_loss() -> None:
    board = [0] * 100
    board[44], board[45] = SCOUT + 1, -(FLAG + 1)
    board[99] = -(MARSHAL + 1)
    assert _kernel(board, [4445], 3, 2)[0] == pytest.approx(1.0)
    # Our only movable piece walks into a bomb: afterwards we have no move and lose.
    board = [0] * 100
    board[0], board[1] = FLAG + 1, SCOUT + 1
    board[11], board[2] = -(BOMB + 1), -(BOMB + 1)
    board[10] = BOMB + 1
    board[99], board[98] = -(FLAG + 1), -(MARSHAL + 1)
    assert _kernel(board, [102], 3, 0)[0] == pytest.approx(0.0)


def test_the_node_budget_aborts() -> None:
    board = _random_board(random.Random(3), 8)
    roots = [src * 100 + dst for src, dst in _moves(board, 1, False)]
    zeros = np.zeros(100, np.int64)
    _, nodes, aborted = root_values(
        np.array([board], np.int64), zeros, zeros, np.array(roots, np.int64), VAL, VAL, SHARP, MARGIN, 6, 4, 50, 11, 0.0
    )
    assert aborted == 1 and nodes == 51


def test_our_high_pieces_leave_shy_pieces_alone() -> None:
    """A never-moved enemy piece next to our marshal, walled in: with `bold` 7 the marshal does not take it in
    the search (it may be a bomb in other worlds); with 11 it does."""
    board = [0] * 100
    board[0], board[99] = FLAG + 1, -(FLAG + 1)
    board[33], board[34] = MARSHAL + 1, -(4 + 1)  # a sergeant in this world, never seen to move
    board[20] = MINER + 1
    board[90], board[91] = -(9 + 1), -(8 + 1)  # far away, so that the lead matters
    board[24], board[35], board[44] = -(BOMB + 1), -(BOMB + 1), -(BOMB + 1)  # the sergeant cannot step away
    shy = [0] * 100
    shy[34] = 1
    quiet = 2010
    careful = _kernel(board, [quiet], 2, 2, shy, bold=7)[0]
    reckless = _kernel(board, [quiet], 2, 2, shy, bold=11)[0]
    assert reckless > careful + 0.01
    # Shyness is the piece's, not the rank's: the same sergeant seen to move is fair game.
    shy[34] = 0
    assert _kernel(board, [quiet], 2, 2, shy, bold=7)[0] == pytest.approx(reckless)


def test_reveal_weighs_what_each_side_still_hides() -> None:
    """With `reveal` > 0 a battle that shows our hidden general costs something even when the material
    result is the same; with 0 only material counts."""
    board = [0] * 100
    board[0], board[99] = FLAG + 1, -(FLAG + 1)
    board[33], board[34] = 9 + 1, -(4 + 1)  # our hidden general next to a sergeant we know
    board[20] = MINER + 1
    board[90], board[91] = -(8 + 1), -(8 + 1)
    hid = np.zeros(100, np.int64)
    hid[33] = 1
    take, quiet = 3334, 2010

    def values(reveal: float) -> np.ndarray:
        out, _, _ = root_values(
            np.array([board], np.int64),
            np.zeros(100, np.int64),
            hid,
            np.array([take, quiet], np.int64),
            VAL,
            VAL,
            SHARP,
            MARGIN,
            1,
            0,
            10**8,
            11,
            reveal,
        )
        return np.asarray(out[0])

    plain, careful = values(0.0), values(0.5)
    assert plain[0] > plain[1]  # a free sergeant
    assert careful[0] - careful[1] < plain[0] - plain[1]  # ... that shows our general
