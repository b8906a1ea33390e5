"""Stratego's options (`StrategoGame`): the variant, the two repetition rules and the move cap."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import Field, field_validator

from fogofwar.core.params import GameParams, Whole
from fogofwar.games.stratego.variants import variants

DEFAULT_TWO_SQUARES = 5
"""Default limit of the two-squares rule: five moves in a row, as in the ISF rules and as the
Gravon games show (450 games reach five, none goes beyond; docs: STR-REP-1)."""

Repetition = Literal["isf", "gravon-2004", "gravon-2013"]
"""A named reading of how the end of the game counts the two-squares rule (STR-REP-8)."""


@dataclass(frozen=True)
class EndCount:
    """How the no-move check (STR-END-2) counts the two-squares rule, beside the moves' own limit."""

    limit: int | None
    """The limit the check applies; None: the game's `two_squares`, as move validation does."""
    bars_attacks: bool
    """From that limit on, the attacks of the piece that made the series do not count as a move left either."""
    meaning: str


END_COUNTS: dict[str, EndCount] = {
    "isf": EndCount(None, False, "the end of the game counts the two-squares rule as move validation does"),
    "gravon-2004": EndCount(None, False, "Gravon 2004-2006: as isf (the games show five moves)"),
    "gravon-2013": EndCount(
        3, True, "Gravon 2013-2014: the end of the game counts three moves, then that piece's attacks count neither"
    ),
}
"""The readings of `Repetition`, by name (docs: STR-REP-8 and decision (e))."""

DEFAULT_REPETITION: Repetition = "isf"


class StrategoParams(GameParams):
    """The options of a Stratego game.

    >>> StrategoParams.read({"variant": "barrage", "two_squares": 3}).given()
    {'variant': 'barrage', 'two_squares': 3}
    """

    title = "Stratego"

    variant: str = Field("classic", description=f"the armies and their setup rules: {', '.join(variants())}")
    two_squares: Whole = Field(
        DEFAULT_TWO_SQUARES, ge=0, description="two-squares rule: moves in a row across the same squares; 0 off"
    )
    more_squares: bool = Field(True, description="more-squares rule: a chase may not repeat a position")
    max_moves: Whole | None = Field(None, ge=0, description="move cap, a draw when reached; 0 none, null the variant's")
    repetition: Repetition = Field(
        DEFAULT_REPETITION,
        description="how the no-move ending counts the two-squares rule: isf (as moves do) or a Gravon era",
    )

    @field_validator("variant")
    @classmethod
    def _known_variant(cls, name: str) -> str:
        known = variants()
        if name not in known:
            raise ValueError(f"must be one of {', '.join(known)}")
        return name
