"""The opponent's reply as the learned move policy predicts it from what the opponent sees (`search:reply=W`).

Why: the one-reply search models the opponent's reply as the capture that looks best by material over what our
piece may be (`SearchAgent._perceived_scores`), made whenever one looks good. People and Demon of Ignorance read
more than that (where our pieces went, what stands beside them) and often make no capture at all. The move policy
(`policy_model`), fitted to people's moves, predicts a move from exactly what its seat sees: our revealed ranks,
which of our pieces moved, the last two moves and its own pieces. Its own ranks are hidden from us, so the planes
we build for it carry our belief's P(rank) of each of its hidden pieces (soft planes) instead of one rank each.

For each of our candidate moves the opponent's planes after it are built from the planes now (an attack on a
hidden piece gets one set for each battle result it may have), one batch goes through the net, and each set
gives P(reply) over the replies the opponent may make. The search then weighs the outcomes of those replies in
each sampled world by their chances (`SearchAgent._play_out`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from fogofwar.games.stratego.agents.convnet import F32
from fogofwar.games.stratego.agents.knowledge import BOMB, FLAG, SCOUT, Knowledge
from fogofwar.games.stratego.agents.policy_model import SLOT_OF_COMPACT, PolicyNet, oriented_compact, oriented_planes
from fogofwar.games.stratego.agents.search import QUIET, battle_result
from fogofwar.games.stratego.observation import MoveView
from fogofwar.games.stratego.sim.planes import (
    KNOWN_ENEMY,
    LAKE_PLANE,
    LAST_FROM,
    LAST_TO,
    MOVED_UNKNOWN,
    NUM_PLANES,
    OWN,
    OWN_MOVED,
    OWN_REVEALED,
    PREV_FROM,
    PREV_TO,
    UNACCOUNTED,
    UNMOVED_UNKNOWN,
)
from fogofwar.grid.board import LAKES, NEIGHBOURS, RAYS, distance, parse_square

Replies = dict[tuple[int, int], dict[int, float]]
"""(our move, battle result or QUIET) -> {the opponent's reply (reference move id): P(reply)}."""


def opponent_planes(know: Knowledge, marginals: dict[int, dict[int, float]], recent: Sequence[MoveView]) -> F32:
    """The opponent's observation planes now (`sim.planes`, absolute coordinates), its hidden pieces' ranks as
    our belief's P(rank) (`marginals`, else the plain pool of `Knowledge.rank_distribution`).

    >>> from fogofwar.games.stratego.rules import StrategoGame
    >>> from fogofwar.games.stratego.observation import stratego_view
    >>> state = StrategoGame(variant="barrage").new_initial_state()
    >>> opponent_planes(Knowledge.from_observation(stratego_view(state.observation(0).data)), {}, []).shape
    (45, 10, 10)
    """
    out = np.zeros((NUM_PLANES, 10, 10), np.float32)
    flat = out.reshape(NUM_PLANES, 100)
    enemy = know.enemy
    for sq in LAKES:
        flat[LAKE_PLANE, sq] = 1.0
    for sq, c in enumerate(know.cells):
        if c is None:
            continue
        if c.owner == enemy:
            if c.rank is not None:
                flat[OWN + c.rank, sq] = 1.0
                flat[OWN_REVEALED, sq] = 1.0
            else:
                for rank, p in _ranks(know, marginals, sq).items():
                    flat[OWN + rank, sq] = p
            if c.moved:
                flat[OWN_MOVED, sq] = 1.0
        elif c.revealed:
            assert c.rank is not None
            flat[KNOWN_ENEMY + c.rank, sq] = 1.0
        else:
            flat[MOVED_UNKNOWN if c.moved else UNMOVED_UNKNOWN, sq] = 1.0
    for ev, (pf, pt) in zip(reversed(recent), ((LAST_FROM, LAST_TO), (PREV_FROM, PREV_TO)), strict=False):
        flat[pf, parse_square(ev["from"])] = 1.0
        flat[pt, parse_square(ev["to"])] = 1.0
    # Our ranks it has not accounted for (the roster less what it captured and what it sees): our hidden pieces.
    hidden = [0] * 12
    for c in know.cells:
        if c is not None and c.owner == know.player and not c.revealed:
            assert c.rank is not None
            hidden[c.rank] += 1
    for rank in range(12):
        flat[UNACCOUNTED + rank] = float(hidden[rank])
    return out


def _ranks(know: Knowledge, marginals: dict[int, dict[int, float]], sq: int) -> dict[int, float]:
    """P(rank) of the enemy piece on `sq`: the belief's, else `Knowledge.rank_distribution` (certain if revealed)."""
    return marginals.get(sq) or know.rank_distribution(sq)


def _squares(know: Knowledge) -> tuple[set[int], set[int]]:
    """The squares our pieces and the opponent's stand on now."""
    ours = {sq for sq, c in enumerate(know.cells) if c is not None and c.owner == know.player}
    return ours, {sq for sq, c in enumerate(know.cells) if c is not None and c.owner == know.enemy}


def _after(
    now: F32, know: Knowledge, squares: tuple[set[int], set[int]], action: int, result: int
) -> tuple[F32, set[int], set[int]]:
    """The opponent's planes after our `action` with battle `result` (QUIET for a move to an empty square), and
    the squares our pieces and its pieces stand on then (`squares`: where they stand now, left as they are)."""
    src, dst = divmod(action, 100)
    mover = know.cells[src]
    assert mover is not None and mover.rank is not None
    rank = mover.rank
    out = now.copy()
    flat = out.reshape(NUM_PLANES, 100)
    ours, theirs = set(squares[0]), set(squares[1])
    ours.discard(src)
    flat[KNOWN_ENEMY + rank, src] = flat[MOVED_UNKNOWN, src] = flat[UNMOVED_UNKNOWN, src] = 0.0
    shown_before = mover.revealed
    if result == QUIET:
        ours.add(dst)
        if shown_before or distance(src, dst) > 1:  # only a scout goes further than a square: it shows its rank
            flat[KNOWN_ENEMY + rank, dst] = 1.0
        else:
            flat[MOVED_UNKNOWN, dst] = 1.0
        newly_shown = not shown_before and distance(src, dst) > 1
    else:
        newly_shown = not shown_before  # a battle shows both ranks; the survivor stays shown
        if result == 0:  # ours takes the square
            ours.add(dst)
            theirs.discard(dst)
            flat[OWN : OWN + 12, dst] = 0.0
            flat[OWN_REVEALED, dst] = flat[OWN_MOVED, dst] = 0.0
            flat[KNOWN_ENEMY + rank, dst] = 1.0
        elif result == 1:  # theirs stays, shown
            flat[OWN_REVEALED, dst] = 1.0
        else:  # both die
            theirs.discard(dst)
            flat[OWN : OWN + 12, dst] = 0.0
            flat[OWN_REVEALED, dst] = flat[OWN_MOVED, dst] = 0.0
    if newly_shown:
        # Shown or captured, the piece is accounted for now (captured after being shown: no change).
        flat[UNACCOUNTED + rank] -= 1.0
    flat[PREV_FROM], flat[PREV_TO] = flat[LAST_FROM].copy(), flat[LAST_TO].copy()
    flat[LAST_FROM] = flat[LAST_TO] = 0.0
    flat[LAST_FROM, src] = flat[LAST_TO, dst] = 1.0
    return out, ours, theirs


def _replies(know: Knowledge, marginals: dict[int, dict[int, float]], ours: set[int], theirs: set[int]) -> list[int]:
    """The moves the opponent may have after ours: a square for each of its pieces that may move (any rank
    but the bomb and the flag), further along open lines for one that may be a scout. The two-squares and
    more-squares rules are left out (the net rarely proposes what they forbid)."""
    out = []
    for y in sorted(theirs):
        dist = _ranks(know, marginals, y)
        if all(r in (FLAG, BOMB) for r in dist):
            continue
        for n in NEIGHBOURS[y]:
            if n not in theirs:
                out.append(y * 100 + n)
        if dist.get(SCOUT, 0.0) > 0.0:
            for ray in RAYS[y]:
                for k, n in enumerate(ray):
                    if n in theirs:
                        break
                    if k > 0:
                        out.append(y * 100 + n)
                    if n in ours:
                        break
    return out


def reply_chances(
    net: PolicyNet,
    know: Knowledge,
    marginals: dict[int, dict[int, float]],
    recent: Sequence[MoveView],
    actions: Sequence[int],
) -> Replies:
    """P(the opponent's reply) after each of our `actions` (and each battle result an attack may have).

    An attack on a piece that may be the flag gets no entry for that result: the game ends there."""
    now = opponent_planes(know, marginals, recent)
    squares = _squares(know)
    keys: list[tuple[int, int]] = []
    planes: list[F32] = []
    moves: list[list[int]] = []
    for action in actions:
        if action >= 10000:
            continue
        src, dst = divmod(action, 100)
        mover, target = know.cells[src], know.cells[dst]
        assert mover is not None and mover.rank is not None
        if target is None:
            results = {QUIET}
        else:
            results = {battle_result(mover.rank, r) for r in _ranks(know, marginals, dst) if r != FLAG}
        for result in sorted(results):
            after, ours, theirs = _after(now, know, squares, action, result)
            keys.append((action, result))
            planes.append(after)
            moves.append(_replies(know, marginals, ours, theirs))
    if not keys:
        return {}
    enemy = know.enemy
    logits = net.logits(oriented_planes(np.stack(planes), enemy))
    out: Replies = {}
    for key, row, legal in zip(keys, logits, moves, strict=True):
        if not legal:
            out[key] = {}
            continue
        idx = np.array([SLOT_OF_COMPACT[oriented_compact(m, enemy)] for m in legal], np.int64)
        z = row[idx].astype(np.float64)
        z -= z.max()
        p = np.exp(z)
        p /= p.sum()
        out[key] = {m: float(q) for m, q in zip(legal, p, strict=True)}
    return out
