"""Stratego ranks and their two printed notations.

Internally a rank is its strength, 0..11, so that "higher wins" is a plain comparison:
FLAG 0, SPY 1, SCOUT 2, MINER 3, ... GENERAL 9, MARSHAL 10, BOMB 11 (STR-PIECE-1).
Old editions print 1 for the marshal and 9 for the scout; newer ones print 10 for the
marshal and 2 for the scout. Both notations are read and written here.

>>> Rank.MARSHAL.symbol("classic"), Rank.MARSHAL.symbol("modern")
('1', '10')
>>> parse_rank("8"), parse_rank("8", notation="modern")
(<Rank.MINER: 3>, <Rank.COLONEL: 8>)
"""

from __future__ import annotations

import enum
from typing import Literal

from fogofwar.core.protocol import NotationError

RankNotation = Literal["classic", "modern"]
"""`classic`: 1 = marshal ... 9 = scout (the UCC protocol and Gravon era); `modern`: 10 = marshal ... 2 = scout."""


class Rank(enum.IntEnum):
    FLAG = 0
    SPY = 1
    SCOUT = 2
    MINER = 3
    SERGEANT = 4
    LIEUTENANT = 5
    CAPTAIN = 6
    MAJOR = 7
    COLONEL = 8
    GENERAL = 9
    MARSHAL = 10
    BOMB = 11

    @property
    def movable(self) -> bool:
        """Bombs and the flag never move (STR-MOVE-1)."""
        return self is not Rank.FLAG and self is not Rank.BOMB

    @property
    def title(self) -> str:
        return self.name.capitalize()

    def symbol(self, notation: RankNotation = "classic") -> str:
        """The printed mark: 'F', 'B', 'S', or the number in the chosen notation."""
        if self is Rank.FLAG:
            return "F"
        if self is Rank.BOMB:
            return "B"
        if self is Rank.SPY:
            return "S"
        return str(self.value) if notation == "modern" else str(11 - self.value)


RANK_BY_NAME: dict[str, Rank] = {r.name.lower(): r for r in Rank}


def parse_rank(text: str, notation: RankNotation = "classic") -> Rank:
    """Read a rank written as a symbol ('1', 'S', 'B', 'F', ...) or a name ('marshal')."""
    t = text.strip().lower()
    if t in RANK_BY_NAME:
        return RANK_BY_NAME[t]
    if t == "s":
        return Rank.SPY
    if t == "b":
        return Rank.BOMB
    if t == "f":
        return Rank.FLAG
    if t.isdigit():
        n = int(t)
        if notation == "modern" and 1 <= n <= 10:
            return Rank(n)
        if notation == "classic" and 1 <= n <= 9:
            return Rank(11 - n)
    raise NotationError(
        f"{text!r} is not a piece: use F, B, S, a rank number "
        f"({'1-9, 1 = marshal' if notation == 'classic' else '1-10, 10 = marshal'}) or a name like 'marshal'"
    )
