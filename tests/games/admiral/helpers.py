"""Crafted Admiral positions for rule tests: a few units on chosen squares, chosen dice, a chosen phase."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fogofwar.core import CHANCE
from fogofwar.games.admiral.actions import (
    ACTIVATE_BASE,
    DEPTH_CHARGE_BASE,
    FIRE_BASE,
    MOVE_BASE,
    REPAIR_BASE,
    TORPEDO_BASE,
    encode_activate,
    encode_fire,
    encode_move,
    encode_repair,
    encode_torpedo,
)
from fogofwar.games.admiral.data_model import Symbol, default_ruleset, square_index
from fogofwar.games.admiral.rules import AdmiralGame, AdmiralState, state_from_position

RS = default_ruleset()
FACES = RS.die.faces


def face(label: str) -> int:
    """Die face index from its label: 'movement', 'movement+depth_charge', 'admiral', ..."""
    return next(f.index for f in FACES if "+".join(s.value for s in f.symbols) == label)


ADMIRAL = face("admiral")
MOVEMENT = face("movement")
MOVE_DC = face("movement+depth_charge")
ARTILLERY = face("artillery")
ART_AA = face("artillery+anti_aircraft")
TORPEDO = face("torpedo+anti_aircraft")
assert all(FACES[f].shows(Symbol.ADMIRAL) == (f == ADMIRAL) for f in range(6))


def sq(name: str) -> int:
    return square_index(name)


def position(
    south: Mapping[str, Any],
    north: Mapping[str, Any],
    dice: Sequence[Sequence[str] | Mapping[str, Any]] = ((), ()),
    phase: str = "movement",
    layout: str | Mapping[str, str] = "open_sea",
    max_turns: int | None = None,
    solo_seat: int | None = None,
    readings: Mapping[str, str] | None = None,
    **extra: Any,
) -> AdmiralState:
    """A state whose fleets are exactly the named units, placed as given (see `state_from_position`); with
    `solo_seat`, Stratego's dice are a mapping of unit name to dice ("admiral=artillery", ...) or left out;
    `readings`: the game options of the rules' other readings (duel_order, rate_of_fire, ...)."""
    fleets = [list(south), list(north)]
    factions = [RS.unit(fleets[p][0]).faction if fleets[p] else ("usn", "ijn")[p] for p in (0, 1)]
    game = AdmiralGame(
        factions=factions,
        budget=10_000,
        fleets=fleets,
        layout=layout,
        max_turns=max_turns,
        solo_seat=solo_seat,
        **(readings or {}),
    )
    pools = [dict(d) if isinstance(d, Mapping) else list(d) for d in dice]
    return state_from_position(game, {"units": [dict(south), dict(north)], "dice": pools, "phase": phase, **extra})


def slot(state: AdmiralState, player: int, name: str) -> int:
    return state.unit(player, name).slot


def move(state: AdmiralState, name: str, to: str, die: int = MOVEMENT, mode: int = 0) -> int:
    p = state.current_player()
    return MOVE_BASE + encode_move(slot(state, p, name), sq(to), mode, die)


def repair(state: AdmiralState, name: str, mdie: int = MOVEMENT, adie: int = ARTILLERY, boost: int = 0) -> int:
    p = state.current_player()
    return REPAIR_BASE + encode_repair(slot(state, p, name), mdie, adie, boost)


def fire(state: AdmiralState, name: str, target: str, die: int = ARTILLERY, battery: int = 0) -> int:
    p = state.current_player()
    return FIRE_BASE + encode_fire(slot(state, p, name), battery, slot(state, 1 - p, target), die)


def torpedo(state: AdmiralState, name: str, target: str, die: int = TORPEDO) -> int:
    p = state.current_player()
    return TORPEDO_BASE + encode_torpedo(slot(state, p, name), slot(state, 1 - p, target), die)


def depth_charge(state: AdmiralState, name: str, die: int = MOVE_DC) -> int:
    p = state.current_player()
    return DEPTH_CHARGE_BASE + slot(state, p, name) * 6 + die


def activate(state: AdmiralState, name: str, key: str, enemy: bool = False) -> int:
    p = state.current_player()
    owner = 1 - p if enemy else p
    index = next(i for i, r in enumerate(RS.special_rules) if r.key == key)
    return ACTIVATE_BASE + encode_activate(1 if enemy else 0, slot(state, owner, name), index)


def destinations(state: AdmiralState, name: str, mode: int = 0) -> set[str]:
    """Squares the unit may move to now with the given mode (any die)."""
    from fogofwar.games.admiral.actions import decode
    from fogofwar.games.admiral.data_model import square_name

    p = state.current_player()
    s = slot(state, p, name)
    out = set()
    for a in state.legal_actions():
        d = decode(a)
        if d.kind == "move" and d.slot == s and d.mode == mode:
            out.add(square_name(d.square))
    return out


def targets(state: AdmiralState, name: str, kind: str = "fire") -> set[str]:
    from fogofwar.games.admiral.actions import decode

    p = state.current_player()
    s = slot(state, p, name)
    out = set()
    for a in state.legal_actions():
        d = decode(a)
        if d.kind == kind and d.slot == s:
            out.add(state.units(1 - p)[d.target].card.name)
    return out


def roll(state: AdmiralState, faces: Sequence[int]) -> None:
    from fogofwar.games.admiral.actions import ROLL_BASE

    for f in faces:
        assert state.current_player() == CHANCE
        state.apply(ROLL_BASE + f)


__all__ = [
    "ADMIRAL",
    "ARTILLERY",
    "ART_AA",
    "MOVEMENT",
    "MOVE_DC",
    "TORPEDO",
    "activate",
    "depth_charge",
    "destinations",
    "face",
    "fire",
    "move",
    "position",
    "repair",
    "roll",
    "slot",
    "sq",
    "targets",
    "torpedo",
]
