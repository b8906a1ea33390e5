"""Step 1: the action dice pool (ADM-DICE-*): the roll as chance nodes, spending dice, what players see."""

from __future__ import annotations

import json
import random

import pytest

from fogofwar.core import CHANCE, IllegalActionError
from fogofwar.games.admiral.actions import COMMIT, PASS, ROLL_BASE
from fogofwar.games.admiral.rules import AdmiralGame, AdmiralState

from .helpers import (
    ADMIRAL,
    ARTILLERY,
    MOVE_DC,
    MOVEMENT,
    TORPEDO,
    depth_charge,
    fire,
    move,
    position,
    roll,
)


def test_pool_is_two_dice_per_unit_on_the_battlefield() -> None:  # ADM-DICE-1
    state = position(
        {"Washington": "A1", "Wahoo": {"square": "C3", "submerged": True}, "Fletcher": {"where": "reserve"}},
        {"Yamato": "A8"},
        phase="action_dice",
        first_player=1,
    )
    assert (state.pool_size(0), state.pool_size(1)) == (4, 2)  # the submerged boat rolls, the reserve does not
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == [ROLL_BASE + f for f in range(6)]
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    roll(state, [ADMIRAL, MOVEMENT, ARTILLERY, TORPEDO])  # South's four dice, one chance node each
    assert state.current_player() == CHANCE and [f for f, _ in state.dice(0)] == [
        "admiral",
        "movement",
        "artillery",
        "torpedo+anti_aircraft",
    ]
    roll(state, [MOVE_DC, MOVE_DC])
    assert state.phase == "movement" and state.current_player() == 1  # the first player moves first
    assert [f for f, _ in state.dice(1)] == ["movement+depth_charge"] * 2
    assert all(use == "" for _, use in state.dice(0) + state.dice(1))


def test_the_roll_is_seeded_and_replayable() -> None:  # ADM-DICE-1
    def play(seed: int) -> AdmiralState:
        rng = random.Random(seed)
        state = AdmiralGame(max_turns=3).new_initial_state()
        while state.phase != "movement" or state.turn < 2:
            if state.current_player() == CHANCE:
                state.apply(rng.choice([a for a, _ in state.chance_outcomes()]))
            else:
                state.apply(rng.choice(state.legal_actions()))
        return state

    a, b = play(11), play(11)
    assert a.to_json() == b.to_json() and a.dice(0) == b.dice(0)
    rebuilt = AdmiralState.from_json(json.loads(json.dumps(a.to_json())))
    assert rebuilt.dice(0) == a.dice(0) and rebuilt.dice(1) == a.dice(1)
    assert rebuilt.observation(1).data == a.observation(1).data


def test_an_admiral_die_stands_in_for_a_basic_symbol() -> None:  # ADM-DICE-3
    state = position({"Fletcher": "C1"}, {"Yukikaze": "C8"}, dice=[["admiral"], []])
    state.apply(move(state, "Fletcher", "C3", ADMIRAL))  # the Admiral die moves the unit (case c)
    assert state.unit(0, "Fletcher").square == 18
    assert state.dice(0) == [("admiral", "move Fletcher")]
    attack = position({"Fletcher": "C5"}, {"Yukikaze": "D6"}, dice=[["admiral"], []], phase="attack")
    assert fire(attack, "Fletcher", "Yukikaze", ADMIRAL) in attack.legal_actions()  # as Artillery
    assert fire(attack, "Fletcher", "Yukikaze", ARTILLERY) not in attack.legal_actions()  # no such die


def test_a_spent_die_is_gone_and_unused_dice_do_not_carry_over() -> None:  # ADM-DICE-4
    state = position({"Fletcher": "C1"}, {"Yukikaze": "C8"}, dice=[["movement", "artillery"], ["movement"]])
    state.apply(move(state, "Fletcher", "C2"))
    assert state.dice(0) == [("movement", "move Fletcher"), ("artillery", "")]
    state.apply(PASS)  # North declines
    assert move(state, "Fletcher", "C3") not in state.legal_actions()  # spent, and Fletcher has moved anyway
    state.apply(PASS)
    state.apply(COMMIT)
    state.apply(COMMIT)
    assert state.turn == 3 and state.phase == "initiative"  # the turn ended: the pools are empty again
    assert state.dice(0) == [] and state.dice(1) == []


def test_a_two_symbol_face_is_used_as_one_of_them() -> None:  # ADM-DICE-5
    south = {"Fletcher": "C3"}
    north = {"I-19": {"square": "C3", "submerged": True}, "Yukikaze": "H8"}
    state = position(south, north, dice=[["movement+depth_charge"], []])
    assert move(state, "Fletcher", "C4", MOVE_DC) in state.legal_actions()
    state.apply(PASS)  # South keeps the die for the depth charge (its Movement results are lost: ADM-MOVE-5)
    state.apply(PASS)
    assert state.phase == "attack"
    state.apply(depth_charge(state, "Fletcher"))  # the same face, as a Depth charge
    assert state.dice(0) == [("movement+depth_charge", "attack: depth charge Fletcher > I-19")]
    used = position(south, north, dice=[["movement+depth_charge"], []])
    used.apply(move(used, "Fletcher", "C2", MOVE_DC))  # spent as Movement: no depth charge left
    used.apply(PASS)
    used.apply(PASS)
    assert used.legal_actions() == [COMMIT]
    with pytest.raises(IllegalActionError, match="Fletcher is not on the battlefield|no enemy submerged"):
        used.apply(depth_charge(used, "Fletcher"))


def test_an_action_names_the_face_it_spends() -> None:  # ADM-DICE-8
    state = position(
        {"Fletcher": "C1"}, {"Yukikaze": "C8"}, dice=[["admiral", "movement", "movement+depth_charge", "movement"], []]
    )
    paid = {move(state, "Fletcher", "C2", face) for face in (MOVEMENT, MOVE_DC, ADMIRAL)}
    assert paid <= set(state.legal_actions())  # three different actions
    state.apply(move(state, "Fletcher", "C2", MOVEMENT))
    assert [use for _, use in state.dice(0)] == ["", "move Fletcher", "", ""]  # the first unused die of that face


def test_both_pools_are_public_but_secret_assignments_are_not() -> None:  # ADM-DICE-1, ADM-GEN-5, ADM-ATK-1
    state = position(
        {"Fletcher": "C5"},
        {"Yukikaze": "D6"},
        dice=[["movement", "artillery"], ["artillery", "admiral"]],
    )
    for viewer in (0, 1):
        fleets = state.observation(viewer).data["fleets"]
        assert [d["face"] for d in fleets[0]["dice"]] == ["movement", "artillery"]
        assert [d["face"] for d in fleets[1]["dice"]] == ["artillery", "admiral"]
    state.apply(move(state, "Fletcher", "C4"))
    assert state.observation(1).data["fleets"][0]["dice"][0]["used"] == "move Fletcher"  # moves are public
    state.apply(PASS)
    state.apply(PASS)
    state.apply(fire(state, "Fletcher", "Yukikaze"))
    north_view = state.observation(1).data["fleets"][0]
    assert north_view["dice"][1]["used"] is None and north_view["orders"] is None  # hidden from North
    south_view = state.observation(0).data["fleets"][0]
    assert south_view["dice"][1]["used"].startswith("attack:") and len(south_view["orders"]) == 1
