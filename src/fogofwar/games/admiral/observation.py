"""What an Admiral observation holds, as a typed schema: the one place its keys are written down.

`AdmiralState.observation` builds an `AdmiralView` (mypy checks every key and type there), and everything that
reads one (the terminal, the web adapter, the agents) takes it through `admiral_view`, so a renamed or misspelt
key is a type error where it is read. The JSON the server sends is this dict as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NotRequired, TypedDict, cast

from fogofwar.core.protocol import JSON, GameError

UnitView = TypedDict(
    "UnitView",
    {
        "owner": int,
        "name": str,
        "class": str,  # a Python keyword: hence this form of TypedDict
        "structure": int,
        "submerged": bool,
        "torpedoes": int,
        "criticals": list[list[str | int]],  # [characteristic, turns] of each critical hit
        "moved": bool,
        "squadrons": dict[str, int] | None,  # by squadron type, for a carrier
    },
)
"""A unit on the board as every viewer who may see it sees it."""


class CellView(TypedDict):
    terrain: str | None
    units: list[UnitView]
    smoke: bool


DieView = TypedDict(
    "DieView",
    {
        "face": str,
        "used": str | None,  # what it was spent on; None while unused, or hidden (the opponent's attack dice)
        "unit": NotRequired[str | None],  # solo mode: the unit the die is bound to (SOLO-DICE)
        "as": NotRequired[str | None],  # solo mode: what it is spent as (a keyword: hence this form)
    },
)


class FleetView(TypedDict):
    faction: str
    units: int
    reserve: list[str] | None  # None: the enemy's, before the reveal
    to_place: list[str] | None
    sunk: list[str]
    dice: list[DieView]
    forfeited: bool
    committed: bool
    orders: list[str] | None  # None: the enemy's, until both have committed (ADM-ATK-1)


class InitiativeView(TypedDict):
    rolls: list[list[str]]
    admirals: list[int]
    round: int
    winner: int | None


class FeatureView(TypedDict):
    unit: str
    owner: int
    feature: str
    by: int


class PendingCriticalView(TypedDict):
    attacker: int
    unit: str
    owner: int


class SortieView(TypedDict):
    owner: int
    carrier: str
    type: str
    role: str
    ship: str | None
    square: str | None
    alive: bool
    held: bool


class PlannedStrikeView(TypedDict):
    type: str
    target: str
    square: str


class StrikeView(TypedDict):
    attacker: int
    carrier: str
    planned: list[PlannedStrikeView]
    stage: str
    target: str | None
    rolls: list[str]


class SoloRowView(TypedDict):
    id: str
    in_range: bool
    admiral: str
    hold: bool
    text: str


class SoloView(TypedDict):
    seat: int
    acting: str | None
    rows: dict[str, SoloRowView]
    to_act: list[str]


class AdmiralView(TypedDict):
    """The data of an Admiral observation (`Observation.data`) for seat `player`."""

    game: str  # "admiral"
    player: int
    phase: str  # a `Phase` value
    turn: int
    to_move: int
    board: list[CellView]
    """By square (0 = A1): its terrain, the units the viewer may see there, smoke."""
    fleets: list[FleetView]
    initiative: InitiativeView
    first_player: int | None
    features: list[FeatureView]
    pending_critical: PendingCriticalView | None
    air: list[SortieView]
    strike: StrikeView | None
    report: list[str]
    outcome: dict[str, JSON] | None
    solo: SoloView | None


def admiral_view(data: Mapping[str, JSON]) -> AdmiralView:
    """The data of an observation of an Admiral game, typed; `GameError` when it is another game's."""
    if data.get("game") != "admiral":
        raise GameError(f"not an Admiral observation (its game is {data.get('game')!r})")
    return cast(AdmiralView, data)
