"""Gravon's Stratego XML game files (StraDoS2 archive), read from .xml files or straight from .zip archives.

Format (see the archive's README): `<game type=...>` with a 100-character `<field content>`
(square A1 first, row by row; `A` empty, `_` lake, `B`..`M` red bomb, spy, scout, ..., marshal,
flag; `N`..`Y` the same for blue), `<move source target>` in Gravon coordinates (files A-K
without J, row 10 written ':'), and `<result type winner>`.

`format_gravon_xml` writes the same layout back; `gravon_from_state` / `gravon_from_record` turn a game of
a classic-board variant into a `GravonGame`, and `record_from_gravon` replays one through the rules engine
into the project's JSON record.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from fogofwar.core.protocol import GameError, IllegalActionError, Outcome, RecordError, Termination
from fogofwar.core.records import GameRecord
from fogofwar.core.state_json import start_of
from fogofwar.stratego.board import FILES, LAKES, NUM_SQUARES, PLAYER_NAMES, parse_square, square_name
from fogofwar.stratego.pieces import Rank
from fogofwar.stratego.rules import DEFAULT_TWO_SQUARES, StrategoGame, StrategoState, check_setup
from fogofwar.stratego.variants import get_variant

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
    game: GravonGame, two_squares: int = DEFAULT_TWO_SQUARES, more_squares: bool = True
) -> GameRecord:
    """Replay a Gravon game through the rules engine into a project record; `RecordError` names the first
    thing the rules refuse (an unknown game type, a bad setup, an illegal move by number, a wrong result).

    Gravon games have no move cap (max_moves=0). Results the rules do not decide (3 forfeit or resignation,
    4 agreed draw, 10-14 the clock or a player leaving) end the game from outside the board."""
    variant = VARIANT_OF_TYPE.get(game.game_type)
    if variant is None:
        known = ", ".join(sorted(VARIANT_OF_TYPE))
        raise RecordError(f"{game.source}: Gravon game type {game.game_type!r} is not played here (known: {known})")
    pieces = game.pieces()
    squares = game.move_squares()
    v = get_variant(variant)
    for player in (0, 1):
        try:
            check_setup(v, player, {sq: rank for sq, owner, rank in pieces if owner == player})
        except GameError as exc:
            raise RecordError(f"{game.source}: the setup of {PLAYER_NAMES[player]} is not legal: {exc}") from None
    sgame = StrategoGame(variant, two_squares=two_squares, more_squares=more_squares, max_moves=0)
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
