"""The repetition rules of docs/rules/stratego.md on crafted positions: the two-squares rule
(STR-REP-1..3) and the more-squares rule (STR-REP-4..7)."""

from __future__ import annotations

from typing import Any

import pytest

from fogofwar.core import IllegalActionError, Termination
from fogofwar.core.protocol import InvalidArgumentError
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import DEFAULT_TWO_SQUARES, StrategoGame, StrategoState, parse_action
from fogofwar.grid.board import parse_square

RED, BLUE = 0, 1
# Flags out of the way and one spare piece a side on the K file, whose walks make the waiting moves.
CORNERS = [("C1", RED, Rank.FLAG), ("K1", RED, Rank.SERGEANT), ("C10", BLUE, Rank.FLAG), ("K10", BLUE, Rank.SERGEANT)]
BLUE_WAITS = ["K10-K9", "K9-K8", "K8-K7", "K7-K8", "K8-K9", "K9-K10"] * 3
RED_WAITS = ["K1-K2", "K2-K3", "K3-K4", "K4-K3", "K3-K2", "K2-K1"] * 3
"""Walks that never cross one boundary more than twice in a row: no two-squares series of their own."""


def sq(name: str) -> int:
    return parse_square(name)


def position(pieces: list[tuple[str, int, Rank]], to_move: int = RED, **options: Any) -> StrategoState:
    return StrategoGame(**options).state_from_position([(sq(s), o, r) for s, o, r in pieces], to_move=to_move)


def move(text: str) -> int:
    return parse_action(text)


def play(state: StrategoState, *moves: str) -> None:
    for text in moves:
        action = move(text)
        assert action in state.legal_actions(), f"{text} should be legal: {state.explain_illegal(action)}"
        state.apply(action)


def with_waits(moves: list[str], waits: list[str]) -> list[str]:
    """Interleave one player's moves with the other's waiting moves: m1, w1, m2, w2, ..."""
    out: list[str] = []
    for m, w in zip(moves, waits, strict=False):
        out += [m, w]
    return out


def snapshot(state: StrategoState) -> tuple[Any, ...]:
    return (
        state.to_json(),
        list(state.legal_actions()),
        state.observation(RED).data,
        state.observation(BLUE).data,
        state.outcome(),
        state.current_player(),
    )


def assert_refused(state: StrategoState, text: str, *fragments: str) -> None:
    """The move is refused with a message naming the rule, and the state does not change."""
    action = move(text)
    before = snapshot(state)
    assert action not in state.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    for fragment in fragments:
        assert fragment in str(info.value), f"{fragment!r} not in {str(info.value)!r}"
    assert snapshot(state) == before


def board(state: StrategoState) -> list[tuple[int, Rank] | None]:
    """Who stands where (owner and rank): what the more-squares rule compares."""
    out: list[tuple[int, Rank] | None] = []
    for s in range(100):
        p = state.piece_at(s)
        out.append(None if p is None else (p[0], p[1]))
    return out


# --- STR-REP-1 ----------------------------------------------------------------------------------

BACK_AND_FORTH = ["E4-E5", "E5-E4"] * 6


def test_STR_REP_1_default_limit_is_five_the_sixth_move_is_refused() -> None:
    assert DEFAULT_TWO_SQUARES == 5 and StrategoGame().two_squares == 5
    state = position([*CORNERS, ("E4", RED, Rank.SERGEANT)])
    play(state, *with_waits(BACK_AND_FORTH[:5], BLUE_WAITS))
    assert_refused(state, "E5-E4", "two-squares rule (STR-REP-1)", "more than 5 times in a row")
    assert {move("E5-E6"), move("E5-F5")} <= set(state.legal_actions())


def test_STR_REP_1_limit_three_the_fourth_move_is_refused() -> None:
    state = position([*CORNERS, ("E4", RED, Rank.SERGEANT)], two_squares=3)
    play(state, *with_waits(BACK_AND_FORTH[:3], BLUE_WAITS))
    assert_refused(state, "E5-E4", "STR-REP-1", "more than 3 times in a row")
    play(state, "E5-E6")  # any other move of the piece is fine


def test_STR_REP_1_moving_another_piece_resets_the_count() -> None:
    state = position([*CORNERS, ("E4", RED, Rank.SERGEANT)], two_squares=3)
    play(state, *with_waits(BACK_AND_FORTH[:3], BLUE_WAITS[:3]))
    play(state, "K1-K2", "K7-K8")
    play(state, *with_waits(BACK_AND_FORTH[1:4], BLUE_WAITS[4:7]))  # three more: E5-E4, E4-E5, E5-E4
    assert_refused(state, "E4-E5", "STR-REP-1")


def test_STR_REP_1_the_opponents_moves_do_not_reset_the_count() -> None:
    """Whatever blue does in between (here: an attack) does not interrupt red's series."""
    state = position(
        [*CORNERS, ("E4", RED, Rank.SERGEANT), ("B5", RED, Rank.SCOUT), ("B7", BLUE, Rank.CAPTAIN)], two_squares=3
    )
    play(state, "E4-E5", "B7-B6", "E5-E4", "B6xB5", "E4-E5", "K10-K9")
    assert state.captured(RED) == [Rank.SCOUT]
    assert_refused(state, "E5-E4", "STR-REP-1")


def test_STR_REP_1_attacks_count() -> None:
    state = position([*CORNERS, ("E4", RED, Rank.MARSHAL), ("E9", BLUE, Rank.SCOUT)])
    play(state, "E4-E5", "K10-K9", "E5-E4", "E9-E5", "E4xE5", "K9-K8")  # the third move is an attack
    assert state.captured(BLUE) == [Rank.SCOUT]
    play(state, "E5-E4", "K8-K7", "E4-E5", "K7-K8")
    assert_refused(state, "E5-E4", "STR-REP-1", "more than 5 times")


def test_STR_REP_1_applies_to_both_players_separately() -> None:
    state = position([*CORNERS, ("E4", RED, Rank.SERGEANT), ("E8", BLUE, Rank.SERGEANT)], two_squares=3)
    play(state, "E4-E5", "E8-E7", "E5-E4", "E7-E8", "E4-E5", "E8-E7")
    assert_refused(state, "E5-E4", "STR-REP-1")
    play(state, "K1-K2")
    assert_refused(state, "E7-E8", "STR-REP-1")


def test_STR_REP_1_zero_turns_the_rule_off() -> None:
    state = position([*CORNERS, ("E4", RED, Rank.SERGEANT)], two_squares=0)
    play(state, *with_waits(BACK_AND_FORTH * 2, BLUE_WAITS * 2))
    assert not state.is_terminal() and state.move_count == 48
    with pytest.raises(ValueError, match="two_squares"):
        StrategoGame(two_squares=-1)


# --- STR-REP-2 ----------------------------------------------------------------------------------


def test_STR_REP_2_scout_covering_the_same_squares() -> None:
    """The example of the rules text: A5-A1, A1-A3, A3-A1 all cross A1|A2 and A2|A3."""
    state = position([*CORNERS, ("A5", RED, Rank.SCOUT)], two_squares=3)
    play(state, *with_waits(["A5-A1", "A1-A3", "A3-A1"], BLUE_WAITS))
    assert_refused(state, "A1-A3", "STR-REP-1")
    assert_refused(state, "A1-A2", "STR-REP-1")
    play(state, "A1-B1")  # another line


def test_STR_REP_2_counts_the_last_moves_even_when_an_earlier_one_went_elsewhere() -> None:
    """A3-A5 shares no boundary with the later moves; A5-A1, A1-A3, A3-A1 still make three in a row
    over A1|A2 and A2|A3, so a fourth crossing is refused.

    (Before the fix in rules.py the engine kept only the boundaries common to the whole series since
    A3-A5 and allowed one more move here.)
    """
    state = position([*CORNERS, ("A3", RED, Rank.SCOUT)], two_squares=3)
    play(state, *with_waits(["A3-A5", "A5-A1", "A1-A3", "A3-A1"], BLUE_WAITS))
    assert_refused(state, "A1-A3", "STR-REP-1")
    assert_refused(state, "A1-A2", "STR-REP-1")
    assert move("A1-B1") in state.legal_actions()


def test_STR_REP_2_only_the_boundaries_crossed_every_time_count() -> None:
    state = position([*CORNERS, ("A1", RED, Rank.SCOUT)], two_squares=3)
    play(state, *with_waits(["A1-A3", "A3-A1", "A1-A2"], BLUE_WAITS))  # A1|A2 three times, A2|A3 twice then not
    assert_refused(state, "A2-A1", "STR-REP-1")
    play(state, "A2-A4")  # crosses A2|A3 and A3|A4 only


def test_STR_REP_2_long_and_short_moves_mix() -> None:
    state = position([*CORNERS, ("E1", RED, Rank.SCOUT)], two_squares=5)
    moves = ["E1-E4", "E4-E2", "E2-E3", "E3-E1", "E1-E4"]  # each crosses E2|E3
    play(state, *with_waits(moves, BLUE_WAITS))
    assert_refused(state, "E4-E2", "STR-REP-1")
    assert_refused(state, "E4-E1", "STR-REP-1")
    play(state, "E4-E3")  # crosses E3|E4 only, which E2-E3 did not cross


# --- STR-REP-3 ----------------------------------------------------------------------------------


def test_STR_REP_3_a_move_along_the_other_line_starts_a_new_series() -> None:
    state = position([*CORNERS, ("E4", RED, Rank.SERGEANT)], two_squares=3)
    play(state, *with_waits(["E4-E5", "E5-E4", "E4-E5", "E5-F5", "F5-E5", "E5-E4"], BLUE_WAITS))
    play(state, "E4-E5")  # E5-E4 began a new series on the E file: this is its second move
    play(state, "K10-K9", "E5-E4", "K9-K8")
    assert_refused(state, "E4-E5", "STR-REP-1")


def test_STR_REP_3_a_captured_piece_ends_its_series() -> None:
    state = position([*CORNERS, ("E4", RED, Rank.SERGEANT), ("E6", BLUE, Rank.CAPTAIN), ("D4", RED, Rank.MINER)],
                     two_squares=3)  # fmt: skip
    play(state, "E4-E5", "K10-K9", "E5-E4", "K9-K8", "E4-E5", "E6xE5")  # blue takes the sergeant
    play(state, "D4-E4", "K8-K7", "E4-D4", "K7-K8", "D4-E4", "K8-K9")  # a fresh series of three
    assert_refused(state, "E4-D4", "STR-REP-1")


def test_STR_REP_3_undo_restores_the_series() -> None:
    state = position([*CORNERS, ("E4", RED, Rank.SERGEANT)], two_squares=3)
    play(state, *with_waits(BACK_AND_FORTH[:3], BLUE_WAITS))
    before = snapshot(state)
    state.undo()
    state.undo()
    assert move("E4-E5") in state.legal_actions()
    play(state, "E4-E5", "K8-K7")
    assert snapshot(state) == before
    assert_refused(state, "E5-E4", "STR-REP-1")


def test_STR_REP_3_a_piece_stuck_by_the_rule_can_lose_the_game() -> None:
    """STR-REP-3 with STR-END-2: red's only movable piece shuttles in a corridor; after its third move
    its only way out is forbidden, and red loses at once."""
    state = position(
        [("A1", RED, Rank.SERGEANT), ("A3", RED, Rank.BOMB), ("B1", RED, Rank.BOMB), ("B2", RED, Rank.FLAG),
         ("B10", BLUE, Rank.FLAG), ("K10", BLUE, Rank.SERGEANT)],
        two_squares=3,
    )  # fmt: skip
    play(state, "A1-A2", "K10-K9", "A2-A1", "K9-K8")
    assert not state.is_terminal()
    play(state, "A1-A2")
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == BLUE and outcome.reason == "red has no legal move left"


# --- STR-REP-4..7: the more-squares rule --------------------------------------------------------

# A blue captain runs round the square E8 F8 F9 E9 and the red marshal follows it, one square
# behind: after a full round the marshal would stand on E8 next to the captain on F8 again.
CHASE = [("E7", RED, Rank.MARSHAL), ("F8", BLUE, Rank.CAPTAIN)]
ROUND = ["E7-E8", "F8-F9", "E8-F8", "F9-E9", "F8-F9", "E9-E8", "F9-E9", "E8-F8"]


def test_STR_REP_4_a_chasing_move_may_not_recreate_a_position_of_the_chase() -> None:
    state = position([*CORNERS, *CHASE])
    play(state, ROUND[0])
    after_first_threat = board(state)
    play(state, *ROUND[1:])
    assert_refused(state, "E9-E8", "more-squares rule (STR-REP-4)", "repeats a position of the current chase")
    assert {move("E9-D9"), move("E9-E10"), move("E9-F9")} <= set(state.legal_actions())
    # it would indeed recreate the position after the first threat (moved pieces do not matter)
    free = position([*CORNERS, *CHASE], more_squares=False)
    play(free, *ROUND, "E9-E8")
    assert board(free) == after_first_threat


def test_STR_REP_4_switched_off() -> None:
    state = position([*CORNERS, *CHASE], more_squares=False)
    play(state, *ROUND, "E9-E8", *ROUND[1:], "E9-E8")
    assert state.game.options["more_squares"] is False


def test_STR_REP_4_only_the_chaser_is_bound() -> None:
    """The chased side may recreate a position of the chase (here: the one before the first threat)."""
    state = position([*CORNERS, ("F7", RED, Rank.MARSHAL), ("F9", BLUE, Rank.CAPTAIN)])
    play(state, "F7-E7", "F9-F8")
    before_threat = board(state)
    play(state, "E7-F7", "F8-E8", "F7-E7", "E8-F8")
    assert board(state) == before_threat


def test_STR_REP_5_the_chase_follows_the_evading_piece() -> None:
    """Threat, evasion, chasing move: the evader is followed to its new squares, and a chasing move
    is one that threatens it there; here a full round of the chase is needed before a repeat."""
    state = position([*CORNERS, *CHASE])
    for i, text in enumerate(ROUND):
        if i % 2 == 0 and i > 0:  # every chasing move before the repeat is allowed
            assert move(text) in state.legal_actions()
        play(state, text)
    assert move("E9-E8") not in state.legal_actions()


def test_STR_REP_5_a_move_that_threatens_no_evader_is_not_a_chasing_move() -> None:
    """A scout chases; it then recreates the position before the chase with a long move that
    threatens nobody: not a chasing move, so allowed."""
    state = position([*CORNERS, ("D7", RED, Rank.SCOUT), ("E8", BLUE, Rank.CAPTAIN)])
    before_threat = board(state)
    play(state, "D7-E7", "E8-F8", "E7-F7", "F8-E8", "F7-D7")
    assert board(state) == before_threat


def test_STR_REP_6_moving_the_chasing_piece_back_is_allowed() -> None:
    state = position([*CORNERS, ("D7", RED, Rank.MARSHAL), ("E8", BLUE, Rank.CAPTAIN)])
    play(state, "D7-E7")  # threat
    after_threat = board(state)
    play(state, "E8-F8", "E7-F7", "F8-E8")  # evasion, chasing move, evasion
    play(state, "F7-E7")  # back where the marshal came from: a repeated position, yet allowed
    assert board(state) == after_threat


def test_STR_REP_6_the_two_squares_rule_still_applies() -> None:
    pieces = [*CORNERS, ("F7", RED, Rank.MARSHAL), ("F9", BLUE, Rank.CAPTAIN)]
    moves = ["F7-E7", "F9-F8", "E7-F7", "F8-E8", "F7-E7", "E8-F8"]  # the marshal crosses E7|F7 three times
    state = position(pieces, two_squares=3)
    play(state, *moves)
    assert_refused(state, "E7-F7", "two-squares rule (STR-REP-1)")
    state = position(pieces, two_squares=5)
    play(state, *moves)
    before = board(state)
    play(state, "E7-F7")  # a repeat of the chase, allowed by STR-REP-6 under the default limit
    state.undo()
    assert board(state) == before


def test_STR_REP_7_a_non_evasion_ends_the_chase() -> None:
    state = position([*CORNERS, *CHASE])
    play(state, *ROUND[:7])  # ... F9-E9 threatens the captain on E8
    play(state, "K10-K9")  # blue does not evade: the chase is over
    play(state, "K1-K2", "K9-K10", "K2-K1", "E8-F8")  # back to the same pieces; the captain moves on
    play(state, "E9-E8", "F8-F9")  # a new chase: threat and evasion
    play(state, "E8-F8")  # recreates a position of the old chase, not of this one: allowed


def test_STR_REP_7_a_chaser_move_that_threatens_nobody_ends_the_chase() -> None:
    state = position([*CORNERS, *CHASE])
    play(state, *ROUND)
    assert move("E9-E8") not in state.legal_actions()
    play(state, "E9-D9", "K10-K9", "D9-E9", "K9-K10")  # the marshal threatens nothing: the chase is over
    play(state, "E9-E8", "F8-F9", "E8-F8")  # positions of the old chase, allowed in the new one


def test_STR_REP_7_attacks_end_every_chase_and_are_never_refused() -> None:
    state = position([*CORNERS, *CHASE, ("B7", RED, Rank.MINER), ("B8", BLUE, Rank.SCOUT)])
    play(state, *ROUND)
    assert move("E9-E8") not in state.legal_actions()
    play(state, "B7xB8", "K10-K9")  # an attack: the chase is over
    play(state, "E9-E8")  # the same squares again: the first threat of a new chase
    state.undo()
    state.undo()
    state.undo()
    assert move("E9-E8") not in state.legal_actions()  # undo brings the old chase back


# --- STR-REP-8: how the no-move ending counts the two-squares rule (the `repetition` option) ---------------

# Red's only movable piece stands on A1 and can only go to B1 and back (A2 bomb, C1 flag, B2 bomb or
# enemy); blue waits with a sergeant on K10. Red's third move in a row between A1 and B1 ends on B1.
CORRIDOR = [("A1", RED, Rank.SERGEANT), ("A2", RED, Rank.BOMB), ("C1", RED, Rank.FLAG), ("B2", RED, Rank.BOMB),
            ("C10", BLUE, Rank.FLAG), ("K10", BLUE, Rank.SERGEANT)]  # fmt: skip
THREE_IN_A_ROW = ["A1-B1", "K10-K9", "B1-A1", "K9-K8", "A1-B1"]


def corridor(*changes: tuple[str, int, Rank], drop: str = "", **options: Any) -> StrategoState:
    """CORRIDOR with pieces added or replaced by square (and the one on `drop` taken off)."""
    where = {s: (s, o, r) for s, o, r in CORRIDOR if s != drop}
    where |= {s: (s, o, r) for s, o, r in changes}
    return position(list(where.values()), **options)


def assert_no_move_loss(state: StrategoState, loser: int, *fragments: str) -> None:
    outcome = state.outcome()
    assert outcome is not None, "the game should be over"
    assert outcome.termination is Termination.NO_MOVES and outcome.winner == 1 - loser
    for fragment in fragments:
        assert fragment in outcome.reason, f"{fragment!r} not in {outcome.reason!r}"


def test_STR_REP_8_the_default_is_isf_the_end_counts_as_moves_do() -> None:
    assert StrategoGame().repetition == "isf" and StrategoGame().options["repetition"] == "isf"
    for options in ({}, {"repetition": "gravon-2004"}):
        state = corridor(**options)
        play(state, *THREE_IN_A_ROW)
        assert not state.is_terminal()
        play(state, "K8-K7", "B1-A1")  # a fourth move: within the limit of 5


def test_STR_REP_8_gravon_2013_the_end_counts_three_moves() -> None:
    """Gravon 2013-2014 (classicfree-2014.2-1181): after its third move between A1 and B1 red's only move is
    the fourth, which move validation (limit 5) allows; the no-move check counts three, and red loses at once."""
    state = corridor(repetition="gravon-2013")
    play(state, *THREE_IN_A_ROW[:4])
    assert not state.is_terminal()
    play(state, THREE_IN_A_ROW[4])
    assert_no_move_loss(state, RED, "red has no legal move left", "gravon-2013", "STR-REP-8")
    state.undo()  # the ending goes with the move
    assert not state.is_terminal() and move("A1-B1") in state.legal_actions()


def test_STR_REP_8_gravon_2013_moves_are_still_checked_at_two_squares() -> None:
    """With another movable piece red is not stuck: the fourth and fifth moves are legal, the sixth is not."""
    state = corridor(("K1", RED, Rank.SERGEANT), repetition="gravon-2013")
    play(state, *THREE_IN_A_ROW, "K8-K7", "B1-A1", "K7-K8", "A1-B1", "K8-K9")
    assert_refused(state, "B1-A1", "STR-REP-1", "more than 5 times")


def test_STR_REP_8_gravon_2013_attacks_of_the_piece_at_three_do_not_count() -> None:
    """classic-2014.10-2587: the piece's only other move is an attack; at the end of the game it counts as
    no move, and red loses. Under the isf reading (even at limit 3) the attack is a move and red plays on."""
    lieutenant = ("B2", BLUE, Rank.LIEUTENANT)
    state = corridor(lieutenant, repetition="gravon-2013")
    play(state, *THREE_IN_A_ROW)
    assert_no_move_loss(state, RED, "an attack of that piece")
    for limit in (3, 5):
        state = corridor(lieutenant, two_squares=limit)
        play(state, *THREE_IN_A_ROW)
        assert not state.is_terminal()
        play(state, "K8-K7", "B1xB2")


def test_STR_REP_8_gravon_2013_another_square_is_a_way_out() -> None:
    """classic-2014.10-2587, move 549: after three moves the piece may still go elsewhere; the game goes on."""
    state = corridor(("B2", BLUE, Rank.LIEUTENANT), ("K1", RED, Rank.FLAG), drop="C1", repetition="gravon-2013")
    play(state, *THREE_IN_A_ROW)
    assert not state.is_terminal()
    play(state, "K8-K7", "B1-C1")


def test_STR_REP_8_gravon_2013_other_pieces_attacks_count() -> None:
    """Only the attacks of the piece that made the series are left out: red's miner on E1 can still attack."""
    state = corridor(("B2", BLUE, Rank.LIEUTENANT), ("E1", RED, Rank.MINER), ("D1", RED, Rank.BOMB),
                     ("F1", RED, Rank.BOMB), ("E2", BLUE, Rank.SERGEANT), repetition="gravon-2013")  # fmt: skip
    play(state, *THREE_IN_A_ROW)
    assert not state.is_terminal()
    play(state, "K8-K7", "E1xE2")


def test_STR_REP_8_gravon_2013_the_side_to_move_is_checked_the_same_way() -> None:
    """Red still has a scout after its third move; blue takes it, and red, to move, has no move left."""
    state = corridor(("F4", RED, Rank.SCOUT), ("F5", BLUE, Rank.MARSHAL), repetition="gravon-2013")
    play(state, *THREE_IN_A_ROW)
    assert not state.is_terminal()
    play(state, "F5xF4")
    assert_no_move_loss(state, RED, "red has no legal move (", "gravon-2013")
    isf = corridor(("F4", RED, Rank.SCOUT), ("F5", BLUE, Rank.MARSHAL))
    play(isf, *THREE_IN_A_ROW, "F5xF4", "B1-A1")


def test_STR_REP_8_no_two_squares_rule_no_end_count() -> None:
    state = corridor(repetition="gravon-2013", two_squares=0)
    play(state, *THREE_IN_A_ROW, "K8-K7", "B1-A1", "K7-K8", "A1-B1", "K8-K9", "B1-A1")
    assert not state.is_terminal()


def test_STR_REP_8_the_option_is_written_and_read_back() -> None:
    state = corridor(repetition="gravon-2013")
    play(state, *THREE_IN_A_ROW[:4])
    data = state.to_json()
    assert isinstance(data["options"], dict) and data["options"]["repetition"] == "gravon-2013"
    again = StrategoState.from_json(data)
    play(again, THREE_IN_A_ROW[4])
    assert_no_move_loss(again, RED, "gravon-2013")
    with pytest.raises(InvalidArgumentError, match="option repetition must be 'isf', 'gravon-2004' or 'gravon-2013'"):
        StrategoGame(repetition="gravon-1999")  # type: ignore[arg-type]
