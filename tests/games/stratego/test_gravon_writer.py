"""Writing Gravon XML, and converting between Gravon games and the project's JSON records.

Round trips: a game played here, written by our writer and read back by our reader, is the same
game (setup, every move, result); a real Gravon game read, written and read again keeps its moves.
"""

from __future__ import annotations

import random
import zipfile

import pytest
from tests.paths import GRAVON

from fogofwar.core import RecordError, Termination
from fogofwar.core.records import GameRecord
from fogofwar.games.stratego.formats.gravon import (
    GravonGame,
    format_gravon_xml,
    gravon_from_record,
    gravon_from_state,
    parse_gravon_xml,
    read_gravon,
    record_from_gravon,
)
from fogofwar.games.stratego.rules import StrategoGame, StrategoState
from fogofwar.games.stratego.setup import random_setup
from fogofwar.grid.board import NUM_SQUARES

DATA = GRAVON


def played_game(variant: str, seed: int, max_moves: int = 400) -> StrategoState:
    """Both armies set up at random, then random legal moves until the game ends (or the cap)."""
    rng = random.Random(seed)
    game = StrategoGame(variant, max_moves=max_moves)
    state = game.new_initial_state()
    for seat in (0, 1):
        state.apply_setup(seat, random_setup(game.variant, seat, rng))
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


def positions(state: StrategoState) -> list[tuple[int, int, int] | None]:
    out: list[tuple[int, int, int] | None] = []
    for sq in range(NUM_SQUARES):
        piece = state.piece_at(sq)
        out.append(None if piece is None else (piece[0], int(piece[1]), int(piece[3])))
    return out


def moves_of(state: StrategoState) -> list[int]:
    return [a for a in state.history if a < 10_000]


@pytest.mark.parametrize(("variant", "seed"), [("barrage", 1), ("barrage", 7), ("duel", 3), ("classic", 5)])
def test_our_game_written_then_read_back_is_the_same_game(variant: str, seed: int) -> None:
    state = played_game(variant, seed)
    record = GameRecord.from_state(state, players=["Ann <red>", "Bob & co"])
    xml = format_gravon_xml(gravon_from_record(record))
    assert xml.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<stratego>\n <game type=')
    read = parse_gravon_xml(xml.encode("utf-8"), "ours.xml")
    assert read.players == ("Ann <red>", "Bob & co")  # escaped on the way out, unescaped on the way in
    back = record_from_gravon(read).replay()
    assert isinstance(back, StrategoState)
    assert moves_of(back) == moves_of(state)
    assert positions(back) == positions(state)  # the same pieces where they ended, with what was revealed
    assert back.captured(0) == state.captured(0) and back.captured(1) == state.captured(1)
    outcome, again = state.outcome(), back.outcome()
    assert outcome is not None
    if outcome.termination is Termination.MOVE_LIMIT:
        # Gravon has no move cap and no code for it: written without a result, read back as a game not over.
        assert read.result_type is None and again is None
    else:
        assert again is not None and (again.termination, again.winner) == (outcome.termination, outcome.winner)


def test_resignation_and_draw_results() -> None:
    state = played_game("barrage", 11, max_moves=0)
    # Cut a game short and end it from outside the board, as the server does for a resignation.
    short = StrategoGame("barrage").state_from_json({**state.to_json(), "actions": list(state.history)[:30]})
    short.end_by(Termination.RESIGNATION, 1, "red resigned")
    game = gravon_from_state(short)
    assert (game.result_type, game.winner) == (3, 2)
    back = record_from_gravon(parse_gravon_xml(format_gravon_xml(game), "r.xml"))
    assert back.outcome is not None and (back.outcome.termination, back.outcome.winner) == (Termination.RESIGNATION, 1)
    assert len(back.actions) == 30 - 16  # the 16 placements are now the start position
    draw = StrategoGame("barrage").state_from_json({**state.to_json(), "actions": list(state.history)[:20]})
    draw.end_by(Termination.AGREED_DRAW, None)
    assert '<result type="4" winner="3"/>' in format_gravon_xml(gravon_from_state(draw))  # as Gravon writes draws


def test_what_gravon_cannot_hold() -> None:
    with pytest.raises(RecordError, match="during the setup"):
        gravon_from_state(StrategoGame("barrage").new_initial_state())
    moved_first = StrategoGame("barrage").state_from_position({0: (0, 11), 99: (1, 11), 9: (0, 2), 90: (1, 2)}, 1)
    with pytest.raises(RecordError, match="blue to move"):
        gravon_from_state(moved_first)


def test_import_names_the_illegal_move_and_the_bad_result() -> None:
    state = played_game("barrage", 1)
    game = gravon_from_state(state)
    bad_moves = list(game.moves)
    bad_moves[2] = (bad_moves[2][0], "C5")  # into a lake
    broken = GravonGame("x.xml", game.game_type, game.field, tuple(bad_moves), ("", ""), None, None)
    with pytest.raises(RecordError, match=r"x\.xml: move 3 \(.*-C5\) is illegal"):
        record_from_gravon(broken)
    short = GravonGame("y.xml", game.game_type, game.field, game.moves[:4], ("", ""), 1, 1)
    with pytest.raises(RecordError, match="the result says flag captured"):
        record_from_gravon(short)
    odd = GravonGame("z.xml", "ultimate lightning", game.field, (), ("", ""), None, None)
    with pytest.raises(RecordError, match="'ultimate lightning' is not played here"):
        record_from_gravon(odd)


@pytest.mark.data
def test_real_gravon_games_read_written_read_keep_their_moves() -> None:
    if not DATA.is_dir():
        pytest.skip("../shared/data/gravon not found: the real-games check needs the shared data")
    archive = sorted(DATA.glob("*.zip"))[0]
    with zipfile.ZipFile(archive) as z:
        names = [n for n in sorted(z.namelist()) if n.endswith(".xml")][:8]
    games = [g for g in read_gravon(archive) if isinstance(g, GravonGame) and g.source.split(":")[1] in names]
    assert games
    for game in games:
        written = format_gravon_xml(game)
        again = parse_gravon_xml(written.encode("utf-8"), game.source)
        assert again == game  # every field, move, player and the result survive our writer
        record = record_from_gravon(game)
        via_record = gravon_from_record(record)
        assert via_record.moves == game.moves and via_record.field == game.field
        assert via_record.game_type == game.game_type and via_record.winner == game.winner
