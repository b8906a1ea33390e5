"""Admiral's options (`AdmiralGame`): the factions, their fleets and budget, the terrain, the turn cap, the
solo mode, and the readings of rules the text leaves open (ADM-DICE-6, ADM-G05, ADM-UNIT-4, ADM-G09).
Whether a faction, a unit or a layout exists, and whether a fleet keeps to its budget, are the
rules' own checks (`build_fleet`, `read_layout`); here are the options' names, types and ranges."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator, ConfigDict, Field, StringConstraints

from fogofwar.core.params import GameParams, Whole
from fogofwar.games.admiral.data_model import Ruleset

DEFAULT_BUDGET = 350

Name = Annotated[str, StringConstraints(max_length=80)]
"""A faction's, a unit's or a layout's name (the data files' names are far shorter)."""


def _listed(value: object) -> object:
    """A tuple as a list (Python callers write tuples, JSON has lists); anything else as it is."""
    return list(value) if isinstance(value, tuple) else value


Names = Annotated[list[Name], BeforeValidator(_listed)]


class AdmiralParams(GameParams):
    """The options of an Admiral game.

    >>> AdmiralParams.read({"factions": ["usn"]})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    fogofwar.core.protocol.InvalidArgumentError: Admiral option factions must have at least 2 items, not ['usn']
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)
    title = "Admiral"
    unwritten = ("ruleset",)

    factions: Names = Field(
        ["usn", "ijn"], min_length=2, max_length=2, description="the two factions, south's first (ADM-FLEET-1)"
    )
    budget: Whole = Field(DEFAULT_BUDGET, ge=1, description="tactical points a fleet may cost")
    fleets: Annotated[list[Annotated[Names, Field(max_length=64)]], BeforeValidator(_listed)] | None = Field(
        None, min_length=2, max_length=2, description="each player's unit names; null: every class once"
    )
    layout: Name | dict[Name, Name] = Field(
        "archipelago", description="a terrain layout's name, or {square: terrain} (ADM-TERR-1)"
    )
    max_turns: Whole | None = Field(None, ge=1, description="turn cap, a draw when reached; null none")
    ruleset: Ruleset | None = Field(None, description="the data files' rules (Python only; null: the shipped ones)")
    solo_seat: Whole | None = Field(None, ge=0, le=1, description="the seat Admiral Stratego plays (solo mode)")
    duel_order: Literal["general", "paragraph"] = Field(
        "general",
        description="how dice rank in fighter duels: the general order (Admiral, Artillery, Torpedo, Movement) or "
        "the fighter-duel paragraph's (Admiral, Movement, Artillery/Anti-aircraft, Artillery) (ADM-DICE-6)",
    )
    rate_of_fire: Literal["slots_used", "battery_slots"] = Field(
        "slots_used",
        description="High Rate of Fire adds 1 for each battery slot used by the shot, or for each slot the "
        "battery has (ADM-G05)",
    )
    size_class: Literal["printed", "current"] = Field(
        "printed", description="a unit's size class is its printed structure or the structure it has left (ADM-UNIT-4)"
    )
    torpedo_reload: Literal["spares", "once_a_turn"] = Field(
        "spares",
        description="Torpedo Reload uses up one of the unit's spare torpedoes (Assumption A05), or reloads one "
        "mount every turn it is activated without a limit (ADM-G09)",
    )
