"""The numba kernels of the batched simulator: one Stratego position per row of a few numpy arrays.

The rules are those of `fogofwar.games.stratego.rules` (the reference engine), rewritten over arrays:

* `board[e, sq]`: the reference's piece codes (rank | owner << 4 | moved 32 | revealed 64 | present 128).
* `st[e, field]`: the scalar fields below (side to move, move count, ending, Zobrist hash, the number of
  cached legal moves, the last two moves) and, per player (`_pb(p)` + offset), the two-squares streak
  (square of the piece, line, longest run) and the more-squares chase record (active flag, last from/to,
  threatened and evader square sets as two 64-bit words each, number of position hashes).
* `runs[e, p, b]`: per boundary b of the streak's line, how many of the piece's latest moves in a row
  crossed it (the reference's `Streak` tuple).
* `pos[e, p, k]`: the Zobrist hashes of the positions of p's current chase (the reference's frozenset,
  kept without duplicates); the caller keeps `pos.shape[2]` above the longest chase (`grow_positions`).
* `mob[e, p, i]`, `mobidx[e, sq]`: the squares of p's movable pieces (the reference's `_mobile` sets).
* `legal[e, :st[e, NLEGAL]]`: the side to move's legal move ids (unsorted), computed once per turn.
* `captured[e, owner, rank]`: pieces taken off the board.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fogofwar.games.stratego.sim.planes import (
    KNOWN_ENEMY,
    LAKE_PLANE,
    LAST_FROM,
    LAST_TO,
    MOVED_UNKNOWN,
    OWN_MOVED,
    OWN_REVEALED,
    PREV_FROM,
    PREV_TO,
    UNACCOUNTED,
    UNMOVED_UNKNOWN,
)
from fogofwar.games.stratego.sim.tables import (
    BOMB,
    FLAG,
    FLAG_CAPTURED,
    LAKE,
    MARSHAL,
    MINER,
    MOVE_LIMIT,
    NB,
    NB_N,
    NO_MOVES,
    NO_MOVES_EITHER,
    RAY,
    RAY_N,
    SCOUT,
    SEG_HI,
    SEG_LINE,
    SEG_LO,
    SPY,
    ZOBRIST,
)

# --- st fields ------------------------------------------------------------------------------
PLAYER, MOVES, DONE, TERM, WINNER, HASH, NLEGAL = 0, 1, 2, 3, 4, 5, 6
LAST_SRC, LAST_DST, PREV_SRC, PREV_DST = 7, 8, 9, 10
PBASE, PSTRIDE = 11, 12
# per-player offsets
S_TO, S_LINE, S_LONG = 0, 1, 2
C_ACT, C_FROM, C_TO, C_THR0, C_THR1, C_EV0, C_EV1, C_NPOS = 3, 4, 5, 6, 7, 8, 9, 10
NMOB = 11
NUM_FIELDS = PBASE + 2 * PSTRIDE
NUM_BOUNDARIES = 9


@njit(cache=True)
def _has(w0, w1, sq):  # type: ignore[no-untyped-def]
    if sq < 64:
        return ((w0 >> sq) & 1) != 0
    return ((w1 >> (sq - 64)) & 1) != 0


@njit(cache=True)
def _bit(sq):  # type: ignore[no-untyped-def]
    return np.int64(1) << np.int64(sq & 63)


@njit(cache=True)
def _put(board, st, mob, mobidx, e, sq, code):  # type: ignore[no-untyped-def]
    board[e, sq] = code
    st[e, HASH] ^= ZOBRIST[sq, code & 31]
    r = code & 15
    if r != FLAG and r != BOMB:
        o = (code >> 4) & 1
        f = PBASE + o * PSTRIDE + NMOB
        k = st[e, f]
        mob[e, o, k] = sq
        mobidx[e, sq] = k
        st[e, f] = k + 1


@njit(cache=True)
def _remove(board, st, mob, mobidx, e, sq):  # type: ignore[no-untyped-def]
    code = board[e, sq]
    if code == 0:
        return
    board[e, sq] = 0
    st[e, HASH] ^= ZOBRIST[sq, code & 31]
    r = code & 15
    if r != FLAG and r != BOMB:
        o = (code >> 4) & 1
        f = PBASE + o * PSTRIDE + NMOB
        k = mobidx[e, sq]
        last = st[e, f] - 1
        moved_sq = mob[e, o, last]
        mob[e, o, k] = moved_sq
        mobidx[e, moved_sq] = k
        mobidx[e, sq] = -1
        st[e, f] = last


@njit(cache=True)
def _allowed(board, st, runs, pos, e, p, pb, src, dst, check2, checkm, limit):  # type: ignore[no-untyped-def]
    """Whether the pseudo-legal move src-dst passes the repetition rules (reference `_breaks_*`)."""
    if check2 and src == st[e, pb + S_TO]:
        a = src * 100 + dst
        if SEG_LINE[a] == st[e, pb + S_LINE]:
            for b in range(SEG_LO[a], SEG_HI[a] + 1):
                if runs[e, p, b] >= limit:
                    return False
    if checkm and board[e, dst] == 0:
        ev0 = st[e, pb + C_EV0]
        ev1 = st[e, pb + C_EV1]
        chasing = False
        for j in range(NB_N[dst]):
            if _has(ev0, ev1, NB[dst, j]):
                chasing = True
                break
        if chasing and not (src == st[e, pb + C_TO] and dst == st[e, pb + C_FROM]):
            key = board[e, src] & 31
            h = st[e, HASH] ^ ZOBRIST[src, key] ^ ZOBRIST[dst, key]
            for k in range(st[e, pb + C_NPOS]):
                if pos[e, p, k] == h:
                    return False
    return True


@njit(cache=True)
def _gen(board, st, runs, pos, mob, legal, e, p, limit, more, any_only):  # type: ignore[no-untyped-def]
    """Legal moves of p into legal[e] (count returned); with any_only, 1 at the first one found, nothing written."""
    pb = PBASE + p * PSTRIDE
    check2 = limit > 0 and st[e, pb + S_LONG] >= limit
    checkm = more and st[e, pb + C_ACT] != 0
    if check2 or checkm:
        return _gen_filtered(board, st, runs, pos, mob, legal, e, p, limit, check2, checkm, any_only)
    b = board[e]
    out = legal[e]
    squares = mob[e, p]
    own = p << 4
    n = 0
    for i in range(st[e, pb + NMOB]):
        src = squares[i]
        base = src * 100
        if (b[src] & 15) == SCOUT:
            for d in range(4):
                for j in range(RAY_N[src, d]):
                    dst = RAY[src, d, j]
                    c = b[dst]
                    if c == 0:
                        if any_only:
                            return 1
                        out[n] = base + dst
                        n += 1
                    else:
                        if (c & 16) != own:
                            if any_only:
                                return 1
                            out[n] = base + dst
                            n += 1
                        break
        else:
            for j in range(NB_N[src]):
                dst = NB[src, j]
                c = b[dst]
                if c == 0 or (c & 16) != own:
                    if any_only:
                        return 1
                    out[n] = base + dst
                    n += 1
    return n


@njit(cache=True)
def _gen_filtered(board, st, runs, pos, mob, legal, e, p, limit, check2, checkm, any_only):  # type: ignore[no-untyped-def]
    """`_gen` when a repetition rule may bar moves: every pseudo-legal move goes through `_allowed`."""
    pb = PBASE + p * PSTRIDE
    own = p << 4
    n = 0
    for i in range(st[e, pb + NMOB]):
        src = mob[e, p, i]
        if (board[e, src] & 15) == SCOUT:
            for d in range(4):
                for j in range(RAY_N[src, d]):
                    dst = RAY[src, d, j]
                    c = board[e, dst]
                    if c != 0 and (c & 16) == own:
                        break
                    if _allowed(board, st, runs, pos, e, p, pb, src, dst, check2, checkm, limit):
                        if any_only:
                            return 1
                        legal[e, n] = src * 100 + dst
                        n += 1
                    if c != 0:
                        break
        else:
            for j in range(NB_N[src]):
                dst = NB[src, j]
                c = board[e, dst]
                if c != 0 and (c & 16) == own:
                    continue
                if _allowed(board, st, runs, pos, e, p, pb, src, dst, check2, checkm, limit):
                    if any_only:
                        return 1
                    legal[e, n] = src * 100 + dst
                    n += 1
    return n


@njit(cache=True)
def _finish(board, st, runs, pos, mob, legal, e, mover, may_be_stuck, limit, more, max_moves):  # type: ignore[no-untyped-def]
    """Reference `_finish_turn`: the no-move endings (incl. the mover left without a move) and the move cap."""
    nxt = st[e, PLAYER]
    n = _gen(board, st, runs, pos, mob, legal, e, nxt, limit, more, False)
    st[e, NLEGAL] = n
    stuck = False
    if may_be_stuck or n == 0:
        stuck = _gen(board, st, runs, pos, mob, legal, e, mover, limit, more, True) == 0
    if n == 0 and stuck:
        st[e, DONE] = 1
        st[e, TERM] = NO_MOVES_EITHER
        st[e, WINNER] = -1
    elif n == 0:
        st[e, DONE] = 1
        st[e, TERM] = NO_MOVES
        st[e, WINNER] = mover
    elif stuck:
        st[e, DONE] = 1
        st[e, TERM] = NO_MOVES
        st[e, WINNER] = nxt
    elif max_moves > 0 and st[e, MOVES] >= max_moves:
        st[e, DONE] = 1
        st[e, TERM] = MOVE_LIMIT
        st[e, WINNER] = -1
    if st[e, DONE] != 0:
        st[e, NLEGAL] = 0


@njit(cache=True)
def _reset_streak(st, runs, e, p):  # type: ignore[no-untyped-def]
    pb = PBASE + p * PSTRIDE
    st[e, pb + S_TO] = -1
    st[e, pb + S_LINE] = -1
    st[e, pb + S_LONG] = 0
    for b in range(NUM_BOUNDARIES):
        runs[e, p, b] = 0


@njit(cache=True)
def _reset_chase(st, e, p):  # type: ignore[no-untyped-def]
    pb = PBASE + p * PSTRIDE
    st[e, pb + C_ACT] = 0
    st[e, pb + C_FROM] = -1
    st[e, pb + C_TO] = -1
    st[e, pb + C_THR0] = 0
    st[e, pb + C_THR1] = 0
    st[e, pb + C_EV0] = 0
    st[e, pb + C_EV1] = 0
    st[e, pb + C_NPOS] = 0


@njit(cache=True)
def _add_position(st, pos, e, p, h):  # type: ignore[no-untyped-def]
    f = PBASE + p * PSTRIDE + C_NPOS
    n = st[e, f]
    for k in range(n):
        if pos[e, p, k] == h:
            return
    pos[e, p, n] = h
    st[e, f] = n + 1


@njit(cache=True)
def battle_outcome(a, d):  # type: ignore[no-untyped-def]
    """(attacker survives, defender survives): reference `battle`."""
    if d == FLAG:
        return True, False
    if d == BOMB:
        if a == MINER:
            return True, False
        return False, True
    if a == SPY and d == MARSHAL:
        return True, False
    if a == d:
        return False, False
    if a > d:
        return True, False
    return False, True


@njit(cache=True)
def _move(board, st, runs, pos, mob, mobidx, legal, captured, e, action, limit, more, max_moves):  # type: ignore[no-untyped-def]
    """Reference `_move` for a legal move, then `_finish_turn`."""
    src = action // 100
    dst = action % 100
    p = st[e, PLAYER]
    q = 1 - p
    pb = PBASE + p * PSTRIDE
    qb = PBASE + q * PSTRIDE
    code = np.int64(board[e, src])
    target = np.int64(board[e, dst])
    old_hash = st[e, HASH]
    rank = code & 15
    line = SEG_LINE[action]
    lo = SEG_LO[action]
    hi = SEG_HI[action]
    moved = code | 32
    if hi > lo:
        moved |= 64
    _remove(board, st, mob, mobidx, e, src)
    attacker_alive = True
    flag_taken = False
    if target == 0:
        _put(board, st, mob, mobidx, e, dst, moved)
    else:
        drank = target & 15
        attacker_alive, defender_alive = battle_outcome(rank, drank)
        if not defender_alive:
            _remove(board, st, mob, mobidx, e, dst)
            captured[e, q, drank] += 1
            flag_taken = drank == FLAG
            if st[e, qb + S_TO] == dst:
                _reset_streak(st, runs, e, q)
            if attacker_alive:
                _put(board, st, mob, mobidx, e, dst, moved | 64)
        else:
            board[e, dst] = target | 64  # same identity: hash and movable set unchanged
        if not attacker_alive:
            captured[e, p, rank] += 1
    # Two-squares streak.
    if not attacker_alive:
        _reset_streak(st, runs, e, p)
    else:
        same = src == st[e, pb + S_TO] and line == st[e, pb + S_LINE]
        longest = 0
        for b in range(NUM_BOUNDARIES):
            v = (runs[e, p, b] + 1 if same else 1) if lo <= b <= hi else 0
            runs[e, p, b] = v
            if v > longest:
                longest = v
        st[e, pb + S_TO] = dst
        st[e, pb + S_LINE] = line
        st[e, pb + S_LONG] = longest
    # More-squares chase records.
    if more:
        if target != 0:
            _reset_chase(st, e, 0)
            _reset_chase(st, e, 1)
        else:
            new_hash = st[e, HASH]
            if _has(st[e, qb + C_THR0], st[e, qb + C_THR1], src):
                st[e, qb + C_ACT] = 1
                st[e, qb + C_THR0] = 0
                st[e, qb + C_THR1] = 0
                if src < 64:
                    st[e, qb + C_EV0] &= ~_bit(src)
                else:
                    st[e, qb + C_EV1] &= ~_bit(src)
                if dst < 64:
                    st[e, qb + C_EV0] |= _bit(dst)
                else:
                    st[e, qb + C_EV1] |= _bit(dst)
                _add_position(st, pos, e, q, new_hash)
            else:
                _reset_chase(st, e, q)
            t0 = np.int64(0)
            t1 = np.int64(0)
            enemy = q << 4
            for j in range(NB_N[dst]):
                n = NB[dst, j]
                c = board[e, n]
                if c != 0 and (c & 16) == enemy:
                    if n < 64:
                        t0 |= _bit(n)
                    else:
                        t1 |= _bit(n)
            if st[e, pb + C_ACT] != 0 and ((t0 & st[e, pb + C_EV0]) | (t1 & st[e, pb + C_EV1])) != 0:
                st[e, pb + C_ACT] = 0
                st[e, pb + C_THR0] = t0
                st[e, pb + C_THR1] = t1
                _add_position(st, pos, e, p, new_hash)
                st[e, pb + C_FROM] = src
                st[e, pb + C_TO] = dst
            elif (t0 | t1) != 0:
                _reset_chase(st, e, p)
                st[e, pb + C_THR0] = t0
                st[e, pb + C_THR1] = t1
                _add_position(st, pos, e, p, old_hash)
                _add_position(st, pos, e, p, new_hash)
                st[e, pb + C_FROM] = src
                st[e, pb + C_TO] = dst
            else:
                _reset_chase(st, e, p)
    st[e, MOVES] += 1
    st[e, PLAYER] = q
    st[e, PREV_SRC] = st[e, LAST_SRC]
    st[e, PREV_DST] = st[e, LAST_DST]
    st[e, LAST_SRC] = src
    st[e, LAST_DST] = dst
    if flag_taken:
        st[e, DONE] = 1
        st[e, TERM] = FLAG_CAPTURED
        st[e, WINNER] = p
        st[e, NLEGAL] = 0
        return
    may_be_stuck = (not attacker_alive) or (limit > 0 and st[e, pb + S_LONG] >= limit)
    _finish(board, st, runs, pos, mob, legal, e, p, may_be_stuck, limit, more, max_moves)


@njit(cache=True)
def _reset_one(board, st, runs, pos, mob, mobidx, legal, captured, e, codes_row, to_move, limit, more, max_moves):  # type: ignore[no-untyped-def]
    board[e, :] = 0
    st[e, :] = 0
    st[e, WINNER] = -1
    for f in (LAST_SRC, LAST_DST, PREV_SRC, PREV_DST):
        st[e, f] = -1
    for p in range(2):
        _reset_streak(st, runs, e, p)
        _reset_chase(st, e, p)
    mobidx[e, :] = -1
    captured[e, :, :] = 0
    for sq in range(100):
        c = codes_row[sq]
        if c != 0:
            _put(board, st, mob, mobidx, e, sq, np.int64(c))
    st[e, PLAYER] = to_move
    _finish(board, st, runs, pos, mob, legal, e, 1 - to_move, True, limit, more, max_moves)


@njit(cache=True)
def reset_kernel(board, st, runs, pos, mob, mobidx, legal, captured, codes, to_move, which, limit, more, max_moves):  # type: ignore[no-untyped-def]
    """Start the games `which[e]` from the positions `codes[e]` (piece codes, 0 = empty), `to_move[e]` to move."""
    for e in range(board.shape[0]):
        if which[e]:
            _reset_one(
                board, st, runs, pos, mob, mobidx, legal, captured, e, codes[e], to_move[e], limit, more, max_moves
            )


@njit(cache=True)
def check_actions_kernel(st, legal, actions, active):  # type: ignore[no-untyped-def]
    """Index of the first running game whose action is not one of its legal moves, or -1."""
    for e in range(st.shape[0]):
        if st[e, DONE] != 0 or not active[e]:
            continue
        a = actions[e]
        ok = False
        for k in range(st[e, NLEGAL]):
            if legal[e, k] == a:
                ok = True
                break
        if not ok:
            return e
    return -1


@njit(cache=True)
def step_kernel(  # type: ignore[no-untyped-def]
    board, st, runs, pos, mob, mobidx, legal, captured, actions, active, limit, more, max_moves, rewards, ended
):
    """Play actions[e] in every running game with active[e]; rewards[e] gets +1/-1 for the seats of a game
    that ends now."""
    for e in range(board.shape[0]):
        rewards[e, 0] = 0.0
        rewards[e, 1] = 0.0
        ended[e] = False
        if st[e, DONE] != 0 or not active[e]:
            continue
        _move(board, st, runs, pos, mob, mobidx, legal, captured, e, actions[e], limit, more, max_moves)
        if st[e, DONE] != 0:
            ended[e] = True
            w = st[e, WINNER]
            if w >= 0:
                rewards[e, w] = 1.0
                rewards[e, 1 - w] = -1.0


@njit(cache=True)
def mask_kernel(st, legal, out, compact_of_move):  # type: ignore[no-untyped-def]
    """out[e, id] = True for each legal move id (reference ids, or compact ids through compact_of_move)."""
    out[:, :] = False
    for e in range(st.shape[0]):
        for k in range(st[e, NLEGAL]):
            a = legal[e, k]
            if compact_of_move.shape[0] > 0:
                out[e, compact_of_move[a]] = True
            else:
                out[e, a] = True


@njit(cache=True)
def obs_kernel(board, st, captured, players, roster, out):  # type: ignore[no-untyped-def]
    """The planes of `fogofwar.games.stratego.sim.planes` for seat players[e] of every game."""
    out[:] = 0.0
    seen = np.zeros(12, np.int64)
    for e in range(board.shape[0]):
        p = players[e]
        seen[:] = 0
        for sq in range(100):
            r = sq // 10
            c = sq % 10
            if LAKE[sq]:
                out[e, LAKE_PLANE, r, c] = 1.0
                continue
            code = board[e, sq]
            if code == 0:
                continue
            rank = code & 15
            if ((code >> 4) & 1) == p:
                out[e, rank, r, c] = 1.0
                if code & 64:
                    out[e, OWN_REVEALED, r, c] = 1.0
                if code & 32:
                    out[e, OWN_MOVED, r, c] = 1.0
            elif code & 64:
                out[e, KNOWN_ENEMY + rank, r, c] = 1.0
                seen[rank] += 1
            elif code & 32:
                out[e, MOVED_UNKNOWN, r, c] = 1.0
            else:
                out[e, UNMOVED_UNKNOWN, r, c] = 1.0
        for plane, f in ((LAST_FROM, LAST_SRC), (LAST_TO, LAST_DST), (PREV_FROM, PREV_SRC), (PREV_TO, PREV_DST)):
            sq = st[e, f]
            if sq >= 0:
                out[e, plane, sq // 10, sq % 10] = 1.0
        for rank in range(12):
            v = roster[rank] - captured[e, 1 - p, rank] - seen[rank]
            if v != 0:
                out[e, UNACCOUNTED + rank, :, :] = v


@njit(cache=True)
def random_codes_kernel(codes, pieces, home, which):  # type: ignore[no-untyped-def]
    """Uniformly random setups (numba's random stream): pieces[i] ranks on shuffled home[p] squares."""
    k = pieces.shape[0]
    m = home.shape[1]
    squares = np.empty(m, np.int64)
    for e in range(codes.shape[0]):
        if not which[e]:
            continue
        codes[e, :] = 0
        for p in range(2):
            squares[:] = home[p]
            for i in range(k):  # partial Fisher-Yates: the first k squares are a uniform sample
                j = np.random.randint(i, m)
                t = squares[i]
                squares[i] = squares[j]
                squares[j] = t
                codes[e, squares[i]] = 128 | (p << 4) | pieces[i]


@njit(cache=True)
def seed_kernel(seed):  # type: ignore[no-untyped-def]
    np.random.seed(seed)


@njit(cache=True)
def rollout_kernel(n_games, seed, pieces, home, limit, more, max_moves, lmax, cap):  # type: ignore[no-untyped-def]
    """Play n_games uniformly random games one after the other in one env.

    Returns (moves per game, termination per game, winner per game).
    """
    np.random.seed(seed)
    board = np.zeros((1, 100), np.uint8)
    st = np.zeros((1, NUM_FIELDS), np.int64)
    runs = np.zeros((1, 2, NUM_BOUNDARIES), np.int64)
    pos = np.zeros((1, 2, cap), np.int64)
    mob = np.zeros((1, 2, 40), np.int64)
    mobidx = np.full((1, 100), -1, np.int64)
    legal = np.zeros((1, lmax), np.int64)
    captured = np.zeros((1, 2, 12), np.int64)
    codes = np.zeros((1, 100), np.uint8)
    which = np.ones(1, np.bool_)
    lengths = np.zeros(n_games, np.int64)
    terms = np.zeros(n_games, np.int64)
    winners = np.zeros(n_games, np.int64)
    for g in range(n_games):
        random_codes_kernel(codes, pieces, home, which)
        _reset_one(board, st, runs, pos, mob, mobidx, legal, captured, 0, codes[0], 0, limit, more, max_moves)
        while st[0, DONE] == 0:
            need = max(st[0, PBASE + C_NPOS], st[0, PBASE + PSTRIDE + C_NPOS]) + 1
            if need > pos.shape[2]:
                bigger = np.zeros((1, 2, 2 * pos.shape[2]), np.int64)
                bigger[:, :, : pos.shape[2]] = pos
                pos = bigger
            a = legal[0, np.random.randint(0, st[0, NLEGAL])]
            _move(board, st, runs, pos, mob, mobidx, legal, captured, 0, a, limit, more, max_moves)
        lengths[g] = st[0, MOVES]
        terms[g] = st[0, TERM]
        winners[g] = st[0, WINNER]
    return lengths, terms, winners
