"""What a Stratego LOTR observation holds, as a typed schema (as `fogofwar.games.stratego.observation` is for
Stratego): `LotrState.observation` builds a `LotrView`, and the agents read it through `lotr_view`, so mypy checks
every key where it is read. The moves' own JSON (`MoveEvent.to_json`: powers, targets, the Ring) stays a plain
mapping for now.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, TypedDict, cast

from fogofwar.core.protocol import JSON, GameError


class LotrCellView(TypedDict):
    """A character on the board as the viewer sees it: who it is only when it is the viewer's or revealed."""

    owner: int
    kind: str | None
    name: str | None
    rank: str | None  # the printed rank or F, S, B, as the piece shows it
    moved: bool
    revealed: bool


class PendingView(TypedDict):
    """A Repeat Attack waiting for its second attack or a stop (LOTR-REPEAT-1)."""

    power: Literal["repeat_attack"]
    player: int
    square: str
    choices: str


class RingView(TypedDict):
    """Game 3: where the Ring is (carried, destroyed, taken) and Mount Doom's square."""

    status: str
    mount_doom: str


class LotrView(TypedDict):
    """The data of a Stratego LOTR observation (`Observation.data`) for seat `player`."""

    game: Literal["lotr"]
    variant: str  # classic, powers or ring (Games 1-3), as the option `variant` names it
    captured_mode: str
    player: int
    side: str
    phase: str
    to_move: int
    move_count: int
    board: list[LotrCellView | Literal["zone"] | None]
    """By square (0 = A1): a character, "zone" (a Forbidden Zone square), or None (empty, or hidden in the setup)."""
    captured: list[list[str] | None]
    """By seat: the character keys it lost, or None where the captured-piece mode hides them from the viewer."""
    captured_count: list[int]
    last_move: dict[str, JSON] | None
    recent_moves: list[dict[str, JSON]]
    to_place: dict[str, int]
    pending: PendingView | None
    ring: RingView | None
    outcome: dict[str, JSON] | None


def lotr_view(data: Mapping[str, JSON]) -> LotrView:
    """The data of an observation of a Stratego LOTR game, typed; `GameError` when it is another game's."""
    if data.get("game") != "lotr":
        raise GameError(f"not a Stratego LOTR observation (its game is {data.get('game')!r})")
    return cast(LotrView, data)
