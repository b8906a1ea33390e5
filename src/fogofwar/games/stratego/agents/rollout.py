"""`rollout`: the self-play net's move, checked by short games the net plays against itself over guesses of the
hidden army.

Why: the self-played net (`selfplay`) sees no move ahead, and the search's hand-made one-reply tactics do not mend
that (as the net's prior, or with the net as theirs, they scored no better than the net alone: docs/strength.md).
This is Monte Carlo policy improvement (Tesauro and Galperin's roll-outs for backgammon) with the net as both the
candidate generator and the roll-out policy: the net's `top` likeliest moves are each played in `guesses` worlds
where the enemy's hidden pieces are drawn from the belief (`BeliefTracker`), then `depth` more plies follow in the
batched simulator with the net's likeliest move for whichever seat is to move, each seat reading only its own view
of that world (the enemy sees of ours what the real game showed it). A world is scored by its result or, while it
goes on, by the material win chance (`material_chance.Potential`, what self-play credited); the move with the best
mean score plus `prior` x log P(move) is played. Every candidate meets the same worlds, so their means differ by
the move and not by the draw. When the net is sure (P >= `sure`) its move is played at once.

Options: `top` (moves compared), `guesses` (worlds), `depth` (plies after the move), `prior`, `sure`, `exposed` (the
chance that the roll-outs' enemy knows each of our hidden pieces; -1, the default: the variant's own,
`variant_exposed`, 0 in classic, where the enemy shown our army attacked twice as often as Demon does and the game's
view scored a few points more against Demon and `search`, and 1 elsewhere, where Barrage lost 7.5 points without it;
docs/strength.md, sessions 37, 69, 72 and 73), `marshal` (1 by default: the roll-outs score material with the fit
that gives the marshal that outlives the other's a step of its own, `material_training`), `spy` (1 by default: the
belief reads the spy from what stands beside our revealed marshal, `belief.SPARED_FACTOR` and
`GUARD_FACTORS`), `futile` (1 by default: no attack on a shown piece that beats the attacker, neither the move played
nor in the roll-outs, while another move is left: the net threw a piece away so about once a game, Demon never) and
`watch` (W, 0.2 by default: the moves of our sergeants and better against a piece that threatens our flag,
`flag_threats` and `watch_values`, are compared too and W x their value is added to their score; a hidden piece that
walks in counts by the belief's chance that it is a miner). `watch` lost fewer flags to Demon's miners and scored
54.7% against level 5 over 64 games, the default before it 47.5% over 80 (docs/strength.md, session 40). `reveal` (1 by
default: the roll-outs score with the material fit that also counts what each side has shown, a known marshal,
general, colonel, spy or bomb against its side, `material_training`; our pieces the real game would have shown are
followed through the roll-out by `ShownTracker`, since `exposed` shows the enemy more; 2: that, and the net's sure
move is compared too when it is a capture that would show a hidden officer, `shows_officer`; 0: off).
`marshal` and `spy` lost fewer marshals to Demon's spy and scored 59.9% against Demon level 5 over 96 games where the
plain roll-outs scored 56.3% over 112 (docs/strength.md, sessions 38 and 39). The cost is top x guesses x depth
evaluations of the net (about 0.4 ms each on one core).
`seize` (1, off: in the roll-outs a seat that can take a flag it sees takes it, `flag_takes`; session 48). `setup`
(K > 0: set up with the safest of K book setups, `search.safest_book_setup`; 0: the guarded setup; -1, the default:
the variant's own, `variant_setups`). `runs` (K > 0, off: the enemy piece whose last K or more moves in a row each
came nearer our flag is a threat of full weight in `watch` wherever it stands, `flag_runner`; session 51). `press`
(P > 0, off: that piece, found over `runs` moves or three, runs on at our flag in the roll-outs, `Runner`, and is a
miner in a share P of the worlds where the belief drew it otherwise: the roll-outs' enemy, the net, does not go on
with such a run; and with `watch`, the moves that get back in its way, `fall_back_values`, are compared too; session
52). `siege` (N > 0, off: with N or fewer movable enemy pieces left, our miner with the shortest way to the flag the
belief holds likeliest, `siege_target`, runs at it in the roll-outs, `Runner`, and its steps along that way are
compared too, valued as a defending step is: the net has no plan to dig a flag out of its bombs; session 52). `hold`
(N, 2 by default: the first N of our marshal, general and colonel do not attack in the roll-outs while the enemy has
not seen them, `hold_mask`, so a capture that would show one is weighed at the root; session 53; 0: off). `hold=1`
with `reveal=1` scored 60.4% against Demon level 5 over 48 games where the default before them scored 40.6% on the
same setups (15 games better, 5 worse; docs/strength.md, sessions 53-55); `hold=2` with `neighbours=1`, the default
since session 60, scored 61-1-34 (64.1%) over six seeds where the default before (`hold=1`) scored 53-2-41 (56.2%)
on the same setups (24 games better, 16 worse; docs/strength.md, session 60).
`budget` (seconds, 0.9 by default; 0: none): no roll-out ply starts once the move has taken that long; the games are
scored where they stand. It keeps a move within a second on a slow or busy machine (the issue's bound for the
strongest level); a move that stays within it depends on nothing but the seed, so on a quiet machine (a move takes
about 0.2 s) the seeded series repeat.
`neighbours` (1 by default since session 60, with `hold=2`; 0: off): the belief weighs each never-moved piece's bomb
and flag by how many never-moved enemy pieces stand beside it, `belief.NEIGHBOUR_FACTORS`, fitted to people's games:
0.005 nats a piece better on held-out people and on Demon alike; alone, 36-1-27 against Demon level 5 over four seeds
where the default then scored 35-1-28 on the same setups, 11 games better and 10 worse; docs/strength.md, session 58.
`takes` (1, off): in the roll-outs the enemy takes the most valuable piece of ours the real game has shown that its
attacker beats, where it can (`shown_takes`): Demon took such a piece 78-87% of the time, the roll-outs' net 29%.
Against Demon level 1 62-3-25 (70.6%) over three seeds where Master scored 53-2-35 (60.0%) on the same setups (23
games better, 12 worse); against level 5 33-3-28 (54.0%) over four of Master's seeds where Master scored 37-1-26
(58.6%) (docs/strength.md, sessions 61-62).
`probe` (P > 0, off): our captain or better does not attack an enemy piece that has never moved nor been shown while
the belief gives it a bomb with chance P or more (and no more chance of the flag, and while a piece below a captain is
left to probe with), and in the roll-outs neither seat's officers attack such pieces while another move is left
(`probe_moves`, `probe_mask`; session 44, restored in session 62): `probe=0.1` scored 47-1-12 against Demon level 1
over seeds 29-30 where Master scored 39-2-19 on the same setups (13 games better, 6 worse), but on level 5 17-0-31
over seeds 65, 67 and 69 (docs/strength.md, sessions 62-63). `probeplay=0` keeps `probe` to our own move (the
roll-outs' officers attack as the net likes): 11-1-20 on level 5's seeds 65 and 67 where `probe=0.1` scored 10-0-22
and Master 13-0-19 on the same setups, and 20-0-10 on level 1's seed 29 (Master 18-1-11, `probe=0.1` 25-0-5): the
gain on level 1 is mostly the roll-outs' half (session 63).
`value` (W > 0, off): a roll-out world still going on scores (1 - W) x the material fit + W x the shipped value net
read from our own view where it ends (`leaf_values`; the net of session 28, fitted to the material win chance twenty
plies on in people's games): the eight plies of a net with no plan see no further, the value net reads some of what
the next ones hold. `value=1` scored 16-2-14 against Demon level 5 on seeds 73-74 where Master scored 17-0-15 on the
same setups (7 games better, 7 worse; docs/strength.md, session 64).
`stood` (1, off): the belief weighs each never-moved piece's bomb and flag by how many enemy turns it stood beside a
piece of ours without moving, `belief.STOOD_FACTORS`, fitted to people's games (a piece that can step away from ours,
or take it, mostly does): 0.0045 nats a piece better on held-out people's games; against Demon level 5 31-2-31 over
seeds 73-76 where Master scored 34-0-30 on the same setups (12 games better, 14 worse; docs/strength.md, session 65).
`enemy` (1, off): the roll-outs' enemy plays the net fitted to people's classic games (`shipped_policy`, in every
variant), our seat the self-played net (2: both seats the people's net): the people's net picks Demon level 5's move
27-31% of the time where the self-played net, with our army shown to it as `exposed` shows it, picks it 23%
(`benchmarks/predict_moves.py`). Against Demon level 5 33-1-30 over seeds 73-76 where Master scored 34-0-30 on the same
setups (14 games better, 14 worse; docs/strength.md, session 66).
`faithful` (1 by default since session 67; 0: off): the worlds are drawn with `BeliefTracker.sample(...,
faithful=True)`, each hidden piece given each rank about as often as the belief says; the plain draw, a rank's chance
times how many of it are left with the moved pieces drawn first, put 66 majors and better among Demon's moved pieces
where the belief expected 98 (137 true), and lost 0.054 nats a piece of what the belief knows
(`benchmarks/belief_draws.py`). Against Demon level 5 56-0-40 (58.3%) over seeds 65, 67 and 73-76 where the plain
draw scored 47-0-49 (49.0%) on the same setups (25 games better, 16 worse; docs/strength.md, session 67).
`ownfit` (1, off): the roll-outs score with the material fit of the variant's own games where one is shipped
(Barrage: `data/material_barrage.toml`, `fogofwar train material --variant barrage`); the classic fit, with its
sharpness of 22.8, misjudges Barrage (held-out log-loss 0.692 over 340 Barrage games of people and bots, a coin's;
Barrage's own fit 0.652, sharpness 7.4). Yet against `search` in Barrage 125-21-54 (67.75%) over seeds 5 and 6 where
Master scored 139-6-55 (71.0%): with a flatter curve the roll-outs trade less, and 16 games reached the move cap
(docs/strength.md, session 70).
`decoy` (1, off): set up with `search.decoy_setup` (a low piece in the guarded setup's bombed ring, the flag on the
back row beside no bomb) where the book does not set up (`setup`): a reader of people's setups finds our flag
from the bombs beside it once one is hit (`BeliefTracker.bomb_neighbour_factor`), and classic `search` took half its
flags from us while we led on material. Against Demon level 5 it loses fewer flags and as many games (sessions 40,
58 and 75: the games it saves are lost for want of a movable piece); against `search` 60-1-39 where Master scored
77-2-21 on the same seed, with 27 flags lost where 15 (docs/strength.md, session 75).
`mirror` (W > 0, off): a people's belief run from the enemy's seat on what the enemy has seen (`search.mirrored_view`)
reads our flag's square, and in a share W x that chance of the worlds (rounded at random) the enemy's piece nearest
our flag that can move (`flag_raiders`) runs at it in the roll-outs (`Runner`): the roll-outs' enemy, the net, does
not know where our flag stands and never runs at it, so a move that leaves the way open scored as well as one that
shuts it. Against classic `search` 80-4-16 (82.0%) over 100 games where Master scored 77-2-21 on the same seed, 10
flags lost where 15 (17 games better, 14 worse: within the noise); against Demon level 5 11-0-5 where Master scored
9-0-7 on the same setups (3 games better, 1 worse; docs/strength.md, session 76).

The options that were measured and kept off (`reply`, `halving`, `guard`, `decoy`, `spyrisk`, `pairs`, `target`,
`worlds`, `probe`, `spyfree`, `inform`, `book`, `wary`, `tell`, `chain`, `reach`, `defenders`, `hide`) were removed
in session 54 (`probe` came back in session 62, `decoy` in session 75), `strata` in session 56 and `risk` in
session 57: docs/strength.md gives their figures, and their code is in the history of this file.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from functools import cache
from time import perf_counter
from typing import TYPE_CHECKING, ClassVar

import numpy as np
import numpy.typing as npt

from fogofwar.core.protocol import Game, Observation
from fogofwar.core.spec_options import NumberOption, number_options
from fogofwar.games.stratego.agents.belief import (
    GUARD_FACTORS,
    NEIGHBOUR_FACTORS,
    SPARED_FACTOR,
    STOOD_FACTORS,
    BeliefTracker,
)
from fogofwar.games.stratego.agents.knowledge import RANK_OF_NAME, Knowledge, is_land
from fogofwar.games.stratego.agents.policy_agent import SelfPlayAgent
from fogofwar.games.stratego.agents.search import (
    PATH_LENGTHS,
    decoy_setup,
    flag_ways,
    mirrored_view,
    safest_book_setup,
)
from fogofwar.games.stratego.observation import StrategoView, stratego_view
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import (
    BOMB,
    FLAG,
    MINER,
    MOVED_BIT,
    OWNER_BIT,
    PRESENT_BIT,
    RANK_MASK,
    REVEALED_BIT,
    StrategoGame,
    battle,
    piece_code,
)
from fogofwar.games.stratego.variants import Variant
from fogofwar.grid.board import NEIGHBOURS

if TYPE_CHECKING:
    from fogofwar.games.stratego.agents.material_chance import Potential
    from fogofwar.games.stratego.agents.policy_model import PolicyNet
    from fogofwar.games.stratego.sim.batch import BatchSim

U8 = npt.NDArray[np.uint8]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]

OPTIONS = {
    "top": NumberOption(1, 20, 4, "N", whole=True),
    "guesses": NumberOption(1, 256, 8, "N", whole=True),
    "depth": NumberOption(0, 100, 8, "PLIES", whole=True),
    "prior": NumberOption(0, 10, 0.01, "W"),
    "sure": NumberOption(0, 1, 0.95, "P"),
    "exposed": NumberOption(-1, 1, -1, "P"),
    "marshal": NumberOption(0, 1, 1, "0|1", whole=True),
    "spy": NumberOption(0, 1, 1, "0|1", whole=True),
    "futile": NumberOption(0, 1, 1, "0|1", whole=True),
    "watch": NumberOption(0, 2, 0.2, "W"),
    "reveal": NumberOption(0, 2, 1, "0|1|2", whole=True),
    "seize": NumberOption(0, 1, 0, "0|1", whole=True),
    "setup": NumberOption(-1, 1000, -1, "K", whole=True),
    "budget": NumberOption(0, 60, 0.9, "SECONDS"),
    "runs": NumberOption(0, 15, 0, "K", whole=True),
    "press": NumberOption(0, 1, 0, "P"),
    "siege": NumberOption(0, 40, 0, "N", whole=True),
    "hold": NumberOption(0, 3, 2, "N", whole=True),
    "neighbours": NumberOption(0, 1, 1, "0|1", whole=True),
    "takes": NumberOption(0, 1, 0, "0|1", whole=True),
    "probe": NumberOption(0, 1, 0, "P"),
    "probeplay": NumberOption(0, 1, 1, "0|1", whole=True),
    "value": NumberOption(0, 1, 0, "W"),
    "stood": NumberOption(0, 1, 0, "0|1", whole=True),
    "enemy": NumberOption(0, 2, 0, "0|1|2", whole=True),
    "faithful": NumberOption(0, 1, 1, "0|1", whole=True),
    "ownfit": NumberOption(0, 1, 0, "0|1", whole=True),
    "decoy": NumberOption(0, 1, 0, "0|1", whole=True),
    "mirror": NumberOption(0, 4, 0, "W"),
}

PRESS_RUNS = 3
"""`rollout:press` without `runs`: the moves in a row at our flag that make a piece the runner."""


def _battle_table(result: tuple[bool, bool]) -> npt.NDArray[np.bool_]:
    """[attacker rank, defender rank] of the simulator's codes (16 a side): whether the battle ends in `result`
    (attacker stands, defender stands); False for codes that are no rank."""
    out = np.array([[battle(a, d) == result for d in range(16)] for a in range(16)], np.bool_)
    out[len(Rank) :, :] = out[:, len(Rank) :] = False
    return out


_FUTILE = _battle_table((False, True))
"""[attacker rank, defender rank]: the attacker dies and the defender stands (a bomb for all but the miner)."""


def futile_moves(know: Knowledge, moves: Sequence[int]) -> set[int]:
    """The moves (reference ids) that attack an enemy piece whose shown rank beats the attacker and survives: a
    piece given away for nothing learnt. Demon never plays one; the net did about once a game (docs/strength.md)."""
    out = set()
    for move in moves:
        src, dst = divmod(move, 100)
        mine, theirs = know.cells[src], know.cells[dst]
        if mine is None or theirs is None or theirs.owner == know.player or theirs.rank is None or mine.rank is None:
            continue
        if theirs.revealed and _FUTILE[mine.rank, theirs.rank]:
            out.add(move)
    return out


OFFICERS = frozenset({Rank.CAPTAIN, Rank.MAJOR, Rank.COLONEL, Rank.GENERAL, Rank.MARSHAL})
PROBERS = frozenset({Rank.SCOUT, Rank.MINER, Rank.SERGEANT, Rank.LIEUTENANT})
"""The pieces that attack unmoved pieces in our officers' stead: movable and below a captain (not the spy)."""
_OFFICER = np.zeros(16, np.bool_)
_OFFICER[[int(r) for r in OFFICERS]] = True


def probe_moves(
    know: Knowledge, marginals: dict[int, dict[int, float]], moves: Sequence[int], limit: float
) -> set[int]:
    """The moves (reference ids) by which our captain or better attacks an enemy piece that has never moved nor been
    shown while the belief gives it a bomb with chance `limit` or more, and no more chance of the flag; none while
    we have no movable piece below a captain left to probe with.

    Why: against Demon level 1 (seed 29) Master's colonels, generals and marshal attacked such pieces 140 times in
    30 games and hit a bomb 31 times; Demon's did so 4 times: it probes unmoved pieces with scouts and miners
    (docs/strength.md, sessions 44 and 62)."""
    if not any(c is not None and c.owner == know.player and c.rank in PROBERS for c in know.cells):
        return set()
    out = set()
    for move in moves:
        src, dst = divmod(move, 100)
        mine, theirs = know.cells[src], know.cells[dst]
        if mine is None or theirs is None or theirs.owner == know.player or mine.rank not in OFFICERS:
            continue
        chances = marginals.get(dst, {})
        bomb = chances.get(int(Rank.BOMB), 0.0)
        if not theirs.revealed and not theirs.moved and bomb >= limit and bomb > chances.get(int(Rank.FLAG), 0.0):
            out.add(move)
    return out


def probe_mask(sim: BatchSim) -> npt.NDArray[np.bool_]:
    """(n, compact ids): the moves of the seat to move in each game by which a captain or better attacks a piece of
    the other seat that has never moved nor been shown (`probe_moves` with any chance of a bomb, on the simulator's
    boards: the roll-outs' players leave such attacks to low pieces, as Demon does)."""
    src, dst, enemy = _attack_codes(sim)
    unseen = (dst & (REVEALED_BIT | MOVED_BIT)) == 0
    out: npt.NDArray[np.bool_] = enemy & unseen & _OFFICER[src & RANK_MASK]
    return out


def _attack_codes(sim: BatchSim) -> tuple[I64, I64, npt.NDArray[np.bool_]]:
    """(n, compact ids) each: the piece codes on every move's from-square and to-square in each game of `sim`, and
    whether the to-square holds a piece of the seat not to move (the board's orientation, legal or not): what the
    roll-outs' move masks are built from."""
    from fogofwar.games.stratego.sim.tables import MOVE_OF_COMPACT  # not at the top: it imports numba

    board = sim.board.astype(np.int64)
    src, dst = board[:, MOVE_OF_COMPACT // 100], board[:, MOVE_OF_COMPACT % 100]
    enemy = ((dst & PRESENT_BIT) != 0) & (((dst & OWNER_BIT) >> 4) != sim.to_move[:, None])
    return src, dst, enemy


def flag_takes(sim: BatchSim) -> npt.NDArray[np.bool_]:
    """(n, compact ids): the legal moves of the seat to move in each game that take the other seat's flag where the
    mover sees it (shown). Why: the net never saw a shown flag (people's and self-play games show a flag only as it
    falls), so in the roll-outs an enemy shown our flag took it in about half the plies it could (Barrage records,
    session 48), and the roll-outs missed most of the danger to our flag."""
    _, dst, theirs = _attack_codes(sim)
    shown_flag = ((dst & REVEALED_BIT) != 0) & ((dst & RANK_MASK) == FLAG)
    out: npt.NDArray[np.bool_] = theirs & shown_flag & sim.legal_mask(compact=True)
    return out


def flag_threats(
    know: Knowledge,
    marginals: dict[int, dict[int, float]],
    hidden_within: int = 4,
    reach: float = 3.0,
    run: Sequence[int] = (),
    runs: int = 0,
) -> dict[int, float]:
    """Enemy pieces that could take our flag, each with the chance that it is one that can (1 for a shown miner;
    for a piece not shown, the belief's P(miner), and P(any moving rank) where a way without our bombs leads in)
    times exp(-(d - 1) / `reach`) for the moves d it needs to strike the flag (`search.flag_ways`: our bombs stop
    all but miners, our pieces slow the way). A piece not shown counts only within `hidden_within` such moves.
    With `runs` > 0, the enemy piece whose latest `runs` or more moves in a row (`run`: the squares of its run,
    `BeliefTracker.run`) each came nearer our flag counts in full wherever it stands (`flag_runner`).

    Why: the flags Demon took from `rollout` fell mostly to a miner that walked in unseen and showed itself only on
    the bomb beside the flag, and a few to a shown miner that walked ten squares or more while our sergeants and
    better stood idle (docs/strength.md, session 40)."""
    flag = know.own_flag()
    if flag is None:
        return {}
    others, miners = flag_ways(know, flag)

    def near(d: int) -> float:
        return math.exp(-(d - 1) / reach) if d < 99 else 0.0

    out: dict[int, float] = {}
    runner = flag_runner(know, run, others, miners, runs) if runs > 0 else None
    for sq, c in enumerate(know.cells):
        if c is None or c.owner == know.player or c.rank in (BOMB, FLAG):
            continue
        if sq == runner:
            weight = 1.0
        elif c.rank is not None:
            weight = near(miners[sq] if c.rank == MINER else others[sq])
        elif c.moved and min(miners[sq], others[sq]) <= hidden_within:
            row = marginals.get(sq, {})
            total = sum(row.values()) or 1.0
            miner = row.get(MINER, 0.0) / total
            weight = miner * near(miners[sq]) + (1.0 - miner) * near(others[sq])
        else:
            continue
        if weight > 0:
            out[sq] = weight
    return out


def shows_officer(know: Knowledge, move: int) -> bool:
    """Whether `move` is an attack by one of our hidden colonels, generals or marshal: a capture that shows it.

    Why: our marshal was shown by its own capture in most games against Demon, and the net was sure of most of those
    captures, so they were played without a look-ahead (docs/strength.md, session 41)."""
    src, dst = divmod(move, 100)
    piece, target = know.cells[src], know.cells[dst]
    if piece is None or piece.owner != know.player or piece.revealed or piece.rank not in _OFFICERS:
        return False
    return target is not None and target.owner != know.player


_OFFICERS = frozenset({int(Rank.COLONEL), int(Rank.GENERAL), int(Rank.MARSHAL)})


def flag_runner(know: Knowledge, run: Sequence[int], others: list[int], miners: list[int], runs: int) -> int | None:
    """The square of the enemy piece that ran at our flag: its last `runs` or more moves in a row (`run`, the
    squares of its run) each brought it nearer (by the miners' way for a piece not shown or a shown miner, by the
    others' for the rest, `flag_ways`); None when there is none.

    Why: 10 of the 16 flags `search` took from `rollout` in 100 classic games fell at the end of a run of 6 to 12
    moves of the taker in a row (3 more after 3 or 4), nearly every step nearer our flag, most of the way unseen, the
    last two the bomb it dug and the flag; `flag_threats` counted a hidden piece only within four moves, and then by
    the belief's chance of a miner (docs/strength.md, session 51)."""
    if len(run) <= runs:
        return None
    piece = know.cells[run[-1]]
    if piece is None or piece.owner == know.player or piece.rank in (BOMB, FLAG):
        return None
    way = others if piece.rank is not None and piece.rank != MINER else miners
    tail = run[-runs - 1 :]
    if all(way[b] < way[a] for a, b in zip(tail, tail[1:], strict=False)) and way[tail[-1]] < 99:
        return run[-1]
    return None


def flag_raiders(know: Knowledge, guesses: Sequence[dict[int, int]], flag: int) -> list[int]:
    """In each guessed world, the square of the enemy piece that can move and has the fewest moves to our `flag`
    (`flag_ways`: round our bombs, through them for a miner), or -1 when none can move. `mirror` sends it at the
    flag in the worlds where the enemy is taken to know where the flag stands.

    >>> from collections import Counter
    >>> from fogofwar.games.stratego.agents.knowledge import Cell
    >>> from fogofwar.games.stratego.variants import get_variant
    >>> cells: list[Cell | None] = [None] * 100
    >>> cells[0], cells[1] = Cell(0, FLAG, False, False), Cell(0, BOMB, False, False)  # our flag, a bomb beside
    >>> cells[30], cells[60] = Cell(1, None, True, False), Cell(1, None, False, False)  # theirs, one moved
    >>> know = Knowledge(0, get_variant("classic"), cells, Counter())
    >>> flag_raiders(know, [{30: 3, 60: 4}, {30: 3, 60: BOMB}, {30: BOMB, 60: BOMB}], 0)
    [30, 30, -1]
    """
    others, miners = flag_ways(know, flag)
    enemies = [(sq, c.rank) for sq, c in enumerate(know.cells) if c is not None and c.owner == know.enemy]
    out = []
    for guess in guesses:
        best, nearest = -1, 99
        for sq, known in enemies:
            rank = known if known is not None else guess.get(sq, BOMB)
            if rank in (BOMB, FLAG):
                continue
            moves = miners[sq] if rank == MINER else others[sq]
            if moves < nearest:
                best, nearest = sq, moves
        out.append(best)
    return out


def watch_values(know: Knowledge, moves: Sequence[int], threats: dict[int, float]) -> dict[int, float]:
    """Of `moves`, those against a threat to our flag (`flag_threats`), each with the threat's weight: a move that
    takes it, or (half the weight) one that steps nearer to it round the lakes, by a piece of ours that beats a
    miner (a sergeant or better) and, for a shown piece, beats or trades with its rank. `rollout:watch` compares
    them and adds W x this value to their score: the net alone seldom proposes them and eight plies of roll-out do
    not see a walk to the flag."""
    out: dict[int, float] = {}
    for move in moves:
        src, dst = divmod(move, 100)
        mine = know.cells[src]
        if mine is None or mine.rank is None or battle(mine.rank, MINER) != (True, False):
            continue
        best = 0.0
        for t, weight in threats.items():
            rank = know.cells[t].rank  # type: ignore[union-attr]
            if rank is not None and battle(mine.rank, rank) not in ((True, False), (False, False)):
                continue
            if dst == t:
                best = max(best, weight)
            elif PATH_LENGTHS[dst][t] < PATH_LENGTHS[src][t]:
                best = max(best, weight / 2)
        if best > 0:
            out[move] = best
    return out


def fall_back_values(know: Knowledge, moves: Sequence[int], runner: int) -> dict[int, float]:
    """Of `moves`, those of our pieces that could stop the enemy piece on `runner` (`flag_runner`) on its way to
    our flag: taking it (1), or a step back nearer our flag (1/2) that leaves the piece no farther from the flag
    round the lakes than the runner's way to it; by a piece that beats a miner when the runner is hidden, or one
    that beats or trades with its shown rank.

    Why: `watch` values steps nearer to a threat, and a piece that follows a runner stays a step behind it to the
    flag: a colonel of ours followed `search`'s hidden miner for six moves as it dug the bomb and took the flag
    (docs/strength.md, session 52)."""
    flag = know.own_flag()
    piece = know.cells[runner]
    if flag is None or piece is None:
        return {}
    others, miners = flag_ways(know, flag)
    left = (others if piece.rank is not None and piece.rank != MINER else miners)[runner]
    out: dict[int, float] = {}
    for move in moves:
        src, dst = divmod(move, 100)
        mine = know.cells[src]
        if mine is None or mine.owner != know.player or mine.rank is None:
            continue
        if piece.rank is None:
            stops = battle(mine.rank, MINER) == (True, False)
        else:
            stops = battle(mine.rank, piece.rank) in ((True, False), (False, False))
        if not stops:
            continue
        if dst == runner:
            out[move] = 1.0
        elif PATH_LENGTHS[dst][flag] < PATH_LENGTHS[src][flag] and PATH_LENGTHS[dst][flag] <= left:
            out[move] = 0.5
    return out


def movable_enemies(know: Knowledge) -> int:
    """How many enemy pieces that can move are left: those shown and the hidden ones the pool leaves."""
    shown = sum(1 for c in know.cells if c is not None and c.owner == know.enemy and c.rank not in (None, BOMB, FLAG))
    return shown + sum(n for r, n in know.unknown_pool.items() if r not in (BOMB, FLAG))


def siege_target(know: Knowledge, marginals: dict[int, dict[int, float]]) -> tuple[int, list[int]] | None:
    """(the square of our miner with the shortest way to the enemy flag, each square's moves to that flag), the
    flag where the belief holds it likeliest and the way through free squares and enemy pieces a miner can take or
    may (bombs, the flag, unmoved hidden pieces), our pieces and the enemy's others in the way; None when no miner
    of ours has a way.

    Why: every game `rollout` drew at the move cap against `search` in a classic series (11 of 100) ended with the
    enemy left one or two of a marshal, general or colonel and its flag behind bombs it had shown, and most with
    three miners of ours or more alive: the net has no plan to dig, and eight plies do not show one
    (docs/strength.md, session 52)."""
    chances = {sq: 1.0 for sq, c in enumerate(know.cells) if c is not None and c.owner == know.enemy and c.rank == FLAG}
    if not chances:
        chances = {sq: row.get(FLAG, 0.0) for sq, row in marginals.items()}
    if not chances:
        return None
    flag = max(chances, key=lambda sq: (chances[sq], -sq))
    way = [99] * 100
    way[flag] = 0
    frontier = [flag]
    while frontier:
        nxt = []
        for sq in frontier:
            for n in NEIGHBOURS[sq]:
                c = know.cells[n]
                if way[n] < 99 or not is_land(n):
                    continue
                diggable = c is not None and (c.rank in (BOMB, FLAG) or (c.rank is None and not c.moved))
                if c is not None and c.owner == know.enemy and not diggable:
                    continue  # a piece that moves: not a way a miner digs
                way[n] = way[sq] + 1
                if c is None or c.owner == know.enemy:
                    nxt.append(n)  # our pieces end a way: only the miner's own square is wanted
        frontier = nxt
    miners = [sq for sq, c in enumerate(know.cells) if c is not None and c.owner == know.player and c.rank == MINER]
    reached = [sq for sq in miners if way[sq] < 99]
    if not reached:
        return None
    return min(reached, key=lambda sq: (way[sq], sq)), way


HELD_RANKS = (Rank.MARSHAL, Rank.GENERAL, Rank.COLONEL)
"""`rollout:hold=N` holds back the first N of these while the enemy has not seen them."""


def hold_mask(sim: BatchSim, track: ShownTracker, held: Iterable[int]) -> npt.NDArray[np.bool_]:
    """(n, compact ids): the attacks in each game by a piece of `track`'s seat of a rank in `held` that the real
    enemy would not have seen yet (`ShownTracker`), when that seat is to move.

    Why: Demon plays to find our marshal, and once it knows it, its general takes our unknown movers with impunity
    (its README); our marshal was shown by its own capture in 47 of 59 games (docs/strength.md, session 41). The
    roll-outs' net makes that capture a ply after any quiet move, so a root move that keeps the marshal hidden could
    not be told from one that shows it; held back in the roll-outs, the capture that shows it is weighed at the
    root alone, by the fit of what each side has shown (`reveal`)."""
    from fogofwar.games.stratego.sim.tables import MOVE_OF_COMPACT  # not at the top: it imports numba

    ranks = np.zeros(16, np.bool_)
    ranks[list(held)] = True
    src, _, enemy = _attack_codes(sim)
    ours = (sim.to_move[:, None] == track.seat) & (((src & OWNER_BIT) >> 4) == track.seat) & ((src & PRESENT_BIT) != 0)
    hidden = ours & ranks[src & RANK_MASK] & ~track.shown[:, MOVE_OF_COMPACT // 100]
    out: npt.NDArray[np.bool_] = hidden & enemy
    return out


def futile_mask(sim: BatchSim) -> npt.NDArray[np.bool_]:
    """(n, compact ids): the moves of the seat to move in each game that attack a piece of the other seat whose
    shown rank beats the attacker and survives (as `futile_moves`, for the simulator's boards)."""
    src, dst, enemy = _attack_codes(sim)
    shown = (dst & REVEALED_BIT) != 0
    out: npt.NDArray[np.bool_] = enemy & shown & _FUTILE[src & RANK_MASK, dst & RANK_MASK]
    return out


_WINS = _battle_table((True, False))
_WINS[:, FLAG] = False  # the flag's capture is `seize`'s
"""[attacker rank, defender rank]: the attacker takes the defender and stands."""


def shown_takes(sim: BatchSim, track: ShownTracker, values: F64, legal: npt.NDArray[np.bool_] | None = None) -> I64:
    """(n,): for each game where the seat other than `track`'s is to move, its legal capture (compact id) of a piece
    of `track`'s seat that the real game would have shown (`ShownTracker`) and that its attacker beats, the most
    valuable such piece by `values` (by rank); -1 where there is none or it is `track`'s seat's turn.

    Why: Demon took our shown piece that came beside a piece of its that beats it on its next move 78% of the time (a
    low piece of ours) to 87% (an officer), over Master's 96 games against level 5; in the roll-outs the net, as the
    enemy, took such a piece 29% of the time, so a shown piece beside a hidden enemy officer looked safe there.
    `legal` is `sim.legal_mask(compact=True)` where the caller has it already."""
    from fogofwar.games.stratego.sim.tables import MOVE_OF_COMPACT  # not at the top: it imports numba

    src, dst, enemy = _attack_codes(sim)
    theirs = (sim.to_move[:, None] != track.seat) & enemy
    takes = theirs & _WINS[src & RANK_MASK, dst & RANK_MASK] & track.shown[:, MOVE_OF_COMPACT % 100]
    takes &= sim.legal_mask(compact=True) if legal is None else legal
    worth = np.where(takes, values[dst & RANK_MASK], -np.inf)
    best = worth.argmax(axis=1)
    out: I64 = np.where(takes.any(axis=1), best, -1)
    return out


def world_codes(know: Knowledge, guess: dict[int, int], shown: frozenset[int] = frozenset()) -> U8:
    """One row of simulator piece codes (`sim.batch.piece_codes`) for the board `know` sees, with every enemy piece
    of unknown rank given its rank in `guess`; moved and revealed marks as the game shows them (the engine's own
    `rules.piece_code`, which the simulator shares), and the pieces on the squares `shown` revealed as well."""
    row = np.zeros(len(know.cells), np.uint8)
    for sq, cell in enumerate(know.cells):
        if cell is not None:
            rank = cell.rank if cell.rank is not None else guess[sq]
            row[sq] = piece_code(cell.owner, rank, cell.moved, cell.revealed or sq in shown)
    return row


def with_rank(
    know: Knowledge, guess: dict[int, int], square: int, rank: int, rng: random.Random
) -> dict[int, int] | None:
    """`guess` with `rank` on the unknown piece on `square`, swapped with a piece of that rank elsewhere: a world
    as likely in every other respect (`press` makes the runner a miner so). None when no swap keeps bombs and the
    flag off pieces that have moved."""
    if guess.get(square) == rank:
        return dict(guess)
    cell = know.cells[square]
    if square not in guess or cell is None or (cell.moved and rank in (BOMB, FLAG)):
        return None
    sources = [sq for sq, r in guess.items() if r == rank]
    rng.shuffle(sources)
    for sq in sources:
        other = know.cells[sq]
        if other is not None and other.moved and guess[square] in (BOMB, FLAG):
            continue
        out = dict(guess)
        out[sq], out[square] = guess[square], rank
        return out
    return None


def captured_counts(data: StrategoView) -> I64:
    """(2, ranks): how many pieces of each rank each seat has lost, from the observation."""
    out = np.zeros((2, len(RANK_OF_NAME)), np.int64)
    for seat in (0, 1):
        for name in data["captured"][seat]:
            out[seat, RANK_OF_NAME[name]] += 1
    return out


@cache
def _potential(variant: str, marshal_step: bool = False, reveal: bool = False, own_fit: bool = False) -> Potential:
    from fogofwar.games.stratego.agents.material_chance import Potential

    return Potential(variant, marshal_step, reveal, own_fit)


def _fields(board: U8) -> tuple[npt.NDArray[np.bool_], I64, I64]:
    """(present, owner, rank) of each square of simulator piece codes (`rules.piece_code`)."""
    codes = board.astype(np.int64)
    return (codes & PRESENT_BIT) != 0, (codes & OWNER_BIT) >> 4, codes & RANK_MASK


class ShownTracker:
    """Which of `seat`'s pieces in each roll-out world the real opponent has seen: those it had seen at the start
    and those that fought since, followed as they move.

    Why: the simulator's revealed marks of our pieces are what the roll-outs' enemy knows, and with `exposed` that
    is more than the real game showed; the score of what each side has shown (`reveal`) must count what the game
    would have shown."""

    def __init__(self, n_envs: int, seat: int, squares: Iterable[int]) -> None:
        self.seat = seat
        self.shown = np.zeros((n_envs, 100), np.bool_)
        self.shown[:, list(squares)] = True

    def step(self, sim: BatchSim, moves: I64, envs: I64) -> None:
        """Follow the move ids `moves` (src x 100 + dst) about to be played in the games `envs` of `sim`: our piece
        carries its mark and gains one when it attacks or moves more than one square (a scout shows itself so); ours
        attacked where it stands gains one."""
        src, dst = moves // 100, moves % 100
        present, owner, _ = _fields(sim.board[envs])
        rows = np.arange(len(envs))
        attack = present[rows, dst]
        ours = owner[rows, src] == self.seat
        far = np.abs(_ROW[src] - _ROW[dst]) + np.abs(_COL[src] - _COL[dst]) > 1
        e, a, b = envs[ours], src[ours], dst[ours]
        carried = self.shown[e, a] | attack[ours] | far[ours]
        self.shown[e, a] = False
        self.shown[e, b] = carried
        hit = ~ours & attack
        self.shown[envs[hit], dst[hit]] = True

    def counts(self, sim: BatchSim) -> I64:
        """(n, 2, ranks): each seat's pieces alive and shown by rank: ours as followed here, the enemy's by the
        simulator's revealed marks (the roll-outs' own view of it is the real one)."""
        present, owner, rank = _fields(sim.board)
        ranks = rank[:, :, None] == np.arange(len(Rank))[None, None, :]
        mine = present & (owner == self.seat) & self.shown
        theirs = present & (owner != self.seat) & ((sim.board & REVEALED_BIT) != 0)
        out = np.zeros((sim.n_envs, 2, len(Rank)), np.int64)
        out[:, self.seat] = (ranks & mine[:, :, None]).sum(axis=1)
        out[:, 1 - self.seat] = (ranks & theirs[:, :, None]).sum(axis=1)
        return out


def play_out(
    net: PolicyNet,
    sim: BatchSim,
    plies: int,
    futile: bool = False,
    track: ShownTracker | None = None,
    seize: bool = False,
    deadline: float = math.inf,
    runners: Sequence[Runner] = (),
    held: Sequence[int] = (),
    take_values: F64 | None = None,
    probe: bool = False,
    enemy_net: PolicyNet | None = None,
    seat: int = 0,
) -> None:
    """Play up to `plies` more plies in every game of `sim` that goes on, each seat the net's likeliest move from
    its own view. With `futile`, neither seat attacks a shown piece that beats the attacker (`futile_mask`) while it
    has another move; with `seize`, a seat that can take a flag it sees takes it (`flag_takes`); `track` follows every
    move played. Each of `runners` keeps its piece running at the flag it runs at (`Runner.press`). With `track`,
    `track`'s seat does not attack with a piece of a rank in `held` the enemy has not seen (`hold_mask`) while it has
    another move. With `track` and `take_values` (by rank), the other seat takes the most valuable piece of
    `track`'s seat that the real game would have shown and that its attacker beats, where it can (`shown_takes`).
    With `probe`, neither seat attacks an unmoved hidden piece with a captain or better (`probe_mask`) while it has
    another move.
    With `enemy_net`, the plies of the seat other than `seat` are that net's likeliest moves (the roll-outs' model of
    the opponent: `rollout:enemy`), `seat`'s the net's.
    No ply starts that the last one's length would take past `deadline` (by `perf_counter()`): the games are
    scored where they stand, and a move stays within its budget by about the change from one ply to the next."""
    from fogofwar.games.stratego.agents.policy_model import FLIP_COMPACT, SLOT_OF_COMPACT, movers_view
    from fogofwar.games.stratego.sim.tables import MOVE_OF_COMPACT

    last = 0.0  # the last ply's seconds
    for _ in range(plies):
        live = np.flatnonzero(~sim.done)
        start = perf_counter()
        if not len(live) or start + last >= deadline:
            return
        legal = sim.legal_mask(compact=True)  # board orientation; `movers_view` and `shown_takes` share it
        movers, planes, masks = movers_view(sim, legal)
        if futile:
            masks = _without(futile_mask(sim), movers, masks)
        if held and track is not None:
            masks = _without(hold_mask(sim, track, held), movers, masks)
        if probe:
            masks = _without(probe_mask(sim), movers, masks)
        blue = movers[live] == 1
        if enemy_net is None:
            logits = net.logits(planes[live])[:, SLOT_OF_COMPACT]
        else:
            ours = movers[live] == seat
            logits = np.empty((len(live), len(SLOT_OF_COMPACT)), np.float32)
            if ours.any():
                logits[ours] = net.logits(planes[live[ours]])[:, SLOT_OF_COMPACT]
            if (~ours).any():
                logits[~ours] = enemy_net.logits(planes[live[~ours]])[:, SLOT_OF_COMPACT]
        best = np.where(masks[live], logits, -np.inf).argmax(axis=1)
        acts = np.full(sim.n_envs, -1, np.int64)
        acts[live] = np.where(blue, FLIP_COMPACT[best], best)
        if take_values is not None and track is not None:
            taken = shown_takes(sim, track, take_values, legal)[live]
            acts[live] = np.where(taken >= 0, taken, acts[live])
        if seize:
            takes = flag_takes(sim)[live]
            won = takes.any(axis=1)
            acts[live[won]] = takes[won].argmax(axis=1)
        for runner in runners:
            runner.press(sim, acts, live)
        if track is not None:
            track.step(sim, MOVE_OF_COMPACT[acts[live]], live)
        sim.step(acts, compact=True, envs=live)
        for runner in runners:
            runner.follow(sim)
        last = perf_counter() - start


class Runner:
    """A piece made to run at a flag in each roll-out world: the enemy piece that ran at ours (`flag_runner`), or
    our miner sent at theirs (`siege`). At each of its seat's plies it steps to the neighbouring square nearest
    `flag` by `way` (moves round the lakes, `PATH_LENGTHS`, unless given) when that is nearer than where it stands,
    free or the other seat's to take (a bomb only for a miner, the flag for any piece), and otherwise the net moves
    for its seat. Followed as it moves; lost when it is taken or loses a battle.

    Why: 10 of the 16 flags `search` took from `rollout` in 100 classic games fell at the end of a run of 6 to 12
    moves of one piece in a row, and the roll-outs' enemy, the net, does not go on with such a run, so a move that
    stands in its way scored no better than one that lets it through; a bonus for such moves beside the roll-outs
    (`watch`) did not defend (docs/strength.md, sessions 51 and 52)."""

    def __init__(self, n_envs: int, square: int | I64, seat: int, flag: int, way: Sequence[int] | None = None) -> None:
        self.at = np.zeros(n_envs, np.int64) + square  # its square in each game (given one or each); -1: none
        self.seat, self.flag = seat, flag
        self.way = PATH_LENGTHS[flag] if way is None else way  # moves from each square to the flag

    def press(self, sim: BatchSim, acts: I64, live: I64) -> None:
        """Put the runner's step in `acts` (compact ids, board orientation) for the games of `live` where it is its
        seat's turn and it has one; its square in `at` becomes the step's target."""
        from fogofwar.games.stratego.sim.tables import COMPACT_OF_MOVE

        games = live[(sim.to_move[live] == self.seat) & (self.at[live] >= 0)]
        if not len(games):
            return
        legal = sim.legal_mask(compact=True)
        towards = self.way
        for e in games.tolist():
            at = int(self.at[e])
            rank = int(sim.board[e, at]) & RANK_MASK
            best, nearest = -1, towards[at]
            for n in NEIGHBOURS[at]:
                code = int(sim.board[e, n])
                if code & PRESENT_BIT:
                    if (code & OWNER_BIT) >> 4 == self.seat:
                        continue
                    target = code & RANK_MASK
                    if not (target == FLAG or (target == BOMB and rank == MINER)):
                        continue
                compact = int(COMPACT_OF_MOVE[at * 100 + n])
                if towards[n] < nearest and compact >= 0 and legal[e, compact]:
                    best, nearest = n, towards[n]
            if best >= 0:
                acts[e] = COMPACT_OF_MOVE[at * 100 + best]
                self.at[e] = best

    def follow(self, sim: BatchSim) -> None:
        """After the ply: the runner is gone where its square no longer holds a piece of its seat."""
        on = self.at >= 0
        codes = sim.board[np.arange(sim.n_envs), np.where(on, self.at, 0)].astype(np.int64)
        kept = ((codes & PRESENT_BIT) != 0) & (((codes & OWNER_BIT) >> 4) == self.seat)
        self.at[on & ~kept] = -1


def _without(bad: npt.NDArray[np.bool_], movers: I64, masks: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """The movers' legal masks (turned round for blue, as `movers_view` gives them) less the moves `bad` marks (in
    the board's orientation, as `futile_mask` gives them), where a move remains."""
    from fogofwar.games.stratego.agents.policy_model import FLIP_COMPACT

    bad = bad.copy()
    blue = movers == 1
    bad[blue] = bad[blue][:, FLIP_COMPACT]
    kept: npt.NDArray[np.bool_] = masks & ~bad
    keep = kept.any(axis=1, keepdims=True)
    out: npt.NDArray[np.bool_] = np.where(keep, kept, masks)
    return out


_ROW, _COL = np.divmod(np.arange(100), 10)


def scores(
    sim: BatchSim,
    seat: int,
    variant: str,
    marshal_step: bool = False,
    shown: ShownTracker | None = None,
    own_fit: bool = False,
) -> F64:
    """Each game's score for `seat`: +1 won, -1 lost, 0 drawn, and the material win chance while it goes on (with
    `marshal_step`, by the fit that gives the marshal that outlives the other's a step of its own; given `shown`,
    by the fit with that step and one for each piece a seat has shown, ours as `shown` followed them; with
    `own_fit`, the fit of the variant's own games where one is shipped)."""
    seats = np.full(sim.n_envs, seat, np.int64)
    if shown is not None:
        chance = _potential(variant, True, True, own_fit)(sim.captured, seats, shown.counts(sim)).astype(np.float64)
    else:
        chance = _potential(variant, marshal_step, False, own_fit)(sim.captured, seats).astype(np.float64)
    winner = sim.winner
    result = np.where(winner == seat, 1.0, np.where(winner == 1 - seat, -1.0, 0.0))
    out: F64 = np.where(sim.done, result, chance)
    return out


_WARMED: set[str] = set()


def leaf_values(sim: BatchSim, seat: int, shown: ShownTracker | None = None) -> F64:
    """Each game's value for `seat` in [-1, 1] (2w - 1) by the shipped value net (`value_model`), read from what
    `seat` sees where the game stands; `shown`, when given, says which of its pieces the real opponent has seen
    (the simulator's marks say more with `exposed`). Games that ended get the net's value too: the caller keeps
    their result.

    Why: the roll-outs end after eight plies of a net with no plan, scored by the material alone; the value net
    was fitted to the material win chance twenty plies on in people's games (docs/strength.md, session 28), so it
    reads some of what the next plies hold (a marshal left beside hidden pieces, a flag with a runner near)."""
    from fogofwar.games.stratego.agents.policy_model import oriented_planes
    from fogofwar.games.stratego.agents.value_model import shipped_value
    from fogofwar.games.stratego.sim.planes import OWN_REVEALED

    net = shipped_value()
    if net is None:
        raise RuntimeError("rollout:value needs the shipped value net (data/value_net.npz)")
    planes = sim.observe(seat)
    if shown is not None:
        planes[:, OWN_REVEALED] = shown.shown.reshape(-1, 10, 10)
    chances = net.win_chances(oriented_planes(planes, seat))
    out: F64 = 2.0 * chances.astype(np.float64) - 1.0
    return out


def warm_look_ahead(net: PolicyNet, variant: str) -> bool:
    """Run the simulator's kernels a look-ahead runs (start, step, the roll-out's views and masks, the score) on two
    random games, once a process and variant: a fresh install compiles them for seconds (numba's cache then loads
    them), which `RolloutAgent.start` takes out of the first move's clock. True when this call did the work."""
    if variant in _WARMED:
        return False
    from fogofwar.games.stratego.sim.batch import BatchSim

    sim = BatchSim(variant, n_envs=2, max_moves=0)
    sim.reset(seed=0)
    sim.step(sim.sample_actions(seed=0))
    play_out(net, sim, 2, futile=True, seize=True)
    scores(sim, 0, variant, marshal_step=True)
    _WARMED.add(variant)
    return True


def _without_moves(probs: dict[int, float], bad: set[int]) -> dict[int, float]:
    """The net's move probabilities less the moves `bad`, renormalised, unless no move would be left."""
    if not bad or len(bad) >= len(probs):
        return probs
    kept = sum(p for a, p in probs.items() if a not in bad)
    return {a: p / kept for a, p in probs.items() if a not in bad}


class RolloutAgent(SelfPlayAgent):
    """`rollout`: `selfplay`'s net, each of its likeliest moves tried in short games over guessed armies."""

    name = "rollout"
    variant_setups: ClassVar[dict[str, int]] = {"barrage": 20}
    """Variants set up from the setup book (the safest of this many book setups) unless `setup` says otherwise: in
    Barrage against `search` the book's setups scored 11 points more than the guarded setup over 300 games a side
    (docs/strength.md, session 48)."""
    variant_exposed: ClassVar[dict[str, float]] = {"classic": 0.0}
    """`exposed` by variant unless it is given (1 elsewhere): in classic the roll-outs' enemy that knows only what the
    game showed scored 58.9% against Demon level 5 over 96 games, 69.2% against level 1 over 60 and 78.0% against
    `search` over 50, where the one shown our whole army scored 56.3%, 65.0% and 75.0% on the same setups; in Barrage
    the shown army scored 71.0% against `search` over 200 games where the game's own view scored 63.5%
    (docs/strength.md, sessions 69, 72 and 73)."""

    def __init__(
        self,
        top: int = 4,
        guesses: int = 8,
        depth: int = 8,
        prior: float = 0.01,
        sure: float = 0.95,
        exposed: float = -1.0,
        marshal: bool = True,
        spy: bool = True,
        futile: bool = True,
        watch: float = 0.2,
        reveal: int = 1,
        seize: bool = False,
        setup: int = -1,
        budget: float = 0.9,
        runs: int = 0,
        press: float = 0.0,
        siege: int = 0,
        hold: int = 2,
        neighbours: bool = True,
        takes: bool = False,
        probe: float = 0.0,
        probeplay: bool = True,
        value: float = 0.0,
        stood: bool = False,
        enemy: int = 0,
        faithful: bool = True,
        ownfit: bool = False,
        decoy: bool = False,
        mirror: float = 0.0,
    ) -> None:
        super().__init__(0.0)
        self.top, self.guesses, self.depth, self.prior, self.sure = top, guesses, depth, prior, sure
        self.exposed = exposed  # each of our hidden pieces is shown to the roll-outs' enemy with this chance; -1: the
        # variant's own (`variant_exposed`)
        self.marshal = marshal  # score the roll-outs with the material fit that has the marshal's step
        self.spy = spy  # the belief reads the spy from what stands beside our revealed marshal
        self.futile = futile  # no attack on a shown piece that beats the attacker, here or in the roll-outs
        self.watch = watch  # weight of `watch_values` in a move's score, and its moves compared
        self.reveal = reveal  # 1: score the roll-outs by the fit of what each side has shown; 2: and compare the
        # net's sure move when it would show a hidden officer (`shows_officer`)
        self.seize = seize  # in the roll-outs, a seat that sees a flag it can take takes it (`flag_takes`)
        self.setup = setup  # > 0: set up with the safest of this many book setups (`safest_book_setup`); 0: the
        # guarded setup; -1: the variant's own (`variant_setups`)
        self.budget = budget  # > 0: no roll-out ply starts once the move has taken this many seconds
        self._deadline = math.inf  # this move's: `perf_counter()` at its start plus `budget`
        self.runs = runs  # > 0: a piece whose last this many moves ran at our flag is a full threat (`flag_runner`)
        self.press = press  # > 0: that piece runs on in the roll-outs (`Runner`), a miner in this share of worlds more
        self._runner: int | None = None  # this move's runner, with `press`
        self.siege = siege  # > 0: with this many movable enemy pieces or fewer, our miner runs at their flag
        self._siege: tuple[int, list[int]] | None = None  # this move's (our miner, its way), with `siege`
        self.hold = hold  # > 0: the first this many of `HELD_RANKS` do not attack in the roll-outs while unseen
        self.neighbours = neighbours  # the belief weighs bomb and flag by the unmoved pieces beside a piece
        self.takes = takes  # in the roll-outs the enemy takes our shown pieces it beats (`shown_takes`)
        self.probe = probe  # > 0: no attack by our officers on an unmoved hidden piece this likely a bomb, and with
        # `probeplay` none by either seat's officers on such pieces in the roll-outs (`probe_moves`, `probe_mask`)
        self.probeplay = probeplay  # with `probe`: the roll-outs' officers leave such pieces alone too (0: only ours)
        self.value = value  # > 0: this share of a roll-out's score is the value net's, read from our view at its end
        self.stood = stood  # the belief weighs bomb and flag by the enemy turns a piece stood beside ours unmoved
        self.enemy = int(enemy)  # the roll-outs' enemy plays the net fitted to people's moves
        self._enemy_net: PolicyNet | None = None
        self.faithful = faithful  # the worlds draw each piece's rank as often as the belief says (`sample`)
        self.ownfit = ownfit  # score the roll-outs by the material fit of the variant's own games (Barrage)
        self.decoy = decoy  # set up with the flag away from the bombed ring, a low piece in it (`decoy_setup`)
        self.mirror = mirror  # > 0: the enemy's nearest piece runs at our flag in this share times the flag's read
        self._mirror = BeliefTracker()  # the enemy's belief of our army, as a people's belief would read it
        self._flag_read = 0.0  # this move's: the chance `_mirror` gives our flag's square of holding the flag
        self._belief = BeliefTracker()
        self._watched: dict[int, float] = {}  # this move's `watch_values`, for the labels of expert iteration

    @classmethod
    def from_spec(cls, arg: str) -> RolloutAgent:
        v = number_options(cls.name, arg, OPTIONS)
        top, guesses, depth = int(v["top"]), int(v["guesses"]), int(v["depth"])
        marshal, spy, futile = bool(v["marshal"]), bool(v["spy"]), bool(v["futile"])
        return cls(
            top, guesses, depth, v["prior"], v["sure"], v["exposed"], marshal, spy, futile, v["watch"],
            int(v["reveal"]), bool(v["seize"]), int(v["setup"]), v["budget"], int(v["runs"]), v["press"],
            int(v["siege"]), int(v["hold"]), bool(v["neighbours"]), bool(v["takes"]),
            v["probe"], bool(v["probeplay"]), v["value"], bool(v["stood"]), int(v["enemy"]), bool(v["faithful"]),
            bool(v["ownfit"]), bool(v["decoy"]), v["mirror"],
        )  # fmt: skip

    def start(self, game: Game, player: int, rng: random.Random) -> None:
        super().start(game, player, rng)
        self._belief = BeliefTracker()
        self._belief.behaviour_factor = 2.0  # as the search reads the enemy's moves
        if self.spy:
            self._belief.spared_factor, self._belief.guard_factors = SPARED_FACTOR, GUARD_FACTORS
        if self.neighbours:
            self._belief.neighbour_factors = NEIGHBOUR_FACTORS
        if self.stood:
            self._belief.stood_factors = STOOD_FACTORS
        self._mirror = BeliefTracker()
        self._mirror.behaviour_factor = self._belief.behaviour_factor
        self._mirror.neighbour_factors = self._belief.neighbour_factors
        self._flag_read = 0.0
        if self.enemy:
            from fogofwar.games.stratego.agents.policy_model import shipped_policy

            self._enemy_net = shipped_policy()
        if self._net is not None and isinstance(game, StrategoGame):
            warm_look_ahead(self._net, game.variant.name)

    def _placement(self, variant: Variant) -> dict[int, Rank]:
        drawn = self.setup if self.setup >= 0 else self.variant_setups.get(variant.name, 0)
        if drawn > 0:
            return safest_book_setup(variant, self._player, self._rng, drawn)
        if self.decoy:
            return decoy_setup(variant, self._player, self._rng)
        return super()._placement(variant)

    def act(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        self._deadline = perf_counter() + self.budget if self.budget > 0 else math.inf
        try:
            return self._move(observation, legal_actions)
        finally:
            self._deadline = math.inf  # a look-ahead outside a move is not bounded by the last move's clock

    def _move(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        """`act` within the move's deadline."""
        data = stratego_view(observation.data)
        if data["phase"] == "setup" or self._net is None:
            return super().act(observation, legal_actions)
        self._belief.update(data)
        needed = self.futile or self.watch > 0 or self.reveal > 1 or self.hold > 0 or self.probe > 0 or self.mirror > 0
        know = Knowledge.from_observation(data) if needed else None
        if know is not None and self.mirror > 0:
            self._flag_read = self._read_flag(data, know.own_flag())
        marginals = self._belief.marginals(know) if know is not None else {}
        probs = self._net.move_probabilities(data, legal_actions)
        if not probs:
            return super().act(observation, legal_actions)
        if know is not None and self.futile:
            probs = _without_moves(probs, futile_moves(know, list(probs)))
        if know is not None and self.probe > 0:
            probs = _without_moves(probs, probe_moves(know, marginals, list(probs), self.probe))
        ranked = sorted(probs, key=lambda a: (-probs[a], a))
        candidates = ranked[: self.top]
        watched = self._watched = {}
        self._runner = None
        if know is not None and self.press > 0:
            self._runner = self._find_runner(know)
        if know is not None and self.watch > 0:  # moves against a threat to our flag, seldom the net's own
            threats = flag_threats(know, marginals, run=self._belief.run, runs=self.runs)
            watched = self._watched = watch_values(know, ranked, threats)
            if self._runner is not None:  # and those that get back in its way, which chasing it does not
                for move, value in fall_back_values(know, ranked, self._runner).items():
                    watched[move] = max(watched.get(move, 0.0), value)
            defence = sorted((a for a in watched if a not in candidates), key=lambda a: (-watched[a], a))
            candidates += defence[: self.top]
        self._siege = None
        if know is not None and self.siege > 0 and movable_enemies(know) <= self.siege:
            self._siege = siege_target(know, marginals)
        if self._siege is not None:  # our miner's steps at their flag, valued as a defending step is
            miner, way = self._siege
            steps = [a for a in ranked if a // 100 == miner and way[a % 100] < way[miner]]
            for move in steps:
                watched[move] = max(watched.get(move, 0.0), 0.5)
            candidates += [a for a in steps if a not in candidates]
        sure = probs[candidates[0]] >= self.sure
        if sure and (self.reveal > 1 or self.hold > 0) and know is not None and shows_officer(know, candidates[0]):
            sure = False  # the net's captures are what shows our marshal (session 41): the curve must see them
        if len(candidates) == 1 or (sure and len(candidates) <= self.top):
            return candidates[0]
        floor = probs[ranked[min(self.top, len(ranked)) - 1]]  # a defending move is not marked down below the net's
        log_p = np.log(np.array([max(probs[a], floor, 1e-12) for a in candidates]))
        bonus = self.prior * log_p + self.watch * np.array([watched.get(a, 0.0) for a in candidates])
        score = self.look_ahead(data, candidates, know, marginals if know is not None else None) + bonus
        return candidates[int(np.argmax(score))]

    def exposure(self, variant: str) -> float:
        """The chance that the roll-outs' enemy knows each hidden piece of ours in `variant`: `exposed`, or while it
        is below 0 (-1, the default) the variant's own (`variant_exposed`, 1 elsewhere)."""
        return self.exposed if self.exposed >= 0 else self.variant_exposed.get(variant, 1.0)

    def _shown(self, know: Knowledge, variant: str) -> frozenset[int]:
        """Our hidden pieces the enemy of one roll-out world knows, each with the chance `exposure`: an opponent that
        reads our army better than the game showed it (docs/strength.md, sessions 37, 72 and 73)."""
        chance = self.exposure(variant)
        if chance <= 0:
            return frozenset()
        cells = enumerate(know.cells)
        hidden = [sq for sq, c in cells if c is not None and c.owner == know.player and not c.revealed]
        return frozenset(sq for sq in hidden if self._rng.random() < chance)

    def look_ahead(
        self,
        data: StrategoView,
        candidates: Sequence[int],
        know: Knowledge | None = None,
        marginals: dict[int, dict[int, float]] | None = None,
    ) -> F64:
        """The mean score of each candidate over the same `guesses` guessed worlds, `depth` plies after it. `know`
        and `marginals`, when the move has them, are `data`'s and the belief's for it: not worked out twice."""
        from fogofwar.games.stratego.sim.batch import BatchSim

        assert self._net is not None
        if know is None:
            know = Knowledge.from_observation(data)
        if marginals is None:
            marginals = self._belief.marginals(know)
        worlds, guesses = [], []
        runner = self._runner if self.press > 0 else None
        variant = str(data["variant"])
        for _ in range(self.guesses):
            guess = self._belief.sample(know, marginals, self._rng, self.faithful)
            if runner is not None and runner in guess and self._rng.random() < self.press:
                guess = with_rank(know, guess, runner, MINER, self._rng) or guess
            guesses.append(guess)
            worlds.append(world_codes(know, guess, self._shown(know, variant)))
        k, s = len(candidates), len(worlds)
        sim = BatchSim(variant, n_envs=k * s, max_moves=0)
        sim.reset(setups=np.tile(np.stack(worlds), (k, 1)), to_move=know.player)
        sim.captured[:] = captured_counts(data)[None]
        first = np.repeat(np.asarray(candidates, np.int64), s)
        track = None
        if self.reveal or self.hold or self.takes:
            seen = (sq for sq, c in enumerate(know.cells) if c is not None and c.owner == know.player and c.revealed)
            track = ShownTracker(sim.n_envs, know.player, seen)
            track.step(sim, first, np.arange(sim.n_envs))
        sim.step(first)
        flag = know.own_flag()
        runners = [Runner(sim.n_envs, runner, know.enemy, flag)] if runner is not None and flag is not None else []
        if self._siege is not None:  # after a step of our miner at their flag, it runs on; not after other moves
            miner, way = self._siege
            at = np.where(first // 100 == miner, first % 100, -1)
            runners.append(Runner(sim.n_envs, at, know.player, way.index(0), way))
        if self.mirror > 0 and flag is not None:  # the enemy that reads our flag sends its nearest piece at it
            share = min(1.0, self.mirror * self._flag_read)
            raiders = flag_raiders(know, guesses, flag)
            sent = min(s, math.floor(share * s + self._rng.random()))  # that share of the worlds, rounded at random
            at = np.array([sq if j < sent else -1 for j, sq in enumerate(raiders)], np.int64)
            raid = Runner(sim.n_envs, np.tile(at, k), know.enemy, flag)
            raid.follow(sim)  # our move may have taken it
            runners.append(raid)
        play_out(
            self._enemy_net if self.enemy == 2 and self._enemy_net is not None else self._net,
            sim,
            self.depth,
            self.futile,
            track,
            self.seize,
            self._deadline,
            runners=runners,
            held=[int(r) for r in HELD_RANKS[: self.hold]],
            take_values=_potential(variant, True, True, self.ownfit).values if self.takes else None,
            probe=self.probe > 0 and self.probeplay,
            enemy_net=self._enemy_net if self.enemy == 1 else None,
            seat=know.player,
        )
        raw = scores(sim, know.player, variant, self.marshal, track if self.reveal else None, self.ownfit)
        if self.value > 0:
            raw = np.where(sim.done, raw, (1 - self.value) * raw + self.value * leaf_values(sim, know.player, track))
        means: F64 = raw.reshape(k, s).mean(axis=1)
        return means

    def _read_flag(self, data: StrategoView, flag: int | None) -> float:
        """The chance a people's belief run from the enemy's seat (`mirrored_view`) gives our flag's square, `flag`,
        of holding the flag: how well the enemy may know where it stands. Updated at every move, sure ones too."""
        view = mirrored_view(data)
        self._mirror.update(view)
        if flag is None:
            return 0.0
        return self._mirror.marginals(Knowledge.from_observation(view)).get(flag, {}).get(FLAG, 0.0)

    def _find_runner(self, know: Knowledge) -> int | None:
        """The square of the enemy piece that ran at our flag this move (`flag_runner`, its last `runs` moves, or
        `PRESS_RUNS` when `runs` is off), for `press`."""
        flag = know.own_flag()
        if flag is None:
            return None
        others, miners = flag_ways(know, flag)
        return flag_runner(know, self._belief.run, others, miners, self.runs or PRESS_RUNS)


__all__ = [
    "RolloutAgent",
    "Runner",
    "ShownTracker",
    "captured_counts",
    "fall_back_values",
    "movable_enemies",
    "siege_target",
    "flag_takes",
    "flag_raiders",
    "flag_threats",
    "futile_mask",
    "futile_moves",
    "play_out",
    "scores",
    "shown_takes",
    "leaf_values",
    "probe_mask",
    "probe_moves",
    "shows_officer",
    "warm_look_ahead",
    "watch_values",
    "with_rank",
    "world_codes",
]
