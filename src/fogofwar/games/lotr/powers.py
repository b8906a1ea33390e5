"""Action ids and notation of the special powers of Games 2 and 3 (docs/rules/lotr.md, LOTR-POW-*).

Every power use is one action id from `POWER_BASE` (13200) up, in blocks; each id names the whole
use (who acts, where it goes, what it strikes), so it reads the same in every position. Squares are
numbered `row * 10 + column` (A1 = 0 ... K10 = 99); a direction d is 0 = towards row 10, 1 = towards
row 1, 2 = towards file A, 3 = towards file K.

| block       | first id | id                                            | notation             |
|-------------|----------|-----------------------------------------------|----------------------|
| Fly         | 13200    | FLY + src*32 + d*8 + (distance - 2)           | `fly E4-E8`          |
| Detect      | 16400    | DETECT + src*24 + i (i: DETECT_OFFSETS)       | `detect C6>A7`       |
| Longbow     | 18800    | BOW + src*16 + i (i: BOW_OFFSETS)             | `bow F5>F7`          |
| Swift Steed | 20400    | STEED + src*8 + i (i: STEED_OFFSETS)          | `steed E4-F5`        |
| Rage        | 21200    | RAGE + src*4 + d (the step)                   | `rage E4-E5`         |
| Dwarven Axe | 21600    | AXE + (src*4 + d)*92 + j (j: AXE_SUBSETS)     | `axe E4-E5>D6,F6`    |
| stop        | 58400    | STOP: end an Uruk-Hai's Repeat Attack         | `stop`               |

A Fly id carries the distance to the landing square (at least 2: a Fly jumps at least one square).
Offsets are (rows, columns) pairs listed in sorted order; a Detect or Longbow target is
`src + offset`, a Swift Steed's landing square too. An Axe's targets are offsets from Gimli's
landing square among `RING8`, `AXE_SUBSETS[j]` listing which (1, 2 or 3 of them). An id whose
squares fall off the board decodes to None and is never legal. The follow-up attacks of Repeat
Attack reuse the ordinary attack ids (`from * 100 + to`).

>>> encode_fly(parse_square("E4"), parse_square("E8")) - FLY_BASE
1090
>>> decode(encode_fly(parse_square("E4"), parse_square("E8")))
PowerAction(power='fly', src=34, dst=74, targets=())
>>> to_notation(decode(encode_ranged("long_bow", parse_square("F5"), parse_square("F7"))))
'bow F5>F7'
>>> len(AXE_SUBSETS), NUM_POWER_ACTIONS
(92, 58401)
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from fogofwar.core.protocol import NotationError
from fogofwar.grid.board import SIZE, parse_square, square_name

POWER_BASE = 13200
"""First id of the powers: moves are 0..9999 and placements 10000..13199 (rules.py)."""

DIRS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, -1), (0, 1))
"""Row and column steps of the four directions: towards row 10, row 1, file A, file K."""

DETECT_OFFSETS: tuple[tuple[int, int], ...] = tuple(
    sorted((dr, dc) for dr in range(-2, 3) for dc in range(-2, 3) if (dr, dc) != (0, 0))
)
"""Detect Enemy: any square up to two steps away in any direction or mix of directions (LOTR-DETECT-1)."""
BOW_OFFSETS: tuple[tuple[int, int], ...] = tuple(
    sorted((k * dr, k * dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0) for k in (1, 2))
)
"""Longbow: one or two squares along a row, a column or a diagonal (LOTR-BOW-1)."""
STEED_OFFSETS: tuple[tuple[int, int], ...] = tuple(
    sorted((dr, dc) for dr in range(-2, 3) for dc in range(-2, 3) if abs(dr) + abs(dc) == 2)
)
"""Swift Steed: the squares two orthogonal steps away (LOTR-STEED-1)."""
RING8: tuple[tuple[int, int], ...] = tuple(
    sorted((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))
)
"""The eight squares around a square, diagonals included (LOTR-AXE-1, LOTR-RAGE-1)."""
AXE_SUBSETS: tuple[tuple[int, ...], ...] = tuple(c for n in (1, 2, 3) for c in combinations(range(8), n))
"""The choices of 1, 2 or 3 of the eight squares around Gimli, as indexes into `RING8`."""
SUBSET_INDEX: dict[tuple[int, ...], int] = {c: i for i, c in enumerate(AXE_SUBSETS)}
"""`AXE_SUBSETS` index of a sorted tuple of `RING8` indexes."""

FLY_BASE = POWER_BASE
DETECT_BASE = FLY_BASE + 100 * 4 * 8
BOW_BASE = DETECT_BASE + 100 * len(DETECT_OFFSETS)
STEED_BASE = BOW_BASE + 100 * len(BOW_OFFSETS)
RAGE_BASE = STEED_BASE + 100 * len(STEED_OFFSETS)
AXE_BASE = RAGE_BASE + 100 * 4
STOP = AXE_BASE + 100 * 4 * len(AXE_SUBSETS)
"""Ends a Repeat Attack (LOTR-REPEAT-1): the Uruk-Hai attacks no more this turn."""
NUM_POWER_ACTIONS = STOP + 1

WORDS = {
    "fly": "fly",
    "detect": "sense_enemy",
    "bow": "long_bow",
    "steed": "swift_steed",
    "rage": "rage",
    "axe": "dwarf_axe",
}
"""Notation word -> power key (roster.toml)."""
WORD_OF = {v: k for k, v in WORDS.items()}


@dataclass(frozen=True)
class PowerAction:
    """One power use: `src` acts; `dst` is where it lands (-1 if it stays); `targets` are struck squares."""

    power: str
    src: int
    dst: int
    targets: tuple[int, ...]


def shift(sq: int, dr: int, dc: int) -> int:
    """The square (dr rows, dc columns) away from `sq`, or -1 off the board."""
    r, c = divmod(sq, SIZE)
    r, c = r + dr, c + dc
    return r * SIZE + c if 0 <= r < SIZE and 0 <= c < SIZE else -1


def offset(a: int, b: int) -> tuple[int, int]:
    return b // SIZE - a // SIZE, b % SIZE - a % SIZE


def _direction(src: int, dst: int) -> tuple[int, int]:
    """(direction index, distance) of a straight orthogonal line, or (-1, 0)."""
    dr, dc = offset(src, dst)
    if (dr == 0) == (dc == 0):
        return -1, 0
    dist = abs(dr) + abs(dc)
    return DIRS.index((dr // dist, dc // dist)), dist


def encode_fly(src: int, dst: int) -> int:
    d, dist = _direction(src, dst)
    if d < 0 or not 2 <= dist <= 9:
        raise NotationError(
            f"a Fly goes along a row or column over at least one square: {square_name(src)}-{square_name(dst)}"
        )
    return FLY_BASE + src * 32 + d * 8 + dist - 2


def encode_ranged(power: str, src: int, target: int) -> int:
    table, base = (DETECT_OFFSETS, DETECT_BASE) if power == "sense_enemy" else (BOW_OFFSETS, BOW_BASE)
    off = offset(src, target)
    if off not in table:
        reach = "two squares in any direction" if power == "sense_enemy" else "two squares along a line"
        raise NotationError(f"{square_name(target)} is out of reach from {square_name(src)} ({reach})")
    return base + src * len(table) + table.index(off)


def encode_steed(src: int, dst: int) -> int:
    off = offset(src, dst)
    if off not in STEED_OFFSETS:
        raise NotationError(f"a Swift Steed goes two squares: {square_name(src)}-{square_name(dst)} is not")
    return STEED_BASE + src * 8 + STEED_OFFSETS.index(off)


def _step(src: int, dst: int, word: str) -> int:
    d, dist = _direction(src, dst)
    if d < 0 or dist != 1:
        raise NotationError(f"{word} starts with a step of one square: {square_name(src)}-{square_name(dst)} is not")
    return d


def encode_rage(src: int, dst: int) -> int:
    return RAGE_BASE + src * 4 + _step(src, dst, "Rage")


def encode_axe(src: int, dst: int, targets: tuple[int, ...]) -> int:
    d = _step(src, dst, "the Dwarven Axe")
    idx = []
    for t in targets:
        off = offset(dst, t)
        if off not in RING8:
            raise NotationError(f"{square_name(t)} is not next to {square_name(dst)}, where Gimli lands")
        idx.append(RING8.index(off))
    key = tuple(sorted(set(idx)))
    if key not in SUBSET_INDEX:
        raise NotationError("the Dwarven Axe strikes 1, 2 or 3 different pieces")
    return AXE_BASE + (src * 4 + d) * len(AXE_SUBSETS) + SUBSET_INDEX[key]


def decode(action: int) -> PowerAction | None:
    """The power use an id names, or None if it is not a power id or its squares fall off the board."""
    if action < FLY_BASE or action >= STOP:
        return None
    if action < DETECT_BASE:
        src, rest = divmod(action - FLY_BASE, 32)
        d, dist = divmod(rest, 8)
        dr, dc = DIRS[d]
        dst = shift(src, dr * (dist + 2), dc * (dist + 2))
        return PowerAction("fly", src, dst, ()) if dst >= 0 else None
    if action < STEED_BASE:
        power, table, base = (
            ("sense_enemy", DETECT_OFFSETS, DETECT_BASE) if action < BOW_BASE else ("long_bow", BOW_OFFSETS, BOW_BASE)
        )
        src, i = divmod(action - base, len(table))
        t = shift(src, *table[i])
        return PowerAction(power, src, -1, (t,)) if t >= 0 else None
    if action < RAGE_BASE:
        src, i = divmod(action - STEED_BASE, 8)
        dst = shift(src, *STEED_OFFSETS[i])
        return PowerAction("swift_steed", src, dst, ()) if dst >= 0 else None
    if action < AXE_BASE:
        src, d = divmod(action - RAGE_BASE, 4)
        dst = shift(src, *DIRS[d])
        return PowerAction("rage", src, dst, ()) if dst >= 0 else None
    rest, j = divmod(action - AXE_BASE, len(AXE_SUBSETS))
    src, d = divmod(rest, 4)
    dst = shift(src, *DIRS[d])
    if dst < 0:
        return None
    targets = tuple(shift(dst, *RING8[i]) for i in AXE_SUBSETS[j])
    return PowerAction("dwarf_axe", src, dst, targets) if all(t >= 0 for t in targets) else None


def to_notation(pa: PowerAction, attack: bool = False) -> str:
    """The canonical notation of a power use; `attack` writes a Swift Steed ending on an enemy with 'x'."""
    word = WORD_OF[pa.power]
    s = square_name(pa.src)
    if pa.power in ("sense_enemy", "long_bow"):
        return f"{word} {s}>{square_name(pa.targets[0])}"
    sep = "x" if attack else "-"
    text = f"{word} {s}{sep}{square_name(pa.dst)}"
    if pa.power == "dwarf_axe":
        text += ">" + ",".join(square_name(t) for t in pa.targets)
    return text


@dataclass(frozen=True)
class ParsedPower:
    """What a power notation says before the position is consulted; `src` is -1 if left out (ranged only)."""

    power: str
    src: int
    dst: int
    targets: tuple[int, ...]


def parse_power(text: str) -> ParsedPower | None:
    """Read `fly E4-E8`, `detect C6>A7` (or `detect A7`), `bow F5>F7`, `steed E4-F5`, `rage E4-E5`,
    `axe E4-E5>D6,F6`; None if the text does not start with a power word. Legality is not checked."""
    t = text.strip()
    word, _, rest = t.partition(" ")
    power = WORDS.get(word.lower())
    if power is None:
        return None
    rest = rest.strip()
    if not rest:
        raise NotationError(f"{t!r}: write the squares after {word!r}, like {_EXAMPLES[power]}")
    if power in ("sense_enemy", "long_bow"):
        if ">" in rest:
            a, _, b = rest.partition(">")
            return ParsedPower(power, parse_square(a), -1, (parse_square(b),))
        return ParsedPower(power, -1, -1, (parse_square(rest),))
    move, _, targets_text = rest.partition(">")
    for sep in ("-", "x", "X", " "):
        if sep in move.strip():
            a, _, b = move.strip().partition(sep)
            break
    else:
        raise NotationError(f"{t!r}: write it like {_EXAMPLES[power]}")
    targets: tuple[int, ...] = ()
    if power == "dwarf_axe":
        if not targets_text.strip():
            raise NotationError(f"{t!r}: name the 1-3 pieces the Axe strikes, like {_EXAMPLES[power]}")
        targets = tuple(parse_square(x) for x in targets_text.split(","))
    elif targets_text:
        raise NotationError(f"{t!r}: only the Dwarven Axe names targets after '>'")
    return ParsedPower(power, parse_square(a), parse_square(b), targets)


_EXAMPLES = {
    "fly": "'fly E4-E8'",
    "sense_enemy": "'detect C6>A7'",
    "long_bow": "'bow F5>F7'",
    "swift_steed": "'steed E4-F5'",
    "rage": "'rage E4-E5'",
    "dwarf_axe": "'axe E4-E5>D6,F6'",
}


def encode(parsed: ParsedPower) -> int:
    """The id of a fully given power use (`src` known); `NotationError` if the geometry is impossible."""
    p = parsed.power
    if p == "fly":
        return encode_fly(parsed.src, parsed.dst)
    if p in ("sense_enemy", "long_bow"):
        return encode_ranged(p, parsed.src, parsed.targets[0])
    if p == "swift_steed":
        return encode_steed(parsed.src, parsed.dst)
    if p == "rage":
        return encode_rage(parsed.src, parsed.dst)
    return encode_axe(parsed.src, parsed.dst, parsed.targets)


__all__ = [
    "AXE_BASE",
    "AXE_SUBSETS",
    "BOW_BASE",
    "BOW_OFFSETS",
    "DETECT_BASE",
    "DETECT_OFFSETS",
    "DIRS",
    "FLY_BASE",
    "NUM_POWER_ACTIONS",
    "POWER_BASE",
    "RAGE_BASE",
    "RING8",
    "STEED_BASE",
    "STEED_OFFSETS",
    "STOP",
    "SUBSET_INDEX",
    "WORDS",
    "ParsedPower",
    "PowerAction",
    "decode",
    "encode",
    "encode_axe",
    "encode_fly",
    "encode_rage",
    "encode_ranged",
    "encode_steed",
    "offset",
    "parse_power",
    "shift",
    "to_notation",
]
