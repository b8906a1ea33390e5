"""Step 4: the green and red special rules (ADM-G*, ADM-R*) and the modifiers they bring to artillery
(ADM-ART-10, ADM-ART-11), each on a crafted position."""

from __future__ import annotations

from typing import Any

import pytest

from fogofwar.core import IllegalActionError
from fogofwar.games.admiral.actions import (
    COMMIT,
    DECLINE,
    EXTRA_DRAUGHT,
    EXTRA_SMOKE_HORIZONTAL,
    EXTRA_SMOKE_VERTICAL,
    PASS,
)
from fogofwar.games.admiral.rules import AdmiralState

from .helpers import (
    ARTILLERY,
    MOVEMENT,
    activate,
    destinations,
    fire,
    move,
    position,
    repair,
    sq,
    targets,
    torpedo,
)
from .test_attack import FAR_NORTH, FAR_SOUTH, commit_both, marks, structure


def attack(south: dict[str, Any], north: dict[str, Any], dice: Any, **kw: Any) -> AdmiralState:
    return position(south, north, dice=dice, phase="attack", **kw)


def test_superior_steel_raises_the_armour() -> None:  # ADM-G01
    for steel in (False, True):
        state = attack({"Indianapolis": "C5", **FAR_SOUTH}, {"Yamato": "D6"}, [["artillery"] * 2, ["admiral"]])
        state.apply(fire(state, "Indianapolis", "Yamato"))
        state.apply(fire(state, "Indianapolis", "Yamato"))  # doubled: 8
        state.apply(COMMIT)
        if steel:
            state.apply(activate(state, "Yamato", "superior_steel"))
        commit_both(state)
        assert structure(state, 1, "Yamato") == (8 if steel else 7)  # 8 > 6, but not > 6 + 2
        assert len(marks(state, 1, "Yamato")) == 1


def test_shallow_draught_lets_a_cruiser_cross_shallows() -> None:  # ADM-G02
    layout = {"D4": "shallows"}
    state = position({"Jintsu": "D3"}, {"Fletcher": "H1"}, dice=[["movement", "admiral"], []], layout=layout)
    assert "D4" not in destinations(state, "Jintsu")
    assert destinations(state, "Jintsu", mode=3 * EXTRA_DRAUGHT) == {"D4", "D5"}  # only what the feature adds
    state.apply(move(state, "Jintsu", "D5", MOVEMENT, mode=3 * EXTRA_DRAUGHT))
    assert state.unit(0, "Jintsu").square == sq("D5")
    assert [use for _, use in state.dice(0)] == ["move Jintsu", "Jintsu: Shallow Draught"]
    poor = position({"Jintsu": "D3"}, {"Fletcher": "H1"}, dice=[["movement"], []], layout=layout)
    assert destinations(poor, "Jintsu", mode=3 * EXTRA_DRAUGHT) == set()  # no Admiral die to activate it


def test_high_rate_of_fire_within_half_range() -> None:  # ADM-G05, ADM-ART-11
    for distance_row, expected in (("D4", 3), ("D5", 4)):  # distance 1 (within 3/2), distance 2 (beyond)
        state = attack(
            {"Helena": "D3", **FAR_SOUTH}, {"Chokai": distance_row, **FAR_NORTH}, [["artillery", "admiral"], []]
        )
        state.apply(activate(state, "Helena", "high_rate_of_fire"))
        state.apply(fire(state, "Helena", "Chokai"))
        commit_both(state)
        assert structure(state, 1, "Chokai") == expected  # within: 3 + 1 > 3; beyond: 3 = 3, critical only


def test_high_rate_of_fire_per_battery_slot_is_the_other_reading() -> None:  # ADM-G05
    """ "+1 x slot di batteria": by default +1 for each slot the shot uses (one die on Helena's two-slot main
    battery: 3 + 1 = 4); with `rate_of_fire="battery_slots"`, +1 for each slot the battery has (3 + 2 = 5)."""
    for reading, coefficient in (("slots_used", 4), ("battery_slots", 5)):
        state = attack(
            {"Helena": "D3", **FAR_SOUTH},
            {"Chokai": "D4", **FAR_NORTH},
            [["artillery", "admiral"], []],
            readings={"rate_of_fire": reading},
        )
        state.apply(activate(state, "Helena", "high_rate_of_fire"))
        state.apply(fire(state, "Helena", "Chokai"))
        commit_both(state)
        assert f"coefficient {coefficient} against armour 3" in " ".join(state.observation(0).data["report"])


def test_protective_belt_and_magnetic_fuse() -> None:  # ADM-G06, ADM-G12
    def torpedoed(fuse: bool) -> int:
        south = {"Washington": "C5"}
        north = {"I-19": {"square": "D6", "submerged": True}, **FAR_NORTH}
        state = attack(south, north, [["admiral"], ["torpedo+anti_aircraft", "admiral"]])
        state.apply(activate(state, "Washington", "protective_belt"))
        state.apply(COMMIT)
        state.apply(torpedo(state, "I-19", "Washington"))
        if fuse:
            state.apply(activate(state, "I-19", "magnetic_fuse"))
        commit_both(state)
        assert len(marks(state, 0, "Washington")) == 1  # the critical always happens
        return structure(state, 0, "Washington")

    assert torpedoed(fuse=False) == 7  # the belt saves the structure point
    assert torpedoed(fuse=True) == 6  # the magnetic fuse cancels the belt


def test_efficient_damage_control_repairs_two_points() -> None:  # ADM-G07
    state = position(
        {"Enterprise": {"square": "C1", "structure": 2}},
        {"Yamato": "H8"},
        dice=[["movement", "artillery", "admiral"], []],
    )
    action = repair(state, "Enterprise", MOVEMENT, ARTILLERY, boost=1)
    assert state.action_to_string(action) == "repair:Enterprise+edc/movement,artillery"
    state.apply(action)
    assert structure(state, 0, "Enterprise") == 4


def test_smoke_projectors_lay_smoke_that_blocks_sight_for_the_turn() -> None:  # ADM-G08
    state = position(
        {"Fletcher": "C3", "Washington": "A4"},
        {"Kirishima": "E4", "Yukikaze": "H8"},
        dice=[["movement", "admiral", "artillery"], []],
    )
    smoke_v = move(state, "Fletcher", "D4", MOVEMENT, mode=3 * EXTRA_SMOKE_VERTICAL)  # C3 -> C4 -> D4
    smoke_h = move(state, "Fletcher", "D4", MOVEMENT, mode=3 * EXTRA_SMOKE_HORIZONTAL)  # C3 -> D3 -> D4
    assert smoke_v in state.legal_actions() and smoke_h in state.legal_actions()
    assert state.action_to_string(smoke_v) == "move:Fletcher>D4:smoke-v/movement"
    state.apply(smoke_v)
    assert sorted(state.observation(1).data["board"][s]["smoke"] for s in (sq("C3"), sq("C4"), sq("D4"))) == [
        False,
        True,
        True,
    ]
    state.apply(PASS)
    state.apply(PASS)
    assert targets(state, "Washington") == set()  # A4 -> E4 crosses the smoke on C4 (and Fletcher on D4)
    commit_both(state)
    assert not any(cell["smoke"] for cell in state.observation(0).data["board"])  # lifted at the end of the turn


def test_torpedo_reload_refills_an_empty_mount() -> None:  # ADM-G09, ADM-TORP-5
    state = attack(
        {"Fletcher": "D5", **FAR_SOUTH},
        {"Yukikaze": {"square": "C5", "torpedoes": 0}, **FAR_NORTH},
        [[], ["admiral", "torpedo+anti_aircraft", "admiral", "admiral"]],
        player=1,
    )
    assert targets(state, "Yukikaze", "torpedo") == set()
    state.apply(activate(state, "Yukikaze", "torpedo_reload"))
    assert targets(state, "Yukikaze", "torpedo") == {"Fletcher"}
    state.apply(activate(state, "Yukikaze", "torpedo_reload"))  # the second spare torpedo
    assert activate(state, "Yukikaze", "torpedo_reload") not in state.legal_actions()  # no spare left
    state.apply(torpedo(state, "Yukikaze", "Fletcher"))
    state.apply(COMMIT)
    yukikaze = state.unit(1, "Yukikaze")
    assert (yukikaze.torpedoes, yukikaze.reloads) == (1, 0)  # reloaded twice, launched one
    assert structure(state, 0, "Fletcher") == 1


def test_torpedo_reload_once_a_turn_is_the_other_reading() -> None:  # ADM-G09
    """With `torpedo_reload="once_a_turn"` no spare torpedo is counted: one mount a turn, every turn."""
    state = attack(
        {"Fletcher": "D5", **FAR_SOUTH},
        {"Yukikaze": {"square": "C5", "torpedoes": 0, "reloads": 0}, **FAR_NORTH},
        [[], ["admiral", "torpedo+anti_aircraft", "admiral"]],
        player=1,
        readings={"torpedo_reload": "once_a_turn"},
    )
    state.apply(activate(state, "Yukikaze", "torpedo_reload"))  # no spare left, yet it reloads
    assert activate(state, "Yukikaze", "torpedo_reload") not in state.legal_actions()  # once a turn
    assert targets(state, "Yukikaze", "torpedo") == {"Fletcher"}
    state.apply(torpedo(state, "Yukikaze", "Fletcher"))
    state.apply(COMMIT)
    assert state.unit(1, "Yukikaze").reloads == 0 and structure(state, 0, "Fletcher") == 1
    spares = attack(
        {"Fletcher": "D5", **FAR_SOUTH},
        {"Yukikaze": {"square": "C5", "torpedoes": 0, "reloads": 0}, **FAR_NORTH},
        [[], ["admiral", "torpedo+anti_aircraft"]],
        player=1,
    )
    assert activate(spares, "Yukikaze", "torpedo_reload") not in spares.legal_actions()  # the default: no spare


def test_excellent_torpedoes_run_one_square_further() -> None:  # ADM-G10, ADM-TERR-7
    south = {"Fletcher": "E5", "Jenkins": "A1"}
    state = attack(south, {"Chokai": "C5", **FAR_NORTH}, [[], ["admiral", "torpedo+anti_aircraft"]], player=1)
    assert targets(state, "Chokai", "torpedo") == set()
    state.apply(activate(state, "Chokai", "excellent_torpedoes"))
    assert targets(state, "Chokai", "torpedo") == {"Fletcher"}  # two squares beside
    island = attack(
        south,
        {"Chokai": "C5", **FAR_NORTH},
        [[], ["admiral", "torpedo+anti_aircraft"]],
        player=1,
        layout={"D5": "island"},
    )
    island.apply(activate(island, "Chokai", "excellent_torpedoes"))
    assert targets(island, "Chokai", "torpedo") == set()  # not through an island


def test_fire_control_systems_add_one_to_the_range() -> None:  # ADM-G11
    state = attack({"Washington": "A1"}, {"Yamato": "A6"}, [["artillery", "admiral"], []])
    assert targets(state, "Washington") == set()  # distance 5, range 4
    state.apply(activate(state, "Washington", "fire_control_systems"))
    assert targets(state, "Washington") == {"Yamato"}


def test_all_or_nothing_prevents_one_critical() -> None:  # ADM-G13
    north = {"Yukikaze": "D6", "Shigure": "B6", **FAR_NORTH}
    state = attack({"South Dakota": "C5", **FAR_SOUTH}, north, [["admiral"], ["artillery", "artillery"]])
    state.apply(activate(state, "South Dakota", "all_or_nothing"))
    state.apply(COMMIT)
    state.apply(fire(state, "Yukikaze", "South Dakota"))  # 2 < 5: nothing anyway
    state.apply(fire(state, "Yukikaze", "South Dakota"))  # doubled 4 < 5: nothing either
    commit_both(state)
    assert marks(state, 0, "South Dakota") == []
    hit = attack(
        {"South Dakota": "C5", **FAR_SOUTH},
        {"Kirishima": "C7", **FAR_NORTH},
        [["admiral"], ["artillery", "artillery"]],
    )
    hit.apply(activate(hit, "South Dakota", "all_or_nothing"))
    hit.apply(COMMIT)
    hit.apply(fire(hit, "Kirishima", "South Dakota"))
    hit.apply(fire(hit, "Kirishima", "South Dakota"))  # 10 > 5: critical and a structure point
    commit_both(hit)
    assert structure(hit, 0, "South Dakota") == 6 and marks(hit, 0, "South Dakota") == []  # the critical is avoided
    assert any("All or Nothing" in line for line in hit.observation(1).data["report"])


def test_poor_damage_control_is_the_opponents_answer_to_a_repair() -> None:  # ADM-R02
    state = position(
        {"Fletcher": "A1"},
        {"Shokaku": {"square": "C8", "structure": 3}},
        dice=[["admiral"], ["movement", "artillery"]],
        first_player=1,
    )
    state.apply(repair(state, "Shokaku"))
    assert state.phase == "reaction" and state.current_player() == 0
    assert state.legal_actions() == sorted([DECLINE, activate(state, "Shokaku", "poor_damage_control", enemy=True)])
    state.apply(activate(state, "Shokaku", "poor_damage_control", enemy=True))
    assert structure(state, 1, "Shokaku") == 3 and state.phase == "movement" and state.current_player() == 0
    declined = position(
        {"Fletcher": "A1"},
        {"Shokaku": {"square": "C8", "structure": 3}},
        dice=[["admiral"], ["movement", "artillery"]],
        first_player=1,
    )
    declined.apply(repair(declined, "Shokaku"))
    declined.apply(DECLINE)
    assert structure(declined, 1, "Shokaku") == 4
    no_die = position(
        {"Fletcher": "A1"},
        {"Shokaku": {"square": "C8", "structure": 3}},
        dice=[[], ["movement", "artillery"]],
        first_player=1,
    )
    no_die.apply(repair(no_die, "Shokaku"))
    assert no_die.phase == "movement" and structure(no_die, 1, "Shokaku") == 4  # nobody to ask


def test_obsolete_lowers_the_armour_beyond_half_range() -> None:  # ADM-R03, ADM-ART-10
    for obsolete in (False, True):
        state = attack({"Indianapolis": "C3", **FAR_SOUTH}, {"Kirishima": "C5"}, [["artillery", "admiral"], []])
        if obsolete:
            state.apply(activate(state, "Kirishima", "obsolete", enemy=True))
        state.apply(fire(state, "Indianapolis", "Kirishima"))  # 4 against 4, at distance 2 of range 3: beyond half
        commit_both(state)
        assert structure(state, 1, "Kirishima") == (5 if obsolete else 6)
    near = attack({"Indianapolis": "C4", **FAR_SOUTH}, {"Kirishima": "C5"}, [["artillery", "admiral"], []])
    near.apply(activate(near, "Kirishima", "obsolete", enemy=True))
    near.apply(fire(near, "Indianapolis", "Kirishima"))  # within half range: armour 4 stays
    commit_both(near)
    assert structure(near, 1, "Kirishima") == 6


def test_no_radar_lowers_the_coefficient_beyond_half_range() -> None:  # ADM-R04, ADM-ART-11
    for radar_off in (False, True):
        state = attack({"Indianapolis": "C3", **FAR_SOUTH}, {"Chokai": "C5", **FAR_NORTH}, [["admiral"], ["artillery"]])
        if radar_off:
            state.apply(activate(state, "Chokai", "no_radar", enemy=True))
        state.apply(COMMIT)
        state.apply(fire(state, "Chokai", "Indianapolis"))  # 4 against 3 at distance 2 of range 3
        commit_both(state)
        assert structure(state, 0, "Indianapolis") == (4 if radar_off else 3)
        assert len(marks(state, 0, "Indianapolis")) == 1


def test_faulty_torpedoes_spoil_one_torpedo() -> None:  # ADM-R05
    state = attack(
        {"Fletcher": "C5", **FAR_SOUTH},
        {"Kirishima": "D5", **FAR_NORTH},
        [["torpedo+anti_aircraft", "torpedo+anti_aircraft"], ["admiral"]],
    )
    state.apply(torpedo(state, "Fletcher", "Kirishima"))
    state.apply(torpedo(state, "Fletcher", "Kirishima"))
    state.apply(COMMIT)
    state.apply(activate(state, "Fletcher", "faulty_torpedoes", enemy=True))
    commit_both(state)
    assert structure(state, 1, "Kirishima") == 5 and len(marks(state, 1, "Kirishima")) == 1  # one of two worked
    assert state.unit(0, "Fletcher").torpedoes == 0  # both were launched


def test_features_are_activated_by_the_right_player_and_not_under_a_critical() -> None:  # ADM-DICE-3, ADM-CRIT-2
    state = attack(
        {"Washington": {"square": "A1", "criticals": {"fire_control_systems": 1}}},
        {"Yamato": "A8"},
        [["admiral"], []],
    )
    legal = state.legal_actions()
    assert activate(state, "Washington", "fire_control_systems") not in legal  # marked last turn
    assert activate(state, "Washington", "protective_belt") in legal
    assert activate(state, "Yamato", "no_radar", enemy=True) in legal  # red: on the enemy
    assert activate(state, "Yamato", "superior_steel", enemy=True) not in legal  # green: only its owner
    with pytest.raises(IllegalActionError, match="critical marker"):
        state.apply(activate(state, "Washington", "fire_control_systems"))
    with pytest.raises(IllegalActionError, match="is green"):
        state.apply(activate(state, "Yamato", "superior_steel", enemy=True))
    state.apply(activate(state, "Washington", "protective_belt"))
    assert activate(state, "Washington", "protective_belt") not in state.legal_actions()  # once a turn
