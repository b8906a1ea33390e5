"""The solo mode's rules as the engine plays them (`AdmiralGame(solo_seat=...)`, ids SOLO-... in
docs/rules/admiral-solo.md): deck deployment from the corner, initiative, Stratego's dice, the decision table
(one test per row), the hold move, the Admiral symbol, the doomed-unit rule; records and options."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from fogofwar.core import CHANCE, GameError, make_game
from fogofwar.games.admiral.actions import (
    AIR_PASS,
    COMMIT,
    DECLINE,
    DEPLOY_BASE,
    HOLD_BASE,
    PASS,
    STRIKE_BASE,
    decode,
)
from fogofwar.games.admiral.data_model import default_ruleset, load_ruleset, square_name
from fogofwar.games.admiral.geometry import corner_order
from fogofwar.games.admiral.rules import AdmiralGame, AdmiralState

from .helpers import ADMIRAL, ARTILLERY, MOVEMENT, activate, fire, move, position, repair, roll, slot, sq
from .test_data import data_dir, shipped

NORTH = 1


def solo_go(south: dict[str, Any], north: dict[str, Any], face: int, **extra: Any) -> AdmiralState:
    """Stratego (North) to act in the movement phase, with `face` rolled for its first unit to act."""
    state = position(south, north, solo_seat=NORTH, player=NORTH, **extra)
    assert state.phase == "solo_roll" and state.current_player() == CHANCE
    roll(state, [face])
    assert state.phase == "movement" and state.current_player() == NORTH
    return state


def row_of(state: AdmiralState, name: str) -> dict[str, Any]:
    solo = state.observation(0).data["solo"]
    rows: dict[str, Any] = solo["rows"]
    return dict(rows[name])


def dice_of(state: AdmiralState, player: int, name: str) -> list[tuple[str, str | None, str | None]]:
    """(face, spent as, use) of the dice assigned to `name`."""
    dice = state.observation(player).data["fleets"][player]["dice"]
    return [(d["face"], d["as"], d["used"]) for d in dice if d["unit"] == name]


def moves_faces(state: AdmiralState) -> set[str]:
    return {state.face_label(decode(a).face) for a in state.legal_actions() if decode(a).kind == "move"}


def hold(state: AdmiralState, name: str) -> int:
    return HOLD_BASE + slot(state, state.current_player(), name)


def to_solo_attack(state: AdmiralState, solo: int = NORTH) -> None:
    """Play on (the human passes and commits, Stratego holds) until Stratego's attack assignment."""
    for _ in range(50):
        if state.phase == "attack" and state.current_player() == solo:
            return
        legal = state.legal_actions()
        if state.current_player() == solo:
            state.apply(next(a for a in legal if decode(a).kind == "hold"))
        else:
            state.apply(next(a for a in (PASS, COMMIT, AIR_PASS, DECLINE) if a in legal))
    raise AssertionError("Stratego's attack assignment never came")


# --- options ----------------------------------------------------------------------------------------------


def test_the_option_and_its_checks() -> None:  # SOLO-GEN-1, ADM-SOLO-1
    game = make_game("admiral", solo_seat=1)
    assert isinstance(game, AdmiralGame) and game.options["solo_seat"] == 1
    assert make_game("admiral").options["solo_seat"] is None
    for bad in (2, -1, True, "north"):
        with pytest.raises(GameError, match="solo_seat"):
            AdmiralGame(solo_seat=bad)  # type: ignore[arg-type]


# --- setup (SOLO-SET) -----------------------------------------------------------------------------------------


def big_usn_ruleset(tmp_path: Path) -> Any:
    """The shipped data with ten more Fletcher-class destroyers: 18 US surface units."""
    text = shipped("units.toml")
    start = text.index('name = "Radford"')
    block = text[text.rindex("[[unit]]", 0, start) : text.index("[[unit]]", start)]
    extra = "".join(block.replace('name = "Radford"', f'name = "Radford {i}"') for i in range(2, 12))
    return load_ruleset(data_dir(tmp_path, units=text + "\n" + extra))


def test_deck_deployment_from_the_corner_then_second_row_then_reserve(tmp_path: Path) -> None:
    # SOLO-SET-1, SOLO-SET-2, SOLO-SET-3, ADM-SOLO-3
    rs = big_usn_ruleset(tmp_path)
    surface = [u.name for u in rs.units_of("usn") if not u.is_submarine]
    assert len(surface) == 18
    game = AdmiralGame(
        budget=100_000, fleets=[surface, ["Yukikaze", "Shigure"]], layout="open_sea", ruleset=rs, solo_seat=0
    )
    state = game.new_initial_state()
    # the human (North) deploys first, face up, from its right-hand corner (A8) along the edge row
    assert state.phase == "deploy" and state.current_player() == 1
    assert {square_name(decode(a).square) for a in state.legal_actions()} == {"A8"}
    assert "the next square is A8 (SOLO-SET-1)" in state.explain_illegal(DEPLOY_BASE + 0 * 64 + sq("D8"))
    state.apply(state.string_to_action("Shigure@A8"))
    assert [square_name(decode(a).square) for a in state.legal_actions()] == ["B8"]
    state.apply(state.string_to_action("Yukikaze@B8"))
    # then Stratego's shuffled deck: each draw is a chance node, every card left equally likely
    rng = random.Random(7)
    placed: list[str] = []
    while state.phase == "deploy":
        assert state.current_player() == CHANCE
        outcomes = state.chance_outcomes()
        waiting = [u for u in state.units(0) if u.where == "unplaced"]
        assert len(outcomes) == len(waiting) and all(p == pytest.approx(1 / len(waiting)) for _, p in outcomes)
        assert len({decode(a).square for a, _ in outcomes}) == 1  # one square: the next one
        action = rng.choice([a for a, _ in outcomes])
        placed.append(square_name(decode(action).square))
        state.apply(action)
    assert placed == [square_name(s) for s in corner_order(0)]  # H1..A1, then H2..A2
    assert placed[:2] == ["H1", "G1"] and placed[8] == "H2"
    assert sum(1 for u in state.units(0) if u.where == "reserve") == 2  # the rest: the Reserve


def test_corner_order_of_each_seat() -> None:  # SOLO-SET-1
    assert [square_name(s) for s in corner_order(0)[:3]] == ["H1", "G1", "F1"]
    assert [square_name(s) for s in corner_order(1)[:3]] == ["A8", "B8", "C8"]
    assert square_name(corner_order(1)[8]) == "A7"


# --- initiative (SOLO-INIT) -----------------------------------------------------------------------------------


@pytest.mark.parametrize("solo", [0, 1])
def test_stratego_always_wins_the_initiative_and_moves_second(solo: int) -> None:  # SOLO-INIT-1
    state = AdmiralGame(layout="open_sea", max_turns=4, solo_seat=solo).new_initial_state()
    rng = random.Random(solo)
    turns_seen: set[int] = set()
    while not state.is_terminal():
        assert state.phase != "initiative" and state.phase != "choose_first"  # no roll, no choice
        if state.phase in ("action_dice", "movement"):
            init = state.observation(0).data["initiative"]
            assert init["winner"] == solo and init["rolls"] == [[], []]
            assert state.first_player == 1 - solo
            turns_seen.add(state.turn)
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply(rng.choice(state.legal_actions()))
    assert len(turns_seen) >= 2


# --- Stratego's dice (SOLO-DICE) ------------------------------------------------------------------------------


def test_an_admiral_die_per_unit_and_no_pool_roll() -> None:  # SOLO-DICE-1, SOLO-GEN-2, ADM-SOLO-1
    state = position({"Helena": "D1"}, {"Chokai": "B8", "Yamato": "D8"}, phase="action_dice", solo_seat=NORTH)
    assert state.current_player() == CHANCE and state.phase == "action_dice"
    roll(state, [MOVEMENT, ARTILLERY])  # the human's pool: 2 dice per unit; Stratego rolls none now
    assert state.phase == "movement" and state.current_player() == 0  # the human moves first
    for name in ("Chokai", "Yamato"):
        assert dice_of(state, NORTH, name) == [("admiral", "pending", None), ("admiral", "symbol", None)]
    assert len(state.dice(0)) == 2


def test_units_act_slowest_first_with_one_die_each() -> None:  # SOLO-DICE-2, SOLO-MOVE-1
    state = position(
        {"Helena": "D1"}, {"Chokai": "B8", "Yamato": "D8", "Kirishima": "F8"}, solo_seat=NORTH, dice=[["movement"], {}]
    )
    assert state.observation(0).data["solo"]["to_act"] == ["Yamato", "Chokai", "Kirishima"]  # Movement 1, 2, 2
    acted: list[str] = []
    while state.phase in ("movement", "solo_roll"):
        if state.current_player() == CHANCE:
            acting = state.observation(0).data["solo"]["acting"]
            assert all(p == pytest.approx(1 / 6) for _, p in state.chance_outcomes())
            roll(state, [MOVEMENT])
            assert len(dice_of(state, NORTH, acting)) == 3  # the rolled die joins its Admiral die
            acted.append(acting)
            state.apply(hold(state, acting))
        else:
            state.apply(PASS)
    assert acted == ["Yamato", "Chokai", "Kirishima"]


# --- the decision table (SOLO-TAB): one test per row -------------------------------------------------------


def test_row_condition_is_an_enemy_it_can_damage_in_range() -> None:  # SOLO-TAB-0
    near = position({"Helena": "D3"}, {"Chokai": "D5"}, solo_seat=NORTH)
    far = position({"Helena": "D1"}, {"Chokai": "D8"}, solo_seat=NORTH)
    armoured = position({"Yamato": "D6"}, {"Fletcher": "D8"}, solo_seat=NORTH)  # 2x2 < armour 6, no torpedo beside
    chokai = near.unit(NORTH, "Chokai")
    assert near.solo_in_range(chokai) and not far.solo_in_range(far.unit(NORTH, "Chokai"))
    assert not armoured.solo_in_range(armoured.unit(NORTH, "Fletcher"))


def test_row1_movement_no_enemy_in_range_moves_and_admiral_becomes_artillery() -> None:  # SOLO-TAB-1, SOLO-DICE-3
    state = solo_go({"Helena": "D1"}, {"Chokai": "D8"}, MOVEMENT)
    assert row_of(state, "Chokai")["id"] == "SOLO-TAB-1"
    assert dice_of(state, NORTH, "Chokai") == [
        ("admiral", "artillery", None),
        ("admiral", "symbol", None),
        ("movement", None, None),
    ]
    assert hold(state, "Chokai") in state.legal_actions() and PASS not in state.legal_actions()
    assert moves_faces(state) == {"movement"}  # the rolled die moves it; the Admiral is Artillery now
    state.apply(state.string_to_action("move:Chokai>D6/movement"))
    assert state.unit(NORTH, "Chokai").square == sq("D6")


def test_row2_movement_enemy_in_range_does_not_move() -> None:  # SOLO-TAB-2
    state = solo_go({"Helena": "D3"}, {"Chokai": "D5"}, MOVEMENT)
    assert row_of(state, "Chokai")["id"] == "SOLO-TAB-2" and row_of(state, "Chokai")["hold"]
    assert state.legal_actions() == [hold(state, "Chokai")]
    assert "does not move this turn (SOLO-TAB-2" in state.explain_illegal(move(state, "Chokai", "D6"))
    to_solo_attack(state)
    assert targets_with_faces(state, "Chokai") == {("Helena", "admiral")}  # one die: its Admiral as Artillery


def targets_with_faces(state: AdmiralState, name: str) -> set[tuple[str, str]]:
    p = state.current_player()
    s = slot(state, p, name)
    return {
        (state.units(1 - p)[decode(a).target].card.name, state.face_label(decode(a).face))
        for a in state.legal_actions()
        if decode(a).kind == "fire" and decode(a).slot == s
    }


def test_row3_fire_no_enemy_in_range_moves_with_its_admiral() -> None:  # SOLO-TAB-3, SOLO-DICE-3
    state = solo_go({"Helena": "D3"}, {"Chokai": "D8"}, ARTILLERY)
    assert row_of(state, "Chokai")["id"] == "SOLO-TAB-3"
    assert dice_of(state, NORTH, "Chokai")[0] == ("admiral", "movement", None)
    assert moves_faces(state) == {"admiral"}  # the Admiral moves it, the rolled Artillery stays for the attack
    state.apply(state.string_to_action("move:Chokai>D6/admiral"))
    to_solo_attack(state)
    assert targets_with_faces(state, "Chokai") == {("Helena", "artillery")}


def test_row4_fire_enemy_in_range_holds_and_fires_both_dice_may_split() -> None:  # SOLO-TAB-4
    state = solo_go({"Helena": "D3", "Fletcher": "E3"}, {"Chokai": "D5"}, ARTILLERY)
    assert row_of(state, "Chokai")["id"] == "SOLO-TAB-4"
    assert state.legal_actions() == [hold(state, "Chokai")]
    to_solo_attack(state)
    assert targets_with_faces(state, "Chokai") == {
        ("Helena", "artillery"),
        ("Helena", "admiral"),
        ("Fletcher", "artillery"),
        ("Fletcher", "admiral"),
    }
    state.apply(fire(state, "Chokai", "Helena", ARTILLERY))
    # the second die may double the battery or split to another target: its Admiral allows it (ADM-ART-7)
    assert targets_with_faces(state, "Chokai") == {("Helena", "admiral"), ("Fletcher", "admiral")}
    state.apply(fire(state, "Chokai", "Fletcher", ADMIRAL))
    assert targets_with_faces(state, "Chokai") == set()


def test_row5_admiral_repairs_then_movement_and_artillery_out_of_range() -> None:  # SOLO-TAB-5
    state = solo_go({"Helena": "D1"}, {"Chokai": {"square": "D8", "structure": 2}}, ADMIRAL)
    assert row_of(state, "Chokai")["id"] == "SOLO-TAB-5" and not row_of(state, "Chokai")["in_range"]
    assert state.unit(NORTH, "Chokai").structure == 3  # regained at once, without a die
    assert [(f, a) for f, a, _ in dice_of(state, NORTH, "Chokai")] == [
        ("admiral", "movement"),
        ("admiral", "symbol"),
        ("admiral", "artillery"),
        ("admiral", "symbol"),  # a rolled Admiral is a second symbol
    ]
    assert moves_faces(state) == {"admiral"}
    assert "Chokai regains 1 structure point (SOLO-TAB-5)" in state.observation(0).data["report"]


def test_row5_in_range_both_admirals_fire_and_undamaged_gains_nothing() -> None:  # SOLO-TAB-5
    state = solo_go({"Helena": "D3"}, {"Chokai": "D5"}, ADMIRAL)
    assert row_of(state, "Chokai")["in_range"] and state.unit(NORTH, "Chokai").structure == 4
    assert state.legal_actions() == [hold(state, "Chokai")]
    to_solo_attack(state)
    state.apply(fire(state, "Chokai", "Helena", ADMIRAL))
    assert targets_with_faces(state, "Chokai") == {("Helena", "admiral")}  # the second Admiral, as Artillery


def test_row5_repair_answered_by_poor_damage_control() -> None:  # SOLO-TAB-5, ADM-R02
    state = position(
        {"Helena": "D1"}, {"Shokaku": {"square": "D8", "structure": 3}}, solo_seat=NORTH, dice=[["admiral"], {}]
    )
    state.apply(PASS)
    roll(state, [ADMIRAL])
    assert state.phase == "reaction" and state.current_player() == 0
    state.apply(activate(state, "Shokaku", "poor_damage_control", enemy=True))
    assert state.unit(NORTH, "Shokaku").structure == 3
    assert state.phase == "movement" and state.current_player() == NORTH
    assert hold(state, "Shokaku") in state.legal_actions()


def test_the_table_is_data() -> None:  # SOLO-TAB-1..5 (Assumption A08)
    rows = default_ruleset().die.solo_rows
    assert {(r.result, r.in_range) for r in rows} == {(r, c) for r in ("move", "fire", "repair") for c in (0, 1)}
    assert sorted({r.id for r in rows}) == [f"SOLO-TAB-{i}" for i in range(1, 6)]


# --- movement (SOLO-MOVE) ---------------------------------------------------------------------------------------


def test_hold_is_a_move_of_zero_squares_and_stratego_declines_only_when_done() -> None:  # SOLO-MOVE-2
    state = solo_go({"Helena": "D1"}, {"Chokai": "D8", "Yukikaze": "F8"}, ARTILLERY)
    assert state.observation(0).data["solo"]["acting"] == "Chokai"
    assert "Chokai is Admiral Stratego's acting unit" in state.explain_illegal(move(state, "Yukikaze", "F6", ADMIRAL))
    state.apply(hold(state, "Chokai"))
    chokai = state.unit(NORTH, "Chokai")
    assert chokai.moved and chokai.square == sq("D8")  # it counts as having moved: 0 squares
    data = state.observation(0).data
    assert not data["fleets"][NORTH]["forfeited"] and state.current_player() == 0
    assert dice_of(state, NORTH, "Chokai")[0] == ("admiral", "movement", None)  # its Movement went unused
    state.apply(PASS)  # the human declines; Stratego's next unit still acts
    roll(state, [MOVEMENT])
    state.apply(hold(state, "Yukikaze"))
    state.apply(PASS)  # now Stratego has no unit left: it declines by itself and the attack phase begins
    assert state.phase == "attack"


def test_no_common_repair_and_no_combat_air_patrol_for_stratego() -> None:  # SOLO-MOVE-5
    state = solo_go({"Helena": "D1"}, {"Shokaku": {"square": "D8", "structure": 4}}, ARTILLERY)
    kinds = {decode(a).kind for a in state.legal_actions()}
    assert kinds == {"hold", "move"}
    assert "repair row (SOLO-TAB-5)" in state.explain_illegal(repair(state, "Shokaku", ADMIRAL, ARTILLERY))


# --- the Admiral symbol (SOLO-ADM) --------------------------------------------------------------------------------


def test_symbol_turns_on_a_green_feature_without_spending_the_die() -> None:  # SOLO-ADM-1, ADM-SOLO-2
    state = position(
        {"Helena": "D3"},
        {"Chokai": "D5", "Yamato": "E6"},
        solo_seat=NORTH,
        phase="attack",
        player=NORTH,
        dice=[[], {"Chokai": ["admiral=artillery", "admiral=symbol", "artillery"], "Yamato": ["admiral=symbol"]}],
    )
    assert targets_with_faces(state, "Yamato") == set()  # a symbol is never spent as Artillery
    assert activate(state, "Yamato", "superior_steel") in state.legal_actions()
    state.apply(activate(state, "Chokai", "excellent_torpedoes"))
    assert targets_with_faces(state, "Chokai") == {("Helena", "artillery"), ("Helena", "admiral")}  # both still
    assert dice_of(state, NORTH, "Chokai")[1][2] == "attack: Chokai: Excellent Torpedoes"  # the symbol is used


def test_symbol_turns_on_a_red_feature_of_an_enemy_that_has_it_in_range() -> None:  # SOLO-ADM-2
    def red_features(kirishima: str) -> set[str]:
        state = position(
            {"Indianapolis": "D3"},
            {"Kirishima": kirishima},
            solo_seat=0,
            phase="attack",
            dice=[{"Indianapolis": ["admiral=artillery", "admiral=symbol"]}, []],
        )
        keys = {r.key: i for i, r in enumerate(default_ruleset().special_rules)}
        legal = [decode(a) for a in state.legal_actions()]
        return {k for k, i in keys.items() if any(d.kind == "activate" and d.side == 1 and d.index == i for d in legal)}

    assert red_features("D6") == {"obsolete", "no_radar"}  # Kirishima (range 4) has Indianapolis in range
    assert red_features("D8") == set()  # out of its range: no red feature


def test_carriers_with_squadrons_always_launch_with_their_symbol() -> None:  # SOLO-ADM-3
    state = position(
        {"Helena": "D1"},
        {"Shokaku": "D8"},
        solo_seat=NORTH,
        phase="attack",
        dice=[[], {"Shokaku": ["admiral=artillery", "admiral=symbol"]}],
    )
    assert state.phase == "air" and state.current_player() == NORTH
    assert state.legal_actions() == [STRIKE_BASE + slot(state, NORTH, "Shokaku")]  # no AIR_PASS
    state.apply(state.legal_actions()[0])
    assert dice_of(state, NORTH, "Shokaku")[1] == ("admiral", "symbol", "launch Shokaku")


# --- the doomed unit (SOLO-ATK-4) ----------------------------------------------------------------------------------

DOOMED_SOUTH = {"Indianapolis": "C1", "Washington": "D1"}
DOOMED_NORTH = {"Kirishima": {"square": "D3", "structure": 1}, "Chokai": "D5"}
DOOMED_DICE = [
    {"Indianapolis": ["artillery", "admiral=artillery"], "Washington": ["artillery", "admiral=artillery"]},
    [],
]


def doomed_position() -> AdmiralState:
    return position(DOOMED_SOUTH, DOOMED_NORTH, solo_seat=0, phase="attack", dice=DOOMED_DICE)


def test_a_doomed_unit_is_no_longer_a_valid_target() -> None:  # SOLO-ATK-4, ADM-SOLO-4
    state = doomed_position()
    assert ("Kirishima", "artillery") in targets_with_faces(state, "Washington")
    state.apply(fire(state, "Indianapolis", "Kirishima", ARTILLERY))  # 4 against armour 4: no structure yet
    assert state.doomed(0) == frozenset()
    state.apply(fire(state, "Indianapolis", "Kirishima", ADMIRAL))  # doubled: 8 > 4, its last point
    assert state.doomed(0) == {(1, slot(state, 1, "Kirishima"))}
    assert all(t != "Kirishima" for t, _ in targets_with_faces(state, "Washington"))
    reason = state.explain_illegal(fire(state, "Washington", "Kirishima", ARTILLERY))
    assert "already sinks" in reason and "SOLO-ATK-4" in reason


def test_a_doomed_unit_no_longer_blocks_the_line_of_sight() -> None:  # SOLO-ATK-4
    state = doomed_position()
    assert all(t != "Chokai" for t, _ in targets_with_faces(state, "Washington"))  # Kirishima hides it
    assert "no line of sight" in state.explain_illegal(fire(state, "Washington", "Chokai", ARTILLERY))
    state.apply(fire(state, "Indianapolis", "Kirishima", ARTILLERY))
    state.apply(fire(state, "Indianapolis", "Kirishima", ADMIRAL))
    assert ("Chokai", "artillery") in targets_with_faces(state, "Washington")


def test_one_die_that_dooms_sends_the_second_elsewhere() -> None:  # SOLO-ATK-4, SOLO-TAB-4
    state = position(
        {"Chokai": "D5"},
        {"Helena": {"square": "D3", "structure": 1}, "Fletcher": "E3"},
        solo_seat=0,
        phase="attack",
        dice=[{"Chokai": ["artillery", "admiral=artillery"]}, []],
    )
    state.apply(fire(state, "Chokai", "Helena", ARTILLERY))
    assert targets_with_faces(state, "Chokai") == {("Fletcher", "admiral")}


def test_what_stratego_reckons_ignores_the_humans_secret_features() -> None:  # SOLO-ATK-4
    state = position(
        {"Indianapolis": {"square": "D3", "structure": 1}},
        {"Chokai": "D5"},
        solo_seat=NORTH,
        phase="attack",
        dice=[["admiral"], {"Chokai": ["artillery", "admiral=artillery"]}],
    )
    state.apply(activate(state, "Chokai", "no_radar", enemy=True))  # the human's secret assignment
    state.apply(COMMIT)
    state.apply(fire(state, "Chokai", "Indianapolis", ARTILLERY))  # 4 > 3 as far as Stratego knows
    assert state.doomed(NORTH) == {(0, slot(state, 0, "Indianapolis"))}
    state.apply(COMMIT)  # No Radar: 3 against armour 3 beyond half range, a critical but no structure lost
    assert state.unit(0, "Indianapolis").where == "board"


# --- records ----------------------------------------------------------------------------------------------------


def test_solo_positions_serialize_and_replay() -> None:  # SOLO-GEN-1
    state = solo_go({"Helena": "D1"}, {"Chokai": "D8", "Yukikaze": "F8"}, MOVEMENT)
    state.apply(state.string_to_action("move:Chokai>D7/movement"))
    state.apply(PASS)
    copy = AdmiralState.from_json(state.to_json())
    assert copy.observation(1) == state.observation(1) and copy.legal_actions() == state.legal_actions()
    assert copy.current_player() == CHANCE
    clone = state.clone()
    roll(clone, [ARTILLERY])
    assert state.phase == "solo_roll" and clone.phase == "movement"
    clone.undo()
    assert clone.observation(0) == state.observation(0)
    assert state.action_to_string(HOLD_BASE + slot(state, NORTH, "Yukikaze")) == "hold:Yukikaze"
