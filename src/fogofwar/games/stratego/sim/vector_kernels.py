"""The fused step kernel of `VectorStratego`: one compiled call per step for a range of games.

Per game it applies the action (a setup choice or a move), lets the in-kernel random opponent answer,
deals new random setups when a game ends (autoreset), and writes the next observation, the legal-action
mask, rewards and the terminated/truncated flags into preallocated buffers. The rules are those of
`kernels` (the batched simulator, itself checked move by move against the reference engine); this module
only adds the episode logic around them.

Per-game randomness comes from a splitmix64 state per game (`rng[e]`), so a game's course depends on its
own seed and actions only: the same whichever range or thread steps it. The drivers take a range
`lo:hi` and release the GIL (`nogil=True`), so threads can step disjoint ranges at once; `step_prange`
does the whole batch over numba's thread pool instead.

The hot helpers are inlined at numba IR level (`inline="always"`: some 25% faster at a few hundred games);
`_end` is not, as inlined into the prange kernel its writes were lost. `tests/games/stratego/sim/test_vector.py`
compares every array of the games step by step between the kernels and thread counts to catch such a thing.

Note: numba's cache keys on this file only; after editing `kernels.py`, touch this file (or clear
`__pycache__`) so that the cached fused kernels are rebuilt with the new rules.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from fogofwar.games.stratego.sim import kernels as K
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
    UNMOVED_UNKNOWN,
)
from fogofwar.games.stratego.sim.tables import COMPACT_OF_MOVE, FLIP_COMPACT, LAKE, MOVE_LIMIT, MOVE_OF_COMPACT

# --- cfg: the options, one int64 vector ----------------------------------------------------------
CFG_LIMIT, CFG_MORE, CFG_MAX_MOVES, CFG_OPPONENT, CFG_SETUP, CFG_AUTORESET, CFG_SEAT, CFG_MENU, CFG_PIECES = range(9)
CFG_ORIENT = 9
"""1: blue sees the board turned round (square s as 99 - s) in its planes, mask and actions; 0: absolute squares."""
NUM_CFG = 10
SETUP_RANDOM, SETUP_MENU, SETUP_PIECES = 0, 1, 2
AUTORESET_NEXT, AUTORESET_SAME, AUTORESET_OFF = 0, 1, 2
SEAT_RANDOM = 2  # CFG_SEAT: 0 red, 1 blue, 2 drawn each episode

# --- ctl[e]: episode fields -------------------------------------------------------------------------
C_LEARNER, C_PHASE, C_PLACED, C_NEEDS_RESET, C_END_TERM, C_END_WINNER, C_END_MOVES, C_VIEW = 0, 1, 2, 4, 5, 6, 7, 8
NUM_CTL = 9
PHASE_PLAY, PHASE_SETUP = 0, 1
ILLEGAL_ACTION = 5
"""Termination code of a game lost by an illegal action (after the simulator's codes 0-4)."""

NUM_OBS_PLANES = 33
"""Planes 0-32 of `sim.planes`; the constant planes 33-44 are the `counts` vector."""

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, nogil=True)
def _rand(rng, e):  # type: ignore[no-untyped-def]
    """splitmix64: the next 64 random bits of game e's stream."""
    x = rng[e] + _GOLDEN
    rng[e] = x
    z = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True)
def _below(rng, e, m):  # type: ignore[no-untyped-def]
    """A uniform integer in 0..m-1 (m < 2**32), by multiply-shift of 32 random bits."""
    return np.int64(((_rand(rng, e) >> np.uint64(32)) * np.uint64(m)) >> np.uint64(32))


@njit(cache=True, nogil=True)
def seed_kernel(rng, seeds, which):  # type: ignore[no-untyped-def]
    """rng[e] = a state derived from seeds[e] (one splitmix64 step), for the games `which[e]`."""
    for e in range(rng.shape[0]):
        if which[e]:
            rng[e] = np.uint64(seeds[e])
            rng[e] = _rand(rng, e)


@njit(cache=True, nogil=True)
def _random_army(codes, e, p, pieces, home, rng):  # type: ignore[no-untyped-def]
    """A uniformly random setup of seat p into codes[e] (partial Fisher-Yates over its home squares)."""
    m = home.shape[1]
    squares = home[p].copy()
    for i in range(pieces.shape[0]):
        j = i + _below(rng, e, m - i)
        t = squares[i]
        squares[i] = squares[j]
        squares[j] = t
        codes[e, squares[i]] = 128 | (p << 4) | pieces[i]


@njit(cache=True, nogil=True)
def _menu_army(codes, e, p, k, menu, chair):  # type: ignore[no-untyped-def]
    """Setup k of the menu (ranks per chair index, -1 empty) for seat p into codes[e]."""
    for i in range(menu.shape[1]):
        r = menu[k, i]
        if r >= 0:
            codes[e, chair[p, i]] = 128 | (p << 4) | r


@njit(cache=True, nogil=True, inline="always")
def _actor(st, ctl, cfg, e):  # type: ignore[no-untyped-def]
    """The seat whose action the game waits for: in the setup phase the first seat not done placing."""
    if ctl[e, C_PHASE] == PHASE_SETUP:
        return 0 if ctl[e, C_PLACED] < cfg[CFG_PIECES] else 1
    return st[e, K.PLAYER]


@njit(cache=True, nogil=True, inline="always")
def _turned(cfg, p):  # type: ignore[no-untyped-def]
    """Whether seat p sees the board turned round (blue, when the observations are oriented)."""
    return cfg[CFG_ORIENT] != 0 and p == 1


@njit(cache=True, nogil=True, inline="always")
def _board_action(cfg, ctl, e, p, a):  # type: ignore[no-untyped-def]
    """Seat p's action a, given from its own view, as the kernel reads it (turned back for an oriented blue; out of
    range actions are left as they are, to be refused)."""
    if not _turned(cfg, p):
        return a
    if ctl[e, C_PHASE] == PHASE_PLAY:
        return FLIP_COMPACT[a] if 0 <= a < FLIP_COMPACT.shape[0] else a
    if cfg[CFG_SETUP] == SETUP_PIECES:
        return 99 - a if 0 <= a < 100 else a
    return a


@njit(cache=True, nogil=True, inline="always")
def _opponent_moves(S, T, cfg, rng, e):  # type: ignore[no-untyped-def]
    """The in-kernel random opponent plays until it is the learner's turn or the game is over."""
    board, st, runs, pos, mob, mobidx, legal, captured, ctl, codes = S
    while st[e, K.DONE] == 0 and ctl[e, C_PHASE] == PHASE_PLAY and st[e, K.PLAYER] != ctl[e, C_LEARNER]:
        a = legal[e, _below(rng, e, st[e, K.NLEGAL])]
        K._move(
            board, st, runs, pos, mob, mobidx, legal, captured, e, a, cfg[CFG_LIMIT], cfg[CFG_MORE] != 0,
            cfg[CFG_MAX_MOVES],
        )  # fmt: skip


@njit(cache=True, nogil=True)
def _start_play(S, cfg, e):  # type: ignore[no-untyped-def]
    board, st, runs, pos, mob, mobidx, legal, captured, ctl, codes = S
    ctl[e, C_PHASE] = PHASE_PLAY
    K._reset_one(
        board, st, runs, pos, mob, mobidx, legal, captured, e, codes[e], 0, cfg[CFG_LIMIT], cfg[CFG_MORE] != 0,
        cfg[CFG_MAX_MOVES],
    )  # fmt: skip


@njit(cache=True, nogil=True)
def new_episode(S, T, cfg, rng, e):  # type: ignore[no-untyped-def]
    """Start game e: the learner's seat, the setups (random, or the setup phase), the opponent's first move."""
    board, st, runs, pos, mob, mobidx, legal, captured, ctl, codes = S
    pieces, home, chair, menu, roster = T
    ctl[e, C_NEEDS_RESET] = 0
    ctl[e, C_LEARNER] = _below(rng, e, 2) if cfg[CFG_SEAT] == SEAT_RANDOM else cfg[CFG_SEAT]
    for sq in range(100):
        codes[e, sq] = 0
    for f in range(st.shape[1]):
        st[e, f] = 0  # the setup phase reads no rules state; _start_play sets it all
    st[e, K.WINNER] = -1
    k = pieces.shape[0]
    if cfg[CFG_SETUP] == SETUP_RANDOM:
        # An episode must not be over before the learner acts (Gymnasium has no terminal reset): a deal whose
        # start, or the opponent's first move (a scout running into a front-row flag), ends the game is dealt again.
        for _ in range(1000):
            for sq in range(100):
                codes[e, sq] = 0
            _random_army(codes, e, 0, pieces, home, rng)
            _random_army(codes, e, 1, pieces, home, rng)
            _start_play(S, cfg, e)
            if cfg[CFG_OPPONENT] != 0:
                _opponent_moves(S, T, cfg, rng, e)
            if st[e, K.DONE] == 0:
                break
    else:
        ctl[e, C_PHASE] = PHASE_SETUP
        ctl[e, C_PLACED] = 0
        ctl[e, C_PLACED + 1] = 0
        if cfg[CFG_OPPONENT] != 0:  # the opponent's army is chosen at once: a menu entry or a random setup
            q = 1 - ctl[e, C_LEARNER]
            if cfg[CFG_SETUP] == SETUP_MENU:
                _menu_army(codes, e, q, _below(rng, e, cfg[CFG_MENU]), menu, chair)
            else:
                _random_army(codes, e, q, pieces, home, rng)
            ctl[e, C_PLACED + q] = k


@njit(cache=True, nogil=True)
def _setup_action(S, T, cfg, e, p, a):  # type: ignore[no-untyped-def]
    """Seat p's setup action a (a menu index, or the square of its next piece); False if not allowed."""
    board, st, runs, pos, mob, mobidx, legal, captured, ctl, codes = S
    pieces, home, chair, menu, roster = T
    k = pieces.shape[0]
    if cfg[CFG_SETUP] == SETUP_MENU:
        if a < 0 or a >= cfg[CFG_MENU]:
            return False
        _menu_army(codes, e, p, a, menu, chair)
        ctl[e, C_PLACED + p] = k
    else:
        if a < 0 or a >= 100 or codes[e, a] != 0 or (a < 60 if p == 1 else a >= 40):
            return False
        i = ctl[e, C_PLACED + p]
        codes[e, a] = 128 | (p << 4) | pieces[i]
        ctl[e, C_PLACED + p] = i + 1
    if ctl[e, C_PLACED] == k and ctl[e, C_PLACED + 1] == k:
        _start_play(S, cfg, e)
    return True


@njit(cache=True, nogil=True, inline="always")
def _legal_move(st, legal, e, a):  # type: ignore[no-untyped-def]
    """The reference move id of compact action a if it is legal in game e, else -1."""
    if a < 0 or a >= MOVE_OF_COMPACT.shape[0]:
        return -1
    m = MOVE_OF_COMPACT[a]
    for i in range(st[e, K.NLEGAL]):
        if legal[e, i] == m:
            return m
    return -1


@njit(cache=True, nogil=True, inline="always")
def write_obs(S, T, cfg, e, p, planes, counts, to_place):  # type: ignore[no-untyped-def]
    """Seat p's observation of game e: planes 0-32 (uint8), the unaccounted enemy pieces per rank, and in
    the setup phase its pieces still to place per rank. An oriented blue sees square s at 99 - s."""
    board, st, runs, pos, mob, mobidx, legal, captured, ctl, codes = S
    pieces, home, chair, menu, roster = T
    out = planes[e]
    for i in range(out.shape[0]):  # explicit loops: a slice assignment costs more outside parallel=True
        for row in range(10):
            for col in range(10):
                out[i, row, col] = 0
    for r in range(12):
        to_place[e, r] = 0
    setup = ctl[e, C_PHASE] == PHASE_SETUP
    if setup:
        for r in range(12):
            counts[e, r] = roster[r]
        for i in range(ctl[e, C_PLACED + p], pieces.shape[0]):
            to_place[e, pieces[i]] += 1
        src = codes[e]
    else:
        for r in range(12):
            counts[e, r] = roster[r] - captured[e, 1 - p, r]
        src = board[e]
    flip = _turned(cfg, p)
    for sq in range(100):
        t = 99 - sq if flip else sq
        row = t // 10
        col = t % 10
        if LAKE[sq]:
            out[LAKE_PLANE, row, col] = 1
            continue
        code = src[sq]
        if code == 0 or (setup and ((code >> 4) & 1) != p):
            continue  # in the setup phase the enemy's army is not on the board yet
        rank = code & 15
        if ((code >> 4) & 1) == p:
            out[rank, row, col] = 1
            if code & 64:
                out[OWN_REVEALED, row, col] = 1
            if code & 32:
                out[OWN_MOVED, row, col] = 1
        elif code & 64:
            out[KNOWN_ENEMY + rank, row, col] = 1
            counts[e, rank] -= 1
        elif code & 32:
            out[MOVED_UNKNOWN, row, col] = 1
        else:
            out[UNMOVED_UNKNOWN, row, col] = 1
    if ctl[e, C_PHASE] == PHASE_PLAY:
        recent = ((LAST_FROM, K.LAST_SRC), (LAST_TO, K.LAST_DST), (PREV_FROM, K.PREV_SRC), (PREV_TO, K.PREV_DST))
        for plane, f in recent:
            sq = st[e, f]
            if sq >= 0:
                t = 99 - sq if flip else sq
                out[plane, t // 10, t % 10] = 1


@njit(cache=True, nogil=True, inline="always")
def write_mask(S, T, cfg, e, p, mask):  # type: ignore[no-untyped-def]
    """The legal actions of seat p in game e (none if p is not the seat to act or the game is over), from its own
    view (turned round for an oriented blue)."""
    board, st, runs, pos, mob, mobidx, legal, captured, ctl, codes = S
    flip = _turned(cfg, p)
    for i in range(mask.shape[1]):
        mask[e, i] = False
    if ctl[e, C_PHASE] == PHASE_SETUP:
        if _actor(st, ctl, cfg, e) != p or ctl[e, C_NEEDS_RESET] != 0:
            return
        if cfg[CFG_SETUP] == SETUP_MENU:
            for k in range(cfg[CFG_MENU]):
                mask[e, k] = True
        else:
            lo = 0 if p == 0 else 60
            for sq in range(lo, lo + 40):
                if codes[e, sq] == 0:
                    mask[e, 99 - sq if flip else sq] = True
        return
    if st[e, K.DONE] != 0 or st[e, K.PLAYER] != p:
        return
    for i in range(st[e, K.NLEGAL]):
        c = COMPACT_OF_MOVE[legal[e, i]]
        mask[e, FLIP_COMPACT[c] if flip else c] = True


@njit(cache=True, nogil=True)  # not inline="always": inlined into step_prange, its ctl writes were lost (numba 0.68)
def _end(S, e, p_illegal, rewards, terminated, truncated):  # type: ignore[no-untyped-def]
    """Record game e's ending (an illegal action of seat p_illegal if >= 0): rewards, flags, ending fields."""
    board, st, runs, pos, mob, mobidx, legal, captured, ctl, codes = S
    if p_illegal >= 0:
        st[e, K.DONE] = 1
        st[e, K.TERM] = ILLEGAL_ACTION
        st[e, K.WINNER] = 1 - p_illegal
        st[e, K.NLEGAL] = 0
    w = st[e, K.WINNER]
    if w >= 0:
        rewards[e, w] = 1.0
        rewards[e, 1 - w] = -1.0
    if st[e, K.TERM] == MOVE_LIMIT:
        truncated[e] = True
    else:
        terminated[e] = True
    ctl[e, C_END_TERM] = st[e, K.TERM]
    ctl[e, C_END_WINNER] = w
    ctl[e, C_END_MOVES] = st[e, K.MOVES]


@njit(cache=True, nogil=True, inline="always")
def _view(st, ctl, cfg, e):  # type: ignore[no-untyped-def]
    """Whose observation the buffers hold: the learner's against the in-kernel opponent, else the actor's."""
    if cfg[CFG_OPPONENT] != 0:
        return ctl[e, C_LEARNER]
    return _actor(st, ctl, cfg, e)


@njit(cache=True, nogil=True, inline="always")
def step_env(S, T, cfg, rng, e, a, out):  # type: ignore[no-untyped-def]
    """One step of game e with action a; returns how many chase positions either seat holds now."""
    board, st, runs, pos, mob, mobidx, legal, captured, ctl, codes = S
    planes, counts, to_place, mask, rewards, vrewards, terminated, truncated, fplanes, fcounts = out
    auto = cfg[CFG_AUTORESET]
    rewards[e, 0] = 0.0
    rewards[e, 1] = 0.0
    vrewards[e] = 0.0
    if ctl[e, C_NEEDS_RESET] != 0 or (st[e, K.DONE] != 0 and auto != AUTORESET_OFF):
        new_episode(S, T, cfg, rng, e)  # next-step autoreset (or a game never started): the action is ignored
        terminated[e] = False
        truncated[e] = False
    elif st[e, K.DONE] != 0:
        return 0  # a finished game without autoreset: nothing changes, its flags stay set
    else:
        terminated[e] = False
        truncated[e] = False
        p = _actor(st, ctl, cfg, e)
        a = _board_action(cfg, ctl, e, p, a)
        bad = -1
        if ctl[e, C_PHASE] == PHASE_SETUP:
            if not _setup_action(S, T, cfg, e, p, a):
                bad = p
        else:
            m = _legal_move(st, legal, e, a)
            if m < 0:
                bad = p
            else:
                K._move(
                    board, st, runs, pos, mob, mobidx, legal, captured, e, m, cfg[CFG_LIMIT], cfg[CFG_MORE] != 0,
                    cfg[CFG_MAX_MOVES],
                )  # fmt: skip
        if bad < 0 and cfg[CFG_OPPONENT] != 0:
            _opponent_moves(S, T, cfg, rng, e)
        if bad >= 0 or st[e, K.DONE] != 0:
            _end(S, e, bad, rewards, terminated, truncated)
            v = _view(st, ctl, cfg, e)
            vrewards[e] = rewards[e, v]
            if auto == AUTORESET_SAME:
                write_obs(S, T, cfg, e, v, fplanes, fcounts, to_place)
                new_episode(S, T, cfg, rng, e)
            elif auto == AUTORESET_NEXT:
                ctl[e, C_NEEDS_RESET] = 1
    v = _view(st, ctl, cfg, e)
    ctl[e, C_VIEW] = v
    write_obs(S, T, cfg, e, v, planes, counts, to_place)
    write_mask(S, T, cfg, e, v, mask)
    return max(st[e, K.PBASE + K.C_NPOS], st[e, K.PBASE + K.PSTRIDE + K.C_NPOS])


@njit(cache=True, nogil=True)
def step_range(S, T, cfg, rng, actions, lo, hi, out):  # type: ignore[no-untyped-def]
    """step_env for the games lo..hi-1 (GIL released: threads may step disjoint ranges at once)."""
    most = 0
    for e in range(lo, hi):
        most = max(most, step_env(S, T, cfg, rng, e, actions[e], out))
    return most


@njit(cache=True, nogil=True, parallel=True)
def step_prange(S, T, cfg, rng, actions, lo, hi, out):  # type: ignore[no-untyped-def]
    """step_range over numba's thread pool (`numba.set_num_threads`). Even on one thread it measured some
    30% faster than `step_range` for a few hundred games (numba compiles a prange body apart), but each
    call pays the pool's start (a microsecond or two), so `VectorStratego` uses it for larger batches."""
    most = 0
    for e in prange(lo, hi):
        most = max(most, step_env(S, T, cfg, rng, e, actions[e], out))
    return most


@njit(cache=True, nogil=True)
def reset_range(S, T, cfg, rng, which, out):  # type: ignore[no-untyped-def]
    """Start new episodes in the games which[e] and write their observations and masks."""
    board, st, runs, pos, mob, mobidx, legal, captured, ctl, codes = S
    planes, counts, to_place, mask, rewards, vrewards, terminated, truncated, fplanes, fcounts = out
    for e in range(rng.shape[0]):
        if not which[e]:
            continue
        new_episode(S, T, cfg, rng, e)
        rewards[e, 0] = 0.0
        rewards[e, 1] = 0.0
        vrewards[e] = 0.0
        terminated[e] = False
        truncated[e] = False
        v = _view(st, ctl, cfg, e)
        ctl[e, C_VIEW] = v
        write_obs(S, T, cfg, e, v, planes, counts, to_place)
        write_mask(S, T, cfg, e, v, mask)


@njit(cache=True, nogil=True)
def observe_kernel(S, T, cfg, seats, planes, counts, to_place, mask):  # type: ignore[no-untyped-def]
    """The observation and mask of seat seats[e] in every game (for the seat whose turn it is not)."""
    for e in range(seats.shape[0]):
        write_obs(S, T, cfg, e, seats[e], planes, counts, to_place)
        write_mask(S, T, cfg, e, seats[e], mask)


@njit(cache=True, nogil=True)
def sample_kernel(st, legal, ctl, cfg, mask, rng, out):  # type: ignore[no-untyped-def]
    """A uniformly random legal action per game (a move from the legal list, from the mover's view, or in the
    setup phase a true entry of the mask; -1 when there is none), from the separate stream rng."""
    for e in range(out.shape[0]):
        out[e] = -1
        if ctl[e, C_PHASE] == PHASE_PLAY:
            n = st[e, K.NLEGAL]
            if n > 0 and st[e, K.DONE] == 0:
                c = COMPACT_OF_MOVE[legal[e, _below(rng, e, n)]]
                out[e] = FLIP_COMPACT[c] if _turned(cfg, st[e, K.PLAYER]) else c
            continue
        n = 0
        for i in range(mask.shape[1]):
            if mask[e, i]:
                n += 1
        if n == 0:
            continue
        j = _below(rng, e, n)
        for i in range(mask.shape[1]):
            if mask[e, i]:
                if j == 0:
                    out[e] = i
                    break
                j -= 1


@njit(cache=True, nogil=True)
def check_kernel(S, T, cfg, actions):  # type: ignore[no-untyped-def]
    """The first game whose action would be refused (an illegal move or setup choice), or -1; games that
    ignore their action (finished, or starting again) never count."""
    board, st, runs, pos, mob, mobidx, legal, captured, ctl, codes = S
    for e in range(actions.shape[0]):
        if ctl[e, C_NEEDS_RESET] != 0 or st[e, K.DONE] != 0:
            continue
        p = _actor(st, ctl, cfg, e)
        a = _board_action(cfg, ctl, e, p, actions[e])
        if ctl[e, C_PHASE] == PHASE_PLAY:
            if _legal_move(st, legal, e, a) < 0:
                return e
        elif cfg[CFG_SETUP] == SETUP_MENU:
            if a < 0 or a >= cfg[CFG_MENU]:
                return e
        else:
            if a < 0 or a >= 100 or codes[e, a] != 0 or (a < 60 if p == 1 else a >= 40):
                return e
    return -1
