"""Step 2: the movement phase (ADM-MOVE-*, ADM-TERR-*, ADM-SUB-3/7, ADM-REP-1) and reserve entry (ADM-SETUP-5)."""

from __future__ import annotations

import pytest

from fogofwar.core import CHANCE, IllegalActionError
from fogofwar.games.admiral.actions import (
    COMMIT,
    PASS,
    RESERVE_BASE,
    RESERVE_DONE,
    SIDE_CHANGE_AFTER,
    SIDE_CHANGE_BEFORE,
)

from .helpers import (
    ADMIRAL,
    ART_AA,
    MOVE_DC,
    MOVEMENT,
    destinations,
    move,
    position,
    repair,
    sq,
)

FOG = {"D4": "fog_bank"}


def names(*squares: str) -> set[str]:
    return set(squares)


def test_players_alternate_one_move_at_a_time_from_the_first_player() -> None:  # ADM-MOVE-1
    state = position(
        {"Fletcher": "C1", "Jenkins": "E1"},
        {"Yukikaze": "C8", "Shigure": "E8"},
        dice=[["movement", "movement"], ["movement", "movement"]],
        first_player=1,
    )
    assert state.current_player() == 1
    state.apply(move(state, "Yukikaze", "C7"))
    assert state.current_player() == 0  # one move, then the other player's go
    state.apply(move(state, "Fletcher", "C2"))
    assert state.current_player() == 1
    assert state.string_to_action("move:Shigure>E6/movement") == move(state, "Shigure", "E6")
    assert state.action_to_string(move(state, "Shigure", "E6")) == "move:Shigure>E6/movement"


def test_moves_are_orthogonal_up_to_the_movement_value() -> None:  # ADM-MOVE-2
    state = position({"Fletcher": "D4", "Washington": "A1"}, {"Yukikaze": "H8"}, dice=[["movement"], []])
    assert destinations(state, "Fletcher") == names(
        "D5", "D6", "D3", "D2", "C4", "B4", "E4", "F4", "C5", "E5", "C3", "E3"
    )  # Movement 2: one or two orthogonal steps, never a diagonal step
    assert destinations(state, "Washington") == names("A2", "B1")  # Movement 1


def test_one_movement_result_per_unit_per_turn() -> None:  # ADM-MOVE-3
    state = position(
        {"Fletcher": {"square": "D4", "structure": 1}},
        {"Yukikaze": "H8"},
        dice=[["movement", "admiral", "artillery"], []],
    )
    state.apply(move(state, "Fletcher", "D5"))
    state.apply(PASS)
    assert state.current_player() == 0
    assert destinations(state, "Fletcher") == set()  # not even with the Admiral die
    assert repair(state, "Fletcher", ADMIRAL) not in state.legal_actions()  # a repair needs the Movement result
    with pytest.raises(IllegalActionError, match="already received its Movement result"):
        state.apply(move(state, "Fletcher", "D6", ADMIRAL))


def test_units_block_surface_moves_but_submerged_boats_do_not() -> None:  # ADM-MOVE-4
    state = position(
        {"Fletcher": "D4", "Jenkins": "D5", "Wahoo": {"square": "E4", "submerged": True}},
        {"Yukikaze": "C4"},
        dice=[["movement"], []],
    )
    dests = destinations(state, "Fletcher")
    assert "D5" not in dests and "D6" not in dests  # own unit: cannot enter nor pass
    assert "C4" not in dests and "B4" not in dests  # enemy unit: the same
    assert {"E4", "F4"} <= dests  # over the own submerged submarine, and past it
    enemy_sub = position({"Fletcher": "D4"}, {"I-19": {"square": "D5", "submerged": True}}, dice=[["movement"], []])
    assert {"D5", "D6"} <= destinations(enemy_sub, "Fletcher")  # an enemy boat below does not block either


def test_declining_forfeits_the_movement_results_but_not_the_admiral_dice() -> None:  # ADM-MOVE-5
    state = position(
        {"Fletcher": "C1", "Jenkins": "E1", "Radford": "G1"},
        {"Yukikaze": "C8"},
        dice=[["movement", "movement+depth_charge", "admiral"], ["movement"]],
    )
    state.apply(PASS)  # South declines on its first go
    assert state.observation(1).data["fleets"][0]["forfeited"] is True
    state.apply(move(state, "Yukikaze", "C7"))
    legal = state.legal_actions()
    assert move(state, "Fletcher", "C2", MOVEMENT) not in legal and move(state, "Fletcher", "C2", MOVE_DC) not in legal
    with pytest.raises(IllegalActionError, match=r"Movement results are lost.*\(ADM-MOVE-5\)"):
        state.apply(move(state, "Fletcher", "C2", MOVEMENT))
    state.apply(move(state, "Jenkins", "E3", ADMIRAL))  # an Admiral die still moves a unit later
    assert state.current_player() == 1
    state.apply(PASS)
    state.apply(PASS)  # both declined in succession: the phase ends
    assert state.phase == "attack"


def test_the_phase_ends_only_on_two_declines_in_succession() -> None:  # ADM-MOVE-5
    state = position({"Fletcher": "C1"}, {"Yukikaze": "C8"}, dice=[[], ["movement", "movement"]])
    state.apply(PASS)
    state.apply(move(state, "Yukikaze", "C7"))
    assert state.phase == "movement" and state.legal_actions() == [PASS]
    state.apply(PASS)
    assert state.phase == "movement" and state.current_player() == 1
    state.apply(PASS)
    assert state.phase == "attack"


def test_fog_banks_stop_a_move_and_let_a_unit_out_one_square_only() -> None:  # ADM-TERR-4, ADM-MOVE-6
    fogged = position({"Fletcher": "D3"}, {"Yukikaze": "H8"}, dice=[["movement"], []], layout=FOG)
    dests = destinations(fogged, "Fletcher")
    assert "D4" in dests and "D5" not in dests  # enters the fog and stops: it cannot cross it
    inside = position({"Fletcher": "D4"}, {"Yukikaze": "H8"}, dice=[["movement"], []], layout=FOG)
    assert destinations(inside, "Fletcher") == names("D5", "D3", "C4", "E4")  # out by 1 square only


def test_submerged_submarines_ignore_fog() -> None:  # ADM-TERR-5
    state = position(
        {"Wahoo": {"square": "D4", "submerged": True}, "Washington": "A1"},
        {"Yukikaze": "H8"},
        dice=[["movement"], []],
        layout={"D4": "fog_bank", "E5": "fog_bank"},
    )
    submerged_side = state.unit(0, "Wahoo").card.side(True)
    assert submerged_side.movement == 1
    dests = destinations(state, "Wahoo")
    assert "E5" in dests  # it enters fog freely (and diagonally, ADM-SUB-3)
    surfaced = position({"Wahoo": "D4"}, {"Yukikaze": "H8"}, dice=[["movement"], []], layout={"D4": "fog_bank"})
    assert destinations(surfaced, "Wahoo") == names("D5", "D3", "C4", "E4")  # a surfaced boat is held by fog


def test_islands_and_sandbanks_cannot_be_entered_or_crossed() -> None:  # ADM-TERR-2, ADM-TERR-6
    for terrain in ("island", "sandbank"):
        state = position(
            {"Fletcher": "D3", "Wahoo": {"square": "E3", "submerged": True}},
            {"Yukikaze": "H8"},
            dice=[["movement"], []],
            layout={"D4": terrain},
        )
        assert not {"D4", "D5"} & destinations(state, "Fletcher")
        assert "D4" not in destinations(state, "Wahoo")  # submerged boats neither


def test_shallows_let_only_destroyers_and_surfaced_submarines_through() -> None:  # ADM-TERR-3
    layout = {"D4": "shallows"}
    state = position(
        {"Fletcher": "D3", "Helena": "C3", "Wahoo": "E3"},
        {"Yukikaze": "H8"},
        dice=[["movement"], []],
        layout=layout,
    )
    assert {"D4", "D5"} <= destinations(state, "Fletcher")  # a destroyer crosses Shallows
    helena = position({"Helena": "D3"}, {"Yukikaze": "H8"}, dice=[["movement"], []], layout=layout)
    assert not {"D4", "D5"} & destinations(helena, "Helena")  # a cruiser does not
    sub = position({"Wahoo": "D3"}, {"Yukikaze": "H8"}, dice=[["movement"], []], layout=layout)
    assert "D4" in destinations(sub, "Wahoo")  # a surfaced submarine does
    assert "D4" not in destinations(sub, "Wahoo", mode=SIDE_CHANGE_AFTER)  # but cannot dive there
    below = position(
        {"Wahoo": {"square": "D3", "submerged": True}}, {"Yukikaze": "H8"}, dice=[["movement"], []], layout=layout
    )
    assert "D4" not in destinations(below, "Wahoo")  # nor enter it submerged


def test_submerged_submarines_move_diagonally_and_under_ships() -> None:  # ADM-SUB-3
    state = position(
        {"Wahoo": {"square": "D4", "submerged": True}, "Fletcher": "E5"},
        {"Yukikaze": "C5", "I-19": {"square": "C3", "submerged": True}},
        dice=[["movement"], []],
    )
    dests = destinations(state, "Wahoo")
    assert dests == names("D5", "D3", "C4", "E4", "E5", "C5", "E3")  # king steps; not onto the other boat (C3)
    state.apply(move(state, "Wahoo", "C5"))
    assert [u.card.name for u in state.units_at(sq("C5"))] == ["Wahoo", "Yukikaze"]


def test_a_submarine_dives_or_surfaces_as_part_of_its_move() -> None:  # ADM-SUB-7
    state = position({"Wahoo": "D2", "Fletcher": "D1"}, {"Yukikaze": "H8"}, dice=[["movement"], ["movement"]])
    before = destinations(state, "Wahoo", mode=SIDE_CHANGE_BEFORE)
    assert "D2" in before and "E3" in before and "D4" not in before  # dive first: submerged Movement 1, diagonal
    after = destinations(state, "Wahoo", mode=SIDE_CHANGE_AFTER)
    assert "D4" in after and "D1" not in after  # surfaced Movement 2 first, then dive (not under Fletcher: taken)
    action = move(state, "Wahoo", "D4", mode=SIDE_CHANGE_AFTER)
    assert state.action_to_string(action) == "move:Wahoo>D4:dive/movement"
    state.apply(action)
    assert state.unit(0, "Wahoo").submerged
    below = position(
        {"Wahoo": {"square": "D2", "submerged": True}, "Fletcher": "D3"},
        {"Yukikaze": "H8"},
        dice=[["movement"], []],
    )
    assert "D3" in destinations(below, "Wahoo")  # it may stop under Fletcher submerged...
    assert "D3" not in destinations(below, "Wahoo", mode=SIDE_CHANGE_AFTER)  # ...but not surface there
    assert destinations(below, "Wahoo", mode=SIDE_CHANGE_BEFORE) >= {"D2", "D1", "C2"}  # surface, then Movement 2
    with pytest.raises(IllegalActionError, match="not a submarine"):
        below.apply(move(below, "Fletcher", "D4", mode=SIDE_CHANGE_AFTER))


def test_a_repair_spends_movement_and_artillery_for_one_structure_point() -> None:  # ADM-REP-1
    state = position(
        {"Washington": {"square": "C1", "structure": 5}, "Fletcher": "E1"},
        {"Yukikaze": "H8"},
        dice=[["movement", "artillery+anti_aircraft", "movement", "artillery"], []],
    )
    assert repair(state, "Fletcher") not in state.legal_actions()  # undamaged
    state.apply(repair(state, "Washington", MOVEMENT, ART_AA))
    assert state.unit(0, "Washington").structure == 6
    assert state.current_player() == 1  # the repair took South's go
    state.apply(PASS)
    assert destinations(state, "Washington") == set()  # it used its Movement result (ADM-MOVE-3)
    assert state.action_to_string(repair(state, "Fletcher")) == "repair:Fletcher/movement,artillery"
    full = position(
        {"Washington": {"square": "C1", "structure": 7}}, {"Yukikaze": "H8"}, dice=[["movement", "artillery"], []]
    )
    assert full.legal_actions() == sorted([PASS, *(move(full, "Washington", s) for s in ("B1", "D1", "C2"))])


def test_reserve_units_enter_on_free_last_row_squares_at_a_turn_start() -> None:  # ADM-SETUP-5
    state = position(
        {"Fletcher": "C1", "Jenkins": {"where": "reserve"}, "Radford": {"where": "reserve"}},
        {"Yukikaze": "C8", "Shigure": "A1"},
        dice=[[], []],
    )
    state.apply(PASS)
    state.apply(PASS)
    state.apply(COMMIT)
    state.apply(COMMIT)
    assert state.phase == "reserve" and state.current_player() == 0 and state.turn == 3
    entries = [a for a in state.legal_actions() if a != RESERVE_DONE]
    assert {(a - RESERVE_BASE) % 64 for a in entries} == {sq(s) for s in ("B1", "D1", "E1", "F1", "G1", "H1")}
    state.apply(state.string_to_action("enter:Jenkins@D1"))
    assert state.phase == "reserve"  # Radford may follow, or not: entering is optional
    state.apply(RESERVE_DONE)
    assert state.phase == "initiative" and state.unit(0, "Radford").where == "reserve"
    assert state.pool_size(0) == 4  # Jenkins's two dice join the pool
    assert state.current_player() == CHANCE
