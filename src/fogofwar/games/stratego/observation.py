"""What a Stratego observation holds, as a typed schema: the one place its keys are written down.

`StrategoState.observation` builds a `StrategoView` (mypy checks every key and type there), and everything that
reads one (the agents, the belief, the net's planes, the terminal, the web adapter) takes it through
`stratego_view`, so a renamed or misspelt key is a type error where it is read, not a failure far away.
The JSON the server sends is this dict as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NotRequired, TypedDict, cast

from fogofwar.core.protocol import JSON, GameError


class CellView(TypedDict):
    """A piece on the board as the viewer sees it: its rank only when it is the viewer's or revealed."""

    owner: int
    rank: str | None
    moved: bool
    revealed: bool


MoveView = TypedDict(
    "MoveView",
    {
        "player": int,
        "from": str,  # a Python keyword: hence this form of TypedDict
        "to": str,
        "attacker": NotRequired[str],
        "defender": NotRequired[str],
        "result": NotRequired[Literal["attacker_won", "defender_won", "both_lost"]],
    },
)
"""What everybody saw of a move (`MoveEvent.to_json`): the ranks only where a battle or a scout showed them."""


class StrategoView(TypedDict):
    """The data of a Stratego observation (`Observation.data`) for seat `player`."""

    game: Literal["stratego"]
    variant: str
    player: int
    phase: str  # "setup" while the armies are placed, then "play"
    to_move: int
    move_count: int
    board: list[CellView | Literal["lake"] | None]
    """By square (0 = A1): a piece, "lake", or None for an empty square (or one hidden during the setup)."""
    captured: list[list[str]]
    last_move: MoveView | None
    recent_moves: list[MoveView]
    to_place: dict[str, int]
    outcome: dict[str, JSON] | None


def stratego_view(data: Mapping[str, JSON]) -> StrategoView:
    """The data of an observation of a Stratego game, typed; `GameError` when it is another game's."""
    if data.get("game") != "stratego":
        raise GameError(f"not a Stratego observation (its game is {data.get('game')!r})")
    return cast(StrategoView, data)
