"""Crafted Admiral positions: a state built from a description instead of played from the start (tests,
puzzles, studies), every part of the description checked. `AdmiralState.from_json` rebuilds a state that
started from one."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fogofwar.core import inputs
from fogofwar.core.protocol import InvalidSetupError
from fogofwar.games.admiral.actions import NUM_SQUARES
from fogofwar.games.admiral.data_model import SQUADRON_TYPES, Symbol, square_index, square_name
from fogofwar.games.admiral.state_model import PLAYER_NAMES, Phase, UnitState

if TYPE_CHECKING:
    from fogofwar.games.admiral.rules import AdmiralGame, AdmiralState


def state_from_position(game: AdmiralGame, position: Mapping[str, Any]) -> AdmiralState:
    """A state built from a description instead of played from the start (tests, puzzles, studies).

    `position` (JSON-able):

    - `units`: two mappings (South, North) of unit name -> square ("C3"), or -> a table with `square`,
      `structure`, `submerged`, `torpedoes`, `reloads`, `criticals` ({characteristic: turn placed}),
      `moved`, `where` ("board" by default, or "reserve"). Units of the game's fleets left out are sunk.
    - `turn` (default 2), `first_player` (default 0).
    - `phase`: "initiative", "action_dice", "movement" or "attack" (default "movement").
    - `dice`: two lists of face labels ("movement", "artillery+anti_aircraft", ...) or face indices:
      each player's rolled pool, for the movement and attack phases. In the solo mode Stratego's entry is a
      mapping of unit name -> its dice, each "face" or "face=value" (value: a symbol the die is spent as,
      "pending" or "symbol", see `_Core.values`); a unit with a "pending" die has not acted yet. Left out in
      the movement phase, every unit of Stratego gets its turn-start Admiral die (SOLO-DICE-1).
    - `forfeited`: [bool, bool] (movement), `smoke`: squares, `player`: who acts (default: the first
      player in movement, South in attack).

    The state serializes with its position: `from_json` rebuilds it, then replays the actions.
    """
    inputs.json_object(position, "position", _POSITION_FIELDS, InvalidSetupError)
    state = game.new_initial_state()
    c = state._core
    what = "position: units (two mappings of unit name to square or table)"
    units_raw = inputs.json_list(position.get("units"), what, InvalidSetupError, 2)
    for p in (0, 1):
        by_name = {u.card.name: u for u in c.units[p]}
        spec_map = units_raw[p]
        if not isinstance(spec_map, Mapping):
            raise InvalidSetupError(f"position: units[{p}] must be a mapping of unit name to square or table")
        for u in c.units[p]:
            u.where = "sunk"
            u.structure = 0
        for name, spec in spec_map.items():
            if not isinstance(name, str) or name not in by_name:
                raise InvalidSetupError(f"position: {PLAYER_NAMES[p]}'s fleet has no unit {inputs.show(name)}")
            _place_unit(state, by_name[name], spec)
    c.turn = inputs.integer(position.get("turn", 2), "position: turn", lo=1, error=InvalidSetupError)
    first = position.get("first_player", 0 if game.solo_seat is None else 1 - game.solo_seat)
    c.first_player = inputs.seat(first, PLAYER_NAMES, "position: first_player", InvalidSetupError)
    smoke = inputs.json_list(position.get("smoke", []), "position: smoke (a list of squares)", InvalidSetupError)
    c.smoke = [_square(s) for s in smoke]
    phase = position.get("phase", "movement")
    if phase == Phase.INITIATIVE:
        state._start_initiative()
    elif phase == Phase.ACTION_DICE:
        state._start_action_dice()
    elif phase in (Phase.MOVEMENT, Phase.ATTACK):
        dice = inputs.json_list(
            position.get("dice", [[], []]), "position: dice (two lists of faces)", InvalidSetupError, 2
        )
        state._clear_dice()
        for p in (0, 1):
            if p == game.solo_seat:
                _solo_dice(state, p, dice[p], phase)
            else:
                what = f"position: dice[{p}] (a list of faces; only Stratego's is a mapping)"
                for f in inputs.json_list(dice[p], what, InvalidSetupError):
                    state._add_die(p, _face(state, f))
        if phase == Phase.MOVEMENT:
            state._start_movement()
            forfeited = inputs.json_list(
                position.get("forfeited", [False, False]), "position: forfeited", InvalidSetupError, 2
            )
            c.forfeited = [inputs.flag(f, "position: forfeited", InvalidSetupError) for f in forfeited]
        else:
            state._start_attack()
        c.player = inputs.seat(position.get("player", c.player), PLAYER_NAMES, "position: player", InvalidSetupError)
        if game.solo_seat is not None:
            state._solo_advance()
    else:
        raise InvalidSetupError(
            f"position: phase must be initiative, action_dice, movement or attack, got {inputs.show(phase)}"
        )
    state._position = copy.deepcopy(dict(position))
    state._changed()
    _check_position(state)
    return state


_POSITION_FIELDS = ("units", "turn", "first_player", "phase", "dice", "forfeited", "smoke", "player")
_UNIT_FIELDS = ("square", "structure", "submerged", "torpedoes", "reloads", "criticals", "moved", "where", "squadrons")


def _solo_dice(state: AdmiralState, p: int, spec: Any, phase: str) -> None:
    """Stratego's dice in a crafted position: {unit name: ["face" or "face=value", ...]} (SOLO-DICE)."""
    c = state._core
    c.solo_rows = [-1] * len(c.units[p])
    c.solo_acting = -1
    if isinstance(spec, list | tuple | Mapping) and not spec:  # left out
        if phase == Phase.MOVEMENT:
            state._assign_solo_admirals()
        return
    if not isinstance(spec, Mapping):
        raise InvalidSetupError(f"position: Stratego's dice (dice[{p}]) must map unit names to lists of dice")
    c.solo_rows = [-2] * len(c.units[p])  # units left out have no dice: they have acted
    by_name = {u.card.name: u for u in c.units[p]}
    for name, entries in spec.items():
        u = by_name.get(name) if isinstance(name, str) else None
        if u is None or u.where != "board":
            raise InvalidSetupError(f"position: Stratego has no unit {inputs.show(name)} on the battlefield")
        pending = False
        for entry in inputs.json_list(entries, f"position: {name}: the dice", InvalidSetupError):
            label, _, value = inputs.text(
                entry, f"position: {name}: a die ('face' or 'face=value')", InvalidSetupError
            ).partition("=")
            if value and value not in ("pending", "symbol") and value not in {s.value for s in Symbol}:
                raise InvalidSetupError(
                    f"position: {name}: {inputs.show(value)} is not a symbol, 'pending' or 'symbol'"
                )
            pending = pending or value == "pending"
            state._add_die(p, _face(state, label), u.slot, value)
        c.solo_rows[u.slot] = -1 if pending else -2


def _square(text: Any) -> int:
    """A square of a position: a name ('C3') or an index 0..63."""
    if isinstance(text, str):
        try:
            return square_index(text)
        except ValueError as exc:
            raise InvalidSetupError(f"position: {exc}") from None
    return inputs.integer(text, "position: a square (a name like 'C3' or 0-63)", 0, NUM_SQUARES - 1, InvalidSetupError)


def _face(state: AdmiralState, face: Any) -> int:
    faces = state._rs.die.faces
    if (index := inputs.whole_number(face)) is not None and 0 <= index < len(faces):
        return index
    for f in faces:
        if state.face_label(f.index) == face:
            return f.index
    labels = ", ".join(state.face_label(f.index) for f in faces)
    raise InvalidSetupError(f"position: {inputs.show(face)} is not a die face (faces: {labels})")


def _place_unit(state: AdmiralState, u: UnitState, spec: Any) -> None:
    """Put one unit of a position where its spec says, each field checked (never coerced: the position is
    stored as given and must rebuild the same state)."""
    card = u.card
    name = card.name
    if isinstance(spec, str):
        spec = {"square": spec}
    if not isinstance(spec, Mapping):
        raise InvalidSetupError(f"position: {name}: give a square or a table, got {inputs.show(spec)}")
    for key in spec:
        if key not in _UNIT_FIELDS:
            raise InvalidSetupError(
                f"position: {name}: unknown field {inputs.show(key)} (known: {', '.join(sorted(_UNIT_FIELDS))})"
            )
    where = inputs.one_of(
        spec.get("where", "board"), f"position: {name}: where", ("board", "reserve"), InvalidSetupError
    )
    u.where = where
    if where == "board":
        if "square" not in spec:
            raise InvalidSetupError(f"position: {name}: give the square of a unit on the board")
        u.square = _square(spec["square"])
    else:
        u.square = -1
    field = f"position: {name}:"
    u.structure = inputs.integer(
        spec.get("structure", card.structure), f"{field} structure", 1, card.structure, InvalidSetupError
    )
    u.submerged = inputs.flag(spec.get("submerged", False), f"{field} submerged", InvalidSetupError)
    if u.submerged and not card.is_submarine:
        raise InvalidSetupError(f"position: {name} is not a submarine: it cannot be submerged")
    mounts, reloads = card.torpedo_mounts, card.torpedo_reloads
    u.torpedoes = inputs.integer(spec.get("torpedoes", mounts), f"{field} torpedoes", 0, mounts, InvalidSetupError)
    u.reloads = inputs.integer(spec.get("reloads", reloads), f"{field} reloads", 0, reloads, InvalidSetupError)
    crits = spec.get("criticals", {})
    if not isinstance(crits, Mapping):
        raise InvalidSetupError(
            f"{field} criticals map a characteristic to the turn it was placed, not {inputs.show(crits)}"
        )
    for ch in crits:
        if ch not in card.characteristics:
            raise InvalidSetupError(f"position: {name} has no characteristic {inputs.show(ch)}")
    u.criticals = tuple(
        (ch, inputs.integer(t, f"{field} the turn of the {ch} critical", lo=0, error=InvalidSetupError))
        for ch, t in crits.items()
    )
    u.moved = inputs.flag(spec.get("moved", False), f"{field} moved", InvalidSetupError)
    squadrons = spec.get("squadrons")
    if squadrons is not None:
        if not isinstance(squadrons, Mapping):
            raise InvalidSetupError(f"{field} squadrons map a squadron type to a count, not {inputs.show(squadrons)}")
        for kind, n in squadrons.items():
            if kind not in SQUADRON_TYPES:
                raise InvalidSetupError(
                    f"{field} {inputs.show(kind)} is not a squadron type ({', '.join(SQUADRON_TYPES)})"
                )
            inputs.integer(n, f"{field} squadrons {kind}", 0, card.squadron_count(kind), InvalidSetupError)
        u.squadrons = tuple(int(squadrons.get(k, 0)) for k in SQUADRON_TYPES)


def _check_position(state: AdmiralState) -> None:
    c = state._core
    surface: dict[int, str] = {}
    subs: dict[int, str] = {}
    for fleet in c.units:
        for u in fleet:
            if u.where != "board":
                continue
            name = u.card.name
            t = state._terrain.get(u.square)
            if not u.submerged:
                if u.square in surface:
                    raise InvalidSetupError(f"position: {name} and {surface[u.square]} share {square_name(u.square)}")
                surface[u.square] = name
                if t is not None and not (t.surface_passable or u.card.unit_class in t.passable_classes):
                    raise InvalidSetupError(f"position: {name} cannot lie on {t.name}")
            elif t is not None and not (t.submerged_passable and t.diving_allowed):
                raise InvalidSetupError(f"position: {name} cannot lie submerged on {t.name}")
            if u.card.is_submarine:
                if u.square in subs:
                    raise InvalidSetupError(f"position: submarines {name} and {subs[u.square]} share a square")
                subs[u.square] = name


# --- text ---------------------------------------------------------------------------------------------------
