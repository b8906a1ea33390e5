"""Stratego's options (`StrategoGame`): the variant, the two repetition rules and the move cap."""

from __future__ import annotations

from pydantic import Field, field_validator

from fogofwar.core.params import GameParams, Whole
from fogofwar.games.stratego.variants import variants

DEFAULT_TWO_SQUARES = 5
"""Default limit of the two-squares rule: five moves in a row, as in the ISF rules and as the
Gravon games show (450 games reach five, none goes beyond; docs: STR-REP-1)."""


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

    @field_validator("variant")
    @classmethod
    def _known_variant(cls, name: str) -> str:
        known = variants()
        if name not in known:
            raise ValueError(f"must be one of {', '.join(known)}")
        return name
