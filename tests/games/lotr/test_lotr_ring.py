"""One test per rule of docs/rules/lotr.md for Game 3 (Destroy the Ring), on small crafted positions.

Mount Doom is H5 (roster.toml); its two neighbours outside the zone are H4 and I5. Seats: 0 = Evil,
1 = Good; each position keeps a spare piece per side (A1 for Evil, K10 for Good).
"""

from __future__ import annotations

from typing import Any

import pytest
from lotr_helpers import act, can, play, pos, powers, snapshot

from fogofwar.core import IllegalActionError, Termination
from fogofwar.games.lotr import EVIL, GOOD
from fogofwar.games.lotr.roster import FLAG, FORTRESS, SPY
from fogofwar.games.lotr.rules import LotrState
from fogofwar.grid.board import parse_square

SPARE_GOOD = {"K10": (GOOD, "knight")}
SPARE_EVIL = {"A1": (EVIL, "orc")}


def g3(pieces: dict[str, tuple[Any, ...]], to_move: int = EVIL, **options: Any) -> LotrState:
    """A Game 3 position with both spares."""
    return pos({**SPARE_EVIL, **SPARE_GOOD, **pieces}, to_move=to_move, game="ring", **options)


def cell(state: LotrState, viewer: int, square: str) -> Any:
    return state.observation(viewer).data["board"][parse_square(square)]


def last(state: LotrState, viewer: int = EVIL) -> Any:
    return state.observation(viewer).data["last_move"]


def kind(state: LotrState, square: str) -> str | None:
    piece = state.piece_at(square)
    return None if piece is None else piece[1]


def test_LOTR_RING_1_game_3_is_game_2_with_frodos_mission_and_the_same_goal() -> None:
    state = g3({"E8": (GOOD, "gandalf"), "E7": (GOOD, "elf"), "E5": (EVIL, "flag")}, to_move=GOOD)
    assert powers(state, "fly") == {"fly E8-E6"}
    assert "bow E7>E5" in powers(state, "long_bow")
    for p in (EVIL, GOOD):
        assert state.observation(p).data["ring"] == {"status": "carried", "mount_doom": "H5"}
    play(state, "E7-E6", "A1-A2", "E6xE5")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.FLAG_CAPTURED and outcome.winner == GOOD


def test_LOTR_RING_2_frodo_moves_and_attacks_like_a_4() -> None:
    state = g3({"E8": (GOOD, "frodo"), "E7": (EVIL, "orc"), "B9": (EVIL, "warg_rider")}, to_move=GOOD)
    assert {a % 100 for a in state.legal_actions() if a // 100 == parse_square("E8")} == {
        parse_square(s) for s in ("E7", "E9", "D8", "F8")
    }
    play(state, "E8xE7")
    assert kind(state, "E7") == "frodo" and state.captured(EVIL) == ["orc"]
    play(state, "B9-B8", "E7-E8", "B8xE8")  # a Warg Rider's run into him fails
    assert kind(state, "E8") == "frodo" and state.captured(EVIL) == ["orc", "warg_rider"]


@pytest.mark.parametrize(
    ("moves", "evil", "frodo_at", "evil_lost", "evil_at"),
    [
        (["E6xE5"], "haradrim", "E6", [], "E5"),  # Frodo attacks a 6: both stay
        (["E6xE5"], "saruman", "E6", [], "E5"),  # a 9
        (["E6xE5"], "easterling", "E5", ["easterling"], None),  # a 4 falls, Frodo moves in
        (["E6xE5"], "fortress", "E6", [], "E5"),  # Fortresses cannot take him
        (["K10-K9", "E5xE6"], "uruk_hai", "E6", [], "E5"),  # a 7 attacks him: both stay
        (["K10-K9", "E5xE6"], "easterling", "E6", ["easterling"], None),  # a 4 attacks him and falls
        (["K10-K9", "E5xE6"], "berserker", "E6", [], "E5"),  # a 5
        (["K10-K9", "bow E5>E6"], "haradrim", "E6", [], "E5"),  # nor the Longbow
        (["K10-K9", "detect E5>E6"], "saruman", "E6", [], "E5"),  # nor Saruman's Detect Enemy
    ],
)
def test_LOTR_RING_3_invisibility_frodo_cannot_be_captured_by_4_5_6_7_9_fortresses_or_bows(
    moves: list[str], evil: str, frodo_at: str, evil_lost: list[str], evil_at: str | None
) -> None:
    state = g3({"E6": (GOOD, "frodo"), "E5": (EVIL, evil)}, to_move=GOOD)
    play(state, *moves)
    assert kind(state, frodo_at) == "frodo" and state.captured(GOOD) == []
    assert state.captured(EVIL) == evil_lost
    if evil_at is not None:
        assert kind(state, evil_at) == evil
    assert state.ring == "carried"


def test_LOTR_RING_3_rage_cannot_take_frodo_either() -> None:
    state = g3({"E2": (EVIL, "berserker"), "D4": (GOOD, "frodo"), "F4": (GOOD, "ranger")})
    play(state, "rage E2-E3")
    assert kind(state, "D4") == "frodo" and state.captured(GOOD) == ["ranger"]
    assert {h["square"]: h["result"] for h in last(state)["targets"]} == {"D4": "immune", "F4": "captured"}


@pytest.mark.parametrize(
    ("evil", "moves"),
    [("witch_king", ["K10-K9", "E5xE6"]), ("nazgul", ["K10-K9", "E5xE6"]), ("nazgul", ["E6xE5"])],
)
def test_LOTR_RING_4_only_the_witch_king_and_the_nazgul_capture_frodo(evil: str, moves: list[str]) -> None:
    state = g3({"E6": (GOOD, "frodo"), "E5": (EVIL, evil)}, to_move=GOOD)
    play(state, *moves)
    assert state.captured(GOOD) == ["frodo"] and state.ring == "taken"
    assert state.captured(EVIL) == []


def test_LOTR_RING_5_invisibility_reveals_frodo() -> None:
    state = g3({"E6": (GOOD, "frodo"), "E5": (EVIL, "haradrim")}, to_move=GOOD)
    play(state, "E6xE5")
    assert cell(state, EVIL, "E6")["kind"] == "frodo"
    move = last(state)
    assert (move["attacker"], move["defender"], move["result"]) == ("frodo", "haradrim", "both_stayed")
    shot = g3({"E6": (GOOD, "frodo"), "E4": (EVIL, "haradrim")})
    play(shot, "bow E4>E6")
    assert cell(shot, EVIL, "E6")["kind"] == "frodo"
    assert last(shot)["targets"] == [{"square": "E6", "defender": "frodo", "defender_rank": "4", "result": "immune"}]


def test_LOTR_RING_6_evil_takes_the_ring_and_every_numbered_piece_gains_a_rank() -> None:
    state = g3(
        {
            "E4": (EVIL, "witch_king"),
            "E5": (GOOD, "frodo"),
            "B4": (EVIL, "saruman"),
            "B5": (GOOD, "gandalf"),
            "F6": (GOOD, "eowyn"),
            "I1": (EVIL, "fortress"),
            "I2": (EVIL, "wormtongue"),
            "K1": (EVIL, "flag"),
            "I3": (EVIL, "nazgul"),
        }
    )
    play(state, "E4xE5")
    assert state.ring == "taken" and last(state)["ring"] == "taken"
    assert state.observation(GOOD).data["ring"]["status"] == "taken"
    own = state.observation(EVIL).data["board"]
    ranks = {s: own[parse_square(s)]["rank"] for s in ("E5", "B4", "I3", "A1", "I1", "I2", "K1")}
    assert ranks == {"E5": "11", "B4": "10", "I3": "9", "A1": "4", "I1": "fortress", "I2": "spy", "K1": "flag"}
    assert cell(state, GOOD, "E5")["rank"] == "11" and last(state, GOOD)["attacker_rank"] == "10"  # at the time
    assert [state.piece_at(s)[2] for s in ("I1", "I2", "K1")] == [FORTRESS, SPY, FLAG]  # type: ignore[index]
    play(state, "F6-F5", "B4xB5")  # Saruman, now a 10, against Gandalf: both fall
    assert "saruman" in state.captured(EVIL) and "gandalf" in state.captured(GOOD)
    play(state, "F5xE5")  # Eowyn still takes the Witch-king, an 11
    assert kind(state, "E5") == "eowyn" and "witch_king" in state.captured(EVIL)
    spy = g3({"E4": (EVIL, "witch_king"), "E5": (GOOD, "frodo"), "B4": (EVIL, "saruman"), "B5": (GOOD, "eowyn")})
    play(spy, "E4xE5", "B5xB4")  # but no longer Saruman
    assert kind(spy, "B4") == "saruman" and "eowyn" in spy.captured(GOOD)


def test_LOTR_RING_7_powers_and_special_rules_stay_stronger_the_game_goes_on() -> None:
    base = {"E4": (EVIL, "witch_king"), "E5": (GOOD, "frodo")}
    rage = g3({**base, "B2": (EVIL, "berserker"), "B4": (GOOD, "elf")})
    play(rage, "E4xE5", "K10-K9", "rage B2-B3")  # a 6 now: it takes the Elf (6)
    assert "elf" in rage.captured(GOOD) and not rage.is_terminal()
    warg = g3({**base, "A3": (EVIL, "warg_rider"), "A8": (GOOD, "soldier")})
    play(warg, "E4xE5", "K10-K9")
    assert can(warg, "A3", "A7")  # still runs
    play(warg, "A3xA8")  # a 3 now: against a Soldier (3) both fall
    assert "warg_rider" in warg.captured(EVIL) and "soldier" in warg.captured(GOOD)
    orc = g3({**base, "B3": (EVIL, "orc"), "B4": (GOOD, "fortress"), "C3": (GOOD, "merry")})
    play(orc, "E4xE5", "K10-K9", "B3xB4")  # a 4 now, still taking Fortresses
    assert kind(orc, "B4") == "orc"
    play(orc, "K9-K10", "B4-B3", "C3xB3")  # Merry (4) against an Orc (4): both fall
    assert "merry" in orc.captured(GOOD) and "orc" in orc.captured(EVIL)


def test_LOTR_DOOM_1_only_frodo_enters_mount_doom_and_nobody_attacks_him_there() -> None:
    sam = g3({"H4": (GOOD, "sam")}, to_move=GOOD)
    assert not can(sam, "H4", "H5")
    assert "only Frodo" in sam.explain_illegal(act("H4", "H5"))
    state = g3({"H4": (GOOD, "frodo"), "I4": (EVIL, "witch_king"), "H2": (EVIL, "warg_rider")}, to_move=GOOD)
    assert can(state, "H4", "H5")
    play(state, "H4-H5")
    assert not any(a < 10000 and a % 100 == parse_square("H5") for a in state.legal_actions())
    play(state, "I4-I5", "K10-K9")
    assert not can(state, "I5", "H5")
    assert "only Frodo" in state.explain_illegal(act("I5", "H5"))
    classic = pos({"H4": (GOOD, "frodo"), **SPARE_EVIL}, to_move=GOOD, game="powers")
    assert not can(classic, "H4", "H5")  # Games 1 and 2: just part of the zone


def test_LOTR_DOOM_2_frodo_enters_only_from_the_two_outside_neighbours() -> None:
    for square, ok in (("H4", True), ("I5", True), ("I6", False), ("G4", False)):
        state = g3({square: (GOOD, "frodo")}, to_move=GOOD)
        assert can(state, square, "H5") == ok, square
        if not ok:
            assert "only from H4 or I5" in state.explain_illegal(act(square, "H5"))


def test_LOTR_DOOM_1_evil_never_moves_frodo_onto_mount_doom() -> None:
    for square in ("H4", "I5"):
        state = g3({square: (GOOD, "frodo")}, to_move=EVIL)
        assert not can(state, square, "H5"), square


def test_LOTR_DOOM_3_the_ring_destroyed_evil_loses_ranks_4_to_8_and_its_fortresses() -> None:
    evil = {
        "A2": "witch_king", "B2": "saruman", "C2": "nazgul", "D2": "uruk_hai", "E2": "haradrim",
        "F2": "berserker", "G2": "easterling", "H2": "orc", "I2": "warg_rider", "K2": "wormtongue",
        "A3": "fortress", "B3": "flag",
    }  # fmt: skip
    state = g3({"I5": (GOOD, "frodo"), **{s: (EVIL, k) for s, k in evil.items()}}, to_move=GOOD)
    play(state, "I5-H5")
    assert state.ring == "destroyed" and not state.is_terminal() and state.current_player() == EVIL
    left = {s: k for s, k in evil.items() if kind(state, s) == k}
    assert set(left.values()) == {"witch_king", "saruman", "orc", "warg_rider", "wormtongue", "flag"}
    assert sorted(state.captured(EVIL)) == sorted(
        ["nazgul", "uruk_hai", "haradrim", "berserker", "easterling", "fortress"]
    )
    move = last(state)
    assert move["ring"] == "destroyed" and move["attacker"] == "frodo"
    assert sorted(move["removed"]) == ["A3", "C2", "D2", "E2", "F2", "G2"]
    assert cell(state, EVIL, "H5")["kind"] == "frodo"
    for p in (EVIL, GOOD):
        assert state.observation(p).data["ring"]["status"] == "destroyed"
    # With nothing left that moves, Evil has lost (LOTR-END-2).
    weak = pos({"I5": (GOOD, "frodo"), "A1": (EVIL, "nazgul"), "B1": (EVIL, "flag")}, to_move=GOOD, game="ring")
    play(weak, "I5-H5")
    outcome = weak.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_MOVES and outcome.winner == GOOD


def test_LOTR_DOOM_4_frodo_may_leave_next_turn_and_never_return() -> None:
    state = g3({"I5": (GOOD, "frodo"), "H3": (EVIL, "saruman"), "K4": (EVIL, "witch_king")}, to_move=GOOD)
    play(state, "I5-H5", "A1-A2")
    assert can(state, "H5", "H4") and can(state, "H5", "I5")
    play(state, "K10-K9", "H3-H4")  # he may stay; Saruman comes next to Mount Doom
    assert can(state, "H5", "H4")  # leaving by attacking
    play(state, "H5xH4")  # Invisibility outlasts the Ring: Saruman cannot take him, both stay
    assert kind(state, "H5") == "frodo" and kind(state, "H4") == "saruman"
    play(state, "K4-K5", "H5-I5", "K5-K6")
    assert not can(state, "I5", "H5")
    assert "only once" in state.explain_illegal(act("I5", "H5"))
    before = snapshot(state)
    with pytest.raises(IllegalActionError):
        state.apply(act("I5", "H5"))
    assert snapshot(state) == before
    # Captured after the Ring's destruction, Frodo gives Evil nothing.
    late = g3({"I5": (GOOD, "frodo"), "I3": (EVIL, "witch_king")}, to_move=GOOD)
    play(late, "I5-H5", "I3-I4", "H5-I5", "I4xI5")
    assert late.captured(GOOD) == ["frodo"] and late.ring == "destroyed"
    assert late.piece_at("I5")[2] == 10  # type: ignore[index]


def test_the_ring_is_undone_exactly() -> None:
    state = g3({"I5": (GOOD, "frodo"), "C2": (EVIL, "nazgul"), "A3": (EVIL, "fortress")}, to_move=GOOD)
    before = snapshot(state)
    play(state, "I5-H5")
    state.undo()
    assert snapshot(state) == before and state.ring == "carried"
    taken = g3({"E4": (EVIL, "witch_king"), "E5": (GOOD, "frodo")})
    before = snapshot(taken)
    play(taken, "E4xE5")
    taken.undo()
    assert snapshot(taken) == before and taken.ring == "carried"
