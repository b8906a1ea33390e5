"""Step 4: aircraft (ADM-AIR-*) and the special rules of air combat (ADM-G03, ADM-G04, ADM-R01, ADM-R03 against
bombers), on crafted positions with the air-combat dice chosen by the test."""

from __future__ import annotations

from typing import Any

import pytest

from fogofwar.core import CHANCE, IllegalActionError
from fogofwar.games.admiral.actions import (
    AA_PICK_BASE,
    AIR_DONE,
    AIR_PASS,
    AIRBORNE_BASE,
    COMMIT,
    CRITICAL_BASE,
    ESCORT_PICK_BASE,
    LAUNCH_BASE,
    PASS,
    PROTECT_BASE,
    SQUADRON_BASE,
    STRIKE_BASE,
    encode_squadron,
)
from fogofwar.games.admiral.rules import AdmiralState

from .helpers import (
    ADMIRAL,
    ART_AA,
    ARTILLERY,
    MOVEMENT,
    TORPEDO,
    activate,
    fire,
    position,
    roll,
    slot,
)

FIGHTER, BOMBER, TORPEDO_BOMBER = 0, 1, 2
NO_AA = ARTILLERY  # a face without the Anti-aircraft symbol
AA = ART_AA


def launch(state: AdmiralState, carrier: str) -> int:
    return LAUNCH_BASE + slot(state, state.current_player(), carrier)


def strike(state: AdmiralState, carrier: str) -> int:
    return STRIKE_BASE + slot(state, state.current_player(), carrier)


def protect(state: AdmiralState, ship: str) -> int:
    return PROTECT_BASE + slot(state, state.current_player(), ship)


def squadron(state: AdmiralState, kind: int, target: str, place: int = 0) -> int:
    p = state.current_player()
    return SQUADRON_BASE + encode_squadron(kind, slot(state, 1 - p, target), place)


def to_air(state: AdmiralState) -> None:
    """Both players decline to move: the attack phase opens with the air attacks."""
    while state.phase == "movement":
        state.apply(PASS)


def alive(state: AdmiralState, owner: int, kind: int) -> int:
    return sum(1 for s in state.sorties() if s.owner == owner and s.kind == kind and s.alive)


def air(south: dict[str, Any], north: dict[str, Any], dice: Any, **kw: Any) -> AdmiralState:
    return position(south, north, dice=dice, **kw)


def fighters_meet(dice: Any, guards: int = 1, raiders: Any = ((FIGHTER, 0),), **kw: Any) -> AdmiralState:
    """Enterprise (South) strikes Shokaku (North), which `guards` of its fighters protect, with the `raiders`
    ((squadron type, place) each); North acts first in the turn, so its launch comes first."""
    state = air({"Enterprise": "A1", "Washington": "H1"}, {"Shokaku": "D6", "Yamato": "H8"}, dice, first_player=1, **kw)
    state.apply(launch(state, "Shokaku"))
    for _ in range(guards):
        state.apply(protect(state, "Shokaku"))
    state.apply(AIR_DONE)
    to_air(state)
    state.apply(strike(state, "Enterprise"))
    for kind, place in raiders:
        state.apply(squadron(state, kind, "Shokaku", place))
    state.apply(AIR_DONE)
    return state


def test_combat_air_patrol_launch_in_the_movement_phase() -> None:  # ADM-AIR-1
    state = air({"Enterprise": "A1", "Washington": "C1"}, {"Yamato": "H8"}, [["admiral", "movement"], []])
    assert launch(state, "Enterprise") in state.legal_actions()
    state.apply(launch(state, "Enterprise"))
    assert state.phase == "launch" and state.current_player() == 0
    assert AIR_DONE not in state.legal_actions()  # at least one squadron
    state.apply(protect(state, "Washington"))
    state.apply(AIRBORNE_BASE + BOMBER)
    assert state.string_to_action("airborne:torpedo_bomber") == AIRBORNE_BASE + TORPEDO_BOMBER
    state.apply(AIRBORNE_BASE + TORPEDO_BOMBER)  # the third squadron ends the launch
    assert state.phase == "movement" and state.current_player() == 1  # the launch took South's go
    assert state.unit(0, "Enterprise").squadrons == (1, 1, 1)
    roles = sorted((s.kind, s.role) for s in state.sorties())
    assert roles == [(FIGHTER, "cap"), (BOMBER, "airborne"), (TORPEDO_BOMBER, "airborne")]
    view = state.observation(1).data["air"]
    assert {"carrier": "Enterprise", "type": "fighter", "role": "cap", "ship": "Washington"}.items() <= view[0].items()


def test_an_air_attack_in_the_attack_phase() -> None:  # ADM-AIR-2, ADM-AIR-13, ADM-AIR-14, ADM-AIR-12
    state = air(
        {"Enterprise": "A1", "Washington": "H1"},
        {"Kirishima": "D6", "Yamato": "H8"},
        [["admiral"], []],
    )
    to_air(state)
    assert state.phase == "air" and state.current_player() == 0
    assert state.legal_actions() == sorted([AIR_PASS, strike(state, "Enterprise")])
    state.apply(strike(state, "Enterprise"))
    assert state.phase == "strike"
    tb_places = {
        a
        for a in state.legal_actions()
        if a in (squadron(state, TORPEDO_BOMBER, "Kirishima", 1), squadron(state, TORPEDO_BOMBER, "Kirishima", 2))
    }
    assert len(tb_places) == 2  # C6 and E6 are free water beside Kirishima
    state.apply(squadron(state, BOMBER, "Kirishima"))
    state.apply(squadron(state, BOMBER, "Kirishima"))
    action = squadron(state, TORPEDO_BOMBER, "Kirishima", 1)
    assert state.action_to_string(action) == "squadron:torpedo_bomber>Kirishima@C6"
    state.apply(action)
    assert state.legal_actions() == [AIR_DONE]  # three squadrons at most
    state.apply(AIR_DONE)
    assert state.current_player() == CHANCE  # Kirishima's anti-aircraft: 2 dice (Yamato is too far)
    roll(state, [NO_AA, AA])  # one hit: North chooses which squadron falls
    assert state.phase == "aa_pick" and state.current_player() == 1
    assert state.legal_actions() == [AA_PICK_BASE + BOMBER, AA_PICK_BASE + TORPEDO_BOMBER]
    state.apply(AA_PICK_BASE + BOMBER)
    # one bomber (coefficient 2 < armour 4: nothing) and the torpedo bomber (critical and a structure point)
    assert state.phase == "criticals" and state.current_player() == 0
    state.apply(CRITICAL_BASE + 0)
    kirishima = state.unit(1, "Kirishima")
    assert kirishima.structure == 5 and [ch for ch, _ in kirishima.criticals] == ["movement"]
    assert state.phase == "attack" and state.current_player() == 0  # no more air attacks: the naval assignment
    assert alive(state, 0, BOMBER) == 1


def test_the_defender_chooses_what_its_protecting_fighters_take_on() -> None:  # ADM-AIR-8
    """Two fighters protect Shokaku against a fighter, a torpedo bomber and a bomber: the first must take on
    the attacking fighter; the second takes on the attack squadron North chooses (here the bomber), and the
    torpedo bomber goes on unopposed."""
    state = fighters_meet(
        [["admiral"], ["admiral"]], guards=2, raiders=((FIGHTER, 0), (TORPEDO_BOMBER, 1), (BOMBER, 0))
    )
    while state.phase == "air_react":
        state.apply(AIR_DONE)
    assert state.phase == "escort_pick" and state.current_player() == 1
    assert state.legal_actions() == [ESCORT_PICK_BASE + BOMBER, ESCORT_PICK_BASE + TORPEDO_BOMBER]
    assert state.action_to_string(ESCORT_PICK_BASE + BOMBER) == "intercept:bomber"
    state.apply(state.string_to_action("intercept:bomber"))
    assert state.current_player() == CHANCE
    roll(state, [ARTILLERY, MOVEMENT, MOVEMENT])  # fighter duel: North's Artillery wins; then the bomber falls
    assert alive(state, 0, FIGHTER) == 0 and alive(state, 0, BOMBER) == 0 and alive(state, 0, TORPEDO_BOMBER) == 1


def test_anti_aircraft_may_shoot_down_an_escort_fighter() -> None:  # ADM-AIR-12
    """Each hit destroys "one attacking squadron", the defender's choice: an escort fighter too."""
    state = air({"Enterprise": "A1", "Washington": "H1"}, {"Kirishima": "D6", "Yamato": "H8"}, [["admiral"], []])
    to_air(state)
    state.apply(strike(state, "Enterprise"))
    state.apply(squadron(state, FIGHTER, "Kirishima"))
    state.apply(squadron(state, BOMBER, "Kirishima"))
    state.apply(AIR_DONE)
    roll(state, [NO_AA, AA])  # one hit
    assert state.phase == "aa_pick" and state.current_player() == 1
    assert state.legal_actions() == [AA_PICK_BASE + FIGHTER, AA_PICK_BASE + BOMBER]
    state.apply(AA_PICK_BASE + FIGHTER)
    assert alive(state, 0, FIGHTER) == 0 and alive(state, 0, BOMBER) == 1  # the bomber goes on to strike


def test_a_carrier_launches_once_a_turn() -> None:  # ADM-AIR-3
    state = air({"Enterprise": "A1"}, {"Kirishima": "D6"}, [["admiral", "admiral"], []])
    state.apply(launch(state, "Enterprise"))
    state.apply(protect(state, "Enterprise"))
    state.apply(AIR_DONE)
    state.apply(PASS)  # North
    assert state.current_player() == 0
    assert launch(state, "Enterprise") not in state.legal_actions()  # still one Admiral die, but launched
    state.apply(PASS)
    assert state.phase == "attack"  # no airborne attack squadrons, no second launch: no air attack


def test_squadrons_land_at_the_end_of_the_turn_unless_their_carrier_sank() -> None:  # ADM-AIR-4
    state = air(
        {"Enterprise": {"square": "C5", "structure": 1}, "Washington": "H1"},
        {"Kirishima": "C7", "Yamato": "H8"},
        [["admiral"], ["artillery", "artillery"]],
    )
    state.apply(launch(state, "Enterprise"))
    state.apply(protect(state, "Washington"))
    state.apply(AIR_DONE)
    to_air(state)
    state.apply(COMMIT)
    state.apply(fire(state, "Kirishima", "Enterprise"))
    state.apply(fire(state, "Kirishima", "Enterprise"))
    state.apply(COMMIT)
    assert state.unit(0, "Enterprise").where == "sunk" and state.unit(0, "Enterprise").squadrons == (0, 0, 0)
    assert state.turn == 3 and state.sorties() == []  # its fighter, still in the air, is lost with it
    kept = air({"Enterprise": "A1", "Washington": "C1"}, {"Yamato": "H8"}, [["admiral"], []])
    kept.apply(launch(kept, "Enterprise"))
    kept.apply(protect(kept, "Washington"))
    kept.apply(AIR_DONE)
    to_air(kept)
    kept.apply(COMMIT)
    kept.apply(COMMIT)
    assert kept.unit(0, "Enterprise").squadrons == (2, 2, 2)  # back aboard


def test_air_attacks_take_effect_at_once() -> None:  # ADM-AIR-5
    state = air(
        {"Enterprise": "A1", "Washington": "H1"},
        {"Yukikaze": {"square": "D6", "structure": 1}, "Yamato": "H8"},
        [["admiral"], ["artillery"]],
    )
    to_air(state)
    state.apply(strike(state, "Enterprise"))
    state.apply(squadron(state, TORPEDO_BOMBER, "Yukikaze", 1))
    state.apply(AIR_DONE)
    roll(state, [NO_AA])  # Yukikaze's single anti-aircraft die misses
    assert state.unit(1, "Yukikaze").where == "sunk"  # before any naval attack: it will not fire this turn
    assert state.phase == "attack"
    state.apply(COMMIT)
    assert state.legal_actions() == [COMMIT]


def test_no_air_attack_on_submerged_boats_or_in_fog() -> None:  # ADM-AIR-6
    state = air(
        {"Enterprise": "A1"},
        {"I-19": {"square": "D5", "submerged": True}, "Yukikaze": "D4"},
        [["admiral"], []],
        layout={"D4": "fog_bank"},
    )
    to_air(state)
    assert state.phase == "attack"  # nothing to attack from the air: no air step at all


def test_protecting_fighters_fight_first_and_take_fighters_first() -> None:  # ADM-AIR-7, ADM-AIR-8, ADM-AIR-11
    state = air(
        {"Enterprise": "A1", "Washington": "H1"},
        {"Shokaku": "D6", "Yamato": "H8"},
        [["admiral"], ["admiral"]],
        first_player=1,
    )
    state.apply(launch(state, "Shokaku"))  # North's fighter protects Shokaku
    state.apply(protect(state, "Shokaku"))
    state.apply(AIR_DONE)
    to_air(state)
    assert state.current_player() == 0  # North's carrier launched already and keeps nothing to attack
    state.apply(strike(state, "Enterprise"))
    state.apply(squadron(state, BOMBER, "Shokaku"))
    state.apply(squadron(state, FIGHTER, "Shokaku"))
    state.apply(AIR_DONE)
    roll(state, [ADMIRAL, MOVEMENT])  # the duel is fought with the attacking fighter: North's fighter wins
    assert alive(state, 0, FIGHTER) == 0 and alive(state, 0, BOMBER) == 1
    roll(state, [NO_AA, NO_AA])  # Shokaku's anti-aircraft (2) misses; the bomber: 2 against armour 2
    assert state.phase == "criticals"
    report = state.observation(0).data["report"]
    order = [i for i, line in enumerate(report) if "ADM-AIR-9" in line or "ADM-AIR-12" in line or "AIR-13" in line]
    assert order == sorted(order) and len(order) == 3  # fighters, anti-aircraft, then the strike


def test_fighter_duels() -> None:  # ADM-AIR-9
    def duel(rolls: list[int]) -> AdmiralState:
        state = fighters_meet([["admiral"], ["admiral"]])
        roll(state, rolls)  # North's fighter first, then South's
        return state

    win = duel([MOVEMENT, ARTILLERY])  # Artillery beats Movement (ADM-DICE-6): South wins
    assert alive(win, 1, FIGHTER) == 0 and alive(win, 0, FIGHTER) == 1
    tie = duel([ARTILLERY, ART_AA])  # both rank as Artillery: a tie
    assert alive(tie, 1, FIGHTER) == 1 and alive(tie, 0, FIGHTER) == 1
    assert [s.held for s in tie.sorties() if s.owner == 0] == [True]  # the escort is held off


@pytest.mark.parametrize(
    ("rolls", "south_wins"),
    [
        ([ARTILLERY, MOVEMENT], True),  # Movement beats Artillery
        ([MOVEMENT, ADMIRAL], True),  # Admiral beats everything
        ([ARTILLERY, ART_AA], True),  # Artillery/Anti-aircraft beats plain Artillery
        ([ART_AA, MOVEMENT], True),
        ([MOVEMENT, TORPEDO], False),  # a Torpedo face ranks lowest: North's Movement wins
    ],
)
def test_fighter_duels_in_the_duel_paragraphs_order(rolls: list[int], south_wins: bool) -> None:  # ADM-DICE-6
    """`duel_order="paragraph"`: "un risultato Ammiraglio batte Movimento e Artiglieria, un risultato Movimento
    batte Artiglieria, un risultato Artiglieria/Contraerea batte ... Artiglieria" (North rolls first)."""
    state = fighters_meet([["admiral"], ["admiral"]], readings={"duel_order": "paragraph"})
    roll(state, rolls)
    assert (alive(state, 1, FIGHTER), alive(state, 0, FIGHTER)) == ((0, 1) if south_wins else (1, 0))


def test_fighters_against_attack_squadrons() -> None:  # ADM-AIR-10
    def attacked(fighter_roll: int, kind: int) -> AdmiralState:
        state = fighters_meet([["admiral"], ["admiral"]], raiders=((kind, 0 if kind == BOMBER else 1),))
        roll(state, [fighter_roll])
        return state

    assert alive(attacked(MOVEMENT, BOMBER), 0, BOMBER) == 0  # Movement destroys a bomber
    assert alive(attacked(ARTILLERY, BOMBER), 0, BOMBER) == 1
    assert alive(attacked(ARTILLERY, TORPEDO_BOMBER), 0, TORPEDO_BOMBER) == 0  # Artillery a torpedo bomber
    assert alive(attacked(MOVEMENT, TORPEDO_BOMBER), 0, TORPEDO_BOMBER) == 1


def test_anti_aircraft_dice_and_who_fires() -> None:  # ADM-AIR-12, ADM-AIR-13
    # Kirishima (AA 2) is attacked; Jintsu beside it (AA 1) helps; Chokai is under attack itself: it does not
    state = air(
        {"Enterprise": "A1", "Washington": "H1"},
        {"Kirishima": "D6", "Jintsu": "E7", "Chokai": "C6", "Yamato": "H8"},
        [["admiral"], []],
    )
    to_air(state)
    state.apply(strike(state, "Enterprise"))
    state.apply(squadron(state, BOMBER, "Kirishima"))
    state.apply(squadron(state, BOMBER, "Chokai"))
    state.apply(AIR_DONE)
    roll(state, [NO_AA, NO_AA, NO_AA])  # 2 + 1 dice against the bomber on Kirishima
    assert state.observation(0).data["strike"]["target"] == "Chokai" and state.current_player() == CHANCE
    assert "anti-aircraft fire: 3 dice, 0 hits (ADM-AIR-12)" in state.observation(0).data["report"]
    roll(state, [NO_AA, NO_AA])  # Chokai's own 2 (Jintsu fired already, Kirishima is under attack)
    assert state.phase == "attack"
    marked = air(
        {"Enterprise": "A1", "Washington": "H1"},
        {"Kirishima": {"square": "D6", "criticals": {"anti_aircraft": 1}}, "Yamato": "H8"},
        [["admiral"], []],
    )
    to_air(marked)
    marked.apply(strike(marked, "Enterprise"))
    marked.apply(squadron(marked, BOMBER, "Kirishima"))
    marked.apply(AIR_DONE)
    assert marked.current_player() != CHANCE  # its anti-aircraft has a critical: no dice at all


def test_bombers_combine_their_coefficients() -> None:  # ADM-AIR-13
    state = air(
        {"Enterprise": "A1", "Washington": "H1"},
        {"Yukikaze": {"square": "D6", "criticals": {"anti_aircraft": 1}}, "Yamato": "H8"},
        [["admiral"], []],
    )
    to_air(state)
    state.apply(strike(state, "Enterprise"))
    state.apply(squadron(state, BOMBER, "Yukikaze"))
    state.apply(squadron(state, BOMBER, "Yukikaze"))
    state.apply(AIR_DONE)
    assert state.phase == "criticals"  # 2 + 2 = 4 > armour 2: critical and a structure point
    state.apply(CRITICAL_BASE + 1)
    assert state.unit(1, "Yukikaze").structure == 1


def test_torpedo_bombers_need_a_free_square_beside_the_target() -> None:  # ADM-AIR-14
    state = air(
        {"Enterprise": "A1", "Washington": "H1"},
        {"Yamato": "D6", "Kirishima": "C6"},
        [["admiral"], []],
        layout={"E6": "island"},
    )
    to_air(state)
    state.apply(strike(state, "Enterprise"))
    legal = state.legal_actions()
    assert squadron(state, TORPEDO_BOMBER, "Yamato", 1) not in legal  # C6 holds Kirishima
    assert squadron(state, TORPEDO_BOMBER, "Yamato", 2) not in legal  # E6 is an island
    assert squadron(state, TORPEDO_BOMBER, "Kirishima", 1) in legal  # B6 is free
    with pytest.raises(IllegalActionError):
        state.apply(squadron(state, TORPEDO_BOMBER, "Yamato", 2))


def test_armoured_fighters_make_the_winner_roll_again() -> None:  # ADM-G03, ADM-AIR-15
    """Offered to the loser once the duel's dice are seen (ADM-AIR-15), never before the fight."""

    def duel(rerolled: int) -> AdmiralState:
        state = fighters_meet([["admiral", "admiral"], ["admiral"]])
        assert state.phase == "air_roll"  # no feature changes a roll before it is seen: the dice first
        roll(state, [ADMIRAL, MOVEMENT])  # South's fighter loses...
        assert state.phase == "air_react" and state.current_player() == 0  # ...and South may save it
        assert state.legal_actions() == sorted([AIR_DONE, activate(state, "Enterprise", "armoured_fighters")])
        state.apply(activate(state, "Enterprise", "armoured_fighters"))
        roll(state, [rerolled])  # North rolls again
        return state

    saved = duel(MOVEMENT)  # the new roll ties: a tie instead of a loss
    assert alive(saved, 0, FIGHTER) == 1 and alive(saved, 1, FIGHTER) == 1
    lost = duel(ADMIRAL)  # the new roll still wins
    assert alive(lost, 0, FIGHTER) == 0
    won = fighters_meet([["admiral", "admiral"], ["admiral"]])
    roll(won, [MOVEMENT, ADMIRAL])  # South's fighter wins: nothing to offer, no die spent
    assert alive(won, 1, FIGHTER) == 0 and len(won.dice(0)) == 2


def test_superior_fighters_win_ties() -> None:  # ADM-G04
    state = fighters_meet([["admiral"], ["admiral", "admiral"]])
    roll(state, [MOVEMENT, MOVEMENT])  # a tie: North, the defender, may now have its Superior Fighters win it
    assert state.phase == "air_react" and state.current_player() == 1
    state.apply(activate(state, "Shokaku", "superior_fighters"))
    assert alive(state, 0, FIGHTER) == 0 and alive(state, 1, FIGHTER) == 1


def test_a_feature_offered_after_the_dice_may_be_declined() -> None:  # ADM-AIR-15, ADM-G04
    """Declined, the tie stands (the escort is held off), the die is kept and the offer is not made again."""
    state = fighters_meet([["admiral"], ["admiral", "admiral"]])
    roll(state, [MOVEMENT, MOVEMENT])
    assert state.phase == "air_react" and state.current_player() == 1
    left = len(state.dice(1))
    state.apply(AIR_DONE)
    assert state.phase != "air_react" and len(state.dice(1)) == left
    assert alive(state, 0, FIGHTER) == 1 and alive(state, 1, FIGHTER) == 1
    assert [s.held for s in state.sorties() if s.owner == 0] == [True]


def test_obsolete_attack_aircraft_let_anti_aircraft_roll_again() -> None:  # ADM-R01
    state = air(
        {"Enterprise": "A1", "Washington": "H1"},
        {"Kirishima": "D6", "Yamato": "H8"},
        [["admiral"], ["admiral"]],
    )
    to_air(state)
    state.apply(strike(state, "Enterprise"))
    state.apply(squadron(state, BOMBER, "Kirishima"))
    state.apply(AIR_DONE)
    roll(state, [NO_AA, NO_AA])  # both miss: now North may spend its Admiral die on Enterprise's red feature
    assert state.phase == "air_react" and state.current_player() == 1
    state.apply(activate(state, "Enterprise", "obsolete_attack_aircraft", enemy=True))
    assert state.current_player() == CHANCE  # ...and the misses are rolled again
    roll(state, [AA, NO_AA])
    assert alive(state, 0, BOMBER) == 0


def test_obsolete_counts_against_bombers() -> None:  # ADM-R03, ADM-AIR-13
    state = air(
        {"Enterprise": "A1", "Washington": "H1"},
        {"Kirishima": {"square": "D6", "criticals": {"anti_aircraft": 1}}, "Yamato": "H8"},
        [["admiral", "admiral"], []],
    )
    to_air(state)
    state.apply(strike(state, "Enterprise"))
    state.apply(squadron(state, BOMBER, "Kirishima"))
    state.apply(squadron(state, BOMBER, "Kirishima"))
    state.apply(AIR_DONE)
    assert state.phase == "air_react" and state.current_player() == 0
    state.apply(activate(state, "Kirishima", "obsolete", enemy=True))
    state.apply(AIR_DONE)
    state.apply(CRITICAL_BASE + 0)  # 4 against 4 - 2: critical and a structure point
    assert state.unit(1, "Kirishima").structure == 5
