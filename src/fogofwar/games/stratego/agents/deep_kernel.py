"""The compiled look-ahead of `search`: alpha-beta in each sampled world, every root move valued exactly.

Why: the Python look-ahead sees one enemy reply and our recapture; Demon of Ignorance (the yardstick of
docs/strength.md) wins by what two or three moves do: a chase that corners a revealed piece, two threats at
once, a trade that opens a way. This is perfect-information Monte Carlo (PIMC): each sampled world gives
every enemy piece a rank, and in that world a negamax alpha-beta search with a capture-only quiescence runs
from each of our legal moves; the caller averages the values over the worlds. Values are win chances from
material (the same logistic curve as the Python agent; flags are no material), 1 for taking the flag, 0 for
losing it or having no move left.

PIMC's known flaw: in each world both sides see everything, so nothing is bluffed and the enemy "knows" our
hidden ranks. Two corrections keep its worst habits out: our strong pieces never attack a piece never seen
to move (`bold`: in some world it is a bomb, and the average undervalues that risk), and the evaluation may
weigh the material each side still hides (`reveal`).

Board codes: 0 empty; +(rank + 1) our piece; -(rank + 1) an enemy piece (ranks 0..11 of `knowledge`).
Lakes never appear: the neighbour and ray tables of `fogofwar.games.stratego.sim.tables` step around them.
Repetition rules are not searched (the root's legal moves already keep them); a search is a few plies.

Deterministic: no clock is read inside; the caller bounds the work with a node budget, and a search that
exceeds it reports so and its values are discarded.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fogofwar.games.stratego.sim.kernels import battle_outcome
from fogofwar.games.stratego.sim.tables import BOMB, COMPACT_OF_MOVE, FLAG, NB, NB_N, RAY, RAY_N, SCOUT

MAX_PLY = 24
MAX_MOVES = 256
_INF = 1e9
_WIN = 1.0  # value of a won position for the side to move, in negamax units (-1..1)

# The search state, in one int64 array so the kernel's arguments stay few.
NODES, LIMIT, ABORTED = 0, 1, 2

TT_BITS = 18
TT_SIZE = 1 << TT_BITS
EXACT, LOWER, UPPER = 1, 2, 3
_ZRNG = np.random.default_rng(20261124)  # fixed: the keys only need to differ, not to be secret
ZKEY = _ZRNG.integers(-(2**62), 2**62, size=(100, 25), dtype=np.int64)
"""ZKEY[sq, code + 12]: Zobrist keys of the kernel's board codes (the transposition table's hash)."""
ZSIDE = np.int64(_ZRNG.integers(1, 2**62))


@njit(cache=True)
def _result(a, d):  # type: ignore[no-untyped-def]
    """0: the attacker wins and moves in; 1: the defender stays; 2: both die (the simulator's `battle_outcome`)."""
    attacker, defender = battle_outcome(a, d)
    if defender:
        return 1
    return 0 if attacker else 2


@njit(cache=True)
def _eval(own, enemy, own_hid, enemy_hid, reveal, sharp, margin, side):  # type: ignore[no-untyped-def]
    """Negamax value (-1..1) for `side` (+1 us, -1 them) of the material on both sides, plus `reveal` times
    the material each side still hides from the other (a piece known is a piece the other side can hunt)."""
    total = own + enemy
    x = sharp * (own - enemy + reveal * (own_hid - enemy_hid)) / total if total > 0 else 0.0
    w = margin + (1.0 - 2.0 * margin) / (1.0 + np.exp(-x))
    return (2.0 * w - 1.0) * side


@njit(cache=True)
def _gen(board, shy, side, out, scores, own_val, enemy_val, captures_only, bold):  # type: ignore[no-untyped-def]
    """Moves of `side` into out (src * 100 + dst), with ordering scores; returns their number.

    Our pieces above rank `bold` never attack a shy piece (one we have never seen move or fight): a bomb
    there costs a general or the marshal, which no sampled world's average may risk (docs/strength.md)."""
    n = 0
    for src in range(100):
        c = board[src] * side
        if c <= 0:
            continue
        r = c - 1
        if r == FLAG or r == BOMB:  # noqa: SIM109  (plain comparisons compile best)
            continue
        if r == SCOUT:
            for d in range(4):
                for k in range(RAY_N[src, d]):
                    dst = RAY[src, d, k]
                    t = board[dst] * side
                    if t == 0:
                        if not captures_only:
                            out[n] = src * 100 + dst
                            scores[n] = 0.0
                            n += 1
                        continue
                    if t < 0 and not (side > 0 and r > bold and shy[dst]):
                        out[n] = src * 100 + dst
                        scores[n] = _capture_score(r, -t - 1, side, own_val, enemy_val)
                        n += 1
                    break
        else:
            for j in range(NB_N[src]):
                dst = NB[src, j]
                t = board[dst] * side
                if t > 0:
                    continue
                if t == 0:
                    if captures_only:
                        continue
                    out[n] = src * 100 + dst
                    scores[n] = 0.0
                else:
                    if side > 0 and r > bold and shy[dst]:
                        continue
                    out[n] = src * 100 + dst
                    scores[n] = _capture_score(r, -t - 1, side, own_val, enemy_val)
                n += 1
    return n


@njit(cache=True)
def _capture_score(a, d, side, own_val, enemy_val):  # type: ignore[no-untyped-def]
    """Material the attacker's side gains by the battle (for ordering); the flag first of all."""
    if d == FLAG:
        return 1e6
    mine = own_val if side > 0 else enemy_val
    theirs = enemy_val if side > 0 else own_val
    res = _result(a, d)
    if res == 0:
        return 1000.0 + theirs[d]
    if res == 2:
        return 1000.0 + theirs[d] - mine[a]
    return -mine[a]


@njit(cache=True)
def _play(board, shy, hid, src, dst, side, own, enemy, own_hid, enemy_hid, own_val, enemy_val):  # type: ignore[no-untyped-def]
    """Make `side`'s move src-dst (not onto a flag): the battle if any, who stays, what each side loses and
    hides. Returns (own, enemy, own_hid, enemy_hid) after it; the caller undoes it by restoring the squares
    src and dst of board, shy and hid."""
    mover = board[src]
    target = board[dst]
    a = abs(mover) - 1
    hid_src = hid[src]
    board[src] = 0
    hid[src] = 0
    shy[src] = 0
    shy[dst] = 0  # whatever stands there now has moved or fought
    if target == 0:
        board[dst] = mover
        hid[dst] = hid_src
        return own, enemy, own_hid, enemy_hid
    d = abs(target) - 1
    # a battle shows both ranks
    value_a = own_val[a] if side > 0 else enemy_val[a]  # the mover's worth, and the defender's
    value_d = enemy_val[d] if side > 0 else own_val[d]
    lost_mine = value_a * hid_src
    lost_theirs = value_d * hid[dst]
    hid[dst] = 0
    res = _result(a, d)
    dead_mine = 0.0
    dead_theirs = 0.0
    if res == 0:
        board[dst] = mover
        dead_theirs = value_d
    elif res == 1:
        dead_mine = value_a
    else:
        board[dst] = 0
        dead_mine = value_a
        dead_theirs = value_d
    if side > 0:
        return own - dead_mine, enemy - dead_theirs, own_hid - lost_mine, enemy_hid - lost_theirs
    return own - dead_theirs, enemy - dead_mine, own_hid - lost_theirs, enemy_hid - lost_mine


@njit(cache=True)
def _child_hash(h, board, src, dst, mover, target):  # type: ignore[no-untyped-def]
    """The Zobrist key after `mover` went from `src` to `dst` (where `target` stood; the battle's result is
    on board[dst]), the other side to move."""
    return h ^ ZSIDE ^ ZKEY[src, mover + 12] ^ ZKEY[dst, target + 12] ^ ZKEY[src, 12] ^ ZKEY[dst, board[dst] + 12]


@njit(cache=True)
def _undo(board, shy, hid, src, dst, mover, target, shy_src, shy_dst, hid_src, hid_dst):  # type: ignore[no-untyped-def]
    """Put back the two squares `_play` changed."""
    board[src] = mover
    board[dst] = target
    hid[src] = hid_src
    hid[dst] = hid_dst
    shy[src] = shy_src
    shy[dst] = shy_dst


@njit  # not cached: numba segfaults loading a recursive function from its cache
def _search(  # type: ignore[no-untyped-def]
    board,
    shy,
    hid,
    side,
    depth,
    qdepth,
    alpha,
    beta,
    own,
    enemy,
    own_hid,
    enemy_hid,
    ply,
    h,
    st,
    moves,
    scores,
    killers,
    history,
    tt_key,
    tt_val,
    tt_info,
    own_val,
    enemy_val,
    sharp,
    margin,
    bold,
    reveal,
):
    """Negamax alpha-beta; depth <= 0 is the quiescence (captures, or standing pat). `h` is the position's
    Zobrist hash (side to move included); full-width nodes keep their result in the transposition table
    (tt_info: depth << 20 | bound << 16 | best move). The scratch arrays of one `root_values` call and the
    evaluation's values and weights come as plain arguments: packed in tuples, unpacking them at every node
    cost a quarter of the speed (benchmarks/deep_search.py)."""
    st[NODES] += 1
    if st[NODES] > st[LIMIT]:
        st[ABORTED] = 1
        return 0.0
    quiet = depth <= 0
    slot = h & (TT_SIZE - 1)
    tt_move = -1
    alpha0 = alpha
    if not quiet and tt_key[slot] == h:
        info = tt_info[slot]
        tt_move = info & 0xFFFF
        if (info >> 20) >= depth:
            bound = (info >> 16) & 0xF
            v = tt_val[slot]
            if bound == EXACT:
                return v
            if bound == LOWER and v > alpha:
                alpha = v
            elif bound == UPPER and v < beta:
                beta = v
            if alpha >= beta:
                return v
    if quiet:
        stand = _eval(own, enemy, own_hid, enemy_hid, reveal, sharp, margin, side)
        if stand >= beta or qdepth <= 0 or ply >= MAX_PLY - 1:
            return stand
        if stand > alpha:
            alpha = stand
    mv = moves[ply]
    sc = scores[ply]
    n = _gen(board, shy, side, mv, sc, own_val, enemy_val, quiet, bold)
    if n == 0:
        if quiet:
            return alpha
        return -_WIN  # no move left: the side to move loses
    if not quiet:
        k0 = killers[ply, 0]
        k1 = killers[ply, 1]
        for i in range(n):
            m = mv[i]
            if m == tt_move:
                sc[i] = 1e7
            elif sc[i] == 0.0:
                if m == k0:
                    sc[i] = 500.0
                elif m == k1:
                    sc[i] = 400.0
                else:
                    sc[i] = history[m] * 1e-6
    best = -_INF
    best_move = -1
    for i in range(n):
        # selection sort step: the best remaining move first
        bi = i
        for j in range(i + 1, n):
            if sc[j] > sc[bi]:
                bi = j
        if bi != i:
            tm = mv[i]
            mv[i] = mv[bi]
            mv[bi] = tm
            ts = sc[i]
            sc[i] = sc[bi]
            sc[bi] = ts
        m = mv[i]
        src = m // 100
        dst = m % 100
        mover = board[src]
        target = board[dst]
        if target != 0 and abs(target) - 1 == FLAG:
            return _WIN
        hid_src = hid[src]
        hid_dst = hid[dst]
        shy_src = shy[src]
        shy_dst = shy[dst]
        nown, nenemy, nown_hid, nenemy_hid = _play(
            board, shy, hid, src, dst, side, own, enemy, own_hid, enemy_hid, own_val, enemy_val
        )
        nh = _child_hash(h, board, src, dst, mover, target)
        v = -_search(
            board,
            shy,
            hid,
            -side,
            depth - 1,
            qdepth - 1 if quiet else qdepth,
            -beta,
            -alpha,
            nown,
            nenemy,
            nown_hid,
            nenemy_hid,
            ply + 1,
            nh,
            st,
            moves,
            scores,
            killers,
            history,
            tt_key,
            tt_val,
            tt_info,
            own_val,
            enemy_val,
            sharp,
            margin,
            bold,
            reveal,
        )
        _undo(board, shy, hid, src, dst, mover, target, shy_src, shy_dst, hid_src, hid_dst)
        if st[ABORTED]:
            return 0.0
        if v > best:
            best = v
            best_move = m
        if v > alpha:
            alpha = v
        if alpha >= beta:
            if target == 0 and not quiet:
                if killers[ply, 0] != m:
                    killers[ply, 1] = killers[ply, 0]
                    killers[ply, 0] = m
                history[m] += depth * depth
            break
    if quiet:
        return alpha if best < alpha else best
    bound = EXACT
    if best <= alpha0:
        bound = UPPER
    elif best >= beta:
        bound = LOWER
    tt_key[slot] = h
    tt_val[slot] = best
    tt_info[slot] = (depth << 20) | (bound << 16) | (best_move & 0xFFFF)
    return best


@njit(cache=True)
def _material(board, hid, own_val, enemy_val):  # type: ignore[no-untyped-def]
    """(own, enemy, own_hid, enemy_hid, Zobrist key) of a world: each side's material (flags are none), the
    part of it the other side has not seen, and the position's hash."""
    own = 0.0
    enemy = 0.0
    own_hid = 0.0
    enemy_hid = 0.0
    h = np.int64(0)
    for sq in range(100):
        c = board[sq]
        h ^= ZKEY[sq, c + 12]
        if c > 0 and c - 1 != FLAG:
            own += own_val[c - 1]
            own_hid += own_val[c - 1] * hid[sq]
        elif c < 0 and -c - 1 != FLAG:
            enemy += enemy_val[-c - 1]
            enemy_hid += enemy_val[-c - 1] * hid[sq]
    return own, enemy, own_hid, enemy_hid, h


@njit  # calls the recursive _search, so not cached either (about 3 s to compile, once a process)
def root_values(worlds, shy, hid, roots, own_val, enemy_val, sharp, margin, depth, qdepth, node_limit, bold, reveal):  # type: ignore[no-untyped-def]
    """Win chance (0..1) of each root move in each world: out[w, i], searched `depth` plies deep (the root
    move included) with a full window for each root move, so that every value is exact, not a bound.
    `shy[sq]` is 1 where an enemy piece has never moved or fought; our pieces above rank `bold` do not
    attack those (11: no restriction). `hid[sq]` is 1 where a piece's rank is not known to the other side;
    `reveal` weighs the material each side still hides (0: material alone). The root moves are searched
    as given.

    Returns (out, nodes, aborted): aborted is 1 when the node budget ran out (out is then incomplete)."""
    no_model = np.zeros((0, 4, 1))
    return modelled_root_values(
        worlds, shy, hid, roots, own_val, enemy_val, sharp, margin, depth, qdepth, node_limit, bold, reveal,
        no_model, 1.0,
    )  # fmt: skip


@njit  # calls the recursive _search, so not cached either
def modelled_root_values(  # type: ignore[no-untyped-def]
    worlds, shy, hid, roots, own_val, enemy_val, sharp, margin, depth, qdepth, node_limit, bold, reveal, replies,
    paranoia,
):  # fmt: skip
    """`root_values` with the enemy's first reply modelled instead of searched: `replies[i, k, c]` is the chance
    the opponent answers root move i, when its battle ended k (0 our attacker won, 1 the defender stayed, 2 both
    died, 3 no battle), with the compact move c (`sim.tables`), as the move policy sees it from its own side
    (`reply_model`). Each reply the world allows is searched `depth - 2` plies further (then the quiescence),
    and the root's value is (1 - paranoia) x their mean by those chances + paranoia x the worst of them. In a
    world the enemy sees our hidden ranks; the policy does not, which is why its first reply is the policy's.
    An empty `replies` (first dimension 0) searches the reply like every other ply (`root_values`)."""
    n_worlds = worlds.shape[0]
    n_roots = roots.shape[0]
    modelled = replies.shape[0] > 0
    out = np.zeros((n_worlds, n_roots))
    st = np.zeros(3, np.int64)
    st[LIMIT] = node_limit
    moves = np.zeros((MAX_PLY, MAX_MOVES), np.int64)
    scores = np.zeros((MAX_PLY, MAX_MOVES))
    killers = np.full((MAX_PLY, 2), -1, np.int64)
    history = np.zeros(10000, np.int64)
    tt_key = np.zeros(TT_SIZE, np.int64)
    tt_val = np.zeros(TT_SIZE)
    tt_info = np.zeros(TT_SIZE, np.int64)
    for w in range(n_worlds):
        board = worlds[w].copy()
        shy_w = shy.copy()
        hid_w = hid.copy()
        own, enemy, own_hid, enemy_hid, h0 = _material(board, hid_w, own_val, enemy_val)
        killers[:, :] = -1
        history[:] = 0
        for i in range(n_roots):
            m = roots[i]
            src = m // 100
            dst = m % 100
            mover = board[src]
            target = board[dst]
            won = target != 0 and -target - 1 == FLAG
            hid_src = hid_w[src]
            hid_dst = hid_w[dst]
            shy_src = shy_w[src]
            shy_dst = shy_w[dst]
            if won:
                v = _WIN
            else:
                nown, nenemy, nown_hid, nenemy_hid = _play(
                    board, shy_w, hid_w, src, dst, 1, own, enemy, own_hid, enemy_hid, own_val, enemy_val
                )
                nh = _child_hash(h0, board, src, dst, mover, target)
                if modelled:
                    k = 3 if target == 0 else (0 if board[dst] == mover else (1 if board[dst] == target else 2))
                    v = _modelled_reply(
                        board, shy_w, hid_w, depth - 1, qdepth, nown, nenemy, nown_hid, nenemy_hid, nh, st, moves,
                        scores, killers, history, tt_key, tt_val, tt_info, own_val, enemy_val, sharp, margin, bold,
                        reveal, replies[i, k], paranoia,
                    )  # fmt: skip
                else:
                    v = -_search(
                        board, shy_w, hid_w, -1, depth - 1, qdepth, -_INF, _INF, nown, nenemy, nown_hid, nenemy_hid,
                        1, nh, st, moves, scores, killers, history, tt_key, tt_val, tt_info, own_val, enemy_val,
                        sharp, margin, bold, reveal,
                    )  # fmt: skip
            _undo(board, shy_w, hid_w, src, dst, mover, target, shy_src, shy_dst, hid_src, hid_dst)
            if st[ABORTED]:
                return out, st[NODES], 1
            out[w, i] = 0.5 * (v + 1.0)
    return out, st[NODES], 0


_REPLY_FLOOR = 1e-4
"""A reply the policy gives (almost) no chance still counts this much before the chances are normalised."""


@njit
def _modelled_reply(  # type: ignore[no-untyped-def]
    board, shy, hid, depth, qdepth, own, enemy, own_hid, enemy_hid, h, st, moves, scores, killers, history, tt_key,
    tt_val, tt_info, own_val, enemy_val, sharp, margin, bold, reveal, chances, paranoia,
):  # fmt: skip
    """Our value (-1..1) at the enemy's node after our root move: each legal reply searched `depth - 1` plies
    further with a full window, weighed by its chance (`chances[compact move]`), mixed with the worst."""
    st[NODES] += 1
    mv = moves[1]
    sc = scores[1]
    n = _gen(board, shy, -1, mv, sc, own_val, enemy_val, False, bold)
    if n == 0:
        return _WIN  # the enemy has no move left
    total = 0.0
    mean = 0.0
    worst = _INF
    for i in range(n):
        m = mv[i]
        src = m // 100
        dst = m % 100
        mover = board[src]
        target = board[dst]
        if target != 0 and abs(target) - 1 == FLAG:
            v = -_WIN
        else:
            hid_src = hid[src]
            hid_dst = hid[dst]
            shy_src = shy[src]
            shy_dst = shy[dst]
            nown, nenemy, nown_hid, nenemy_hid = _play(
                board, shy, hid, src, dst, -1, own, enemy, own_hid, enemy_hid, own_val, enemy_val
            )
            nh = _child_hash(h, board, src, dst, mover, target)
            v = _search(
                board, shy, hid, 1, depth - 1, qdepth, -_INF, _INF, nown, nenemy, nown_hid, nenemy_hid, 2, nh, st,
                moves, scores, killers, history, tt_key, tt_val, tt_info, own_val, enemy_val, sharp, margin, bold,
                reveal,
            )  # fmt: skip
            _undo(board, shy, hid, src, dst, mover, target, shy_src, shy_dst, hid_src, hid_dst)
            if st[ABORTED]:
                return 0.0
        c = COMPACT_OF_MOVE[m]
        p = max(chances[c], _REPLY_FLOOR) if c >= 0 else _REPLY_FLOOR
        total += p
        mean += p * v
        if v < worst:
            worst = v
    return (1.0 - paranoia) * mean / total + paranoia * worst
