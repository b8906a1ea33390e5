"""Gravon's Stratego XML game files (StraDoS2 archive), read from .xml files or straight from .zip archives.

Format (see the archive's README): `<game type=...>` with a 100-character `<field content>`
(square A1 first, row by row; `A` empty, `_` lake, `B`..`M` red bomb, spy, scout, ..., marshal,
flag; `N`..`Y` the same for blue), `<move source target>` in Gravon coordinates (files A-K
without J, row 10 written ':'), and `<result type winner>`.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from fogofwar.core.protocol import RecordError
from fogofwar.stratego.board import FILES, LAKES, NUM_SQUARES, parse_square, square_name
from fogofwar.stratego.pieces import Rank

# Gravon's rank order, from the letter after the side's base letter.
_GRAVON_ORDER = (
    Rank.BOMB,
    Rank.SPY,
    Rank.SCOUT,
    Rank.MINER,
    Rank.SERGEANT,
    Rank.LIEUTENANT,
    Rank.CAPTAIN,
    Rank.MAJOR,
    Rank.COLONEL,
    Rank.GENERAL,
    Rank.MARSHAL,
    Rank.FLAG,
)
_LETTER_TO_PIECE: dict[str, tuple[int, Rank]] = {
    chr(base + i): (owner, rank)
    for owner, base in ((0, ord("B")), (1, ord("N")))
    for i, rank in enumerate(_GRAVON_ORDER)
}
_PIECE_TO_LETTER = {v: k for k, v in _LETTER_TO_PIECE.items()}

RESULT_TYPES = {
    0: "the loser could not move",
    1: "flag captured",
    2: "neither side could move",
    3: "forfeit or resignation",
    4: "draw agreed",
}
"""Codes 10-14 are endings by the clock or a player leaving."""

VARIANT_OF_TYPE = {"classic": "classic", "barrage": "barrage", "classicfree": "classicfree", "duell": "duel"}
"""Gravon game types that fogofwar plays, mapped to its variant names (ultimate lightning has other rules)."""


@dataclass(frozen=True)
class GravonGame:
    source: str  # "archive.zip:member.xml" or the file path
    game_type: str
    field: str
    moves: tuple[tuple[str, str], ...]
    players: tuple[str, str]
    result_type: int | None
    winner: int | None  # 1 or 2 as in the file (player 1 = red); None for none

    def pieces(self) -> list[tuple[int, int, Rank]]:
        """The starting position as (square, owner, rank) triples; `RecordError` on a bad field."""
        return parse_field(self.field, self.source)

    def move_squares(self) -> list[tuple[int, int]]:
        out = []
        for i, (src, dst) in enumerate(self.moves, 1):
            try:
                out.append((parse_square(src), parse_square(dst)))
            except Exception as exc:
                raise RecordError(f"{self.source}: move {i} {src}-{dst}: {exc}") from exc
        return out


def parse_field(field: str, source: str = "field") -> list[tuple[int, int, Rank]]:
    if len(field) != NUM_SQUARES:
        raise RecordError(f"{source}: the field has {len(field)} characters, not 100")
    out = []
    for sq, ch in enumerate(field):
        if ch == "_":
            if sq not in LAKES:
                raise RecordError(f"{source}: a lake mark on {square_name(sq)}, which is not a lake")
            continue
        if sq in LAKES:
            raise RecordError(f"{source}: {square_name(sq)} is a lake but the field has {ch!r} there")
        if ch == "A":
            continue
        if ch not in _LETTER_TO_PIECE:
            raise RecordError(f"{source}: unknown piece letter {ch!r} on {square_name(sq)}")
        owner, rank = _LETTER_TO_PIECE[ch]
        out.append((sq, owner, rank))
    return out


def format_field(pieces: dict[int, tuple[int, Rank]]) -> str:
    """The 100-character field of a position given as {square: (owner, rank)}."""
    return "".join(
        "_" if sq in LAKES else (_PIECE_TO_LETTER[pieces[sq]] if sq in pieces else "A") for sq in range(NUM_SQUARES)
    )


def gravon_square(sq: int) -> str:
    """Gravon's spelling of a square: row 10 is ':'."""
    row = sq // 10 + 1
    return f"{FILES[sq % 10]}{':' if row == 10 else row}"


def parse_gravon_xml(data: bytes | str, source: str) -> GravonGame:
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise RecordError(f"{source}: not well-formed XML: {exc}") from exc
    game = root.find("game") if root.tag != "game" else root
    if game is None:
        raise RecordError(f"{source}: no <game> element")
    field_el = game.find("field")
    if field_el is None or field_el.get("content") is None:
        raise RecordError(f"{source}: no <field content=...> element")
    moves = []
    for el in game.findall("move"):
        src, dst = el.get("source"), el.get("target")
        if src is None or dst is None:
            raise RecordError(f"{source}: a <move> without source or target (id {el.get('id')})")
        moves.append((src, dst))
    players = [el.text or "" for el in game.findall("player")]
    while len(players) < 2:
        players.append("")
    result = game.find("result")
    result_type = winner = None
    if result is not None:
        try:
            result_type = int(result.get("type", ""))
        except ValueError:
            result_type = None
        w = result.get("winner")
        winner = int(w) if w and w.isdigit() and int(w) in (1, 2) else None
    return GravonGame(
        source,
        (game.get("type") or "").strip(),
        field_el.get("content", ""),
        tuple(moves),
        (players[0], players[1]),
        result_type,
        winner,
    )


def read_gravon(path: str | Path) -> Iterator[GravonGame | RecordError]:
    """Every game of a .zip archive or one .xml file; a file that cannot be read yields its `RecordError`."""
    p = Path(path)
    if p.suffix.lower() == ".zip":
        try:
            archive = zipfile.ZipFile(p)
        except (OSError, zipfile.BadZipFile) as exc:
            yield RecordError(f"{p.name}: cannot open the archive: {exc}")
            return
        with archive:
            for name in sorted(archive.namelist()):
                if not name.lower().endswith(".xml"):
                    continue
                try:
                    yield parse_gravon_xml(archive.read(name), f"{p.name}:{name}")
                except RecordError as exc:
                    yield exc
    else:
        try:
            yield parse_gravon_xml(p.read_bytes(), p.name)
        except OSError as exc:
            yield RecordError(f"{p.name}: cannot read: {exc}")
        except RecordError as exc:
            yield exc
