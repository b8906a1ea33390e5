"""What a Stratego player knows, read from its observation alone.

Agents never see the engine's state: they get the observation JSON (own pieces with
ranks, enemy pieces with a rank only once revealed, moved flags, captured pieces). From
that this module derives the enemy pieces still unaccounted for and, for each unknown
enemy piece, the ranks it may still have (a piece that has moved is no bomb and no flag).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from fogofwar.games.stratego.observation import StrategoView
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.variants import Variant, get_variant
from fogofwar.grid.board import LAKES, NEIGHBOURS, NUM_SQUARES

RANK_OF_NAME = {r.name.lower(): int(r) for r in Rank}
FLAG, SPY, SCOUT, MINER, MARSHAL, BOMB = 0, 1, 2, 3, 10, 11

VALUE = {
    Rank.FLAG: 1000.0,
    Rank.SPY: 30.0,
    Rank.SCOUT: 8.0,
    Rank.MINER: 20.0,
    Rank.SERGEANT: 15.0,
    Rank.LIEUTENANT: 25.0,
    Rank.CAPTAIN: 40.0,
    Rank.MAJOR: 65.0,
    Rank.COLONEL: 100.0,
    Rank.GENERAL: 170.0,
    Rank.MARSHAL: 260.0,
    Rank.BOMB: 12.0,
}
"""Rough material values used by the heuristic and by search evaluations."""


@dataclass
class Cell:
    owner: int
    rank: int | None  # None: an enemy piece whose rank has not been shown
    moved: bool
    revealed: bool


@dataclass
class Knowledge:
    """The board as one seat sees it, plus the enemy's unaccounted pieces."""

    player: int
    variant: Variant
    cells: list[Cell | None]
    unknown_pool: Counter[int]
    """Enemy ranks neither captured nor revealed on the board: what the unknown enemy pieces are."""

    @classmethod
    def from_observation(cls, data: StrategoView) -> Knowledge:
        player = int(data["player"])
        variant = get_variant(str(data["variant"]))
        cells: list[Cell | None] = []
        for raw in data["board"]:
            if raw is None or raw == "lake":
                cells.append(None)
            else:
                rank = raw["rank"]
                known = None if rank is None else RANK_OF_NAME[rank]
                cells.append(Cell(raw["owner"], known, raw["moved"], raw["revealed"]))
        enemy = 1 - player
        pool: Counter[int] = Counter({int(r): n for r, n in variant.roster})
        for name in data["captured"][enemy]:
            pool[RANK_OF_NAME[name]] -= 1
        for c in cells:
            if c is not None and c.owner == enemy and c.rank is not None:
                pool[c.rank] -= 1
        pool = Counter({r: n for r, n in pool.items() if n > 0})
        return cls(player, variant, cells, pool)

    @property
    def enemy(self) -> int:
        return 1 - self.player

    def unknown_enemy_squares(self) -> list[int]:
        return [sq for sq, c in enumerate(self.cells) if c is not None and c.owner == self.enemy and c.rank is None]

    def rank_distribution(self, sq: int) -> dict[int, float]:
        """P(rank) of the enemy piece on `sq`: certain if revealed, else from the unaccounted pool
        (uniform over pieces; moved pieces exclude bombs and the flag)."""
        c = self.cells[sq]
        if c is None:
            return {}
        if c.rank is not None:
            return {c.rank: 1.0}
        pool = self.unknown_pool
        if c.moved:
            weights = {r: float(n) for r, n in pool.items() if r not in (BOMB, FLAG)}
        else:
            # Unmoved pieces may be anything; immobile ranks can only hide among unmoved pieces,
            # so they weigh more there.
            unknown_squares = self.unknown_enemy_squares()
            unmoved = sum(1 for s in unknown_squares if not getattr(self.cells[s], "moved", False))
            unknown = len(unknown_squares)
            boost = unknown / max(unmoved, 1)
            weights = {r: float(n) * (boost if r in (BOMB, FLAG) else 1.0) for r, n in pool.items()}
        total = sum(weights.values())
        if total <= 0:
            return {int(Rank.SCOUT): 1.0}
        return {r: w / total for r, w in weights.items()}

    def own_squares(self) -> list[int]:
        return [sq for sq, c in enumerate(self.cells) if c is not None and c.owner == self.player]

    def own_piece(self, rank: int) -> int | None:
        """The square of our piece of `rank` (the first, should there be more), or None when none is on the board."""
        return next(
            (sq for sq, c in enumerate(self.cells) if c is not None and c.owner == self.player and c.rank == rank), None
        )

    def own_flag(self) -> int | None:
        """The square of our flag (the first, should a variant have more), or None when it is off the board."""
        return self.own_piece(FLAG)

    def neighbours_of(self, sq: int) -> tuple[int, ...]:
        return NEIGHBOURS[sq]


def is_land(sq: int) -> bool:
    return 0 <= sq < NUM_SQUARES and sq not in LAKES
