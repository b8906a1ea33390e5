"""Observation planes shared by the simulator, the research environments and OpenSpiel.

An observation is a float32 tensor of shape (NUM_PLANES, 10, 10) for one seat. Square (row, col)
is the board square `row * 10 + col` of `fogofwar.grid.board`: row 0 is red's back row (rank 1),
column 0 file A. The board is *not* turned round for blue: both seats see absolute coordinates,
so move ids mean the same squares for both.

| planes  | name              | value                                                                        |
|---------|-------------------|------------------------------------------------------------------------------|
| 0-11    | own pieces        | 1 where the seat's own piece of rank r stands (r = 0 flag, 1 spy, 2 scout,    |
|         |                   | 3 miner, ... 10 marshal, 11 bomb: `fogofwar.games.stratego.pieces.Rank`)           |
| 12-23   | known enemy ranks | 1 where an enemy piece of rank r stands whose rank was revealed (a battle, or |
|         |                   | a scout's move of more than one square)                                       |
| 24      | moved unknown     | 1 on an enemy piece of unknown rank that has moved (so neither bomb nor flag) |
| 25      | unmoved unknown   | 1 on an enemy piece of unknown rank that has never moved                      |
| 26      | lakes             | 1 on the eight lake squares                                                   |
| 27, 28  | last move         | 1 on the from-square (27) and the to-square (28) of the last move played      |
| 29, 30  | previous move     | the same for the move before it (the seat's own last move or the enemy's)     |
| 31      | own revealed      | 1 on the seat's own pieces whose rank the enemy has seen                      |
| 32      | own moved         | 1 on the seat's own pieces that have moved                                    |
| 33-44   | unaccounted       | constant plane: how many enemy pieces of rank r are not accounted for, i.e.   |
|         |                   | the variant's roster count minus the enemy pieces of rank r captured so far   |
|         |                   | minus those standing revealed on the board (raw counts, not normalised)       |

Everything in these planes is public or the seat's own: `planes_from_observation` builds them from the
reference engine's `Observation` alone (what `StrategoState.observation(player)` lets a seat know), and the
differential test checks that the simulator's planes are identical.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from fogofwar.games.stratego.observation import StrategoView
from fogofwar.games.stratego.pieces import RANK_BY_NAME
from fogofwar.games.stratego.variants import Variant
from fogofwar.grid.board import LAKES, parse_square

OWN = 0
KNOWN_ENEMY = 12
MOVED_UNKNOWN = 24
UNMOVED_UNKNOWN = 25
LAKE_PLANE = 26
LAST_FROM, LAST_TO, PREV_FROM, PREV_TO = 27, 28, 29, 30
OWN_REVEALED = 31
OWN_MOVED = 32
UNACCOUNTED = 33
NUM_PLANES = 45

PLANE_NAMES: tuple[str, ...] = (
    *(f"own_{r}" for r in RANK_BY_NAME),
    *(f"enemy_{r}" for r in RANK_BY_NAME),
    "enemy_moved_unknown",
    "enemy_unmoved_unknown",
    "lakes",
    "last_move_from",
    "last_move_to",
    "previous_move_from",
    "previous_move_to",
    "own_revealed",
    "own_moved",
    *(f"unaccounted_{r}" for r in RANK_BY_NAME),
)
assert len(PLANE_NAMES) == NUM_PLANES


def planes_from_observation(data: StrategoView, variant: Variant) -> npt.NDArray[np.float32]:
    """The planes of one seat from a reference `Observation.data` (see the module docstring)."""
    me = int(data["player"])
    out = np.zeros((NUM_PLANES, 10, 10), np.float32)
    seen = [0] * 12
    for sq, cell in enumerate(data["board"]):
        r, c = divmod(sq, 10)
        if sq in LAKES:
            out[LAKE_PLANE, r, c] = 1.0
            continue
        if cell is None or cell == "lake":
            continue
        rank = RANK_BY_NAME[cell["rank"]] if cell["rank"] is not None else None
        if cell["owner"] == me:
            assert rank is not None
            out[OWN + rank, r, c] = 1.0
            if cell["revealed"]:
                out[OWN_REVEALED, r, c] = 1.0
            if cell["moved"]:
                out[OWN_MOVED, r, c] = 1.0
        elif rank is not None:
            out[KNOWN_ENEMY + rank, r, c] = 1.0
            seen[rank] += 1
        else:
            out[MOVED_UNKNOWN if cell["moved"] else UNMOVED_UNKNOWN, r, c] = 1.0
    recent = data.get("recent_moves") or []
    for ev, (pf, pt) in zip(reversed(recent), ((LAST_FROM, LAST_TO), (PREV_FROM, PREV_TO)), strict=False):
        for plane, name in ((pf, ev["from"]), (pt, ev["to"])):
            r, c = divmod(parse_square(name), 10)
            out[plane, r, c] = 1.0
    captured = [0] * 12
    for name in data["captured"][1 - me]:
        captured[RANK_BY_NAME[name]] += 1
    for rank, n in variant.roster:
        out[UNACCOUNTED + int(rank)] = float(n - captured[int(rank)] - seen[int(rank)])
    return out
