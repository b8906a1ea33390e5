"""Admiral's cards, die, terrain and special rules as data, checked on load.

The printed cards and die faces are lost (docs/rules/admiral.md, Assumptions), so every such value
lives in `data/*.toml` where the real one can replace it. The loader validates each field and says
exactly what is wrong, naming the file, the entry and the field, because a wrong number in a data file
would otherwise surface as a puzzling rule bug many turns into a game.

>>> rs = default_ruleset()
>>> rs.unit("Fletcher").armour, rs.unit("Fletcher").unit_class, rs.rule("superior_steel").id
(2, 'DD', 'ADM-G01')
>>> fleet = build_fleet("usn", 100, ["Fletcher", "Jenkins", "Radford"])
>>> fleet.total_points
87
"""

from __future__ import annotations

import enum
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, NoReturn

from fogofwar.core.protocol import GameError

BOARD_SIZE = 8
"""The battlefield is 8 x 8 squares (ADM-GEN-2)."""
DEPLOYMENT_ROWS = 2
"""Each deployment zone is the two rows nearest to its player (ADM-SETUP-2)."""

UNITS_FILE = "units.toml"
DICE_FILE = "dice.toml"
TERRAIN_FILE = "terrain.toml"
SPECIAL_RULES_FILE = "special_rules.toml"
DATA_FILES = (UNITS_FILE, DICE_FILE, TERRAIN_FILE, SPECIAL_RULES_FILE)


class AdmiralDataError(GameError):
    """A data file is missing, is not TOML, or holds a value the rules cannot use."""


class FleetError(GameError):
    """A fleet choice breaks the fleet-building rules (ADM-FLEET-*)."""


class Symbol(enum.Enum):
    """The action symbols of the special die (ADM-GEN-4)."""

    MOVEMENT = "movement"
    ARTILLERY = "artillery"
    TORPEDO = "torpedo"
    ANTI_AIRCRAFT = "anti_aircraft"
    DEPTH_CHARGE = "depth_charge"
    ADMIRAL = "admiral"


UNIT_CLASSES: Mapping[str, str] = {
    "BB": "battleship",
    "CA": "heavy cruiser",
    "CL": "light cruiser",
    "DD": "destroyer",
    "CV": "aircraft carrier",
    "SS": "submarine",
}
"""Class codes (ADM-UNIT-3); the rules name DD and SS (Shallows) and CV (launches)."""

SQUADRON_TYPES = ("fighter", "bomber", "torpedo_bomber")
AIR_DAMAGE_KINDS = ("none", "artillery", "torpedo")
SOLO_RESULTS = ("move", "fire", "repair")
RANGE_METRICS = ("chebyshev", "manhattan")
ADJACENCIES = ("king", "orthogonal")
TIMINGS = ("movement", "air", "attack")
DURATIONS = ("move", "turn", "once")
REQUIREMENTS = ("batteries", "torpedoes", "fighters", "attack_aircraft")
EFFECTS: Mapping[str, bool] = {
    # effect name -> whether it needs a `value`
    "armour": True,
    "cross_shallows": False,
    "fighter_reroll": False,
    "fighter_wins_ties": False,
    "coefficient_per_slot_within_half_range": True,
    "torpedo_no_structure_loss": False,
    "repair_amount": True,
    "smoke": False,
    "reload_mount": True,
    "torpedo_range": True,
    "artillery_range": True,
    "ignore_protective_belt": False,
    "avoid_critical": True,
    "aa_reroll_failures": False,
    "armour_vs_long_range_or_bombers": True,
    "coefficient_beyond_half_range": True,
    "spoil_mount": True,
}
"""The special-rule effects the engine knows how to apply (special_rules.toml: effect)."""


# --- squares --------------------------------------------------------------------------------------


def square_index(name: str) -> int:
    """'A1' -> 0, 'H8' -> 63: column letter A-H, row number 1-8 (ADM-GEN-2).

    >>> square_index("C4"), square_index("h8")
    (26, 63)
    """
    text = name.strip().upper()
    if len(text) != 2 or text[0] not in "ABCDEFGH" or text[1] not in "12345678":
        raise ValueError(f"{name!r} is not a square: write a column A-H and a row 1-8, like C4")
    return (int(text[1]) - 1) * BOARD_SIZE + "ABCDEFGH".index(text[0])


def square_name(index: int) -> str:
    """0 -> 'A1'; the inverse of `square_index`."""
    if not 0 <= index < BOARD_SIZE * BOARD_SIZE:
        raise ValueError(f"{index} is not a square index (0-63)")
    row, col = divmod(index, BOARD_SIZE)
    return f"{'ABCDEFGH'[col]}{row + 1}"


# --- the data -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Battery:
    """One artillery battery of a card (ADM-ART-*)."""

    name: str
    coefficient: int
    range: int
    slots: int
    """1, or 2 for a double space: two dice double the coefficient or split the fire (ADM-ART-6/7)."""


@dataclass(frozen=True)
class Side:
    """What changes between a submarine's surfaced and submerged sides (ADM-SUB-1/2)."""

    movement: int
    armour: int
    anti_aircraft: int
    batteries: tuple[Battery, ...]
    size_class: int
    """Units of this size class or smaller are hidden behind this one (ADM-UNIT-4); 0 hides nothing."""


@dataclass(frozen=True)
class UnitCard:
    """One unit card (ADM-UNIT-1); `front` is the only side, or a submarine's surfaced side."""

    name: str
    unit_class: str
    faction: str
    tactical_points: int
    structure: int
    front: Side
    torpedo_mounts: int
    torpedo_reloads: int
    depth_charges: int
    squadrons: tuple[tuple[str, int], ...]
    """(squadron type, count) for every type carried, in SQUADRON_TYPES order."""
    admiral: bool
    green: tuple[str, ...]
    red: tuple[str, ...]
    submerged: Side | None = None

    @property
    def armour(self) -> int:
        return self.front.armour

    @property
    def movement(self) -> int:
        return self.front.movement

    @property
    def anti_aircraft(self) -> int:
        return self.front.anti_aircraft

    @property
    def batteries(self) -> tuple[Battery, ...]:
        return self.front.batteries

    @property
    def size_class(self) -> int:
        return self.front.size_class

    @property
    def is_submarine(self) -> bool:
        return self.submerged is not None

    def side(self, submerged: bool) -> Side:
        """The side in play: the submerged side only for a submerged submarine."""
        if submerged:
            if self.submerged is None:
                raise ValueError(f"{self.name} is not a submarine: it has no submerged side")
            return self.submerged
        return self.front

    def squadron_count(self, kind: str) -> int:
        return dict(self.squadrons).get(kind, 0)

    @property
    def characteristics(self) -> tuple[str, ...]:
        """What a critical marker can go on (ADM-CRIT-1): black characteristics, then green features."""
        black = ["movement"]
        black += [f"battery:{b.name}" for b in self.front.batteries]
        if self.torpedo_mounts:
            black.append("torpedoes")
        if self.front.anti_aircraft:
            black.append("anti_aircraft")
        if self.depth_charges:
            black.append("depth_charges")
        if self.squadrons:
            black.append("launch")
        return (*black, *self.green)


@dataclass(frozen=True)
class AircraftType:
    """A squadron type (ADM-AIR-*): its attack coefficient and the kind of damage it deals."""

    key: str
    name: str
    attack: int
    damage: str


@dataclass(frozen=True)
class DieFace:
    index: int
    symbols: tuple[Symbol, ...]
    solo: str
    """The solo-mode result of this face (ADM-SOLO-1, Assumption A08)."""

    def shows(self, symbol: Symbol) -> bool:
        return symbol in self.symbols


@dataclass(frozen=True)
class SoloRow:
    """One entry of the solo mode's decision table (SOLO-TAB, Assumption A08; dice.toml `[[solo_row]]`)."""

    id: str
    result: str
    """The rolled face's solo result: "move", "fire" or "repair"."""
    in_range: bool
    """The condition: an enemy the unit can damage is in range (SOLO-TAB-0)."""
    admiral: Symbol
    """The symbol the unit's assigned Admiral die is spent as."""
    rolled: Symbol | None
    """The symbol the rolled die is spent as; None: as its face shows."""
    hold: bool
    """The unit does not move (it counts as moving 0 squares, SOLO-MOVE-2)."""
    repair: int
    """Structure points regained at once by a damaged unit."""
    text: str


@dataclass(frozen=True)
class Die:
    """The special die (ADM-GEN-4, Assumption A01) and the comparisons built on it."""

    faces: tuple[DieFace, ...]
    duel_order: tuple[tuple[Symbol, ...], ...]
    """What ranks in opposed rolls, strongest first: each entry the symbols a face must all show (ADM-DICE-6)."""
    air_combat: tuple[tuple[str, Symbol], ...]
    """(attack squadron type, symbol a fighter needs to destroy it) (ADM-AIR-10)."""
    admiral_wild_in_rolls: bool
    solo_rows: tuple[SoloRow, ...] = ()
    """The solo mode's decision table (SOLO-TAB): one entry per (result, in_range)."""
    paragraph_order: tuple[tuple[Symbol, ...], ...] = ()
    """The duel order as the fighter-duel paragraph reads (the game option `duel_order="paragraph"`)."""

    def solo_row(self, result: str, in_range: bool) -> SoloRow:
        """The decision-table entry for a rolled solo result and the unit's situation (SOLO-TAB)."""
        for row in self.solo_rows:
            if row.result == result and row.in_range == in_range:
                return row
        raise GameError(f"the solo table has no row for result {result!r} with in_range={in_range}")

    def probability(self, symbol: Symbol) -> float:
        """Chance that one die shows `symbol` (alone or with another symbol)."""
        return sum(1 for f in self.faces if f.shows(symbol)) / len(self.faces)

    def hits(self, face: int, symbol: Symbol) -> bool:
        """Whether rolled face `face` counts as `symbol` in a check (ADM-DICE-7)."""
        f = self.faces[face]
        return f.shows(symbol) or (self.admiral_wild_in_rolls and f.shows(Symbol.ADMIRAL))

    def duel_strength(self, face: int) -> int:
        """Rank of a face in an opposed roll: higher wins; 0 for a face without a ranked symbol."""
        n = len(self.duel_order)
        best = 0
        for i, symbols in enumerate(self.duel_order):
            if all(self.faces[face].shows(s) for s in symbols):
                best = max(best, n - i)
        return best

    def kill_symbol(self, squadron_type: str) -> Symbol:
        return dict(self.air_combat)[squadron_type]


@dataclass(frozen=True)
class Terrain:
    """A terrain card (ADM-TERR-*); see terrain.toml for what each field means."""

    id: str
    name: str
    source_name: str
    blocks_line_of_sight: bool
    blocks_torpedoes: bool
    surface_passable: bool
    passable_classes: tuple[str, ...]
    passable_feature: str
    submerged_passable: bool
    diving_allowed: bool
    stops_movement: bool
    exit_move_limit: int
    prevents_combat: bool
    submerged_immune: bool


@dataclass(frozen=True)
class Layout:
    """A fixed placement of terrain cards (ADM-TERR-1, Assumption A09)."""

    name: str
    squares: tuple[tuple[int, str], ...]
    """(square index, terrain id), sorted by square."""


@dataclass(frozen=True)
class BoardSettings:
    range_metric: str
    aa_adjacency: str


@dataclass(frozen=True)
class SpecialRule:
    """A green or red special rule (ADM-G*, ADM-R*)."""

    id: str
    key: str
    colour: str
    name: str
    source_name: str
    timing: tuple[str, ...]
    duration: str
    effect: str
    value: int | None
    requires: str | None
    summary: str


@dataclass(frozen=True, eq=False)
class Ruleset:
    """Everything the four data files hold, cross-checked."""

    units: tuple[UnitCard, ...]
    factions: Mapping[str, str]
    aircraft: Mapping[str, AircraftType]
    die: Die
    board: BoardSettings
    terrain: Mapping[str, Terrain]
    layouts: Mapping[str, Layout]
    special_rules: tuple[SpecialRule, ...]
    _by_name: Mapping[str, UnitCard] = field(repr=False, default_factory=dict)
    _rules_by_key: Mapping[str, SpecialRule] = field(repr=False, default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_name", {u.name: u for u in self.units})
        object.__setattr__(self, "_rules_by_key", {r.key: r for r in self.special_rules})

    def unit(self, name: str) -> UnitCard:
        try:
            return self._by_name[name]
        except KeyError:
            raise FleetError(f"unknown unit {name!r}; known units: {', '.join(self._by_name)}") from None

    def units_of(self, faction: str) -> tuple[UnitCard, ...]:
        return tuple(u for u in self.units if u.faction == faction)

    def rule(self, key: str) -> SpecialRule:
        try:
            return self._rules_by_key[key]
        except KeyError:
            raise GameError(f"unknown special rule {key!r}") from None

    def rule_ids(self) -> tuple[str, ...]:
        return tuple(r.id for r in self.special_rules)


# --- validation helpers ------------------------------------------------------------------------------


class _Entry:
    """Where a value comes from (file and entry), so that every error can say so."""

    def __init__(self, file: str, entry: str = "") -> None:
        self.file = file
        self.entry = entry

    def sub(self, entry: str) -> _Entry:
        return _Entry(self.file, f"{self.entry}: {entry}" if self.entry else entry)

    def fail(self, message: str) -> NoReturn:
        where = f"{self.file}: {self.entry}: " if self.entry else f"{self.file}: "
        raise AdmiralDataError(where + message)

    def table(self, raw: Any, what: str) -> dict[str, Any]:
        if not isinstance(raw, dict):
            self.fail(f"{what} must be a table, got {raw!r}")
        return raw

    def check_fields(self, raw: Mapping[str, Any], required: Iterable[str], optional: Iterable[str] = ()) -> None:
        required = tuple(required)
        known = set(required) | set(optional)
        for key in raw:
            if key not in known:
                self.fail(f"unknown field {key!r} (known fields: {', '.join(sorted(known))})")
        for key in required:
            if key not in raw:
                self.fail(f"missing field {key!r}")

    def integer(self, raw: Mapping[str, Any], key: str, minimum: int) -> int:
        value = raw[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            self.fail(f"{key} must be a whole number >= {minimum}, got {value!r}")
        return value

    def boolean(self, raw: Mapping[str, Any], key: str) -> bool:
        value = raw[key]
        if not isinstance(value, bool):
            self.fail(f"{key} must be true or false, got {value!r}")
        return value

    def text(self, raw: Mapping[str, Any], key: str, allow_empty: bool = False) -> str:
        value = raw[key]
        if not isinstance(value, str) or (not allow_empty and not value.strip()):
            self.fail(f"{key} must be a {'' if allow_empty else 'non-empty '}string, got {value!r}")
        return value

    def choice(self, raw: Mapping[str, Any], key: str, options: Sequence[str]) -> str:
        value = raw[key]
        if value not in options:
            self.fail(f"{key} must be one of {', '.join(repr(o) for o in options)}, got {value!r}")
        return str(value)

    def strings(self, raw: Mapping[str, Any], key: str, options: Sequence[str] | None = None) -> tuple[str, ...]:
        value = raw[key]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fail(f"{key} must be a list of strings, got {value!r}")
        if len(set(value)) != len(value):
            self.fail(f"{key} lists the same value twice: {value!r}")
        if options is not None:
            for v in value:
                if v not in options:
                    self.fail(f"{key}: {v!r} is not one of {', '.join(repr(o) for o in options)}")
        return tuple(value)


def _read(directory: Path | Traversable, file: str) -> dict[str, Any]:
    path = directory / file
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise AdmiralDataError(f"{file}: file not found") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise AdmiralDataError(f"{file}: not valid TOML: {exc}") from None


# --- units.toml -------------------------------------------------------------------------------------

_SIDE_FIELDS = ("movement", "armour", "anti_aircraft", "batteries")
_UNIT_FIELDS = (
    "name",
    "class",
    "faction",
    "tactical_points",
    "structure",
    *_SIDE_FIELDS,
    "torpedo_mounts",
    "torpedo_reloads",
    "depth_charges",
    "squadrons",
    "admiral",
    "green",
    "red",
)


def _parse_battery(where: _Entry, raw: Any, index: int) -> Battery:
    raw = where.table(raw, f"batteries[{index}]")
    name = raw.get("name")
    at = where.sub(f"battery {name!r}" if isinstance(name, str) else f"batteries[{index}]")
    at.check_fields(raw, ("name", "coefficient", "range", "slots"))
    slots = at.integer(raw, "slots", 1)
    if slots > 2:
        at.fail(f"slots must be 1 or 2 (ADM-ART-6), got {slots!r}")
    return Battery(at.text(raw, "name"), at.integer(raw, "coefficient", 1), at.integer(raw, "range", 1), slots)


def _parse_side(where: _Entry, raw: Mapping[str, Any], structure: int) -> Side:
    batteries_raw = raw["batteries"]
    if not isinstance(batteries_raw, list):
        where.fail(f"batteries must be a list of tables, got {batteries_raw!r}")
    batteries = tuple(_parse_battery(where, b, i) for i, b in enumerate(batteries_raw))
    names = [b.name for b in batteries]
    if len(set(names)) != len(names):
        where.fail(f"two batteries share a name: {names!r}")
    size_class = where.integer(raw, "size_class", 0) if "size_class" in raw else structure
    return Side(
        movement=where.integer(raw, "movement", 0),
        armour=where.integer(raw, "armour", 0),
        anti_aircraft=where.integer(raw, "anti_aircraft", 0),
        batteries=batteries,
        size_class=size_class,
    )


def _parse_unit(file: str, raw: Any, index: int, factions: Mapping[str, str]) -> UnitCard:
    top = _Entry(file)
    raw = top.table(raw, f"unit #{index + 1}")
    name = raw.get("name")
    where = top.sub(f"unit {name!r}" if isinstance(name, str) and name.strip() else f"unit #{index + 1}")
    where.check_fields(raw, _UNIT_FIELDS, ("size_class", "submerged"))
    name = where.text(raw, "name")
    unit_class = where.choice(raw, "class", tuple(UNIT_CLASSES))
    faction = where.choice(raw, "faction", tuple(factions))
    structure = where.integer(raw, "structure", 1)
    front = _parse_side(where, raw, structure)
    squadrons_raw = where.table(raw["squadrons"], "squadrons")
    squadrons: list[tuple[str, int]] = []
    for kind in squadrons_raw:
        if kind not in SQUADRON_TYPES:
            where.fail(f"squadrons: unknown squadron type {kind!r} (known: {', '.join(SQUADRON_TYPES)})")
    for kind in SQUADRON_TYPES:
        if kind in squadrons_raw:
            count = where.sub("squadrons").integer(squadrons_raw, kind, 0)
            if count:
                squadrons.append((kind, count))
    submerged: Side | None = None
    if "submerged" in raw:
        if unit_class != "SS":
            where.fail(f"only submarines (class SS) have a submerged side; this unit is class {unit_class}")
        sub_raw = where.table(raw["submerged"], "submerged")
        at = where.sub("submerged")
        at.check_fields(sub_raw, _SIDE_FIELDS, ("size_class",))
        submerged = _parse_side(at, sub_raw, structure)
    elif unit_class == "SS":
        where.fail("a submarine (class SS) needs a submerged side: add submerged = { ... } (ADM-SUB-2)")
    return UnitCard(
        name=name,
        unit_class=unit_class,
        faction=faction,
        tactical_points=where.integer(raw, "tactical_points", 1),
        structure=structure,
        front=front,
        torpedo_mounts=where.integer(raw, "torpedo_mounts", 0),
        torpedo_reloads=where.integer(raw, "torpedo_reloads", 0),
        depth_charges=where.integer(raw, "depth_charges", 0),
        squadrons=tuple(squadrons),
        admiral=where.boolean(raw, "admiral"),
        green=where.strings(raw, "green"),
        red=where.strings(raw, "red"),
        submerged=submerged,
    )


def parse_units(
    data: Mapping[str, Any], file: str = UNITS_FILE
) -> tuple[tuple[UnitCard, ...], dict[str, str], dict[str, AircraftType]]:
    """Units, factions and aircraft types of a parsed units.toml (special rules are checked later)."""
    top = _Entry(file)
    top.check_fields(data, ("factions", "aircraft", "unit"))
    factions_raw = top.table(data["factions"], "[factions]")
    factions: dict[str, str] = {}
    for key in factions_raw:
        factions[key] = top.sub(f"faction {key!r}").text(factions_raw, key)
    if not factions:
        top.fail("[factions] is empty: name at least one faction")
    aircraft_raw = top.table(data["aircraft"], "[aircraft]")
    aircraft: dict[str, AircraftType] = {}
    for kind in aircraft_raw:
        if kind not in SQUADRON_TYPES:
            top.fail(f"unknown aircraft type {kind!r} (the rules know {', '.join(SQUADRON_TYPES)})")
    for kind in SQUADRON_TYPES:
        if kind not in aircraft_raw:
            top.fail(f"missing aircraft type {kind!r}: add [aircraft.{kind}]")
        at = top.sub(f"aircraft {kind!r}")
        raw = at.table(aircraft_raw[kind], f"[aircraft.{kind}]")
        at.check_fields(raw, ("name", "attack", "damage"))
        aircraft[kind] = AircraftType(
            kind, at.text(raw, "name"), at.integer(raw, "attack", 0), at.choice(raw, "damage", AIR_DAMAGE_KINDS)
        )
    units_raw = data["unit"]
    if not isinstance(units_raw, list) or not units_raw:
        top.fail("add at least one [[unit]] table")
    units = tuple(_parse_unit(file, raw, i, factions) for i, raw in enumerate(units_raw))
    seen: set[str] = set()
    for u in units:
        if u.name in seen:
            top.fail(f"two units are named {u.name!r}: card names must be unique")
        seen.add(u.name)
    return units, factions, aircraft


# --- dice.toml ------------------------------------------------------------------------------------------

_SYMBOL_NAMES = tuple(s.value for s in Symbol)


def parse_die(data: Mapping[str, Any], file: str = DICE_FILE) -> Die:
    top = _Entry(file)
    top.check_fields(data, ("face", "duel", "air_combat", "admiral_wild_in_rolls", "solo_row"))
    faces_raw = data["face"]
    if not isinstance(faces_raw, list) or len(faces_raw) != 6:
        count = len(faces_raw) if isinstance(faces_raw, list) else faces_raw
        top.fail(f"the die has six faces: give exactly 6 [[face]] tables, got {count!r}")
    faces: list[DieFace] = []
    for i, raw in enumerate(faces_raw):
        at = top.sub(f"face {i + 1}")
        raw = at.table(raw, "[[face]]")
        at.check_fields(raw, ("symbols", "solo"))
        symbols = at.strings(raw, "symbols", _SYMBOL_NAMES)
        if not symbols:
            at.fail("symbols must list at least one symbol")
        faces.append(DieFace(i, tuple(Symbol(s) for s in symbols), at.choice(raw, "solo", SOLO_RESULTS)))
    for symbol in Symbol:
        if not any(f.shows(symbol) for f in faces):
            top.fail(f"no face shows the {symbol.value!r} symbol: that action could never happen")
    duel_raw = top.table(data["duel"], "[duel]")
    duel = top.sub("duel")
    duel.check_fields(duel_raw, ("order",), ("paragraph",))
    order = _duel_order(duel, duel_raw, "order")
    paragraph = _duel_order(duel, duel_raw, "paragraph") if "paragraph" in duel_raw else order
    air_raw = top.table(data["air_combat"], "[air_combat]")
    air = top.sub("air_combat")
    air.check_fields(air_raw, ("bomber", "torpedo_bomber"))
    air_combat = tuple((k, Symbol(air.choice(air_raw, k, _SYMBOL_NAMES))) for k in ("bomber", "torpedo_bomber"))
    rows = _parse_solo_rows(top, data["solo_row"])
    return Die(tuple(faces), order, air_combat, top.boolean(data, "admiral_wild_in_rolls"), rows, paragraph)


def _duel_order(at: _Entry, raw: Mapping[str, Any], key: str) -> tuple[tuple[Symbol, ...], ...]:
    """A duel order of dice.toml: symbol names, or "a+b" for a face showing both (ADM-DICE-6)."""
    entries = at.strings(raw, key)
    if not entries:
        at.fail(f"{key} must rank at least one symbol")
    out = []
    for entry in entries:
        names = entry.split("+")
        for name in names:
            if name not in _SYMBOL_NAMES:
                at.fail(f"{key}: {name!r} is not one of {', '.join(repr(o) for o in _SYMBOL_NAMES)}")
        out.append(tuple(Symbol(n) for n in names))
    return tuple(out)


_SOLO_VALUES = ("movement", "artillery", "torpedo", "depth_charge")


def _parse_solo_rows(top: _Entry, raw_rows: Any) -> tuple[SoloRow, ...]:
    """The solo decision table: every (result, in_range) exactly once (SOLO-TAB, Assumption A08)."""
    if not isinstance(raw_rows, list) or not raw_rows:
        top.fail("add the [[solo_row]] tables of the solo decision table (SOLO-TAB)")
    rows: list[SoloRow] = []
    for i, raw in enumerate(raw_rows):
        at = top.sub(f"solo_row {i + 1}")
        raw = at.table(raw, "[[solo_row]]")
        at.check_fields(raw, ("id", "result", "in_range", "admiral", "rolled", "hold", "repair", "text"))
        rid = at.text(raw, "id")
        if not re.fullmatch(r"SOLO-TAB-\d+", rid):
            at.fail(f"id must look like SOLO-TAB-1, got {rid!r}")
        rolled = raw["rolled"]
        if rolled != "":
            rolled = at.choice(raw, "rolled", _SOLO_VALUES)
        rows.append(
            SoloRow(
                rid,
                at.choice(raw, "result", SOLO_RESULTS),
                at.boolean(raw, "in_range"),
                Symbol(at.choice(raw, "admiral", _SOLO_VALUES)),
                Symbol(rolled) if rolled else None,
                at.boolean(raw, "hold"),
                at.integer(raw, "repair", 0),
                at.text(raw, "text"),
            )
        )
    for result in SOLO_RESULTS:
        for in_range in (False, True):
            n = sum(1 for r in rows if r.result == result and r.in_range == in_range)
            if n != 1:
                top.fail(
                    f"the solo table needs exactly one [[solo_row]] for result {result!r} with in_range = "
                    f"{str(in_range).lower()}, found {n}"
                )
    return tuple(rows)


# --- terrain.toml ---------------------------------------------------------------------------------------

_TERRAIN_BOOLS = (
    "blocks_line_of_sight",
    "blocks_torpedoes",
    "surface_passable",
    "submerged_passable",
    "diving_allowed",
    "stops_movement",
    "prevents_combat",
    "submerged_immune",
)
_TERRAIN_FIELDS = (
    "id",
    "name",
    "source_name",
    *_TERRAIN_BOOLS,
    "passable_classes",
    "passable_feature",
    "exit_move_limit",
)
_ID = re.compile(r"^[a-z][a-z0-9_]*$")


def parse_terrain(
    data: Mapping[str, Any], file: str = TERRAIN_FILE
) -> tuple[BoardSettings, dict[str, Terrain], dict[str, Layout]]:
    top = _Entry(file)
    top.check_fields(data, ("board", "terrain", "layouts"))
    board_raw = top.table(data["board"], "[board]")
    b = top.sub("board")
    b.check_fields(board_raw, ("range_metric", "aa_adjacency"))
    board = BoardSettings(
        b.choice(board_raw, "range_metric", RANGE_METRICS), b.choice(board_raw, "aa_adjacency", ADJACENCIES)
    )
    terrain_raw = data["terrain"]
    if not isinstance(terrain_raw, list):
        top.fail("terrain must be a list of [[terrain]] tables")
    terrain: dict[str, Terrain] = {}
    for i, raw in enumerate(terrain_raw):
        raw = top.table(raw, f"terrain #{i + 1}")
        tid = raw.get("id")
        at = top.sub(f"terrain {tid!r}" if isinstance(tid, str) else f"terrain #{i + 1}")
        at.check_fields(raw, _TERRAIN_FIELDS)
        if not isinstance(tid, str) or not _ID.match(tid):
            at.fail(f"id must be lower-case letters, digits and _, got {tid!r}")
        if tid in terrain:
            at.fail("two terrain cards share this id")
        flags = {k: at.boolean(raw, k) for k in _TERRAIN_BOOLS}
        terrain[tid] = Terrain(
            id=tid,
            name=at.text(raw, "name"),
            source_name=at.text(raw, "source_name"),
            passable_classes=at.strings(raw, "passable_classes", tuple(UNIT_CLASSES)),
            passable_feature=at.text(raw, "passable_feature", allow_empty=True),
            exit_move_limit=at.integer(raw, "exit_move_limit", 0),
            **flags,
        )
    layouts_raw = top.table(data["layouts"], "[layouts]")
    layouts: dict[str, Layout] = {}
    for name, raw in layouts_raw.items():
        at = top.sub(f"layout {name!r}")
        raw = at.table(raw, f"[layouts.{name}]")
        at.check_fields(raw, ("squares",))
        squares_raw = at.table(raw["squares"], "squares")
        squares: list[tuple[int, str]] = []
        for sq_text, tid in squares_raw.items():
            try:
                sq = square_index(sq_text)
            except ValueError as exc:
                at.fail(str(exc))
            if tid not in terrain:
                at.fail(f"{sq_text}: unknown terrain {tid!r} (known: {', '.join(terrain)})")
            row = sq // BOARD_SIZE
            if row < DEPLOYMENT_ROWS or row >= BOARD_SIZE - DEPLOYMENT_ROWS:
                at.fail(f"{sq_text} is in a deployment zone: terrain goes in rows 3-6 (ADM-TERR-1)")
            squares.append((sq, tid))
        layouts[name] = Layout(name, tuple(sorted(squares)))
    return board, terrain, layouts


# --- special_rules.toml -----------------------------------------------------------------------------------

_RULE_ID = re.compile(r"^ADM-([GR])(\d\d)$")


def parse_special_rules(data: Mapping[str, Any], file: str = SPECIAL_RULES_FILE) -> tuple[SpecialRule, ...]:
    top = _Entry(file)
    top.check_fields(data, ("rule",))
    rules_raw = data["rule"]
    if not isinstance(rules_raw, list):
        top.fail("rule must be a list of [[rule]] tables")
    rules: list[SpecialRule] = []
    for i, raw in enumerate(rules_raw):
        raw = top.table(raw, f"rule #{i + 1}")
        rid = raw.get("id")
        at = top.sub(f"rule {rid!r}" if isinstance(rid, str) else f"rule #{i + 1}")
        at.check_fields(
            raw,
            ("id", "key", "colour", "name", "source_name", "timing", "duration", "effect", "summary"),
            ("value", "requires"),
        )
        if not isinstance(rid, str) or (m := _RULE_ID.match(rid)) is None:
            at.fail(f"id must look like ADM-G01 (green) or ADM-R01 (red), got {rid!r}")
        colour = at.choice(raw, "colour", ("green", "red"))
        if (m.group(1) == "G") != (colour == "green"):
            at.fail(f"colour {colour!r} does not match the id (ADM-G.. are green, ADM-R.. red)")
        key = at.text(raw, "key")
        if not _ID.match(key):
            at.fail(f"key must be lower-case letters, digits and _, got {key!r}")
        timing = at.strings(raw, "timing", TIMINGS)
        if not timing:
            at.fail("timing must name at least one moment")
        effect = at.choice(raw, "effect", tuple(EFFECTS))
        value: int | None = None
        if EFFECTS[effect]:
            if "value" not in raw:
                at.fail(f"missing field 'value' (effect {effect!r} needs a number)")
            value = raw["value"]
            if isinstance(value, bool) or not isinstance(value, int):
                at.fail(f"value must be a whole number, got {value!r}")
        elif "value" in raw:
            at.fail(f"effect {effect!r} takes no value; remove value = {raw['value']!r}")
        requires = at.choice(raw, "requires", REQUIREMENTS) if "requires" in raw else None
        rules.append(
            SpecialRule(
                id=rid,
                key=key,
                colour=colour,
                name=at.text(raw, "name"),
                source_name=at.text(raw, "source_name"),
                timing=timing,
                duration=at.choice(raw, "duration", DURATIONS),
                effect=effect,
                value=value,
                requires=requires,
                summary=at.text(raw, "summary"),
            )
        )
    for attr in ("id", "key"):
        values = [getattr(r, attr) for r in rules]
        for v in values:
            if values.count(v) > 1:
                top.fail(f"two rules share the {attr} {v!r}")
    return tuple(rules)


# --- the whole ruleset ---------------------------------------------------------------------------------------


def _meets(unit: UnitCard, requirement: str) -> bool:
    if requirement == "batteries":
        return bool(unit.batteries)
    if requirement == "torpedoes":
        return unit.torpedo_mounts > 0
    if requirement == "fighters":
        return unit.squadron_count("fighter") > 0
    return unit.squadron_count("bomber") + unit.squadron_count("torpedo_bomber") > 0


_NEEDS = {
    "batteries": "batteries, but it has none",
    "torpedoes": "torpedoes, but torpedo_mounts is 0",
    "fighters": "fighter squadrons, but it carries none",
    "attack_aircraft": "bomber or torpedo-bomber squadrons, but it carries none",
}


def _cross_check(units: Sequence[UnitCard], rules: Sequence[SpecialRule], terrain: Mapping[str, Terrain]) -> None:
    """Checks that span files: unit features against the special rules, terrain against features."""
    by_key = {r.key: r for r in rules}
    for u in units:
        where = _Entry(UNITS_FILE, f"unit {u.name!r}")
        for colour, keys in (("green", u.green), ("red", u.red)):
            for key in keys:
                rule = by_key.get(key)
                if rule is None:
                    where.fail(f"{colour} feature {key!r} is not a rule in {SPECIAL_RULES_FILE}")
                if rule.colour != colour:
                    where.fail(f"{key!r} is a {rule.colour} rule ({rule.id}); list it under {rule.colour}")
                if rule.requires is not None and not _meets(u, rule.requires):
                    where.fail(f"feature {key!r} ({rule.id}) needs {_NEEDS[rule.requires]}")
        has_reload = "torpedo_reload" in u.green
        if u.torpedo_reloads and not has_reload:
            where.fail("torpedo_reloads must be 0 without the torpedo_reload feature (ADM-G09)")
        if has_reload and not u.torpedo_reloads:
            where.fail("the torpedo_reload feature needs torpedo_reloads >= 1 (Assumption A05)")
    for t in terrain.values():
        feature = t.passable_feature
        if feature and (feature not in by_key or by_key[feature].colour != "green"):
            _Entry(TERRAIN_FILE, f"terrain {t.id!r}").fail(
                f"passable_feature {feature!r} is not a green rule in {SPECIAL_RULES_FILE}"
            )


def load_ruleset(directory: Path | Traversable | None = None) -> Ruleset:
    """Read and check the four data files of `directory` (default: the shipped data)."""
    if directory is None:
        directory = resources.files("fogofwar.games.admiral").joinpath("data")
    units, factions, aircraft = parse_units(_read(directory, UNITS_FILE))
    die = parse_die(_read(directory, DICE_FILE))
    board, terrain, layouts = parse_terrain(_read(directory, TERRAIN_FILE))
    rules = parse_special_rules(_read(directory, SPECIAL_RULES_FILE))
    _cross_check(units, rules, terrain)
    return Ruleset(units, factions, aircraft, die, board, terrain, layouts, rules)


@cache
def default_ruleset() -> Ruleset:
    """The shipped data, loaded once."""
    return load_ruleset()


# --- fleets ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fleet:
    """A player's chosen units (ADM-FLEET-1): one faction, within a tactical-points budget."""

    faction: str
    budget: int
    units: tuple[UnitCard, ...]

    @property
    def total_points(self) -> int:
        return sum(u.tactical_points for u in self.units)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(u.name for u in self.units)


def build_fleet(faction: str, budget: int, choices: Iterable[str], ruleset: Ruleset | None = None) -> Fleet:
    """Check a fleet choice against ADM-FLEET-1/2 and return it; `FleetError` names the first problem."""
    rs = default_ruleset() if ruleset is None else ruleset
    if faction not in rs.factions:
        raise FleetError(f"unknown faction {faction!r}; known factions: {', '.join(rs.factions)}")
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
        raise FleetError(f"the tactical-points budget must be a whole number >= 1, got {budget!r}")
    if isinstance(choices, str):
        raise FleetError("choices must be a list of unit names, not one string")
    names = list(choices)
    if not names:
        raise FleetError(f"fleet of {faction}: choose at least one unit")
    units: list[UnitCard] = []
    for name in names:
        unit = rs.unit(name)
        if unit.faction != faction:
            raise FleetError(f"fleet of {faction}: {name!r} belongs to {unit.faction}, not {faction} (ADM-FLEET-2)")
        if unit in units:
            raise FleetError(f"fleet of {faction}: {name!r} is chosen twice; each card is one ship (ADM-FLEET-1)")
        units.append(unit)
    fleet = Fleet(faction, budget, tuple(units))
    if fleet.total_points > budget:
        raise FleetError(
            f"fleet of {faction}: {fleet.total_points} tactical points exceed the budget of {budget} (ADM-FLEET-1)"
        )
    return fleet


__all__ = [
    "AdmiralDataError",
    "AircraftType",
    "Battery",
    "BoardSettings",
    "BOARD_SIZE",
    "DATA_FILES",
    "DEPLOYMENT_ROWS",
    "Die",
    "DieFace",
    "Fleet",
    "FleetError",
    "Layout",
    "Ruleset",
    "Side",
    "SoloRow",
    "SpecialRule",
    "Symbol",
    "Terrain",
    "UNIT_CLASSES",
    "UnitCard",
    "build_fleet",
    "default_ruleset",
    "load_ruleset",
    "parse_die",
    "parse_special_rules",
    "parse_terrain",
    "parse_units",
    "square_index",
    "square_name",
]
