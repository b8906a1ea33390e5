"""The LOTR board map and the two armies, read from `data/roster.toml` and checked on load.

The rulebook's text lost the board picture and does not list every piece, so both live in
data, not code: the printed values can replace the project's choices (docs/rules/lotr.md,
LOTR-CHOICE-*) without touching the rules engine.

Ranks use the classic engine's strength scale so that "higher wins" is a plain comparison:
FLAG 0, SPY 1, 2..10 as printed (10 = strongest), FORTRESS 11.

>>> r = roster()
>>> r.army(EVIL).kinds[0].name, r.army(GOOD).kinds[0].name
('Witch-king', 'Gandalf')
>>> r.army(GOOD).size, square_name(r.board.mount_doom)
(40, 'H5')
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from fogofwar.core.protocol import GameError, NotationError
from fogofwar.grid.board import SIZE, parse_square, square_name

EVIL, GOOD = 0, 1
"""Seats: the Forces of Evil (grey) sit at rows 1-4 and move first (LOTR-PLAY-1), so they are seat 0."""
SIDE_NAMES = ("evil", "good")

FLAG, SPY, KNIGHT, MINER, TOP, FORTRESS = 0, 1, 2, 3, 10, 11
"""Rank values: the Knights (2) run, the Soldiers/Orcs (3) take Fortresses, the spy takes the 10."""

MAX_KINDS = 32
"""A piece code keeps its character in 5 bits (rules.py)."""

POWERS = frozenset(
    {"fly", "sense_enemy", "long_bow", "dwarf_axe", "swift_steed", "repeat_attack", "rage", "invisibility"}
)
SOURCES = frozenset({"text", "named", "choice"})
FIXED_LETTERS = {FORTRESS: "B", FLAG: "F"}
"""The letters every army uses for its Fortresses and its Flag, as classic Stratego's bomb and flag."""


def rank_symbol(rank: int) -> str:
    """How a rank is written: '2'..'10', 'S' (spy), 'F' (flag), 'B' (fortress, the classic bomb)."""
    return {FLAG: "F", SPY: "S", FORTRESS: "B"}.get(rank, str(rank))


def rank_label(rank: int) -> str:
    """The rank in observations: '2'..'10', 'spy', 'fortress', 'flag'."""
    return {FLAG: "flag", SPY: "spy", FORTRESS: "fortress"}.get(rank, str(rank))


@dataclass(frozen=True)
class Kind:
    """One character of an army: every piece of a kind is identical."""

    key: str
    name: str
    rank: int
    count: int
    powers: tuple[str, ...]
    source: str
    letter: str
    """How a setup string writes the character (one letter, unique within its army: LOTR-SETUP-3)."""

    @property
    def movable(self) -> bool:
        """Flags and Fortresses never move (LOTR-MOVE-1)."""
        return self.rank not in (FLAG, FORTRESS)


@dataclass(frozen=True)
class Army:
    side: str
    kinds: tuple[Kind, ...]

    @property
    def size(self) -> int:
        return sum(k.count for k in self.kinds)

    def index(self, key: str) -> int:
        """The kind index of a character key; `NotationError` names the known keys."""
        for i, k in enumerate(self.kinds):
            if k.key == key:
                return i
        raise NotationError(f"{key!r} is not a {self.side} piece; known: {', '.join(k.key for k in self.kinds)}")

    def rank_counts(self) -> dict[int, int]:
        out: dict[int, int] = {}
        for k in self.kinds:
            out[k.rank] = out.get(k.rank, 0) + k.count
        return out


@dataclass(frozen=True)
class BoardMap:
    size: int
    zones: tuple[frozenset[int], ...]
    mount_doom: int
    home_rows: tuple[tuple[int, ...], tuple[int, ...]]
    """Row indices (0 = row 1) of each seat's setup area."""

    @property
    def forbidden(self) -> frozenset[int]:
        return frozenset().union(*self.zones)

    def setup_squares(self, seat: int) -> tuple[int, ...]:
        return tuple(r * self.size + c for r in self.home_rows[seat] for c in range(self.size))


@dataclass(frozen=True)
class Roster:
    board: BoardMap
    armies: tuple[Army, Army]

    def army(self, seat: int) -> Army:
        return self.armies[seat]


def _parse_rank(where: str, raw: Any) -> int:
    if isinstance(raw, str) and raw in ("spy", "fortress", "flag"):
        return {"spy": SPY, "fortress": FORTRESS, "flag": FLAG}[raw]
    if isinstance(raw, int) and not isinstance(raw, bool) and 2 <= raw <= 10:
        return raw
    raise GameError(f"{where}: rank must be 2..10, 'spy', 'fortress' or 'flag', not {raw!r}")


def _parse_kind(side: str, raw: dict[str, Any]) -> Kind:
    where = f"roster {side} {raw.get('key', '?')!r}"
    try:
        key, name, count = str(raw["key"]), str(raw["name"]), raw["count"]
        powers = tuple(str(p) for p in raw.get("powers", []))
        source = str(raw["source"])
        rank = _parse_rank(where, raw["rank"])
        letter = raw["letter"]
    except KeyError as exc:
        raise GameError(f"{where}: missing field {exc.args[0]!r}") from None
    if not key or not key.replace("_", "").isalnum() or key != key.lower():
        raise GameError(f"{where}: a key is lower-case letters, digits and '_'")
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise GameError(f"{where}: count must be a whole number >= 1")
    unknown = set(powers) - POWERS
    if unknown:
        raise GameError(f"{where}: unknown powers {sorted(unknown)}; known: {sorted(POWERS)}")
    if source not in SOURCES:
        raise GameError(f"{where}: source must be one of {sorted(SOURCES)}")
    if not isinstance(letter, str) or len(letter) != 1 or not (letter.isascii() and letter.isalpha()):
        raise GameError(f"{where}: a letter is one ASCII letter, not {letter!r}")
    return Kind(key, name, rank, count, powers, source, letter)


def _parse_army(side: str, raw: Any) -> Army:
    if not isinstance(raw, list) or not raw:
        raise GameError(f"roster: [[{side}]] must list the characters of the {side} army")
    kinds = tuple(_parse_kind(side, k) for k in raw)
    keys = [k.key for k in kinds]
    if len(set(keys)) != len(keys):
        raise GameError(f"roster {side}: two characters share a key")
    if len(kinds) > MAX_KINDS:
        raise GameError(f"roster {side}: at most {MAX_KINDS} characters")
    army = Army(side, kinds)
    if army.rank_counts().get(FLAG) != 1:
        raise GameError(f"roster {side}: an army needs exactly one flag")
    _check_letters(side, kinds)
    return army


def _check_letters(side: str, kinds: tuple[Kind, ...]) -> None:
    """One letter per character, none used twice; the Fortresses' and the Flag's fixed (LOTR-SETUP-3)."""
    letters = [k.letter for k in kinds]
    twice = sorted({x for x in letters if letters.count(x) > 1})
    if twice:
        raise GameError(f"roster {side}: two characters share the letter {twice[0]!r}")
    for k in kinds:
        fixed = FIXED_LETTERS.get(k.rank)
        if fixed is not None and k.letter != fixed:
            raise GameError(f"roster {side} {k.key!r}: the {rank_label(k.rank)} is always written {fixed!r}")


def _parse_board(raw: Any) -> BoardMap:
    try:
        size = raw["size"]
        zones_raw = raw["forbidden_zones"]
        doom_raw = raw["mount_doom"]
        home = raw["home_rows"]
        rows = (tuple(int(r) - 1 for r in home["evil"]), tuple(int(r) - 1 for r in home["good"]))
        zones = tuple(frozenset(parse_square(s) for s in z) for z in zones_raw)
        doom = parse_square(doom_raw)
    except (KeyError, TypeError) as exc:
        raise GameError(f"roster [board]: missing or bad field {exc}") from None
    except NotationError as exc:
        raise GameError(f"roster [board]: {exc}") from None
    if size != SIZE:
        raise GameError(f"roster [board]: size must be {SIZE} (square names are those of the classic board)")
    for z in zones:
        rs = sorted({s // SIZE for s in z})
        cs = sorted({s % SIZE for s in z})
        if len(z) != 4 or len(rs) != 2 or len(cs) != 2 or rs[1] - rs[0] != 1 or cs[1] - cs[0] != 1:
            raise GameError("roster [board]: a Forbidden Zone is a 2x2 block of four squares")
    forbidden = frozenset().union(*zones)
    if sum(len(z) for z in zones) != len(forbidden):
        raise GameError("roster [board]: Forbidden Zones overlap")
    if doom not in forbidden:
        raise GameError("roster [board]: Mount Doom lies in a Forbidden Zone (LOTR-BOARD-2)")
    r, c = divmod(doom, SIZE)
    outside = [
        (rr, cc)
        for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))
        if 0 <= rr < SIZE and 0 <= cc < SIZE and rr * SIZE + cc not in forbidden
    ]
    if len(outside) != 2:
        raise GameError(
            f"roster [board]: Mount Doom ({square_name(doom)}) must have exactly two neighbours outside the zones"
        )
    for seat_rows in rows:
        if len(seat_rows) != 4 or any(not 0 <= x < SIZE for x in seat_rows):
            raise GameError("roster [board]: home_rows lists the four rows (1-10) nearest each player")
        if any(x * SIZE + cc in forbidden for x in seat_rows for cc in range(SIZE)):
            raise GameError("roster [board]: a home row crosses a Forbidden Zone")
    if set(rows[0]) & set(rows[1]):
        raise GameError("roster [board]: the two home areas overlap")
    return BoardMap(size, zones, doom, rows)


def parse_roster(text: str) -> Roster:
    """Read and check a roster file's text; `GameError` says what is wrong."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise GameError(f"roster: not TOML: {exc}") from None
    board = _parse_board(raw.get("board", {}))
    armies = (_parse_army("evil", raw.get("evil")), _parse_army("good", raw.get("good")))
    for seat, army in enumerate(armies):
        if army.size > len(board.setup_squares(seat)):
            raise GameError(f"roster {army.side}: {army.size} pieces do not fit the four home rows")
    return Roster(board, armies)


@cache
def roster() -> Roster:
    """The built-in roster (cached)."""
    text = resources.files("fogofwar.games.lotr").joinpath("data/roster.toml").read_text(encoding="utf-8")
    return parse_roster(text)


__all__ = [
    "EVIL",
    "FLAG",
    "FORTRESS",
    "GOOD",
    "KNIGHT",
    "MINER",
    "SIDE_NAMES",
    "SPY",
    "TOP",
    "Army",
    "BoardMap",
    "Kind",
    "Roster",
    "parse_roster",
    "rank_label",
    "rank_symbol",
    "roster",
]
