"""Rule tests of the Stratego engine on small crafted positions, one or more per rule id of
docs/rules/stratego.md (the id is in each test's name or docstring).

The repetition rules (STR-REP-*) have their own file, test_repetition.py.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from fogofwar.core import IllegalActionError, InvalidSetupError, NotationError, RecordError, Termination
from fogofwar.core.protocol import TERMINAL, GameError
from fogofwar.core.records import GameRecord
from fogofwar.games.stratego.formats.gravon import VARIANT_OF_TYPE, format_field, parse_gravon_xml
from fogofwar.games.stratego.pieces import Rank, parse_rank
from fogofwar.games.stratego.replay import replay_gravon
from fogofwar.games.stratego.rules import (
    FINISH_SETUP,
    NUM_ACTIONS,
    PLACE_BASE,
    StrategoGame,
    StrategoState,
    check_setup,
    parse_action,
)
from fogofwar.games.stratego.setup import SAMPLES, format_setup, parse_setup, random_setup
from fogofwar.games.stratego.variants import get_variant, variants
from fogofwar.grid.board import LAKES, NEIGHBOURS, SETUP_SQUARES, parse_square, square_name

RED, BLUE = 0, 1
MOVABLE_STRONGEST_FIRST = [
    Rank.MARSHAL,
    Rank.GENERAL,
    Rank.COLONEL,
    Rank.MAJOR,
    Rank.CAPTAIN,
    Rank.LIEUTENANT,
    Rank.SERGEANT,
    Rank.MINER,
    Rank.SCOUT,
    Rank.SPY,
]
"""STR-PIECE-1, written out here independently of the engine's numbers."""

# Flags and one spare movable piece a side, out of the way, so that crafted games do not end
# by STR-END-2 unless a test wants them to.
CORNERS = [("A1", RED, Rank.FLAG), ("K1", RED, Rank.SERGEANT), ("A10", BLUE, Rank.FLAG), ("K10", BLUE, Rank.SERGEANT)]


# --- helpers ------------------------------------------------------------------------------------


def sq(name: str) -> int:
    return parse_square(name)


def position(pieces: list[tuple[str, int, Rank]], to_move: int = RED, **options: Any) -> StrategoState:
    """A play-phase state with the given pieces ((square name, owner, rank)) and game options."""
    return StrategoGame(**options).state_from_position([(sq(s), o, r) for s, o, r in pieces], to_move=to_move)


def move(text: str) -> int:
    return parse_action(text)


def play(state: StrategoState, *moves: str) -> None:
    for text in moves:
        action = move(text)
        assert action in state.legal_actions(), f"{text} should be legal: {state.explain_illegal(action)}"
        state.apply(action)


def snapshot(state: StrategoState) -> tuple[Any, ...]:
    return (
        state.to_json(),
        list(state.legal_actions()),
        state.observation(RED).data,
        state.observation(BLUE).data,
        state.outcome(),
        state.current_player(),
        state.move_count,
    )


def assert_refused(state: StrategoState, action: int | str, *fragments: str) -> str:
    """`action` is refused with a message containing every fragment, and the state does not change."""
    if isinstance(action, str):
        action = move(action)
    before = snapshot(state)
    assert action not in state.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert snapshot(state) == before
    return message


def piece(state: StrategoState, name: str) -> tuple[int, Rank] | None:
    """(owner, rank) on a square, or None."""
    p = state.piece_at(sq(name))
    return None if p is None else (p[0], p[1])


def cell(state: StrategoState, player: int, name: str) -> Any:
    return state.observation(player).data["board"][sq(name)]


def moves_from(state: StrategoState, name: str) -> set[str]:
    src = sq(name)
    return {square_name(a % 100) for a in state.legal_actions() if a // 100 == src}


# --- STR-BOARD ----------------------------------------------------------------------------------


def test_STR_BOARD_1_lakes_are_two_2x2_blocks_in_the_middle() -> None:
    assert {square_name(s) for s in LAKES} == {"C5", "D5", "C6", "D6", "G5", "H5", "G6", "H6"}
    assert all(not LAKES & set(NEIGHBOURS[s]) for s in range(100))


def test_STR_BOARD_1_no_piece_enters_a_lake() -> None:
    state = position([*CORNERS, ("C4", RED, Rank.MAJOR), ("E4", RED, Rank.MAJOR)])
    assert moves_from(state, "C4") == {"B4", "D4", "C3"}
    assert "E5" in moves_from(state, "E4")  # E5 is land
    assert_refused(state, "C4-C5", "C5 is a lake", "STR-BOARD-1")


def test_STR_BOARD_1_no_piece_stands_on_a_lake() -> None:
    with pytest.raises(InvalidSetupError, match="not a land square"):
        position([*CORNERS, ("D5", RED, Rank.MAJOR)])


def test_STR_BOARD_2_square_names() -> None:
    assert square_name(0) == "A1" and square_name(9) == "K1" and square_name(10) == "A2" and square_name(99) == "K10"
    assert len({square_name(s) for s in range(100)}) == 100
    assert not any("J" in square_name(s) for s in range(100))
    assert sq("k10") == sq("K10") == sq("J10") == sq("J:") == sq("K:") == 99
    assert sq("j5") == sq("K5")
    assert sq("A:") == 90
    assert all(sq(square_name(s)) == s for s in range(100))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Z9", "file must be one of A-K"),
        ("A11", "row must be 1-10"),
        ("A0", "row must be 1-10"),
        ("Ax", "row"),
        ("A", "not a square"),
        ("", "not a square"),
    ],
)
def test_STR_BOARD_2_bad_square_names_say_why(text: str, words: str) -> None:
    with pytest.raises(NotationError, match=words):
        sq(text)


def test_STR_BOARD_3_red_is_player_0_sets_up_and_moves_first() -> None:
    state = StrategoGame("barrage").new_initial_state()
    assert state.phase == "setup" and state.current_player() == RED
    assert {square_name(s)[1:] for s in SETUP_SQUARES[RED]} == {"1", "2", "3", "4"}
    assert {square_name(s)[1:] for s in SETUP_SQUARES[BLUE]} == {"7", "8", "9", "10"}
    rng = random.Random(3)
    state.apply_setup(RED, random_setup(state.game.variant, RED, rng))
    assert state.phase == "setup" and state.current_player() == BLUE
    state.apply_setup(BLUE, random_setup(state.game.variant, BLUE, rng))
    assert state.phase == "play" and state.current_player() == RED
    assert all(a // 100 in SETUP_SQUARES[RED] for a in state.legal_actions())


# --- STR-PIECE ----------------------------------------------------------------------------------


def test_STR_PIECE_1_classic_army() -> None:
    classic = get_variant("classic")
    assert dict(classic.roster) == {
        Rank.MARSHAL: 1, Rank.GENERAL: 1, Rank.COLONEL: 2, Rank.MAJOR: 3, Rank.CAPTAIN: 4, Rank.LIEUTENANT: 4,
        Rank.SERGEANT: 4, Rank.MINER: 5, Rank.SCOUT: 8, Rank.SPY: 1, Rank.BOMB: 6, Rank.FLAG: 1,
    }  # fmt: skip
    assert classic.army_size == 40
    assert [r for r, _ in classic.roster][:10] == MOVABLE_STRONGEST_FIRST
    assert [r for r in Rank if r.movable] == sorted(MOVABLE_STRONGEST_FIRST)
    assert not Rank.BOMB.movable and not Rank.FLAG.movable


def test_STR_PIECE_2_classic_and_modern_notation() -> None:
    classic = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "S"]
    modern = ["10", "9", "8", "7", "6", "5", "4", "3", "2", "S"]
    for rank, c, m in zip(MOVABLE_STRONGEST_FIRST, classic, modern, strict=True):
        assert rank.symbol() == rank.symbol("classic") == c
        assert rank.symbol("modern") == m
        assert parse_rank(c) == rank and parse_rank(m, notation="modern") == rank
        assert parse_rank(rank.name.lower()) == rank
    assert parse_rank("8") == Rank.MINER and parse_rank("8", notation="modern") == Rank.COLONEL
    for mark, rank in (("B", Rank.BOMB), ("F", Rank.FLAG), ("s", Rank.SPY)):
        assert parse_rank(mark) == rank == parse_rank(mark, notation="modern")
        assert rank.symbol() == mark.upper()
    assert parse_rank("1", notation="modern") == Rank.SPY  # newer editions print 1 on the spy
    for bad, notation in (("10", "classic"), ("0", "classic"), ("11", "modern"), ("X", "classic")):
        with pytest.raises(NotationError, match="not a piece"):
            parse_rank(bad, notation=notation)  # type: ignore[arg-type]


def test_STR_PIECE_3_a_rank_is_known_to_its_owner_only() -> None:
    """STR-PIECE-3, STR-INFO-1."""
    state = position([*CORNERS, ("E4", RED, Rank.MARSHAL), ("E7", BLUE, Rank.GENERAL)])
    assert cell(state, RED, "E4")["rank"] == "marshal"
    assert cell(state, BLUE, "E4") == {"owner": RED, "rank": None, "moved": False, "revealed": False}
    assert cell(state, BLUE, "E7")["rank"] == "general"
    assert cell(state, RED, "E7")["rank"] is None
    assert "marshal" not in state.observation(BLUE).text.lower()


# --- STR-SETUP ----------------------------------------------------------------------------------


def full_army(variant: str, player: int) -> dict[int, Rank]:
    return parse_setup(next(iter(SAMPLES[variant].values())), get_variant(variant), player)


def test_STR_SETUP_1_home_rows_only() -> None:
    state = StrategoGame("barrage").new_initial_state()
    legal = state.legal_actions()
    assert {a % 100 for a in legal} == set(SETUP_SQUARES[RED])
    assert_refused(state, PLACE_BASE + Rank.MARSHAL * 100 + sq("E5"), "E5 is not in red's setup area")
    bad = {**full_army("barrage", RED)}
    marshal_square = next(s for s, r in bad.items() if r == Rank.MARSHAL)
    del bad[marshal_square]
    bad[sq("A7")] = Rank.MARSHAL
    with pytest.raises(InvalidSetupError, match=r"A7 is not in red's setup area \(rows 1-4 in barrage\)"):
        state.apply_setup(RED, bad)
    with pytest.raises(InvalidSetupError, match=r"A4 is not in blue's setup area \(rows 7-10"):
        check_setup(get_variant("barrage"), BLUE, {sq("A4"): Rank.FLAG})


def test_STR_SETUP_1_smaller_armies_leave_squares_empty() -> None:
    for name in ("barrage", "duel"):
        state = StrategoGame(name).new_initial_state()
        army = full_army(name, RED)
        assert len(army) == get_variant(name).army_size < 40
        state.apply_setup(RED, army)
        assert state.current_player() == BLUE


def test_STR_SETUP_1_lake_squares_are_never_setup_squares() -> None:
    """STR-SETUP-1 in classicfree, where the setup area is the whole board but the lakes."""
    with pytest.raises(InvalidSetupError, match="C5 is a lake: no piece may stand there"):
        check_setup(get_variant("classicfree"), RED, {sq("C5"): Rank.FLAG})
    state = StrategoGame("classicfree").new_initial_state()
    assert {a % 100 for a in state.legal_actions() if a != FINISH_SETUP} == set(range(100)) - LAKES
    assert_refused(state, PLACE_BASE + Rank.FLAG * 100 + sq("G6"), "not in red's setup area")


def test_STR_SETUP_2_exact_composition() -> None:
    barrage = get_variant("barrage")
    army = full_army("barrage", RED)
    check_setup(barrage, RED, army)
    spy = next(s for s, r in army.items() if r == Rank.SPY)
    with pytest.raises(InvalidSetupError, match="red's setup has 2 marshals; barrage needs 1 marshal"):
        check_setup(barrage, RED, {**army, sq("A2"): Rank.MARSHAL})  # one too many
    without_spy = {s: r for s, r in army.items() if s != spy}
    with pytest.raises(InvalidSetupError, match="red's setup has 0 spies; barrage needs 1 spy"):
        check_setup(barrage, RED, without_spy)
    state = StrategoGame("barrage").new_initial_state()
    assert FINISH_SETUP not in state.legal_actions()
    assert_refused(state, FINISH_SETUP, "barrage needs the whole army")


def test_STR_SETUP_2_no_piece_beyond_the_roster() -> None:
    state = StrategoGame("barrage").new_initial_state()
    play_place(state, "1@A1")
    assert_refused(state, "1@B1", "red has no marshal left to place")


def play_place(state: StrategoState, *placements: str) -> None:
    for text in placements:
        state.apply(state.string_to_action(text))


def test_STR_SETUP_2_classicfree_at_most_the_roster_then_done() -> None:
    state = StrategoGame("classicfree").new_initial_state()
    assert FINISH_SETUP not in state.legal_actions()  # at least one piece first
    assert_refused(state, FINISH_SETUP, "place at least one piece")
    play_place(state, "1@E5", "9@K10")  # anywhere off the lakes, even in the enemy half
    assert FINISH_SETUP in state.legal_actions()
    play_place(state, "done")
    assert state.current_player() == BLUE and state.phase == "setup"
    with pytest.raises(InvalidSetupError, match="allows at most 1 marshal"):
        check_setup(get_variant("classicfree"), BLUE, {sq("A7"): Rank.MARSHAL, sq("B7"): Rank.MARSHAL})


def test_STR_SETUP_3_setup_string_is_read_from_the_owners_chair() -> None:
    text = SAMPLES["classic"]["fortress"]
    classic = get_variant("classic")
    red = parse_setup(text, classic, RED)
    blue = parse_setup(text, classic, BLUE)
    assert len(red) == len(blue) == 40
    assert red[sq("A4")] == Rank.SCOUT and blue[sq("K7")] == Rank.SCOUT  # first character: front row, left
    assert red[sq("C1")] == Rank.FLAG and blue[sq("H10")] == Rank.FLAG
    assert blue == {99 - s: r for s, r in red.items()}  # the board turned half a round
    assert format_setup(red, classic, RED) == text == format_setup(blue, classic, BLUE)


def test_STR_SETUP_3_setup_string_round_trip_with_empty_squares() -> None:
    barrage = get_variant("barrage")
    text = SAMPLES["barrage"]["sample"]
    for player in (RED, BLUE):
        placement = parse_setup(text, barrage, player)
        assert format_setup(placement, barrage, player) == text
        assert len(placement) == 8
    spaced = " 9...1..2.9 / ....S..... \n ........../..BF...8.."
    assert parse_setup(spaced, barrage, RED) == parse_setup(text, barrage, RED)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("9...1..2.9/....S...../..........", "4 rows separated by '/', this one has 3"),
        ("9...1..2.9/....S..../........../..BF...8..", "row 2 of the setup string has 9 squares"),
        ("X...1..2.9/....S...../........../..BF...8..", r"'X' \(row 1, A4\) is not a piece: use 1-9, S, B, F"),
        ("9...1..2.9/....S...../........../..BF...8.1", "red's setup has 2 marshals"),
    ],
)
def test_STR_SETUP_3_bad_setup_strings_say_why(text: str, words: str) -> None:
    with pytest.raises(InvalidSetupError, match=words):
        parse_setup(text, get_variant("barrage"), RED)


def test_STR_SETUP_4_red_sets_up_then_blue_then_red_moves() -> None:
    state = StrategoGame("duel").new_initial_state()
    with pytest.raises(InvalidSetupError, match="red's turn to set up, not blue's"):
        state.apply_setup(BLUE, full_army("duel", BLUE))
    play_place(state, "F@A2")  # one piece at a time ...
    with pytest.raises(InvalidSetupError, match="already placed some pieces"):
        state.apply_setup(RED, full_army("duel", RED))  # ... then not the whole army at once
    state.undo()
    state.apply_setup(RED, full_army("duel", RED))
    assert state.phase == "setup" and state.current_player() == BLUE
    state.apply_setup(BLUE, full_army("duel", BLUE))
    assert state.phase == "play" and state.current_player() == RED
    with pytest.raises(InvalidSetupError, match="setup phase is over"):
        state.apply_setup(RED, full_army("duel", RED))
    assert_refused(state, PLACE_BASE + Rank.SCOUT * 100 + sq("E4"), "the setup is over")


def test_STR_SETUP_5_a_wrong_setup_places_nothing() -> None:
    state = StrategoGame("barrage").new_initial_state()
    before = snapshot(state)
    army = full_army("barrage", RED)
    flag = next(s for s, r in army.items() if r == Rank.FLAG)
    for bad, words in (
        ({**army, sq("A2"): Rank.BOMB}, "red's setup has 2 bombs; barrage needs 1 bomb"),
        ({**{s: r for s, r in army.items() if s != flag}, sq("D5"): Rank.FLAG}, "D5 is a lake"),
        ({**{s: r for s, r in army.items() if s != flag}, sq("E6"): Rank.FLAG}, "E6 is not in red's setup area"),
        ({**{s: r for s, r in army.items() if s != flag}, 100: Rank.FLAG}, "100 is not a square"),
    ):
        with pytest.raises(InvalidSetupError, match=words):
            state.apply_setup(RED, bad)
        assert snapshot(state) == before


def test_STR_SETUP_5_taken_square() -> None:
    state = StrategoGame("classicfree").new_initial_state()
    play_place(state, "F@E5", "done")
    with pytest.raises(InvalidSetupError, match="E5 is already occupied"):
        state.apply_setup(BLUE, {sq("E5"): Rank.FLAG})
    assert_refused(state, "F@E5", "E5 is already occupied")


# --- STR-MOVE -----------------------------------------------------------------------------------


def test_STR_MOVE_1_bombs_and_the_flag_never_move() -> None:
    state = position([*CORNERS, ("E4", RED, Rank.BOMB), ("F4", RED, Rank.FLAG), ("E5", BLUE, Rank.MINER)])
    assert moves_from(state, "E4") == set() and moves_from(state, "F4") == set() and moves_from(state, "A1") == set()
    assert_refused(state, "E4-E3", "the bomb on E4 can never move", "STR-MOVE-1")
    assert_refused(state, "E4xE5", "STR-MOVE-1")
    assert_refused(state, "F4-F5", "the flag on F4 can never move", "STR-MOVE-1")


def test_STR_MOVE_2_one_square_orthogonally_onto_empty_or_enemy() -> None:
    state = position([*CORNERS, ("E4", RED, Rank.CAPTAIN), ("E5", BLUE, Rank.SERGEANT), ("D4", RED, Rank.MINER)])
    assert moves_from(state, "E4") == {"E5", "F4", "E3"}
    assert state.action_to_string(move("E4-E5")) == "E4xE5"  # an attack
    assert_refused(state, "E4-F5", "not a move along a row or column", "STR-MOVE-2")
    assert_refused(state, "E4-E2", "only scouts move more than one square")
    assert_refused(state, "E4-D4", "D4 holds red's own piece")
    assert_refused(state, "E6-E7", "there is no piece on E6")


def test_STR_MOVE_2_a_piece_at_the_edge() -> None:
    state = position([*CORNERS, ("A4", RED, Rank.MAJOR)])
    assert moves_from(state, "A4") == {"A3", "A5", "B4"}


def test_STR_MOVE_3_scouts_move_any_distance_in_a_line() -> None:
    state = position([*CORNERS, ("E4", RED, Rank.SCOUT)])
    assert moves_from(state, "E4") == {
        "E1", "E2", "E3", "E5", "E6", "E7", "E8", "E9", "E10",
        "A4", "B4", "C4", "D4", "F4", "G4", "H4", "I4", "K4",
    }  # fmt: skip
    play(state, "E4-E9")
    assert piece(state, "E9") == (RED, Rank.SCOUT)


def test_STR_MOVE_3_scout_cannot_jump() -> None:
    state = position(
        [*CORNERS, ("E4", RED, Rank.SCOUT), ("E6", RED, Rank.MAJOR), ("B4", BLUE, Rank.MAJOR), ("C3", RED, Rank.SCOUT)]
    )
    assert moves_from(state, "E4") == {"E1", "E2", "E3", "E5", "B4", "C4", "D4", "F4", "G4", "H4", "I4", "K4"}
    assert_refused(state, "E4-E8", "the path E4-E8 is blocked at E6", "STR-MOVE-3")  # own piece
    assert_refused(state, "E4-A4", "the path E4-A4 is blocked at B4", "STR-MOVE-3")  # enemy piece
    assert_refused(state, "C3-C7", "the path C3-C7 crosses the lake at C5", "STR-MOVE-3")
    assert moves_from(state, "C3") == {"C4", "C2", "C1", "A3", "B3", "D3", "E3", "F3", "G3", "H3", "I3", "K3"}


def test_STR_MOVE_3_scout_attacks_at_the_end_of_a_long_move() -> None:
    state = position([*CORNERS, ("E2", RED, Rank.SCOUT), ("E8", BLUE, Rank.SPY), ("E9", BLUE, Rank.MARSHAL)])
    assert "E8" in moves_from(state, "E2") and "E9" not in moves_from(state, "E2")
    assert state.action_to_string(move("E2-E8")) == "E2xE8"
    play(state, "E2xE8")
    assert piece(state, "E8") == (RED, Rank.SCOUT)
    assert state.captured(BLUE) == [Rank.SPY]
    event = state.last_event()
    assert event is not None and event.attacker == Rank.SCOUT and event.defender == Rank.SPY


def test_STR_MOVE_3_long_scout_move_reveals_only_a_long_move() -> None:
    """STR-MOVE-3, STR-INFO-2: a long move shows a scout; a one-square move shows nothing."""
    state = position([*CORNERS, ("E2", RED, Rank.SCOUT), ("F2", RED, Rank.SCOUT)])
    play(state, "E2-E3", "K10-K9")
    assert cell(state, BLUE, "E3") == {"owner": RED, "rank": None, "moved": True, "revealed": False}
    event = state.public_history()[0]
    assert event.attacker is None and "attacker" not in event.to_json()
    play(state, "F2-F6")
    assert cell(state, BLUE, "F6") == {"owner": RED, "rank": "scout", "moved": True, "revealed": True}
    assert state.observation(BLUE).data["last_move"] == {"player": RED, "from": "F2", "to": "F6", "attacker": "scout"}
    play(state, "K9-K8", "F6-F5")  # stays known afterwards
    assert cell(state, BLUE, "F5")["rank"] == "scout"


def test_STR_MOVE_4_turns_alternate_and_nobody_passes() -> None:
    state = position([*CORNERS, ("E4", RED, Rank.CAPTAIN), ("E7", BLUE, Rank.CAPTAIN)])
    assert state.current_player() == RED
    assert all(0 <= a < PLACE_BASE for a in state.legal_actions())  # moves only: no pass action
    assert_refused(state, "E7-E6", "the piece on E7 is not red's")
    play(state, "E4-E5")
    assert state.current_player() == BLUE
    assert_refused(state, "E5-E6", "the piece on E5 is not blue's")
    play(state, "E7-E6")
    assert state.current_player() == RED and state.move_count == 2


# --- STR-BATTLE ---------------------------------------------------------------------------------


def expected_battle(attacker: Rank, defender: Rank) -> str:
    """The battle rules as docs/rules/stratego.md states them, written independently of the engine."""
    if defender == Rank.FLAG:
        return "attacker"  # STR-BATTLE-5
    if defender == Rank.BOMB:
        return "attacker" if attacker == Rank.MINER else "defender"  # STR-BATTLE-4
    if attacker == Rank.SPY and defender == Rank.MARSHAL:
        return "attacker"  # STR-BATTLE-3
    if attacker == defender:
        return "both"  # STR-BATTLE-2
    stronger = MOVABLE_STRONGEST_FIRST.index(attacker) < MOVABLE_STRONGEST_FIRST.index(defender)
    return "attacker" if stronger else "defender"  # STR-BATTLE-1


@pytest.mark.parametrize("defender", list(Rank), ids=lambda r: r.name.lower())
@pytest.mark.parametrize("attacker", MOVABLE_STRONGEST_FIRST, ids=lambda r: r.name.lower())
def test_STR_BATTLE_every_pairing(attacker: Rank, defender: Rank) -> None:
    """STR-BATTLE-1..5 and STR-INFO-2 for every attacker and defender."""
    pieces = [("A1", RED, Rank.FLAG), ("K1", RED, Rank.SERGEANT), ("K10", BLUE, Rank.SERGEANT)]
    if defender != Rank.FLAG:
        pieces.append(("A10", BLUE, Rank.FLAG))
    state = position([*pieces, ("E4", RED, attacker), ("E5", BLUE, defender)])
    assert state.action_to_string(move("E4-E5")) == "E4xE5"
    play(state, "E4xE5")
    result = expected_battle(attacker, defender)
    event = state.last_event()
    assert event is not None and (event.attacker, event.defender) == (attacker, defender)
    assert piece(state, "E4") is None
    if result == "attacker":
        assert piece(state, "E5") == (RED, attacker)
        assert state.captured(BLUE) == [defender] and state.captured(RED) == []
        assert event.to_json()["result"] == "attacker_won"
    elif result == "defender":
        assert piece(state, "E5") == (BLUE, defender)
        assert state.captured(RED) == [attacker] and state.captured(BLUE) == []
        assert event.to_json()["result"] == "defender_won"
    else:
        assert piece(state, "E5") is None
        assert state.captured(RED) == [attacker] and state.captured(BLUE) == [defender]
        assert event.to_json()["result"] == "both_lost"
    if result != "both":  # the survivor is known to both players (STR-INFO-2)
        name = (attacker if result == "attacker" else defender).name.lower()
        assert cell(state, RED, "E5")["rank"] == cell(state, BLUE, "E5")["rank"] == name
    for player in (RED, BLUE):
        last = state.observation(player).data["last_move"]
        assert last["attacker"] == attacker.name.lower() and last["defender"] == defender.name.lower()
    if defender == Rank.FLAG:
        outcome = state.outcome()
        assert outcome is not None and outcome.termination is Termination.FLAG_CAPTURED and outcome.winner == RED
    else:
        assert not state.is_terminal()


def test_STR_BATTLE_1_higher_rank_wins_attacking_or_defending() -> None:
    state = position([*CORNERS, ("E4", RED, Rank.MAJOR), ("E5", BLUE, Rank.CAPTAIN), ("F6", BLUE, Rank.COLONEL)])
    play(state, "E4xE5")
    assert piece(state, "E5") == (RED, Rank.MAJOR)
    play(state, "F6-F5", "E5xF5")
    assert piece(state, "F5") == (BLUE, Rank.COLONEL) and piece(state, "E5") is None  # the defender stays put


def test_STR_BATTLE_2_equal_ranks_both_leave_the_board() -> None:
    state = position([*CORNERS, ("E4", RED, Rank.SPY), ("E5", BLUE, Rank.SPY)])
    play(state, "E4xE5")
    assert piece(state, "E4") is None and piece(state, "E5") is None
    assert state.captured(RED) == [Rank.SPY] and state.captured(BLUE) == [Rank.SPY]


def test_STR_BATTLE_3_spy_takes_the_marshal_only_when_attacking() -> None:
    state = position([*CORNERS, ("E4", RED, Rank.SPY), ("E5", BLUE, Rank.MARSHAL)])
    play(state, "E4xE5")
    assert piece(state, "E5") == (RED, Rank.SPY)


def test_STR_BATTLE_3_spy_defending_against_the_marshal_loses() -> None:
    state = position([*CORNERS, ("E4", RED, Rank.SPY), ("E5", BLUE, Rank.MARSHAL)], to_move=BLUE)
    play(state, "E5xE4")
    assert piece(state, "E4") == (BLUE, Rank.MARSHAL) and state.captured(RED) == [Rank.SPY]


def test_STR_BATTLE_3_spy_attacking_anything_else_loses() -> None:
    state = position([*CORNERS, ("E4", RED, Rank.SPY), ("E5", BLUE, Rank.SCOUT)])
    play(state, "E4xE5")
    assert piece(state, "E5") == (BLUE, Rank.SCOUT) and state.captured(RED) == [Rank.SPY]


def test_STR_BATTLE_4_bomb_stays_after_destroying_an_attacker() -> None:
    state = position(
        [*CORNERS, ("E4", RED, Rank.MARSHAL), ("E5", BLUE, Rank.BOMB), ("E2", RED, Rank.SCOUT), ("F5", RED, Rank.MINER)]
    )
    play(state, "E4xE5")
    assert piece(state, "E5") == (BLUE, Rank.BOMB) and state.captured(RED) == [Rank.MARSHAL]
    assert cell(state, RED, "E5") == {"owner": BLUE, "rank": "bomb", "moved": False, "revealed": True}
    play(state, "K10-K9", "E2xE5")  # a scout's long move ends on the bomb: the scout dies too
    assert piece(state, "E5") == (BLUE, Rank.BOMB) and state.captured(RED) == [Rank.MARSHAL, Rank.SCOUT]
    play(state, "K9-K8", "F5xE5")  # a miner removes it and takes its square
    assert piece(state, "E5") == (RED, Rank.MINER) and state.captured(BLUE) == [Rank.BOMB]


def test_STR_BATTLE_5_any_piece_captures_the_flag() -> None:
    for attacker in (Rank.SPY, Rank.SCOUT, Rank.MINER):
        state = position([("A1", RED, Rank.FLAG), ("K10", BLUE, Rank.SERGEANT), ("E5", BLUE, Rank.FLAG),
                          ("E1", RED, attacker)])  # fmt: skip
        if attacker == Rank.SCOUT:
            play(state, "E1xE5")
        else:
            play(state, "E1-E2", "K10-K9", "E2-E3", "K9-K8", "E3-E4", "K8-K7", "E4xE5")
        outcome = state.outcome()
        assert outcome is not None and outcome.termination is Termination.FLAG_CAPTURED
        assert outcome.winner == RED and state.returns() == [1.0, -1.0]


# --- STR-END ------------------------------------------------------------------------------------


def test_STR_END_1_flag_capture_ends_the_game_at_once() -> None:
    state = position([*CORNERS, ("A9", RED, Rank.SERGEANT)])
    play(state, "A9xA10")
    assert state.is_terminal() and state.current_player() == TERMINAL and state.legal_actions() == []
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == RED and "flag" in outcome.reason
    assert_refused(state, "K1-K2", "the game is over")


def test_STR_END_2_player_to_move_without_a_movable_piece_loses() -> None:
    state = position(
        [("A1", RED, Rank.FLAG), ("B1", RED, Rank.BOMB), ("E4", RED, Rank.LIEUTENANT), ("E5", BLUE, Rank.MARSHAL),
         ("A10", BLUE, Rank.FLAG)],
        to_move=BLUE,
    )  # fmt: skip
    play(state, "E5xE4")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_MOVES
    assert outcome.winner == BLUE and outcome.reason == "red has no legal move"
    assert state.returns() == [-1.0, 1.0]


def test_STR_END_2_walled_in_pieces_do_not_save_a_player() -> None:
    state = position(
        [("A1", RED, Rank.SERGEANT), ("A2", RED, Rank.BOMB), ("B1", RED, Rank.FLAG), ("E4", RED, Rank.LIEUTENANT),
         ("E5", BLUE, Rank.MARSHAL), ("A10", BLUE, Rank.FLAG)],
        to_move=BLUE,
    )  # fmt: skip
    play(state, "E5xE4")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_MOVES and outcome.winner == BLUE


def test_STR_END_2_the_mover_loses_at_once_when_its_last_movable_piece_falls() -> None:
    state = position(
        [("A1", RED, Rank.FLAG), ("E4", RED, Rank.SCOUT), ("E9", BLUE, Rank.MAJOR), ("A10", BLUE, Rank.FLAG)]
    )
    play(state, "E4xE9")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_MOVES
    assert outcome.winner == BLUE and outcome.reason == "red has no legal move left"
    assert state.current_player() == TERMINAL and state.move_count == 1  # blue did not have to move


def test_STR_END_2_at_the_start_of_play() -> None:
    state = position(
        [("A1", RED, Rank.FLAG), ("B1", RED, Rank.BOMB), ("A10", BLUE, Rank.FLAG), ("K10", BLUE, Rank.SPY)]
    )
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_MOVES and outcome.winner == BLUE
    # classicfree: an army of one flag cannot move, so the other side wins as play starts
    state = StrategoGame("classicfree").new_initial_state()
    play_place(state, "F@A1", "9@B1", "done", "F@K10", "done")
    outcome = state.outcome()
    assert state.phase == "play" and outcome is not None and outcome.winner == RED
    assert outcome.reason == "blue has no legal move left"


def test_STR_END_3_neither_side_can_move_is_a_draw() -> None:
    state = position(
        [("A1", RED, Rank.FLAG), ("E4", RED, Rank.GENERAL), ("E5", BLUE, Rank.GENERAL), ("A10", BLUE, Rank.FLAG),
         ("B10", BLUE, Rank.BOMB)]
    )  # fmt: skip
    play(state, "E4xE5")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_MOVES_EITHER and outcome.winner is None
    assert state.returns() == [0.0, 0.0]
    state = position([("A1", RED, Rank.FLAG), ("A10", BLUE, Rank.FLAG)])
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_MOVES_EITHER


def test_STR_END_4_move_cap_draws() -> None:
    state = position([*CORNERS, ("E4", RED, Rank.MAJOR)], max_moves=4)
    play(state, "E4-E5", "K10-K9", "E5-E6")
    assert not state.is_terminal()
    play(state, "K9-K8")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.MOVE_LIMIT and outcome.winner is None
    assert state.move_count == 4 and state.returns() == [0.0, 0.0]


def test_STR_END_4_an_ending_on_the_last_allowed_move_comes_first() -> None:
    state = position([*CORNERS, ("A8", RED, Rank.MAJOR)], max_moves=3)
    play(state, "A8-A9", "K10-K9", "A9xA10")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.FLAG_CAPTURED and outcome.winner == RED


def test_STR_END_4_no_cap_by_default() -> None:
    for name in variants():
        assert StrategoGame(name).max_moves == 0
    with pytest.raises(ValueError, match="max_moves"):
        StrategoGame(max_moves=-1)


def test_STR_END_5_endings_from_outside_the_board() -> None:
    state = position([*CORNERS, ("E4", RED, Rank.MAJOR)])
    play(state, "E4-E5")
    state.end_by(Termination.RESIGNATION, RED, "blue resigned")
    assert state.is_terminal() and state.outcome() is not None
    assert_refused(state, "K10-K9", "the game is over (blue resigned)")
    data = state.to_json()
    assert data["ended_by"] == {"termination": "resignation", "winner": RED, "reason": "blue resigned"}
    again = StrategoState.from_json(data)
    assert again.outcome() == state.outcome() and again.to_json() == data
    with pytest.raises(IllegalActionError, match="game is over"):
        state.end_by(Termination.AGREED_DRAW, None)


# --- STR-INFO -----------------------------------------------------------------------------------


def test_STR_INFO_1_own_pieces_known_enemy_pieces_unknown() -> None:
    state = position([*CORNERS, ("E4", RED, Rank.MARSHAL), ("E7", BLUE, Rank.BOMB)])
    for player in (RED, BLUE):
        for s in range(100):
            p = state.piece_at(s)
            c = state.observation(player).data["board"][s]
            if s in LAKES:
                assert c == "lake"
            elif p is None:
                assert c is None
            else:
                assert c["owner"] == p[0]
                assert c["rank"] == (p[1].name.lower() if p[0] == player else None)


def test_STR_INFO_2_battles_show_both_ranks_to_both_players() -> None:
    state = position([*CORNERS, ("E4", RED, Rank.COLONEL), ("E5", BLUE, Rank.MAJOR), ("F5", BLUE, Rank.GENERAL)])
    play(state, "E4xE5")
    for player in (RED, BLUE):
        obs = state.observation(player).data
        assert obs["last_move"] == {"player": RED, "from": "E4", "to": "E5", "attacker": "colonel",
                                    "defender": "major", "result": "attacker_won"}  # fmt: skip
        assert obs["board"][sq("E5")]["rank"] == "colonel"
        assert obs["captured"] == [[], ["major"]]
    assert cell(state, RED, "F5")["rank"] is None  # uninvolved pieces stay hidden
    play(state, "F5xE5")
    assert cell(state, RED, "E5")["rank"] == "general"  # the general won its attack: now known
    play(state, "K1-K2", "K10-K9")
    assert cell(state, RED, "E5")["rank"] == "general"  # and stays known


def test_STR_INFO_3_moves_and_moved_pieces_are_public() -> None:
    state = position([*CORNERS, ("E7", BLUE, Rank.CAPTAIN), ("F7", BLUE, Rank.BOMB)], to_move=BLUE)
    assert cell(state, RED, "E7")["moved"] is False
    play(state, "E7-E6")
    obs = state.observation(RED).data
    assert obs["board"][sq("E6")] == {"owner": BLUE, "rank": None, "moved": True, "revealed": False}
    assert obs["board"][sq("F7")]["moved"] is False
    assert obs["last_move"] == {"player": BLUE, "from": "E7", "to": "E6"}
    assert obs["to_move"] == RED and obs["move_count"] == 1 and obs["phase"] == "play"
    assert "!" in state.observation(RED).text  # a moved, unknown enemy piece is drawn as '!'


def test_STR_INFO_4_nothing_of_the_other_side_shows_during_setup() -> None:
    state = StrategoGame("classic").new_initial_state()
    state.apply_setup(RED, full_army("classic", RED))
    play_place(state, "F@A10")
    for viewer, other in ((RED, BLUE), (BLUE, RED)):
        obs = state.observation(viewer).data
        assert obs["phase"] == "setup"
        assert not any(isinstance(c, dict) and c["owner"] == other for c in obs["board"])
        assert sum(isinstance(c, dict) for c in obs["board"]) == (40 if viewer == RED else 1)
    assert "flag" not in state.observation(BLUE).data["to_place"]  # blue's own pieces still to place
    assert state.observation(BLUE).data["to_place"]["marshal"] == 1
    state.undo()
    state.apply_setup(BLUE, full_army("classic", BLUE))
    obs = state.observation(BLUE).data
    assert obs["phase"] == "play"
    assert sum(isinstance(c, dict) and c["owner"] == RED and c["rank"] is None for c in obs["board"]) == 40


@pytest.mark.parametrize(("variant", "seed"), [("barrage", 1), ("barrage", 2), ("duel", 3), ("classic", 4)])
def test_STR_INFO_unrevealed_ranks_never_show(variant: str, seed: int) -> None:
    """STR-INFO-1..4 on random games: what each player sees of the enemy follows from public events only."""
    rng = random.Random(seed)
    state = StrategoGame(variant, max_moves=400).new_initial_state()
    while state.phase == "setup":  # piece by piece, checking the other side never shows
        for viewer in (RED, BLUE):
            board = state.observation(viewer).data["board"]
            assert not any(isinstance(c, dict) and c["owner"] != viewer for c in board)
        state.apply(rng.choice(state.legal_actions()))
    known: dict[int, str] = {}  # square -> rank name, as the public events show it
    seen_events = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        attacks = [a for a in legal if state.piece_at(a % 100) is not None]
        state.apply(rng.choice(attacks) if attacks and rng.random() < 0.3 else rng.choice(legal))
        for event in state.public_history()[seen_events:]:
            src_known = known.pop(event.src, None)
            if event.defender is not None:
                known.pop(event.dst, None)
                if event.attacker_survived:
                    known[event.dst] = Rank(event.attacker).name.lower()
                elif event.defender_survived:
                    known[event.dst] = Rank(event.defender).name.lower()
            elif event.attacker is not None:
                known[event.dst] = "scout"
            elif src_known is not None:
                known[event.dst] = src_known
        seen_events = len(state.public_history())
        for viewer in (RED, BLUE):
            board = state.observation(viewer).data["board"]
            for s, c in enumerate(board):
                if isinstance(c, dict) and c["owner"] != viewer:
                    assert c["rank"] == known.get(s), (square_name(s), c, known.get(s))
                    p = state.piece_at(s)
                    assert p is not None and (c["rank"] is None or c["rank"] == p[1].name.lower())


# --- STR-VAR ------------------------------------------------------------------------------------


def test_STR_VAR_1_variants_are_data() -> None:
    assert set(variants()) == {"classic", "barrage", "duel", "classicfree"}
    for v in variants().values():
        assert v.setup_area in ("home_rows", "anywhere") and v.composition in ("exact", "at_most")
    with pytest.raises(GameError, match="unknown Stratego variant 'ultimate'"):
        get_variant("ultimate")
    with pytest.raises(GameError, match="variant must be one of classic, barrage, duel, classicfree, not 'ultimate'"):
        StrategoGame("ultimate")


def test_STR_VAR_2_classic() -> None:
    v = get_variant("classic")
    assert v.army_size == 40 and v.setup_area == "home_rows" and v.composition == "exact"


def test_STR_VAR_3_barrage_roster() -> None:
    v = get_variant("barrage")
    assert dict(v.roster) == {Rank.MARSHAL: 1, Rank.GENERAL: 1, Rank.MINER: 1, Rank.SCOUT: 2, Rank.SPY: 1,
                              Rank.BOMB: 1, Rank.FLAG: 1}  # fmt: skip
    assert v.army_size == 8 and v.setup_area == "home_rows" and v.composition == "exact"


def test_STR_VAR_4_duel_roster() -> None:
    v = get_variant("duel")
    assert dict(v.roster) == {Rank.MARSHAL: 1, Rank.GENERAL: 1, Rank.MINER: 2, Rank.SCOUT: 2, Rank.SPY: 1,
                              Rank.BOMB: 2, Rank.FLAG: 1}  # fmt: skip
    assert v.army_size == 10 and VARIANT_OF_TYPE["duell"] == "duel"


def test_STR_VAR_5_classicfree_free_placement_and_composition() -> None:
    v = get_variant("classicfree")
    assert dict(v.roster) == dict(get_variant("classic").roster)
    assert v.setup_area == "anywhere" and v.composition == "at_most"
    check_setup(v, RED, {sq("E9"): Rank.MARSHAL, sq("K6"): Rank.SCOUT})  # no flag, in the enemy half
    state = StrategoGame("classicfree").new_initial_state()
    play_place(state, "1@E7", "9@E3", "done", "1@E4", "9@E8", "done")  # interleaved armies without flags
    assert state.phase == "play" and not state.is_terminal()
    play(state, "E3xE4")  # a scout against a marshal
    assert piece(state, "E4") == (BLUE, Rank.MARSHAL)


def test_STR_VAR_6_ultimate_lightning_is_not_played() -> None:
    assert "ultimate lightning" not in VARIANT_OF_TYPE
    xml = gravon_xml(format_field({sq("A1"): (RED, Rank.FLAG)}), [], (1, 1), game_type="ultimate lightning")
    report = replay_gravon(parse_gravon_xml(xml, "ul.xml"))
    assert report.skipped and not report.violations and report.moves == 0


# --- STR-REC ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "action"),
    [("B1-B2", 111), ("b1b2", 111), ("B1xB2", 111), ("b1xb2", 111), ("B1 B2", 111), ("A10-A9", 9080),
     ("A10A9", 9080), ("J:-J9", 9989), ("K10xK9", 9989), ("1@A1", 11000), ("F@E1", 10004), ("B@K4", 11139),
     ("done", FINISH_SETUP)],
)  # fmt: skip
def test_STR_REC_1_reading_notation(text: str, action: int) -> None:
    assert parse_action(text) == action


def test_STR_REC_1_modern_notation_for_placements() -> None:
    assert parse_action("10@A1", notation="modern") == parse_action("1@A1") == PLACE_BASE + Rank.MARSHAL * 100


@pytest.mark.parametrize("text", ["Z9-Z10", "B1-", "B1", "E4-E11", "hello", "X@A1"])
def test_STR_REC_1_unreadable_notation(text: str) -> None:
    with pytest.raises(NotationError):
        parse_action(text)


def test_STR_REC_1_writing_notation() -> None:
    state = position([*CORNERS, ("B1", RED, Rank.MAJOR), ("B2", BLUE, Rank.MAJOR), ("C1", RED, Rank.MINER)])
    assert state.action_to_string(move("B1-B2")) == "B1xB2"
    assert state.action_to_string(move("C1-C2")) == "C1-C2"
    assert state.action_to_string(move("K1-K2")) == "K1-K2"
    new = StrategoGame("classicfree").new_initial_state()
    assert new.action_to_string(11000) == "1@A1" and new.action_to_string(FINISH_SETUP) == "done"
    assert new.action_to_string(PLACE_BASE + Rank.FLAG * 100 + 99) == "F@K10"


def test_STR_REC_1_reading_for_play_checks_legality() -> None:
    state = position([*CORNERS, ("E4", RED, Rank.BOMB), ("E2", RED, Rank.MAJOR)])
    assert state.string_to_action("e2e3") == move("E2-E3")
    with pytest.raises(IllegalActionError, match="STR-MOVE-1"):
        state.string_to_action("E4-E5")
    with pytest.raises(NotationError):
        state.string_to_action("Z9-Z10")


def gravon_xml(field: str, moves: list[tuple[str, str]], result: tuple[int, int], game_type: str = "barrage") -> str:
    body = "".join(f'<move id="{i}" source="{s}" target="{t}"/>' for i, (s, t) in enumerate(moves, 1))
    kind, winner = result
    return (
        f'<stratego><game type="{game_type}"><field content="{field}"/>{body}'
        f'<player id="1">a</player><player id="2">b</player><result type="{kind}" winner="{winner}"/></game></stratego>'
    )


BARRAGE_ROW = (("A", Rank.FLAG), ("B", Rank.BOMB), ("C", Rank.SPY), ("D", Rank.MARSHAL), ("E", Rank.GENERAL),
               ("F", Rank.MINER), ("I", Rank.SCOUT), ("K", Rank.SCOUT))  # fmt: skip
BARRAGE_GAME = {
    **{sq(f + "1"): (RED, r) for f, r in BARRAGE_ROW},
    **{sq(f + "10"): (BLUE, r) for f, r in BARRAGE_ROW},
}
FLAG_RUN = [("K1", "K9"), ("I:", "I5"), ("K9", "A9"), ("I5", "I4"), ("A9", "A:")]
"""Red's scout runs to K9, then along row 9 to A9, and takes blue's flag on A10 (A: in Gravon's spelling)."""


def test_STR_REC_2_gravon_game_checked_move_by_move_and_result() -> None:
    field = format_field(BARRAGE_GAME)
    assert len(field) == 100 and field[0] == "M" and field[90] == "Y" and field[sq("C5")] == "_"
    # the scouts run up and down the I and K files and die against each other (I: is I10)
    game = parse_gravon_xml(gravon_xml(field, [("I1", "I:"), ("K:", "K1")], (3, 2)), "ok.xml")
    report = replay_gravon(game)
    assert report.ok and report.moves == 2  # a resignation (type 3): only the moves are checked
    assert replay_gravon(parse_gravon_xml(gravon_xml(field, FLAG_RUN, (1, 1)), "flag.xml")).ok
    wrong_winner = replay_gravon(parse_gravon_xml(gravon_xml(field, FLAG_RUN, (1, 2)), "w.xml"))
    assert wrong_winner.violations == ["result names player 2 as winner of a flag capture by red"]
    early = replay_gravon(parse_gravon_xml(gravon_xml(field, FLAG_RUN[:4], (1, 1)), "e.xml"))
    assert early.violations == ["result says flag captured, but the last move takes no flag"]
    illegal = parse_gravon_xml(gravon_xml(field, [("B1", "B2")], (3, 1)), "bad.xml")
    report = replay_gravon(illegal)
    assert (
        len(report.violations) == 1 and "move 1 B1-B2" in report.violations[0] and "STR-MOVE-1" in report.violations[0]
    )


def test_STR_REC_2_gravon_no_move_results() -> None:
    """Result type 0 (STR-END-2, the mover losing at once) and type 2 (STR-END-3)."""
    lone = {sq("A1"): (RED, Rank.FLAG), sq("E4"): (RED, Rank.SCOUT), sq("E9"): (BLUE, Rank.MAJOR),
            sq("A10"): (BLUE, Rank.FLAG)}  # fmt: skip
    field = format_field(lone)
    assert replay_gravon(parse_gravon_xml(gravon_xml(field, [("E4", "E9")], (0, 2), "classicfree"), "a")).ok
    report = replay_gravon(parse_gravon_xml(gravon_xml(field, [("E4", "E9")], (0, 1), "classicfree"), "b"))
    assert any("winner" in v for v in report.violations)
    tie = {**lone, sq("E9"): (BLUE, Rank.SCOUT)}
    report = replay_gravon(parse_gravon_xml(gravon_xml(format_field(tie), [("E4", "E9")], (2, 0), "classicfree"), "c"))
    assert report.ok and report.state is not None
    outcome = report.state.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_MOVES_EITHER


def test_STR_REC_3_action_ids() -> None:
    game = StrategoGame()
    assert game.num_distinct_actions() == NUM_ACTIONS == 11201
    assert move("B1-B2") == 1 * 100 + 11 and move("K10-K9") == 99 * 100 + 89
    assert parse_action("1@A1") == 10000 + 10 * 100 + 0 == 11000
    assert parse_action("F@K10") == 10000 + 0 * 100 + 99
    assert FINISH_SETUP == 11200
    state = game.new_initial_state()
    assert all(PLACE_BASE <= a < FINISH_SETUP for a in state.legal_actions())
    assert_refused(state, NUM_ACTIONS, "not an action id")


def test_STR_REC_4_json_state_round_trip() -> None:
    state = position([*CORNERS, ("E4", RED, Rank.SCOUT), ("E9", BLUE, Rank.MAJOR)], to_move=BLUE, two_squares=3)
    play(state, "E9-E8", "E4xE8")
    data = state.to_json()
    assert data["options"] == {
        "variant": "classic",
        "two_squares": 3,
        "more_squares": True,
        "max_moves": 0,
        "repetition": "isf",
    }
    assert data["actions"] == [move("E9-E8"), move("E4xE8")]
    assert ["E4", RED, "scout", False, False] in data["start"]["pieces"] and data["start"]["to_move"] == BLUE
    again = StrategoState.from_json(data)
    assert snapshot(again) == snapshot(state)
    with pytest.raises(RecordError, match="illegal"):
        StrategoState.from_json({**data, "actions": [move("E4-E5")]})  # blue moves first here


def test_STR_REC_4_game_record_round_trip() -> None:
    state = position([*CORNERS, ("E4", RED, Rank.SCOUT), ("E9", BLUE, Rank.MAJOR)])
    play(state, "E4xE9")
    record = GameRecord.from_state(state, players=["red", "blue"])
    assert record.notation == ["E4xE9"]
    back = GameRecord.loads(record.dumps())
    replayed = back.replay(check=True)
    assert replayed.outcome() == state.outcome()
    back.notation = ["E4-E9"]
    with pytest.raises(RecordError, match="notation"):
        back.replay(check=True)


def test_STR_REC_4_undo_restores_exactly() -> None:
    """Undo after every kind of action gives back the same state (STR-REC-4, STR-REP-3)."""
    state = StrategoGame("barrage", two_squares=3).new_initial_state()
    rng = random.Random(11)
    history: list[tuple[Any, ...]] = []
    while not state.is_terminal() and len(history) < 300:
        history.append(snapshot(state))
        legal = state.legal_actions()
        attacks = [a for a in legal if a < PLACE_BASE and state.piece_at(a % 100) is not None]
        state.apply(rng.choice(attacks) if attacks and rng.random() < 0.3 else rng.choice(legal))
    while history:
        state.undo()
        assert snapshot(state) == history.pop()
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        state.undo()
