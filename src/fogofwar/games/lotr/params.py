"""Stratego LOTR's options (`LotrGame`): the game of the rulebook, who sees captured pieces, the
back-and-forth rule, the move cap and the reading of Detect Enemy against a Flag."""

from __future__ import annotations

from typing import Literal, Self

from pydantic import Field, field_validator, model_validator

from fogofwar.core.inputs import show
from fogofwar.core.params import GameParams, Whole

GAME_MODES = ("classic", "powers", "ring")
VARIANT_ALIASES = {
    **{f"lotr-{mode}": mode for mode in GAME_MODES},
    "lotr": "classic",
    "game1": "classic",
    "game2": "powers",
    "game3": "ring",
}
"""Other names of the variants, still accepted: the terminal's (lotr-powers) and the web app's (game2)."""
CAPTURED_MODES = ("free", "prisoner", "secret", "hidden")
"""LOTR-CAPT-2..5: who sees the ranks of captured pieces (see `captured_visible`)."""
DEFAULT_BACK_AND_FORTH = 3
"""LOTR-MOVE-5: a piece may not move between the same two squares on three consecutive turns."""


def _mode(name: object) -> object:
    """A variant's name as the engine knows it (an alias read as its variant); anything else as it is."""
    return VARIANT_ALIASES.get(name.strip().lower(), name) if isinstance(name, str) else name


class LotrParams(GameParams):
    """The options of a Stratego LOTR game.

    >>> LotrParams.read({"variant": "game2"}).variant
    'powers'
    >>> LotrParams.read({"captured_mode": "open"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    fogofwar.core.protocol.InvalidArgumentError: Stratego LOTR option captured_mode must be 'free', ..., not 'open'
    """

    title = "Stratego LOTR"
    unwritten = ("game",)

    variant: Literal["classic", "powers", "ring"] = Field(
        "classic", description="the game of the rulebook: Game 1 classic, Game 2 powers, Game 3 ring"
    )
    captured_mode: Literal["free", "prisoner", "secret", "hidden"] = Field(
        "free", description="who sees the ranks of captured pieces (LOTR-CAPT-2..5)"
    )
    back_and_forth: Whole = Field(
        DEFAULT_BACK_AND_FORTH, ge=0, description="moves between the same two squares in a row that are barred; 0 off"
    )
    max_moves: Whole = Field(0, ge=0, description="move cap, a draw when reached; 0 none")
    detect_flag: Literal["captured", "shown"] = Field(
        "captured",
        description="a Flag struck by Detect Enemy: captured, its owner loses (the text gives no immunity), or "
        "only shown, as the Longbow's (LOTR-CHOICE-DETECT-FLAG)",
    )
    game: Literal["classic", "powers", "ring"] | None = Field(
        None, description="the old name of variant, which records written before still use"
    )

    @field_validator("variant", "game", mode="before")
    @classmethod
    def _alias(cls, name: object) -> object:
        return _mode(name)

    @field_validator("back_and_forth")
    @classmethod
    def _not_one(cls, limit: int) -> int:
        if limit == 1:
            raise ValueError("must be 0 (rule off) or at least 2")
        return limit

    @model_validator(mode="after")
    def _one_variant(self) -> Self:
        if self.game is not None and self.variant not in ("classic", self.game):
            raise ValueError(f"variant {show(self.variant)} and game {show(self.game)} disagree")
        return self

    @property
    def mode(self) -> str:
        """The game played: `game` where an old record names it that way, else `variant`."""
        return self.game if self.game is not None else self.variant
