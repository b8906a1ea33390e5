"""One test per rule of docs/rules/lotr.md for Game 2 (Special Powers), on small crafted positions.

Seats: 0 = Evil (rows 1-4, moves first), 1 = Good (rows 7-10). Each position keeps a spare piece on the
side that is not under test (A1 for Evil, K10 for Good), so that nobody loses for want of a move.
"""

from __future__ import annotations

from typing import Any

import pytest
from lotr_helpers import act, can, play, pos, powers, snapshot

from fogofwar.core import GameError, IllegalActionError, NotationError, Termination
from fogofwar.games.lotr import EVIL, GOOD
from fogofwar.games.lotr.powers import (
    NUM_POWER_ACTIONS,
    POWER_BASE,
    STOP,
    decode,
    encode_axe,
    encode_fly,
    encode_rage,
    encode_ranged,
    encode_steed,
)
from fogofwar.games.lotr.rules import LotrState
from fogofwar.grid.board import parse_square

SPARE_GOOD = {"K10": (GOOD, "knight")}
SPARE_EVIL = {"A1": (EVIL, "orc")}


def g2(pieces: dict[str, tuple[Any, ...]], to_move: int = EVIL, **options: Any) -> LotrState:
    """A Game 2 position with both spares."""
    return pos({**SPARE_EVIL, **SPARE_GOOD, **pieces}, to_move=to_move, game="powers", **options)


def sq(name: str) -> int:
    return parse_square(name)


def cell(state: LotrState, viewer: int, square: str) -> Any:
    return state.observation(viewer).data["board"][sq(square)]


def last(state: LotrState, viewer: int = EVIL) -> Any:
    return state.observation(viewer).data["last_move"]


# --- LOTR-POW-* ------------------------------------------------------------------------------------


def test_LOTR_POW_1_game_2_adds_the_powers_game_1_ignores_them_frodo_is_a_plain_4() -> None:
    where = {"E8": (GOOD, "gandalf"), "E7": (GOOD, "knight")}
    classic = pos({**SPARE_EVIL, **where}, to_move=GOOD)
    assert all(a < POWER_BASE for a in classic.legal_actions())
    assert classic.game.num_distinct_actions() == POWER_BASE
    assert "not an action id" in classic.explain_illegal(encode_fly(sq("E8"), sq("E6")))
    game2 = g2(where, to_move=GOOD)
    assert game2.game.num_distinct_actions() == NUM_POWER_ACTIONS
    assert powers(game2, "fly") == {"fly E8-E6"}
    assert game2.observation(GOOD).data["ring"] is None
    # Frodo's Invisibility belongs to Game 3 only: here a Haradrim captures him like any 4.
    frodo = g2({"E4": (EVIL, "haradrim"), "E5": (GOOD, "frodo")})
    play(frodo, "E4xE5")
    assert frodo.captured(GOOD) == ["frodo"] and frodo.piece_at("E5")[1] == "haradrim"  # type: ignore[index]


def test_LOTR_POW_2_a_power_replaces_the_ordinary_move_for_the_whole_turn() -> None:
    state = g2({"E7": (GOOD, "legolas"), "E5": (EVIL, "haradrim")}, to_move=GOOD)
    assert can(state, "E7", "E6")  # an ordinary move stays available
    assert "bow E7>E5" in powers(state, "long_bow") and "detect E7>E5" in powers(state, "sense_enemy")
    play(state, "bow E7>E5")
    assert state.current_player() == EVIL and state.move_count == 1
    assert state.piece_at("E7")[:2] == (GOOD, "legolas")  # type: ignore[index]
    assert state.captured(EVIL) == ["haradrim"]


def test_LOTR_POW_3_using_a_power_reveals_the_piece() -> None:
    state = g2({"E8": (GOOD, "gandalf"), "E7": (EVIL, "haradrim"), "B8": (GOOD, "elf")}, to_move=GOOD)
    play(state, "B8-B7")
    assert cell(state, EVIL, "B7")["kind"] is None  # an ordinary move shows nothing
    play(state, "A1-A2", "fly E8-E6")
    seen = cell(state, EVIL, "E6")
    assert seen["kind"] == "gandalf" and seen["rank"] == "10" and seen["revealed"]
    assert last(state) == {
        "player": GOOD,
        "side": "good",
        "from": "E8",
        "to": "E6",
        "power": "fly",
        "attacker": "gandalf",
        "attacker_rank": "10",
    }


@pytest.mark.parametrize(
    ("target", "falls"),
    [("haradrim", True), ("saruman", False), ("witch_king", False), ("wormtongue", True), ("fortress", False)],
)
def test_LOTR_POW_4_a_ranged_attack_takes_lower_ranks_and_never_costs_the_attacker(target: str, falls: bool) -> None:
    state = g2({"E7": (GOOD, "aragorn"), "E5": (EVIL, target)}, to_move=GOOD)
    play(state, "detect E7>E5")
    assert cell(state, EVIL, "K10")["kind"] is None  # nothing else of Good's shows
    assert state.piece_at("E7") == (GOOD, "aragorn", 9, False, True)
    assert (state.piece_at("E5") is None) == falls
    hit = last(state, GOOD)["targets"][0]
    assert hit["square"] == "E5" and hit["defender"] == target
    assert hit["result"] == ("captured" if falls else "survived")
    if not falls:
        assert cell(state, GOOD, "E5")["kind"] == target  # shown to the detector (LOTR-CHOICE-DETECT-VIEW)
        assert cell(state, EVIL, "E5")["revealed"]
        play(state, "A1-A2", "K10-K9")
        assert cell(state, GOOD, "E5")["kind"] == target  # and it stays known
    assert cell(state, EVIL, "E7")["kind"] == "aragorn"  # the detector revealed itself (LOTR-POW-3)


# --- LOTR-FLY-* ------------------------------------------------------------------------------------


def test_LOTR_FLY_1_fly_jumps_a_row_of_pieces_or_zone_squares_to_the_first_free_square() -> None:
    state = g2(
        {"E8": (GOOD, "gandalf"), "E7": (GOOD, "elf"), "E6": (EVIL, "orc"), "F8": (EVIL, 5), "G8": (EVIL, 6)},
        to_move=GOOD,
    )
    assert powers(state, "fly") == {"fly E8-E5", "fly E8-H8"}  # a free neighbour (E9, D8) gives no Fly
    with pytest.raises(IllegalActionError, match="first free square: from E8 that is E5"):
        state.string_to_action("fly E8-E4")
    with pytest.raises(IllegalActionError, match="the square next to E8 is free"):
        state.apply(encode_fly(sq("E8"), sq("E10")))
    with pytest.raises(GameError):
        state.string_to_action("fly E8-E9")  # one square: not a Fly
    zone = g2({"C4": (EVIL, "witch_king"), "C7": (GOOD, "elf")})
    assert powers(zone, "fly") == {"fly C4-C8"}  # over the zone C5-C6 and the Elf on C7
    edge = g2({"A2": (GOOD, "gandalf"), "A1": (EVIL, "flag"), "B1": (EVIL, "orc")}, to_move=GOOD)
    assert powers(edge, "fly") == set()  # down: the Flag, then the edge before any free square


def test_LOTR_FLY_2_fly_passes_over_friends_and_foes_alike() -> None:
    state = g2({"E8": (GOOD, "gandalf"), "E7": (GOOD, "elf"), "E6": (EVIL, "orc")}, to_move=GOOD)
    play(state, "fly E8-E5")
    assert state.piece_at("E7")[1] == "elf" and state.piece_at("E6")[1] == "orc"  # type: ignore[index]
    assert state.captured(EVIL) == state.captured(GOOD) == []
    assert state.piece_at("E5")[:2] == (GOOD, "gandalf")  # type: ignore[index]


def test_LOTR_FLY_3_fly_never_attacks() -> None:
    state = g2({"E2": (GOOD, "gandalf"), "E1": (EVIL, "flag"), "F2": (EVIL, 5), "G2": (EVIL, 6)}, to_move=GOOD)
    flights = powers(state, "fly")
    assert flights == {"fly E2-H2"}  # down: the Flag, then the edge: no Fly onto it
    for a in state.legal_actions():
        pa = decode(a)
        if pa is not None and pa.power == "fly":
            assert state.piece_at(pa.dst) is None
    play(state, "fly E2-H2")
    assert state.captured(EVIL) == [] and not state.is_terminal()


# --- LOTR-DETECT-* ---------------------------------------------------------------------------------


def test_LOTR_DETECT_1_detect_enemy_reaches_the_5x5_block_whatever_stands_between() -> None:
    enemies = {s: (GOOD, "ranger") for s in ("F5", "E5", "D4", "C1", "G1", "H3", "E6")}
    state = g2({"E3": (EVIL, "saruman"), "E4": (EVIL, "orc"), **enemies})
    assert powers(state, "sense_enemy") == {f"detect E3>{t}" for t in ("F5", "E5", "D4", "C1", "G1")}
    assert state.string_to_action("detect F5") == state.string_to_action("detect E3>F5")
    assert state.string_to_action("DETECT e3>f5") == encode_ranged("sense_enemy", sq("E3"), sq("F5"))
    # Legolas holds two powers and may use either.
    legolas = g2({"E9": (GOOD, "legolas"), "E7": (EVIL, 6)}, to_move=GOOD)
    assert powers(legolas, "sense_enemy") == {"detect E9>E7"} and powers(legolas, "long_bow") == {"bow E9>E7"}


def test_LOTR_DETECT_2_detect_enemy_has_no_immunity_the_flag_falls_to_it() -> None:
    flag = g2({"E7": (GOOD, "aragorn"), "F9": (EVIL, "flag")}, to_move=GOOD)
    play(flag, "detect F9")
    outcome = flag.outcome()
    assert outcome is not None and outcome.termination is Termination.FLAG_CAPTURED and outcome.winner == GOOD
    berserker = g2({"E7": (GOOD, "aragorn"), "E5": (EVIL, "berserker")}, to_move=GOOD)
    play(berserker, "detect E5")
    assert berserker.captured(EVIL) == ["berserker"]


def test_LOTR_DETECT_2_with_detect_flag_shown_the_struck_flag_is_only_shown() -> None:
    """`detect_flag="shown"`: the struck Flag is shown to the detector and nothing else happens, the game goes on;
    the Longbow and the other powers are as in the default reading."""
    flag = g2({"E7": (GOOD, "aragorn"), "F9": (EVIL, "flag")}, to_move=GOOD, detect_flag="shown")
    assert flag.game.options["detect_flag"] == "shown"
    play(flag, "detect F9")
    assert flag.outcome() is None and flag.piece_at("F9")[1] == "flag"  # type: ignore[index]
    assert last(flag, GOOD)["targets"][0]["result"] == "immune" and cell(flag, GOOD, "F9")["kind"] == "flag"
    assert flag.current_player() == EVIL
    orc = g2({"E7": (GOOD, "aragorn"), "E5": (EVIL, "orc")}, to_move=GOOD, detect_flag="shown")
    play(orc, "detect E5")
    assert orc.captured(EVIL) == ["orc"]
    with pytest.raises(GameError, match="detect_flag"):
        g2({"E7": (GOOD, "aragorn")}, to_move=GOOD, detect_flag="immune")


# --- LOTR-BOW-* ------------------------------------------------------------------------------------


def test_LOTR_BOW_1_the_longbow_reaches_two_squares_along_the_eight_lines() -> None:
    enemies = {"E7": (EVIL, "haradrim"), "G7": (EVIL, "orc"), "F7": (EVIL, "orc"), "C9": (EVIL, "orc")}
    state = g2({"E9": (GOOD, "elf"), **enemies}, to_move=GOOD)
    assert powers(state, "long_bow") == {"bow E9>E7", "bow E9>G7", "bow E9>C9"}  # F7 is a mixed step
    assert "detect E9>F7" not in powers(state, "sense_enemy")  # and an Elf has no Detect Enemy
    play(state, "bow E9>E7")  # 6 against 6: the Haradrim survives, both stay
    assert state.piece_at("E7")[1] == "haradrim" and state.piece_at("E9")[1] == "elf"  # type: ignore[index]
    assert last(state)["targets"][0]["result"] == "survived"
    assert cell(state, GOOD, "E7")["kind"] == "haradrim"


def test_LOTR_BOW_2_the_longbow_shoots_over_pieces_and_forbidden_zones() -> None:
    zone = g2({"C4": (EVIL, "haradrim"), "E6": (GOOD, "knight")})
    assert powers(zone, "long_bow") == {"bow C4>E6"}  # over the zone square D5
    play(zone, "bow C4>E6")
    assert zone.captured(GOOD) == ["knight"]
    over = g2({"E3": (EVIL, "haradrim"), "E4": (EVIL, "orc"), "E5": (GOOD, "ranger")})
    play(over, "bow E3>E5")
    assert over.captured(GOOD) == ["ranger"]


@pytest.mark.parametrize("target", ["fortress", "flag", "berserker"])
def test_LOTR_BOW_3_fortresses_flags_and_berserkers_are_immune(target: str) -> None:
    state = g2({"E9": (GOOD, "faramir"), "E7": (EVIL, target)}, to_move=GOOD)
    play(state, "bow E9>E7")
    assert state.piece_at("E7")[1] == target and state.captured(EVIL) == []  # type: ignore[index]
    assert last(state)["targets"][0]["result"] == "immune" and not state.is_terminal()
    assert cell(state, GOOD, "E7")["kind"] == target


# --- LOTR-AXE-* ------------------------------------------------------------------------------------


def test_LOTR_AXE_1_gimli_steps_then_strikes_one_to_three_neighbours_diagonals_included() -> None:
    state = g2({"E8": (GOOD, "gimli"), "E6": (EVIL, 6), "F6": (EVIL, 4), "D8": (EVIL, 3)}, to_move=GOOD)
    from_e7 = {s for s in powers(state, "dwarf_axe") if s.startswith("axe E8-E7>")}
    assert len(from_e7) == 7  # three enemies around E7: 3 + 3 + 1 choices
    assert "axe E8-E7>E6,F6,D8" in from_e7
    assert state.string_to_action("axe E8-E7>D8,E6,F6") == state.string_to_action("axe E8-E7>E6,F6,D8")
    assert not any(s.startswith("axe E8-D8") for s in powers(state, "dwarf_axe"))  # the step needs a free square
    with pytest.raises(NotationError):
        state.string_to_action("axe E8-E7")  # which pieces?
    with pytest.raises(NotationError):
        state.string_to_action("axe E8-E7>E6,F6,D8,D7")
    play(state, "axe E8-E7>E6,F6,D8")
    assert cell(state, EVIL, "E7")["kind"] == "gimli"


@pytest.mark.parametrize(
    ("targets", "evil_lost", "gimli_falls", "results"),
    [
        ({"E6": "haradrim", "F6": "easterling"}, ["haradrim", "easterling"], False, ["captured", "captured"]),
        ({"E6": "haradrim", "F6": "nazgul"}, ["haradrim", "nazgul"], True, ["captured", "both_lost"]),
        ({"E6": "fortress"}, [], True, ["survived"]),
        ({"E6": "saruman", "F6": "wormtongue"}, ["wormtongue"], True, ["survived", "captured"]),
    ],
)
def test_LOTR_AXE_2_each_blow_is_settled_equal_ranks_and_higher_ones_cost_gimli(
    targets: dict[str, str], evil_lost: list[str], gimli_falls: bool, results: list[str]
) -> None:
    state = g2({"E8": (GOOD, "gimli"), **{s: (EVIL, k) for s, k in targets.items()}}, to_move=GOOD)
    play(state, f"axe E8-E7>{','.join(targets)}")
    assert state.captured(EVIL) == evil_lost
    assert (state.captured(GOOD) == ["gimli"]) == gimli_falls
    assert (state.piece_at("E7") is None) == gimli_falls
    move = last(state)
    assert [h["result"] for h in move["targets"]] == results and move["attacker_survived"] == (not gimli_falls)
    for s, k in targets.items():
        if k not in evil_lost:
            assert cell(state, GOOD, s)["kind"] == k


def test_LOTR_AXE_3_flags_are_immune_to_the_axe() -> None:
    state = g2({"E8": (GOOD, "gimli"), "E6": (EVIL, "flag"), "F6": (EVIL, "haradrim")}, to_move=GOOD)
    play(state, "axe E8-E7>E6,F6")
    assert not state.is_terminal() and state.piece_at("E6")[1] == "flag"  # type: ignore[index]
    assert state.captured(EVIL) == ["haradrim"] and state.piece_at("E7")[1] == "gimli"  # type: ignore[index]
    assert [h["result"] for h in last(state)["targets"]] == ["immune", "captured"]


# --- LOTR-STEED-* ----------------------------------------------------------------------------------


def test_LOTR_STEED_1_theoden_takes_two_steps_in_any_mix_never_over_pieces_or_into_zones() -> None:
    state = g2({"E7": (GOOD, "theoden"), "E8": (GOOD, "knight")}, to_move=GOOD)
    dests = {s.split("-")[1] for s in powers(state, "swift_steed")}
    assert dests == {"E5", "C7", "G7", "D8", "F8", "F6"}  # E9 is behind the Knight, D6 is a zone
    play(state, "steed E7-F6")
    assert cell(state, EVIL, "F6")["kind"] == "theoden"
    assert last(state)["power"] == "swift_steed"
    with pytest.raises(GameError):
        state.string_to_action("steed F6-F9")  # three squares


def test_LOTR_STEED_2_an_enemy_on_the_first_square_is_an_ordinary_attack() -> None:
    state = g2({"E7": (GOOD, "theoden"), "E6": (EVIL, "haradrim"), "F7": (GOOD, "knight")}, to_move=GOOD)
    assert encode_steed(sq("E7"), sq("E5")) not in state.legal_actions()  # no jumping over the enemy
    assert "blocked" in state.explain_illegal(encode_steed(sq("E7"), sq("E5")))
    assert can(state, "E7", "E6")
    play(state, "E7xE6")
    assert state.piece_at("E6")[1] == "theoden"  # type: ignore[index]


def test_LOTR_STEED_3_theoden_may_end_on_an_enemy_and_attack_it() -> None:
    state = g2({"E7": (GOOD, "theoden"), "E5": (EVIL, "haradrim")}, to_move=GOOD)
    assert "steed E7xE5" in powers(state, "swift_steed")
    play(state, "steed E7xE5")
    assert state.piece_at("E5")[:2] == (GOOD, "theoden") and state.captured(EVIL) == ["haradrim"]  # type: ignore[index]
    move = last(state)
    assert (move["power"], move["defender"], move["result"]) == ("swift_steed", "haradrim", "attacker_won")


# --- LOTR-REPEAT-* ---------------------------------------------------------------------------------


def test_LOTR_REPEAT_1_an_uruk_hai_that_wins_may_attack_again_in_the_same_turn() -> None:
    state = g2({"E4": (EVIL, "uruk_hai"), "E5": (GOOD, "elf"), "E6": (GOOD, "ranger"), "F5": (GOOD, "ranger")})
    play(state, "E4xE5")
    assert state.current_player() == EVIL and state.pending == sq("E5")
    assert set(state.legal_actions()) == {act("E5", "E6"), act("E5", "F5"), STOP}
    for p in (EVIL, GOOD):
        assert state.observation(p).data["pending"]["square"] == "E5"
    assert "attacks again from E5" in state.explain_illegal(act("A1", "A2"))
    play(state, "E5xF5")  # wins again; nothing next to F5: the turn ends
    assert state.current_player() == GOOD and state.pending == -1 and state.move_count == 1
    assert state.captured(GOOD) == ["elf", "ranger"]
    assert last(state)["power"] == "repeat_attack"
    assert state.observation(GOOD).data["pending"] is None
    # Other pieces, and Game 1, never repeat.
    other = g2({"E4": (EVIL, "haradrim"), "E5": (GOOD, "ranger"), "E6": (GOOD, "ranger")})
    play(other, "E4xE5")
    assert other.current_player() == GOOD
    classic = pos({"E4": (EVIL, "uruk_hai"), "E5": (GOOD, "elf"), "E6": (GOOD, "ranger"), **SPARE_GOOD})
    play(classic, "E4xE5")
    assert classic.current_player() == GOOD


def test_LOTR_REPEAT_2_it_goes_on_until_captured_or_stopped() -> None:
    state = g2({"E4": (EVIL, "uruk_hai"), "E5": (GOOD, "knight"), "E6": (GOOD, "aragorn")})
    play(state, "E4xE5", "E5xE6")
    assert state.captured(EVIL) == ["uruk_hai"] and state.current_player() == GOOD
    stop = g2({"E4": (EVIL, "uruk_hai"), "E5": (GOOD, "knight"), "E6": (GOOD, "aragorn")})
    play(stop, "E4xE5", "stop")
    assert stop.current_player() == GOOD and stop.piece_at("E5")[1] == "uruk_hai"  # type: ignore[index]
    assert last(stop) == {"player": EVIL, "side": "evil", "from": "E5", "power": "repeat_attack", "stop": True}
    assert "no Repeat Attack" in stop.explain_illegal(STOP)
    flag = g2({"E4": (EVIL, "uruk_hai"), "E5": (GOOD, "knight"), "F5": (GOOD, "flag")})
    play(flag, "E4xE5", "E5xF5")
    outcome = flag.outcome()
    assert outcome is not None and outcome.winner == EVIL and flag.legal_actions() == []


# --- LOTR-RAGE-* -----------------------------------------------------------------------------------


def test_LOTR_RAGE_1_a_berserker_steps_then_attacks_every_enemy_around_it() -> None:
    state = g2({"E2": (EVIL, "berserker"), "D4": (GOOD, "ranger"), "F3": (GOOD, "elf")})
    assert powers(state, "rage") == {"rage E2-E3", "rage E2-F2"}  # no enemy around D2 or E1
    play(state, "rage E2-E3")
    move = last(state)
    assert sorted((h["square"], h["result"]) for h in move["targets"]) == [("D4", "captured"), ("F3", "survived")]
    assert state.captured(GOOD) == ["ranger"]


def test_LOTR_RAGE_2_equal_or_lower_ranks_fortresses_and_spies_fall_higher_ranks_survive() -> None:
    good = {"D4": "ranger", "E4": "fortress", "F4": "elf", "D3": "eowyn", "F3": "merry"}
    state = g2({"E2": (EVIL, "berserker"), **{s: (GOOD, k) for s, k in good.items()}})
    play(state, "rage E2-E3")
    assert sorted(state.captured(GOOD)) == sorted(["ranger", "fortress", "eowyn", "merry"])
    assert state.piece_at("F4")[1] == "elf" and cell(state, EVIL, "F4")["kind"] == "elf"  # type: ignore[index]


def test_LOTR_RAGE_3_flags_are_immune_to_rage() -> None:
    state = g2({"E2": (EVIL, "berserker"), "E4": (GOOD, "flag"), "F4": (GOOD, "knight")})
    play(state, "rage E2-E3")
    assert not state.is_terminal() and state.piece_at("E4")[1] == "flag"  # type: ignore[index]
    assert cell(state, EVIL, "E4")["kind"] == "flag" and state.captured(GOOD) == ["knight"]


def test_LOTR_RAGE_4_the_berserker_is_always_removed_after_its_rage() -> None:
    state = g2({"E2": (EVIL, "berserker"), "E4": (GOOD, "knight")})
    play(state, "rage E2-E3")
    assert state.piece_at("E3") is None and state.piece_at("E2") is None
    assert state.captured(EVIL) == ["berserker"] and last(state)["attacker_survived"] is False


# --- refusals, notation, undo ----------------------------------------------------------------------


def test_illegal_power_uses_are_refused_and_change_nothing() -> None:
    state = g2(
        {"E8": (GOOD, "gandalf"), "E7": (GOOD, "elf"), "E5": (EVIL, "haradrim"), "E2": (EVIL, "berserker")},
        to_move=GOOD,
    )
    before = snapshot(state)
    bad = [
        encode_fly(sq("E8"), sq("E5")),  # E6 is free: a Fly over the Elf ends there
        encode_fly(sq("A1"), sq("A3")),  # not Good's piece
        encode_ranged("long_bow", sq("E7"), sq("F8")),  # no enemy there
        encode_ranged("sense_enemy", sq("E7"), sq("E5")),  # an Elf has no Detect Enemy
        encode_rage(sq("E2"), sq("E3")),  # Evil's piece, Good to move
        encode_axe(sq("E8"), sq("D8"), (sq("E7"),)),  # Gandalf has no Axe
        encode_steed(sq("E8"), sq("E6")),
        STOP,
        NUM_POWER_ACTIONS,
        POWER_BASE + 8,  # a Fly from A1 off the board
    ]
    for action in bad:
        assert state.explain_illegal(action)
        with pytest.raises(IllegalActionError):
            state.apply(action)
        assert snapshot(state) == before, action
    for text in ("fly E8-E4", "bow E7>F8", "detect E5", "rage E2-E3", "axe E8-E9>E10", "stop"):
        with pytest.raises(GameError):
            state.apply(state.string_to_action(text))
        assert snapshot(state) == before, text


def test_power_notation_reads_back_and_short_forms_must_be_unambiguous() -> None:
    state = g2(
        {
            "E8": (GOOD, "aragorn"),
            "D8": (GOOD, "legolas"),
            "E6": (EVIL, "haradrim"),
            "C8": (GOOD, "gimli"),
            "F8": (GOOD, "theoden"),
            "B8": (GOOD, "gandalf"),
            "B7": (EVIL, "orc"),
            "C7": (EVIL, "berserker"),
        },
        to_move=GOOD,
    )
    for a in state.legal_actions():
        assert state.string_to_action(state.action_to_string(a)) == a
    with pytest.raises(IllegalActionError, match="more than one piece"):
        state.string_to_action("detect E6")
    with pytest.raises(IllegalActionError, match="no piece"):
        state.string_to_action("bow A1")
    assert state.string_to_action("detect E8>E6") != state.string_to_action("detect D8>E6")
    with pytest.raises(NotationError):
        state.string_to_action("fly")
    assert state.action_to_string(POWER_BASE + 8).startswith("power#")


def test_a_power_is_undone_exactly() -> None:
    state = g2(
        {"E8": (GOOD, "gimli"), "E6": (EVIL, "haradrim"), "F6": (EVIL, "nazgul"), "E2": (EVIL, "berserker")},
        to_move=GOOD,
    )
    for text in ("axe E8-E7>E6,F6", "E8-E9"):
        before = snapshot(state)
        state.apply(state.string_to_action(text))
        state.undo()
        assert snapshot(state) == before
    uruk = g2({"E4": (EVIL, "uruk_hai"), "E5": (GOOD, "knight"), "E6": (GOOD, "aragorn")})
    start = snapshot(uruk)
    play(uruk, "E4xE5")
    mid = snapshot(uruk)
    play(uruk, "E5xE6")
    uruk.undo()
    assert snapshot(uruk) == mid
    uruk.undo()
    assert snapshot(uruk) == start


def test_the_back_and_forth_rule_counts_power_moves() -> None:
    """LOTR-CHOICE-STREAK-POWERS: a Fly is a move between its two squares (LOTR-MOVE-5)."""
    state = g2({"E8": (GOOD, "gandalf"), "E7": (GOOD, "elf"), "E6": (EVIL, "orc")}, to_move=GOOD)
    play(state, "fly E8-E5", "A1-A2", "fly E5-E8", "A2-A3")
    assert "fly E8-E5" not in powers(state, "fly")
    assert "LOTR-MOVE-5" in state.explain_illegal(encode_fly(sq("E8"), sq("E5")))
    play(state, "K10-K9", "A3-A4", "fly E8-E5")  # another piece's move ended the streak
