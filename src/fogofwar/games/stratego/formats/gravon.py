"""Gravon's Stratego XML game files (StraDoS2 archive), read from .xml files or straight from .zip archives.

Format (see the archive's README): `<game type=...>` with a 100-character `<field content>`
(square A1 first, row by row; `A` empty, `_` lake, `B`..`M` red bomb, spy, scout, ..., marshal,
flag; `N`..`Y` the same for blue), `<move source target>` in Gravon coordinates (files A-K
without J, row 10 written ':'), and `<result type winner>`.

`format_gravon_xml` writes the same layout back; `gravon_from_state` / `gravon_from_record` turn a game of
a classic-board variant into a `GravonGame`, and `record_from_gravon` replays one through the rules engine
into the project's JSON record. `read_games` reads both kinds, so that the training commands learn from
self-play records as from Gravon's archives.

Archives and XML files are read as hostile input, with bounded memory and time: each game is streamed
through expat (no tree is built) and refused past `MAX_ENTRY_BYTES` however large its zip header says it
is; an archive listing more than `MAX_ARCHIVE_ENTRIES` entries is refused before its directory is read;
a DOCTYPE (and with it every entity: "billion laughs", external files) and nesting deeper than
`MAX_XML_DEPTH` are refused. Each game that cannot be read is an `UnreadableGame` that names it and says
why, so that a batch can report it and go on.
"""

from __future__ import annotations

import dataclasses
import os
import re
import struct
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any
from xml.parsers import expat
from xml.sax.saxutils import escape, quoteattr

from fogofwar.core.protocol import GameError, IllegalActionError, Outcome, RecordError, Termination
from fogofwar.core.records import GameRecord
from fogofwar.core.state_json import start_of
from fogofwar.games.stratego.params import Repetition
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import DEFAULT_TWO_SQUARES, StrategoGame, StrategoState, check_setup
from fogofwar.games.stratego.variants import get_variant
from fogofwar.grid.board import FILES, LAKES, NUM_SQUARES, PLAYER_NAMES, parse_square, square_name

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

MAX_ENTRY_BYTES = 4 << 20
"""Largest game read, uncompressed: one .xml file or one archive entry (4 MiB; the archive's largest is 70 KiB)."""

MAX_ARCHIVE_ENTRIES = 100_000
"""Most entries an archive may list (the monthly StraDoS2 archives hold under 2,000 games)."""

MAX_DIRECTORY_BYTES = 16 << 20
"""Largest zip central directory (the list of entries, read whole before any entry) accepted."""

MAX_XML_DEPTH = 16
"""Deepest element nesting accepted (Gravon files nest 3 deep: stratego, game, move)."""

_CHUNK = 64 << 10
"""Bytes read (and inflated) at a time."""

_COMPRESSIONS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflated"}
"""Compression methods read. Python's bzip2 and LZMA readers inflate a whole compressed block at once, which
a few KiB can make gigabytes of, so an entry compressed so is refused (Gravon's archives use deflate)."""

_ZIP_ERRORS = (
    OSError,
    EOFError,
    RuntimeError,
    NotImplementedError,
    ValueError,
    zipfile.BadZipFile,
    zlib.error,
    struct.error,
)
"""What `zipfile` raises on a damaged or odd archive (ValueError covers entry names that are not UTF-8)."""


class UnreadableGame(RecordError):
    """A Gravon game (a file, or an archive entry) that cannot be read; `source` names it, `reason` says why."""

    def __init__(self, source: str, reason: str) -> None:
        super().__init__(f"{source}: {reason}")
        self.source = source
        self.reason = reason

    def __reduce__(self) -> tuple[type[UnreadableGame], tuple[str, str]]:
        return type(self), (self.source, self.reason)


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

    @property
    def played(self) -> bool:
        """False for a record with no setup at all and no move: a game that ended (forfeited, abandoned)
        before anybody placed a piece. Its field is missing, empty or a whole board with no piece (STR-REC-2); a
        field of another length is a damaged record, said so by the field check."""
        empty = self.field == "" or (len(self.field) == 100 and all(ch in "A_" for ch in self.field))
        return bool(self.moves) or not empty

    @property
    def date(self) -> tuple[int, int] | None:
        """(year, month) the game was played, from its file name (`classic-2014.5-408.xml`) or, failing that,
        its monthly archive's (`strados2013-10.zip`); None when neither says."""
        return gravon_date(self.source)

    @property
    def repetition(self) -> Repetition:
        """The reading of the repetition rules that Gravon applied when the game was played (STR-REP-8)."""
        return gravon_repetition(self.date)

    def move_squares(self) -> list[tuple[int, int]]:
        out = []
        for i, (src, dst) in enumerate(self.moves, 1):
            try:
                out.append((parse_square(src), parse_square(dst)))
            except Exception as exc:
                raise RecordError(f"{self.source}: move {i} {src}-{dst}: {exc}") from exc
        return out


_GAME_DATE = re.compile(r"-(\d{4})\.(\d{1,2})-\d+\.xml$", re.IGNORECASE)
"""A game's file in a StraDoS2 archive: type-YEAR.MONTH-NUMBER.xml."""
_ARCHIVE_DATE = re.compile(r"strados(\d{4})-(\d{1,2})\.zip", re.IGNORECASE)
"""A monthly StraDoS2 archive: stradosYEAR-MONTH.zip."""

GRAVON_ERAS: tuple[tuple[tuple[int, int], Repetition], ...] = (
    ((2013, 1), "gravon-2013"),
    ((0, 1), "gravon-2004"),
)
"""From which month on Gravon applied each reading of the repetition rules, latest first (docs: decision (e)).
The games seen date from 2004-11 to 2006-07 (gravon-2004) and from 2013-10 to 2014-10 (gravon-2013); the
switch lies somewhere in 2006-08..2013-09 and is set at 2013-01 by assumption."""


def gravon_date(source: str) -> tuple[int, int] | None:
    """(year, month) from a Gravon game's source name ("archive.zip:member.xml" or a file name), or None.

    >>> gravon_date("disputed.zip:classic-2014.5-408.xml"), gravon_date("strados2013-10.zip:x.xml")
    ((2014, 5), (2013, 10))
    >>> gravon_date("game.xml") is None
    True
    """
    archive, _, member = source.rpartition(":") if ":" in source else ("", "", source)
    match = _GAME_DATE.search(member)
    if match is None:
        match = _ARCHIVE_DATE.search(archive or member)
    if match is None:
        return None
    year, month = int(match.group(1)), int(match.group(2))
    return (year, month) if 1 <= month <= 12 else None


def gravon_repetition(date: tuple[int, int] | None) -> Repetition:
    """The reading of the repetition rules of a Gravon game of that (year, month); "isf" when undated.

    >>> gravon_repetition((2005, 3)), gravon_repetition((2012, 12)), gravon_repetition((2014, 2))
    ('gravon-2004', 'gravon-2004', 'gravon-2013')
    """
    if date is None:
        return "isf"
    return next(era for start, era in GRAVON_ERAS if date >= start)


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


class _GameReader:
    """One Gravon XML document fed through expat piece by piece, keeping only what `GravonGame` needs from the
    first <game> (the root, or a child of the root): no tree is built, so memory follows the moves read."""

    def __init__(self, source: str) -> None:
        self.source = source
        self._parser = expat.ParserCreate(namespace_separator="}")  # as ElementTree: a namespaced tag is no match
        self._parser.buffer_text = True
        self._parser.StartDoctypeDeclHandler = self._doctype
        self._parser.EntityDeclHandler = self._doctype
        self._parser.StartElementHandler = self._start
        self._parser.EndElementHandler = self._end
        self._parser.CharacterDataHandler = self._text
        self._depth = 0
        self._game_depth = 0  # depth of the <game> being read; 0 before it, -1 after it
        self._game_type = ""
        self._field: dict[str, str] | None = None
        self._moves: list[tuple[str, str]] = []
        self._bad_move = ""
        self._players: list[str] = []
        self._player: list[str] | None = None  # the text of the <player> being read, up to its first child
        self._result: dict[str, str] | None = None

    def feed(self, data: bytes | str, final: bool = False) -> None:
        try:
            self._parser.Parse(data, final)
        except expat.ExpatError as exc:
            raise UnreadableGame(self.source, f"not well-formed XML: {exc}") from None
        except UnicodeError as exc:  # text with lone surrogates cannot be handed to expat
            raise UnreadableGame(self.source, f"not UTF-8 text: {exc}") from None

    def _doctype(self, *args: Any) -> None:
        raise UnreadableGame(
            self.source,
            "XML with a DOCTYPE is not accepted (Gravon files have none; its entities could expand "
            "without bound or read other files)",
        )

    def _start(self, name: str, attrs: dict[str, str]) -> None:
        self._depth += 1
        if self._depth > MAX_XML_DEPTH:
            raise UnreadableGame(self.source, f"elements nested deeper than {MAX_XML_DEPTH} levels")
        if self._player is not None and self._depth > self._game_depth + 1:
            self._players.append("".join(self._player))  # ElementTree's text: what comes before the first child
            self._player = None
        if self._game_depth == 0 and name == "game" and self._depth <= 2:  # the root, or the root's first <game>
            self._game_depth = self._depth
            self._game_type = attrs.get("type", "")
        elif self._game_depth > 0 and self._depth == self._game_depth + 1:
            if name == "field" and self._field is None:
                self._field = attrs
            elif name == "move":
                src, dst = attrs.get("source"), attrs.get("target")
                if src is None or dst is None:
                    self._bad_move = self._bad_move or f"a <move> without source or target (id {attrs.get('id')})"
                else:
                    self._moves.append((src, dst))
            elif name == "player":
                self._player = []
            elif name == "result" and self._result is None:
                self._result = attrs

    def _end(self, name: str) -> None:
        if self._player is not None and self._depth == self._game_depth + 1:
            self._players.append("".join(self._player))
            self._player = None
        if self._depth == self._game_depth:
            self._game_depth = -1
        self._depth -= 1

    def _text(self, data: str) -> None:
        if self._player is not None and self._depth == self._game_depth + 1:
            self._player.append(data)

    def game(self) -> GravonGame:
        """The game read (call after the last `feed`); `UnreadableGame` if it lacks what Gravon files have."""
        if self._game_depth == 0:
            raise UnreadableGame(self.source, "no <game> element")
        if self._bad_move:
            raise UnreadableGame(self.source, self._bad_move)
        field = None if self._field is None else self._field.get("content")
        if field is None:
            if self._moves:
                raise UnreadableGame(self.source, "no <field content=...> element")
            field = ""  # no setup and no move: a game never played (`GravonGame.played`), not a damaged file
        players = [*self._players, "", ""]
        result_type = winner = None
        if self._result is not None:
            result_type = _small_int(self._result.get("type", ""))
            w = _small_int(self._result.get("winner", ""))
            winner = w if w in (1, 2) else None
        return GravonGame(
            self.source,
            self._game_type.strip(),
            field,
            tuple(self._moves),
            (players[0], players[1]),
            result_type,
            winner,
        )


def _small_int(text: str) -> int | None:
    """A result code as Gravon writes it (a few ASCII digits); None for anything else, however long."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None


def parse_gravon_xml(data: bytes | str, source: str) -> GravonGame:
    """One Gravon XML game from its bytes or text; `UnreadableGame` (a `RecordError`) says what is wrong."""
    if len(data) > MAX_ENTRY_BYTES:
        raise UnreadableGame(source, f"{len(data):,} bytes, over the cap of {MAX_ENTRY_BYTES:,} bytes for one game")
    reader = _GameReader(source)
    reader.feed(data, final=True)
    return reader.game()


def read_gravon_stream(stream: IO[bytes], source: str) -> GravonGame:
    """One Gravon XML game read from a binary stream, a piece at a time: refused (`UnreadableGame`) as soon as
    more than `MAX_ENTRY_BYTES` come out, whatever the stream claimed its size was."""
    reader = _GameReader(source)
    total = 0
    while chunk := stream.read(_CHUNK):
        total += len(chunk)
        if total > MAX_ENTRY_BYTES:
            raise UnreadableGame(
                source, f"over the cap of {MAX_ENTRY_BYTES:,} bytes for one game (reading stopped there)"
            )
        reader.feed(chunk)
    reader.feed(b"", final=True)
    return reader.game()


def read_gravon(path: str | Path) -> Iterator[GravonGame | RecordError]:
    """Every game of a .zip archive or one .xml file. Never raises: a game that cannot be read, or an archive
    that cannot be opened, is yielded as its `UnreadableGame` (a `RecordError`) and the reading goes on."""
    p = Path(path)
    if p.suffix.lower() == ".zip":
        yield from _read_archive(p)
        return
    try:
        with p.open("rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > MAX_ENTRY_BYTES:
                raise UnreadableGame(p.name, f"{size:,} bytes, over the cap of {MAX_ENTRY_BYTES:,} bytes for one game")
            yield read_gravon_stream(f, p.name)
    except OSError as exc:
        yield UnreadableGame(p.name, f"cannot read: {exc}")
    except RecordError as exc:
        yield exc


def read_games(path: str | Path) -> Iterator[GravonGame | RecordError]:
    """`read_gravon`, and also the project's own records as Gravon games (`gravon_from_record`): a .json record,
    or every .json record in a folder (an arena's or `fogofwar selfplay`'s games/), in name order. Never raises:
    what cannot be read or written in Gravon's layout is yielded as its `RecordError`."""
    p = Path(path)
    if p.is_dir():
        files = sorted(f for f in p.iterdir() if f.suffix.lower() == ".json")
    elif p.suffix.lower() == ".json":
        files = [p]
    else:
        yield from read_gravon(p)
        return
    for f in files:
        try:
            game = gravon_from_record(GameRecord.load(f))
        except GameError as exc:  # a RecordError, or the rules refusing the record's actions
            yield UnreadableGame(f.name, str(exc))
            continue
        yield dataclasses.replace(game, source=str(f))


def _read_archive(p: Path) -> Iterator[GravonGame | RecordError]:
    try:
        problem = _directory_problem(p)
        if problem:
            yield UnreadableGame(p.name, problem)
            return
        archive = zipfile.ZipFile(p)
    except _ZIP_ERRORS as exc:
        yield UnreadableGame(p.name, f"cannot open the archive: {exc}")
        return
    with archive:
        infos = archive.infolist()
        if len(infos) > MAX_ARCHIVE_ENTRIES:  # when `_directory_problem` could not tell
            yield UnreadableGame(p.name, f"{len(infos):,} entries, over the cap of {MAX_ARCHIVE_ENTRIES:,}")
            return
        for info in sorted(infos, key=lambda i: i.filename):
            if info.filename.lower().endswith(".xml"):
                yield _read_entry(archive, info, f"{p.name}:{info.filename}")


def _directory_problem(p: Path) -> str:
    """Why the archive's central directory is not read at all (too many entries, too large), from its end record;
    empty when it may be read. Uses zipfile's own end-record reader where this Python has it."""
    end_record = getattr(zipfile, "_EndRecData", None)
    if end_record is None:  # pragma: no cover - CPython's zipfile has had it since 2.x
        return ""
    with p.open("rb") as f:
        end = end_record(f)
    if not end:
        return ""  # not a zip: zipfile says so
    entries, size = int(end[4]), int(end[5])  # _ECD_ENTRIES_TOTAL, _ECD_SIZE
    if entries > MAX_ARCHIVE_ENTRIES:
        return f"{entries:,} entries, over the cap of {MAX_ARCHIVE_ENTRIES:,}"
    if size > MAX_DIRECTORY_BYTES:
        return f"a central directory of {size:,} bytes, over the cap of {MAX_DIRECTORY_BYTES:,}"
    return ""


def _read_entry(archive: zipfile.ZipFile, info: zipfile.ZipInfo, source: str) -> GravonGame | RecordError:
    """One archive entry as a game: its header is checked first, then it is inflated a piece at a time."""
    if info.flag_bits & 0x1:
        return UnreadableGame(source, "the entry is encrypted")
    if info.compress_type not in _COMPRESSIONS:
        return UnreadableGame(
            source, f"compression method {info.compress_type} is not accepted (only stored or deflated)"
        )
    if info.file_size > MAX_ENTRY_BYTES:
        return UnreadableGame(
            source, f"the archive says {info.file_size:,} bytes, over the cap of {MAX_ENTRY_BYTES:,} bytes for one game"
        )
    try:
        with archive.open(info) as f:
            return read_gravon_stream(f, source)
    except RecordError as exc:
        return exc
    except _ZIP_ERRORS as exc:
        return UnreadableGame(source, f"cannot read the entry: {exc}")


# --- writing, and conversion to and from the project's game records ------------------------------

GRAVON_TYPE_OF_VARIANT = {variant: kind for kind, variant in VARIANT_OF_TYPE.items()}
"""fogofwar variants that Gravon's format can hold, mapped to Gravon game types."""

_DRAW_WINNER = 3
"""What Gravon's files write as the winner of a drawn game."""

_RULES_RESULTS = {0: Termination.NO_MOVES, 1: Termination.FLAG_CAPTURED, 2: Termination.NO_MOVES_EITHER}
"""The result types (`RESULT_TYPES`) that the rules decide, and the ending each one is."""
_RESULT_OF_ENDING = {
    **{end: kind for kind, end in _RULES_RESULTS.items()},
    Termination.RESIGNATION: 3,
    Termination.FORFEIT: 3,
    Termination.AGREED_DRAW: 4,
}


def format_gravon_xml(game: GravonGame) -> str:
    """The game as a Gravon XML file, laid out like the archive's files (`parse_gravon_xml` reads it back)."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        "<stratego>",
        f" <game type={quoteattr(game.game_type)}>",
        f"  <field content={quoteattr(game.field)}/>",
    ]
    lines += [
        f'  <move id="{i}" source={quoteattr(src)} target={quoteattr(dst)}/>'
        for i, (src, dst) in enumerate(game.moves, 1)
    ]
    lines += [f'  <player id="{i}">{escape(name or f"Player {i}")}</player>' for i, name in enumerate(game.players, 1)]
    if game.result_type is not None:
        winner = game.winner if game.winner in (1, 2) else _DRAW_WINNER
        lines.append(f'  <result type="{game.result_type}" winner="{winner}"/>')
    lines += [" </game>", "</stratego>", ""]
    return "\n".join(lines)


def _result_of(outcome: Outcome | None) -> tuple[int | None, int | None]:
    """Gravon's (result type, winner) for an outcome; (None, None) where Gravon has no code (the move cap)."""
    if outcome is None:
        return None, None
    winner = None if outcome.winner is None else outcome.winner + 1
    if outcome.termination is Termination.TIMEOUT:
        kind: int | None = 10 if winner is None else 11
    else:
        kind = _RESULT_OF_ENDING.get(outcome.termination)
    return (kind, winner) if kind is not None else (None, None)


def gravon_from_state(state: StrategoState, players: tuple[str, str] = ("", ""), source: str = "") -> GravonGame:
    """A Stratego game (at any point after the setup) as a `GravonGame`: the position when play began,
    every move since, and the result where Gravon has a code for it; `RecordError` if Gravon cannot hold it."""
    variant = state.game.variant.name
    kind = GRAVON_TYPE_OF_VARIANT.get(variant)
    if kind is None:
        known = ", ".join(sorted(GRAVON_TYPE_OF_VARIANT))
        raise RecordError(f"Gravon's format holds the variants {known}; this game is {variant}")
    data = state.to_json()
    start = data.get("start")
    if isinstance(start, dict) and start.get("to_move", 0) != 0:
        raise RecordError("Gravon's format has red (player 1) move first; this game starts with blue to move")
    actions = [int(a) for a in state.history]
    replay = start_of(state.game, data)
    assert isinstance(replay, StrategoState)
    done = 0
    while replay.phase == "setup" and done < len(actions):
        replay.apply(actions[done])
        done += 1
    if replay.phase == "setup":
        raise RecordError("the game ended during the setup: there is no position to write")
    pieces: dict[int, tuple[int, Rank]] = {}
    for sq in range(NUM_SQUARES):
        piece = replay.piece_at(sq)
        if piece is not None:
            pieces[sq] = (piece[0], piece[1])
    moves = tuple((gravon_square(a // 100), gravon_square(a % 100)) for a in actions[done:])
    result_type, winner = _result_of(state.outcome())
    return GravonGame(source, kind, format_field(pieces), moves, players, result_type, winner)


def gravon_from_record(record: GameRecord) -> GravonGame:
    """A project record of a classic-board Stratego game as a `GravonGame` (replayed by the rules engine)."""
    if record.game != "stratego":
        raise RecordError(f"Gravon's format holds Stratego games only, not {record.game}")
    state = record.replay(check=False)
    if not isinstance(state, StrategoState):  # pragma: no cover - the registry builds Stratego states for it
        raise RecordError("not a Stratego state")
    names = [*record.players, "", ""]
    return gravon_from_state(state, (names[0], names[1]), str(record.metadata.get("game_id") or ""))


def record_from_gravon(
    game: GravonGame,
    two_squares: int = DEFAULT_TWO_SQUARES,
    more_squares: bool = True,
    repetition: Repetition | None = None,
) -> GameRecord:
    """Replay a Gravon game through the rules engine into a project record; `RecordError` names the first
    thing the rules refuse (an unknown game type, a bad setup, an illegal move by number, a wrong result).

    Gravon games have no move cap (max_moves=0). `repetition` None: the reading of the game's date
    (`GravonGame.repetition`, STR-REP-8). Results the rules do not decide (3 forfeit or resignation,
    4 agreed draw, 10-14 the clock or a player leaving) end the game from outside the board."""
    variant = VARIANT_OF_TYPE.get(game.game_type)
    if variant is None:
        known = ", ".join(sorted(VARIANT_OF_TYPE))
        raise RecordError(f"{game.source}: Gravon game type {game.game_type!r} is not played here (known: {known})")
    if not game.played:
        raise RecordError(f"{game.source}: the game was never played (no setup and no move)")
    pieces = game.pieces()
    squares = game.move_squares()
    v = get_variant(variant)
    for player in (0, 1):
        try:
            check_setup(v, player, {sq: rank for sq, owner, rank in pieces if owner == player})
        except GameError as exc:
            raise RecordError(f"{game.source}: the setup of {PLAYER_NAMES[player]} is not legal: {exc}") from None
    era = game.repetition if repetition is None else repetition
    sgame = StrategoGame(variant, two_squares=two_squares, more_squares=more_squares, max_moves=0, repetition=era)
    state = sgame.state_from_position([(sq, o, int(r)) for sq, o, r in pieces], to_move=0)
    for i, (src, dst) in enumerate(squares, 1):
        try:
            state.apply(src * 100 + dst)
        except IllegalActionError as exc:
            text = f"{game.moves[i - 1][0]}-{game.moves[i - 1][1]}"
            raise RecordError(f"{game.source}: move {i} ({text}) is illegal: {exc}") from None
    winner = None if game.winner is None else game.winner - 1
    kind = game.result_type
    outcome = state.outcome()
    if kind in _RULES_RESULTS:
        expected = _RULES_RESULTS[kind]
        if outcome is None or outcome.termination is not expected or (kind != 2 and outcome.winner != winner):
            says = f"{outcome.termination.value}, winner {outcome.winner}" if outcome else "the game goes on"
            raise RecordError(f"{game.source}: the result says {RESULT_TYPES[kind]}, but the rules say: {says}")
    elif kind is not None and outcome is None:
        if kind == 3:
            state.end_by(Termination.RESIGNATION, winner, "forfeit or resignation (Gravon result 3)")
        elif kind == 4:
            state.end_by(Termination.AGREED_DRAW, None, "draw agreed (Gravon result 4)")
        elif 10 <= kind <= 14:
            state.end_by(Termination.TIMEOUT, winner, f"the clock or a player leaving (Gravon result {kind})")
    return GameRecord.from_state(state, players=list(game.players), source=game.source, gravon_type=game.game_type)
