"""Step 3: the attack assignment and its resolution (ADM-ATK, ADM-ART, ADM-TORP, ADM-DC, ADM-SUB-4..8, ADM-RES,
ADM-CRIT, ADM-END, ADM-TURN-2), each on a crafted position."""

from __future__ import annotations

from typing import Any

import pytest

from fogofwar.core import IllegalActionError, Termination
from fogofwar.games.admiral.actions import COMMIT, CRITICAL_BASE, PASS
from fogofwar.games.admiral.rules import AdmiralState

from .helpers import (
    ADMIRAL,
    ARTILLERY,
    MOVE_DC,
    TORPEDO,
    activate,
    depth_charge,
    fire,
    move,
    position,
    targets,
    torpedo,
)

FAR_SOUTH = {"Washington": "H1"}
FAR_NORTH = {"Yamato": "H8"}


def attack(south: dict[str, Any], north: dict[str, Any], dice: Any, **kw: Any) -> AdmiralState:
    return position(south, north, dice=dice, phase="attack", **kw)


def commit_both(state: AdmiralState, choose: int | None = None) -> None:
    """Commit whoever has not yet; then place any critical marker on `choose` (or the first option)."""
    while state.phase == "attack" and not state.is_terminal():
        state.apply(COMMIT)
    while state.phase == "criticals" and not state.is_terminal():
        legal = state.legal_actions()
        state.apply(CRITICAL_BASE + choose if choose is not None and CRITICAL_BASE + choose in legal else legal[0])


def structure(state: AdmiralState, player: int, name: str) -> int:
    return state.unit(player, name).structure


def marks(state: AdmiralState, player: int, name: str) -> list[str]:
    return [ch for ch, _ in state.unit(player, name).criticals]


# --- the secret assignment -------------------------------------------------------------------------------


def test_assignments_are_secret_until_both_have_committed() -> None:  # ADM-ATK-1, ADM-ATK-2
    south = {"Fletcher": "C5", "Jenkins": "A1"}
    north = {"Yukikaze": "D6", "Kirishima": "H8"}
    dice = [["artillery", "admiral"], ["artillery", "admiral"]]
    state = attack(south, north, dice)
    north_before = [a for a in attack(south, north, dice, player=1).legal_actions()]
    state.apply(fire(state, "Fletcher", "Yukikaze"))
    state.apply(activate(state, "Kirishima", "no_radar", enemy=True))  # a red feature, paid in secret
    state.apply(COMMIT)
    assert state.current_player() == 1
    view = state.observation(1).data
    assert view["fleets"][0]["orders"] is None
    assert [d["used"] for d in view["fleets"][0]["dice"]] == [None, None]  # the dice South spent look unused
    assert view["features"] == []  # the secret No Radar does not show either
    assert state.legal_actions() == north_before  # what South chose changes nothing North may do
    state.apply(fire(state, "Yukikaze", "Fletcher"))
    assert state.observation(0).data["fleets"][1]["orders"] is None  # North's choice is hidden from South too
    assert state.observation(0).data["fleets"][1]["dice"][0]["used"] is None
    state.apply(COMMIT)
    view = state.observation(1).data  # both committed: revealed
    assert view["fleets"][0]["orders"] == ["Fletcher.main > Yukikaze (artillery)", "Kirishima: No Radar (admiral)"]
    assert any("No Radar" in line for line in view["report"])


def test_a_unit_due_to_sink_still_fires() -> None:  # ADM-ATK-3, ADM-RES-1, ADM-RES-2
    south = {"Fletcher": {"square": "C5", "structure": 1}, **FAR_SOUTH}
    north = {"Yukikaze": {"square": "D6", "structure": 1}, **FAR_NORTH}
    state = attack(south, north, [["artillery", "artillery"], ["artillery", "artillery"]])
    for _ in range(2):
        state.apply(fire(state, "Fletcher", "Yukikaze"))  # two dice: coefficient 4 against armour 2
    state.apply(COMMIT)
    for _ in range(2):
        state.apply(fire(state, "Yukikaze", "Fletcher"))
    commit_both(state)
    assert state.unit(0, "Fletcher").where == "sunk" and state.unit(1, "Yukikaze").where == "sunk"
    assert any("Fletcher sinks" in r for r in state.observation(0).data["report"])
    assert state.pool_size(0) == 2  # its dice leave the pool from the next turn


# --- artillery ---------------------------------------------------------------------------------------------


def test_range_does_not_count_the_firer_square() -> None:  # ADM-ART-1, ADM-ART-2
    state = attack({"Fletcher": "C3"}, {"Yukikaze": "E5", "Shigure": "C6", "Jintsu": "B3"}, [["artillery"], []])
    assert targets(state, "Fletcher") == {"Yukikaze", "Jintsu"}  # range 2: E5 (diagonal steps count 1), not C6


def test_line_of_sight_is_blocked_by_terrain_smoke_and_large_enough_units() -> None:  # ADM-ART-3
    south = {"Washington": "A3", "Fletcher": "E1"}
    state = attack(south, {"Kirishima": "D3", "Yukikaze": "C4"}, [["artillery"], []], layout={"B3": "island"})
    assert "Kirishima" not in targets(state, "Washington")  # the island lies across the line
    fog = attack(south, {"Kirishima": "D3"}, [["artillery"], []], layout={"B3": "fog_bank"})
    assert targets(fog, "Washington") == set()
    for layout in ({"B3": "shallows"}, {"B3": "sandbank"}):  # under the surface / flat: they do not hide
        assert targets(attack(south, {"Kirishima": "D3"}, [["artillery"], []], layout=layout), "Washington") == {
            "Kirishima"
        }
    smoke = attack(south, {"Kirishima": "D3"}, [["artillery"], []], smoke=["C3"])
    assert targets(smoke, "Washington") == set()
    screen = attack({"Washington": "A3", "Fletcher": "B3"}, {"Kirishima": "D3"}, [["artillery"], []])
    assert targets(screen, "Washington") == {"Kirishima"}  # a destroyer (size 2) cannot hide a battleship (6)
    hide = attack({"Washington": "A3"}, {"Yukikaze": "D3", "Shigure": "B3"}, [["artillery"], []])
    assert targets(hide, "Washington") == {"Shigure"}  # Shigure (size 2) hides Yukikaze (size 2): equal hides
    diagonal = attack({"Washington": "A1", "Fletcher": "A2"}, {"Yukikaze": "C3"}, [["artillery"], []])
    assert targets(diagonal, "Washington") == {"Yukikaze"}  # A2 and B1 are only touched at a corner
    blocked = attack({"Washington": "A1", "Fletcher": "B2"}, {"Yukikaze": "C3"}, [["artillery"], []])
    assert targets(blocked, "Washington") == set()  # B2 is crossed through its middle


def test_size_class_by_structure_left_is_the_other_reading() -> None:  # ADM-UNIT-4, ADM-ART-3
    """Chokai (printed structure 4) hit down to 2 behind Shigure (2): by default its size stays 4 and Shigure
    cannot hide it; with `size_class="current"` it is a size 2 now, which Shigure hides; and a damaged
    Shigure (1 left) then no longer hides Yukikaze (2)."""
    north = {"Chokai": {"square": "D3", "structure": 2}, "Shigure": "B3"}
    assert targets(attack({"Washington": "A3"}, north, [["artillery"], []]), "Washington") == {"Chokai", "Shigure"}
    now = attack({"Washington": "A3"}, north, [["artillery"], []], readings={"size_class": "current"})
    assert targets(now, "Washington") == {"Shigure"}
    shield = {"Yukikaze": "D3", "Shigure": {"square": "B3", "structure": 1}}
    assert targets(attack({"Washington": "A3"}, shield, [["artillery"], []]), "Washington") == {"Shigure"}
    worn = attack({"Washington": "A3"}, shield, [["artillery"], []], readings={"size_class": "current"})
    assert targets(worn, "Washington") == {"Yukikaze", "Shigure"}


def test_no_fire_into_or_out_of_fog_nor_at_submerged_boats() -> None:  # ADM-ART-4, ADM-TERR-4, ADM-SUB-5
    dice = [["artillery", "torpedo+anti_aircraft"], []]
    state = attack({"Fletcher": "C4"}, {"Yukikaze": "D4"}, dice, layout={"D4": "fog_bank"})
    assert targets(state, "Fletcher") == set() and targets(state, "Fletcher", "torpedo") == set()
    state = attack({"Fletcher": "D4"}, {"Yukikaze": "C4"}, dice, layout={"D4": "fog_bank"})
    assert state.legal_actions() == [COMMIT]
    below = attack({"Fletcher": "C4"}, {"I-19": {"square": "D4", "submerged": True}, **FAR_NORTH}, dice)
    assert targets(below, "Fletcher") == set() and targets(below, "Fletcher", "torpedo") == set()


def test_the_coefficient_against_the_armour() -> None:  # ADM-ART-5, ADM-ART-8, ADM-ART-9
    south = {"Fletcher": "C5", "Helena": "F5", **FAR_SOUTH}
    north = {"Yukikaze": "D6", "Chokai": "G6", **FAR_NORTH}
    state = attack(south, north, [["artillery", "artillery"], []])
    state.apply(fire(state, "Fletcher", "Yukikaze"))  # 2 against armour 2: effective, no structure loss
    state.apply(fire(state, "Helena", "Chokai"))  # 3 against armour 3: the same
    commit_both(state)
    assert structure(state, 1, "Yukikaze") == 2 and len(marks(state, 1, "Yukikaze")) == 1
    assert structure(state, 1, "Chokai") == 4 and len(marks(state, 1, "Chokai")) == 1
    weak2 = attack({"Fletcher": "C5", **FAR_SOUTH}, {"Chokai": "D6", **FAR_NORTH}, [["artillery"], []])
    weak2.apply(fire(weak2, "Fletcher", "Chokai"))  # 2 against armour 3: not effective
    commit_both(weak2)
    assert structure(weak2, 1, "Chokai") == 4 and marks(weak2, 1, "Chokai") == []
    strong = attack({"Indianapolis": "C5", **FAR_SOUTH}, {"Yukikaze": "D6", **FAR_NORTH}, [["artillery"], []])
    strong.apply(fire(strong, "Indianapolis", "Yukikaze"))  # 4 against 2: critical and a structure point
    commit_both(strong)
    assert structure(strong, 1, "Yukikaze") == 1 and len(marks(strong, 1, "Yukikaze")) == 1


def test_two_dice_on_one_battery_double_it_and_spaces_take_one_die() -> None:  # ADM-ART-6, ADM-DICE-2
    dice = [["artillery", "artillery", "artillery"], []]
    state = attack({"Fletcher": "C5", **FAR_SOUTH}, {"Chokai": "D6", **FAR_NORTH}, dice)
    state.apply(fire(state, "Fletcher", "Chokai"))
    state.apply(fire(state, "Fletcher", "Chokai"))
    assert targets(state, "Fletcher") == set()  # both slots of the battery are taken
    commit_both(state)
    assert structure(state, 1, "Chokai") == 3  # 2 x 2 = 4 > armour 3
    one_slot = attack({"Enterprise": "C5", **FAR_SOUTH}, {"Yukikaze": "D6", **FAR_NORTH}, dice)
    one_slot.apply(fire(one_slot, "Enterprise", "Yukikaze"))
    assert targets(one_slot, "Enterprise") == set()  # a single space takes a single die


def test_an_admiral_die_splits_a_battery_fire() -> None:  # ADM-ART-7
    north = {"Yukikaze": "D6", "Shigure": "B6", **FAR_NORTH}
    state = attack({"Fletcher": "C5", **FAR_SOUTH}, north, [["artillery", "artillery", "admiral"], []])
    state.apply(fire(state, "Fletcher", "Yukikaze"))
    legal = state.legal_actions()
    assert fire(state, "Fletcher", "Shigure", ARTILLERY) not in legal  # splitting needs the Admiral die
    with pytest.raises(IllegalActionError, match=r"split fire needs an Admiral die.*\(ADM-ART-7\)"):
        state.apply(fire(state, "Fletcher", "Shigure", ARTILLERY))
    state.apply(fire(state, "Fletcher", "Shigure", ADMIRAL))
    commit_both(state)
    for name in ("Yukikaze", "Shigure"):  # each shot at the single coefficient 2 against armour 2
        assert structure(state, 1, name) == 2 and len(marks(state, 1, name)) == 1


def test_batteries_are_separate_hits() -> None:  # ADM-ART-9
    state = attack({"Indianapolis": "C5", **FAR_SOUTH}, {"Chokai": "D6", **FAR_NORTH}, [["artillery"] * 2, []])
    state.apply(fire(state, "Indianapolis", "Chokai", battery=0))  # 4 > 3
    state.apply(fire(state, "Indianapolis", "Chokai", battery=1))  # 2 < 3: no effect (not 4 + 2)
    commit_both(state)
    assert structure(state, 1, "Chokai") == 3 and len(marks(state, 1, "Chokai")) == 1


# --- torpedoes and depth charges --------------------------------------------------------------------------------


def test_torpedoes_only_beside() -> None:  # ADM-TORP-1
    north = {"Yukikaze": "D5", "Shigure": "C6", "Jintsu": "B5", "Kirishima": "E5"}
    state = attack({"Fletcher": "C5"}, north, [["torpedo+anti_aircraft"], []])
    assert targets(state, "Fletcher", "torpedo") == {"Yukikaze", "Jintsu"}  # left and right, not ahead (C6)


def test_a_torpedo_always_criticals_and_costs_a_structure_point() -> None:  # ADM-TORP-2
    state = attack({"Fletcher": "C8"}, {"Yamato": "D8", "Kirishima": "A8"}, [["torpedo+anti_aircraft"], []])
    state.apply(torpedo(state, "Fletcher", "Yamato"))  # armour 6 does not matter
    commit_both(state)
    assert structure(state, 1, "Yamato") == 7 and len(marks(state, 1, "Yamato")) == 1


def test_several_torpedoes_at_one_target_and_an_admiral_for_another() -> None:  # ADM-TORP-3, ADM-DICE-2
    north = {"Yamato": "D5", "Kirishima": "B5"}
    state = attack({"Fletcher": "C5", **FAR_SOUTH}, north, [["torpedo+anti_aircraft"] * 2 + ["admiral"], []])
    state.apply(torpedo(state, "Fletcher", "Yamato"))
    assert torpedo(state, "Fletcher", "Yamato") in state.legal_actions()  # more on the same space
    state.apply(torpedo(state, "Fletcher", "Kirishima"))  # a second target costs the Admiral die too
    assert state.dice(0)[2][1].endswith("(second target)")
    commit_both(state)
    assert structure(state, 1, "Yamato") == 7 and structure(state, 1, "Kirishima") == 5
    assert state.unit(0, "Fletcher").torpedoes == 0
    no_admiral = attack({"Fletcher": "C5", **FAR_SOUTH}, north, [["torpedo+anti_aircraft"] * 2, []])
    no_admiral.apply(torpedo(no_admiral, "Fletcher", "Yamato"))
    with pytest.raises(IllegalActionError, match="no unused Admiral die"):
        no_admiral.apply(torpedo(no_admiral, "Fletcher", "Kirishima"))


def test_no_torpedo_results_once_the_supply_is_spent() -> None:  # ADM-TORP-4, ADM-TORP-5
    state = attack(
        {"Fletcher": {"square": "C5", "torpedoes": 1}, **FAR_SOUTH},
        {"Yamato": "D5"},
        [["torpedo+anti_aircraft"] * 2, []],
    )
    state.apply(torpedo(state, "Fletcher", "Yamato"))
    assert targets(state, "Fletcher", "torpedo") == set()  # one mount was loaded
    with pytest.raises(IllegalActionError, match=r"launched all its torpedoes \(ADM-TORP-4\)"):
        state.apply(torpedo(state, "Fletcher", "Yamato"))
    commit_both(state)
    assert state.unit(0, "Fletcher").torpedoes == 0


def test_depth_charges_destroy_a_submerged_boat_in_the_same_square() -> None:  # ADM-DC-1, ADM-DC-2
    north = {"I-19": {"square": "C5", "submerged": True}, **FAR_NORTH}
    state = attack({"Fletcher": "C5", "Helena": "D5"}, north, [["movement+depth_charge", "movement+depth_charge"], []])
    assert depth_charge(state, "Helena") not in state.legal_actions()  # no depth charges on the cruiser
    state.apply(depth_charge(state, "Fletcher"))
    assert state.action_to_string(depth_charge(state, "Fletcher")) == "dc:Fletcher/movement+depth_charge"
    commit_both(state)
    assert state.unit(1, "I-19").where == "sunk"  # whatever its structure points


def test_a_submerged_boat_torpedoes_all_round_but_not_below() -> None:  # ADM-SUB-4
    south = {"Wahoo": {"square": "C5", "submerged": True}, "Fletcher": "A1"}
    north = {"Yukikaze": "C5", "Shigure": "D6", "Jintsu": "B4", "Chokai": "C7"}
    state = attack(south, north, [["torpedo+anti_aircraft"], []])
    assert targets(state, "Wahoo", "torpedo") == {"Shigure", "Jintsu"}  # diagonals too; not Yukikaze above it


def test_only_depth_charges_reach_a_submerged_boat() -> None:  # ADM-SUB-5
    south = {"Fletcher": "C5", "Jenkins": "B4"}
    north = {"I-19": {"square": "D5", "submerged": True}, "I-58": {"square": "B5", "submerged": True}}
    state = attack(south, north, [["artillery", "torpedo+anti_aircraft", "movement+depth_charge"], []])
    assert state.legal_actions() == [COMMIT]


def test_a_submerged_submarine_torpedoes_a_submerged_one() -> None:  # ADM-SUB-5, ADM-SUB-4
    """Immunity is against surface units: a submerged boat's torpedoes reach a submerged enemy beside it,
    a surfaced boat's do not."""
    north = {"I-19": {"square": "D5", "submerged": True}}
    below = attack({"Wahoo": {"square": "C5", "submerged": True}}, north, [["torpedo+anti_aircraft"], []])
    assert targets(below, "Wahoo", "torpedo") == {"I-19"}
    below.apply(torpedo(below, "Wahoo", "I-19"))
    commit_both(below)
    assert structure(below, 1, "I-19") < below.unit(1, "I-19").card.structure
    above = attack({"Wahoo": "C5"}, north, [["torpedo+anti_aircraft"], []])
    assert targets(above, "Wahoo", "torpedo") == set()


def test_a_submarine_always_has_one_torpedo() -> None:  # ADM-SUB-6
    state = attack(
        {"Wahoo": {"square": "C5", "torpedoes": 0}, **FAR_SOUTH},
        {"Yukikaze": "D5", **FAR_NORTH},
        [["torpedo+anti_aircraft"] * 2, []],
    )
    state.apply(torpedo(state, "Wahoo", "Yukikaze"))
    assert targets(state, "Wahoo", "torpedo") == set()  # one a turn
    commit_both(state)
    assert structure(state, 1, "Yukikaze") == 1 and state.unit(0, "Wahoo").torpedoes == 0
    ship = attack({"Fletcher": {"square": "C5", "torpedoes": 0}}, {"Yukikaze": "D5"}, [["torpedo+anti_aircraft"], []])
    assert targets(ship, "Fletcher", "torpedo") == set()  # ships get no such torpedo


def test_a_submerged_boat_hides_nothing() -> None:  # ADM-SUB-8, ADM-UNIT-4
    south = {"Washington": "A3", "Wahoo": {"square": "B3", "submerged": True}}
    state = attack(south, {"Yukikaze": "C3"}, [["artillery"], []])
    assert targets(state, "Washington") == {"Yukikaze"}


# --- resolution and criticals ----------------------------------------------------------------------------


def test_the_attacker_chooses_where_each_critical_goes() -> None:  # ADM-RES-3, ADM-CRIT-1
    state = attack({"Fletcher": "C5", **FAR_SOUTH}, {"Yukikaze": "D6", **FAR_NORTH}, [["artillery"], []])
    state.apply(fire(state, "Fletcher", "Yukikaze"))
    state.apply(COMMIT)
    state.apply(COMMIT)
    assert state.phase == "criticals" and state.current_player() == 0
    chars = state.unit(1, "Yukikaze").card.characteristics
    assert chars == (
        "movement",
        "battery:main",
        "torpedoes",
        "anti_aircraft",
        "depth_charges",
        "excellent_torpedoes",
        "torpedo_reload",
    )
    assert state.legal_actions() == [CRITICAL_BASE + i for i in range(len(chars))]
    assert state.string_to_action("critical:torpedoes") == CRITICAL_BASE + 2
    state.apply(CRITICAL_BASE + 2)
    assert marks(state, 1, "Yukikaze") == ["torpedoes"]


def test_a_critical_blocks_its_characteristic_for_the_next_turn_only() -> None:  # ADM-CRIT-2, ADM-TURN-2
    state = position(
        {"Fletcher": {"square": "C5", "criticals": {"movement": 1, "battery:main": 2}}, **FAR_SOUTH},
        {"Yukikaze": "D6", **FAR_NORTH},
        dice=[["movement", "artillery"], []],
        turn=2,
    )
    assert state.disabled(state.unit(0, "Fletcher"), "movement")  # placed in turn 1: blocks turn 2
    assert not state.disabled(state.unit(0, "Fletcher"), "battery:main")  # placed this turn: not yet
    assert move(state, "Fletcher", "C4") not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="critical marker this turn"):
        state.apply(move(state, "Fletcher", "C4"))
    state.apply(PASS)
    state.apply(PASS)
    commit_both(state)
    assert marks(state, 0, "Fletcher") == ["battery:main"]  # the turn-1 marker is removed at the end of turn 2


def test_a_marked_characteristic_is_chosen_again_only_when_all_are_marked() -> None:  # ADM-CRIT-3
    chars = ("movement", "battery:main", "torpedoes", "anti_aircraft", "depth_charges", "excellent_torpedoes")
    north = {"Yukikaze": {"square": "D6", "criticals": {ch: 2 for ch in chars}}, **FAR_NORTH}
    state = attack({"Fletcher": "C5", **FAR_SOUTH}, north, [["artillery"], []])
    state.apply(fire(state, "Fletcher", "Yukikaze"))
    commit_both(state)  # one option left: placed without asking
    assert marks(state, 1, "Yukikaze")[-1] == "torpedo_reload" and state.turn == 3
    full = {"Yukikaze": {"square": "D6", "criticals": {ch: 2 for ch in (*chars, "torpedo_reload")}}, **FAR_NORTH}
    state = attack({"Fletcher": "C5", **FAR_SOUTH}, full, [["artillery"], []])
    state.apply(fire(state, "Fletcher", "Yukikaze"))
    commit_both(state)
    assert state.turn == 3  # nothing more to mark


# --- the end -------------------------------------------------------------------------------------------------


def test_the_game_ends_when_a_fleet_is_destroyed() -> None:  # ADM-END-1
    state = attack({"Indianapolis": "C5"}, {"Yukikaze": {"square": "D6", "structure": 1}}, [["artillery"], []])
    state.apply(fire(state, "Indianapolis", "Yukikaze"))
    commit_both(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.FLEET_DESTROYED and outcome.winner == 0
    assert state.returns() == [1.0, -1.0] and state.legal_actions() == []
    reserve = attack(
        {"Indianapolis": "C5"},
        {"Yukikaze": {"square": "D6", "structure": 1}, "Shigure": {"where": "reserve"}},
        [["artillery"], []],
    )
    reserve.apply(fire(reserve, "Indianapolis", "Yukikaze"))
    commit_both(reserve)
    assert not reserve.is_terminal() and reserve.phase == "reserve" and reserve.current_player() == 1


def test_both_fleets_destroyed_together_is_a_draw() -> None:  # ADM-END-2
    state = attack(
        {"Indianapolis": {"square": "C5", "structure": 1}},
        {"Chokai": {"square": "D6", "structure": 1}},
        [["artillery"], ["artillery"]],
    )
    state.apply(fire(state, "Indianapolis", "Chokai"))
    state.apply(COMMIT)
    state.apply(fire(state, "Chokai", "Indianapolis"))
    state.apply(COMMIT)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is None and outcome.termination is Termination.FLEET_DESTROYED


def test_the_optional_turn_cap_is_a_draw() -> None:  # ADM-END-3
    state = position({"Fletcher": "C1"}, {"Yukikaze": "C8"}, max_turns=2)
    state.apply(PASS)
    state.apply(PASS)
    commit_both(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is None and outcome.termination is Termination.MOVE_LIMIT
    assert "turn cap of 2" in outcome.reason


def test_the_end_of_a_turn_clears_dice_and_smoke() -> None:  # ADM-TURN-2, ADM-DICE-4
    state = position({"Fletcher": "C1"}, {"Yukikaze": "C8"}, dice=[["artillery", "movement"], []], smoke=["D4"])
    assert state.observation(1).data["board"][27]["smoke"] is True
    state.apply(PASS)
    state.apply(PASS)
    commit_both(state)
    assert state.turn == 3 and state.dice(0) == [] and state.observation(0).data["board"][27]["smoke"] is False
    assert state.unit(0, "Fletcher").moved is False


def test_torpedo_and_depth_charge_notation() -> None:
    state = attack({"Fletcher": "C5", **FAR_SOUTH}, {"Yukikaze": "D5", **FAR_NORTH}, [["torpedo+anti_aircraft"], []])
    action = torpedo(state, "Fletcher", "Yukikaze", TORPEDO)
    assert state.action_to_string(action) == "torpedo:Fletcher>Yukikaze/torpedo+anti_aircraft"
    assert state.string_to_action("torpedo: Fletcher > Yukikaze / torpedo+anti_aircraft") == action
    assert fire(state, "Fletcher", "Yukikaze", ARTILLERY) not in state.legal_actions()
    assert depth_charge(state, "Fletcher", MOVE_DC) not in state.legal_actions()
