"""The solo-mode agent "stratego" (docs/rules/admiral-solo.md): targeting hierarchy, dice table, the
doomed-unit rule, legality, explanations, the options it asks for, and property tests over random games.
Each decision is tested under the solo rules (`solo_seat`) and, where the agent also plays them, under the
normal two-player rules."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.games.admiral.helpers import ADMIRAL, ARTILLERY, MOVEMENT, position, roll

from fogofwar.core import CHANCE, GameError
from fogofwar.core.agents import RandomAgent, agent_game_options, make_agent
from fogofwar.core.match import play_match
from fogofwar.games.admiral.actions import AIR_PASS, COMMIT, DECLINE, PASS, decode
from fogofwar.games.admiral.data_model import default_ruleset, square_name
from fogofwar.games.admiral.rules import AdmiralGame, AdmiralState
from fogofwar.games.admiral.solo import SOLO_TABLE, Explanation, StrategoAgent, solo_value
from fogofwar.tools.arena import GameTask, Player, play_game

from .test_solo_rules import to_solo_attack

RULE_ID = re.compile(r"^SOLO-[A-Z]+-\d+$")


def decide(state: AdmiralState) -> tuple[StrategoAgent, int]:
    agent = StrategoAgent()
    player = state.current_player()
    agent.start(state.game, player, random.Random(1))
    action = agent.act(state.observation(player), state.legal_actions())
    assert action in state.legal_actions()
    return agent, action


def first_fire(south: dict[str, Any], north: dict[str, Any], solo: bool) -> tuple[str, str]:
    """The target name of the agent's (South's) first fire order and the rule that chose it; `solo`: under the
    solo rules, the shooter holding its row-4 dice (the rolled Artillery and its Admiral as Artillery)."""
    if solo:
        (name,) = south
        dice: list[Any] = [{name: ["artillery", "admiral=artillery", "admiral=symbol"]}, []]
        state = position(south, north, dice=dice, phase="attack", solo_seat=0)
    else:
        state = position(south, north, dice=[["artillery"] * 4, []], phase="attack")
    agent, action = decide(state)
    d = decode(action)
    assert d.kind == "fire", agent.explanations
    assert agent.log[-1].rule == "SOLO-ATK-1"
    return state.units(1)[d.target].card.name, agent.explanations[-1]


# --- SOLO-ATK-1: one test per level of the hierarchy (SOLO-ATK-1 reading of each level) -------------------

SOLO = pytest.mark.parametrize("solo", [True, False], ids=["solo-rules", "normal-rules"])


@SOLO
def test_level1_the_unit_that_can_damage_it(solo: bool) -> None:  # SOLO-ATK-1
    target, why = first_fire({"Washington": "D1"}, {"Shokaku": "D4", "Chokai": "F5"}, solo)
    assert target == "Chokai" and "priority 1" in why


@SOLO
def test_level2_severe_damage(solo: bool) -> None:  # SOLO-ATK-1
    target, why = first_fire({"Fletcher": "D1"}, {"Kirishima": "C3", "Chokai": "F3"}, solo)
    assert target == "Chokai" and "priority 2" in why


@SOLO
def test_level3_light_damage(solo: bool) -> None:  # SOLO-ATK-1
    target, why = first_fire({"Fletcher": "D1"}, {"Kirishima": "C3", "Yamato": "E3"}, solo)
    assert target == "Kirishima" and "priority 3" in why


@SOLO
def test_level4_fewest_structure_points(solo: bool) -> None:  # SOLO-ATK-1
    target, why = first_fire({"Fletcher": "D1"}, {"Yukikaze": "C3", "Shigure": {"square": "E3", "structure": 1}}, solo)
    assert target == "Shigure" and "priority 4" in why


@SOLO
def test_level5_strongest_artillery(solo: bool) -> None:  # SOLO-ATK-1
    target, why = first_fire({"Fletcher": "D1"}, {"Jintsu": "C3", "Chokai": {"square": "E3", "structure": 3}}, solo)
    assert target == "Chokai" and "priority 5" in why


@SOLO
def test_level6_nearest(solo: bool) -> None:  # SOLO-ATK-1
    target, why = first_fire({"Washington": "D1"}, {"Shigure": "G4", "Yukikaze": "D3"}, solo)
    assert target == "Yukikaze" and "priority 6" in why


def test_shortest_range_first_and_concentration() -> None:  # SOLO-ATK-2, SOLO-ATK-3
    state = position(
        {"Washington": "D1", "Helena": "E1"},
        {"Chokai": "E4"},
        dice=[{"Washington": ["artillery", "admiral=artillery"], "Helena": ["artillery", "admiral=artillery"]}, []],
        phase="attack",
        solo_seat=0,
    )
    fired = play_attack(state, 0)
    assert fired[:2] == ["Helena>Chokai", "Helena>Chokai"]  # range 3 before range 4, both dice on one target
    assert "Washington>Chokai" in fired


# --- SOLO-TAB: the dice table, one test per row under the solo rules (Stratego is North) --------------------


def play_attack(state: AdmiralState, player: int, agent: StrategoAgent | None = None) -> list[str]:
    """The agent's attack orders, "Shooter>Target" each, until it commits."""
    if agent is None:
        agent = StrategoAgent()
        agent.start(state.game, player, random.Random(1))
    fired: list[str] = []
    for _ in range(12):
        action = agent.act(state.observation(player), state.legal_actions())
        assert action in state.legal_actions()
        if action == COMMIT:
            return fired
        d = decode(action)
        if d.kind == "fire":
            fired.append(f"{state.units(player)[d.slot].card.name}>{state.units(1 - player)[d.target].card.name}")
        state.apply(action)
    raise AssertionError("the agent never committed")


def solo_decide(south: dict[str, Any], north: dict[str, Any], face: int) -> tuple[StrategoAgent, AdmiralState, int]:
    """Stratego (North) decides its acting unit's go after `face` was rolled for it."""
    state = position(south, north, solo_seat=1, player=1)
    roll(state, [face])
    agent, action = decide(state)
    return agent, state, action


def test_solo_row1_moves_until_a_battery_reaches() -> None:  # SOLO-TAB-1, SOLO-MOVE-3
    agent, _, action = solo_decide({"Helena": "D3"}, {"Chokai": "D8"}, MOVEMENT)
    d = decode(action)
    assert d.kind == "move" and square_name(d.square) == "D6"  # from D6 the main battery (range 3) reaches D3
    assert agent.log[-1].rule == "SOLO-TAB-1" and "SOLO-MOVE-3" in agent.log[-1].text


def test_solo_row1_no_damageable_target_closes_in_out_of_range() -> None:  # SOLO-TAB-1, SOLO-MOVE-4
    # I-19's deck gun (coefficient 1) cannot hurt Washington: close in, outside Washington's range 4
    agent, _, action = solo_decide({"Washington": "D1"}, {"I-19": "D8"}, MOVEMENT)
    d = decode(action)
    assert d.kind == "move" and square_name(d.square) == "D6"
    assert agent.log[-1].rule == "SOLO-TAB-1" and "SOLO-MOVE-4" in agent.log[-1].text


def test_solo_row2_holds() -> None:  # SOLO-TAB-2, SOLO-MOVE-2
    agent, _, action = solo_decide({"Helena": "D3"}, {"Chokai": "D5"}, MOVEMENT)
    assert decode(action).kind == "hold"
    assert agent.log[-1].rule == "SOLO-TAB-2" and "moving 0 squares" in agent.log[-1].text


def test_solo_row3_moves_with_its_admiral() -> None:  # SOLO-TAB-3
    agent, state, action = solo_decide({"Helena": "D3"}, {"Chokai": "D8"}, ARTILLERY)
    d = decode(action)
    assert d.kind == "move" and square_name(d.square) == "D6" and state.face_label(d.face) == "admiral"
    assert agent.log[-1].rule == "SOLO-TAB-3"


def test_solo_row4_holds_then_fires_both_dice() -> None:  # SOLO-TAB-4
    agent, state, action = solo_decide({"Helena": "D3"}, {"Chokai": "D5"}, ARTILLERY)
    assert decode(action).kind == "hold" and agent.log[-1].rule == "SOLO-TAB-4"
    state.apply(action)
    to_solo_attack(state)
    assert play_attack(state, 1, agent) == ["Chokai>Helena", "Chokai>Helena"]
    assert {"SOLO-ATK-1", "SOLO-ATK-3"} <= {e.rule for e in agent.log}


def test_solo_row5_repairs_then_moves() -> None:  # SOLO-TAB-5
    agent, state, action = solo_decide({"Helena": "D3"}, {"Chokai": {"square": "D8", "structure": 2}}, ADMIRAL)
    assert state.unit(1, "Chokai").structure == 3
    assert decode(action).kind == "move" and agent.log[-1].rule == "SOLO-TAB-5"


def test_slowest_first_and_every_explanation_has_a_rule() -> None:  # SOLO-MOVE-1, SOLO-EXP-1
    state = position({"Helena": "D1"}, {"Chokai": "B8", "Yamato": "D8"}, solo_seat=1, player=1)
    agent = StrategoAgent()
    agent.start(state.game, 1, random.Random(2))
    moved: list[str] = []
    for face in (MOVEMENT, ARTILLERY):
        roll(state, [face])
        action = agent.act(state.observation(1), state.legal_actions())
        moved.append(state.units(1)[decode(action).slot].card.name)
        state.apply(action)
        state.apply(PASS)
    assert moved == ["Yamato", "Chokai"]
    drained = agent.drain_explanations()
    assert len(drained) == 2 and all(isinstance(e, Explanation) and RULE_ID.match(e.rule) for e in drained)
    assert agent.drain_explanations() == []
    assert str(drained[0]).startswith("[SOLO-TAB-1] turn 2: Yamato")
    assert drained[0].to_json()["rule"] == "SOLO-TAB-1"


# --- the same table read on the common pool (normal rules) ------------------------------------------------


def test_table_rows_and_reconstructed_column() -> None:  # SOLO-TAB-1..5
    assert set(SOLO_TABLE) == {(r, c) for r in ("move", "fire", "repair") for c in (False, True)}
    assert solo_value("move", False).startswith("SOLO-TAB-1")
    assert solo_value("move", True).startswith("SOLO-TAB-2")
    assert solo_value("fire", False).startswith("SOLO-TAB-3")
    assert solo_value("fire", True).startswith("SOLO-TAB-4")
    assert solo_value("repair", True).startswith("SOLO-TAB-5")
    solo = {"+".join(s.value for s in f.symbols): f.solo for f in default_ruleset().die.faces}
    assert solo["admiral"] == "repair"  # the Italian "the two admirals" row (Assumption A08)
    assert {solo["movement"], solo["movement+depth_charge"]} == {"move"}
    assert {solo["artillery"], solo["artillery+anti_aircraft"], solo["torpedo+anti_aircraft"]} == {"fire"}


def test_normal_row1_no_enemy_in_range_moves_until_a_battery_reaches() -> None:  # SOLO-AI-2
    state = position({"Helena": "D1"}, {"Chokai": "D6"}, dice=[["movement"], ["artillery"]])
    agent, action = decide(state)
    d = decode(action)
    assert d.kind == "move" and "SOLO-TAB-1" in agent.explanations[-1]
    assert square_name(d.square) == "D3"  # Helena moves 2: from D3 the main battery (range 3) reaches D6


def test_normal_row1_no_damageable_target_closes_in_out_of_range() -> None:  # SOLO-AI-2
    # Wahoo's deck gun (coefficient 1) cannot hurt Kirishima: close in, outside Kirishima's range 4
    state = position({"Wahoo": "D1"}, {"Kirishima": "D8"}, dice=[["movement"], ["artillery"]])
    agent, action = decide(state)
    d = decode(action)
    assert d.kind == "move" and "SOLO-MOVE-4" in agent.explanations[-1]
    assert square_name(d.square) == "D3"


def test_normal_row2_enemies_in_range_holds() -> None:  # SOLO-AI-2
    state = position({"Helena": "D1"}, {"Chokai": "D3"}, dice=[["movement"], ["artillery"]])
    agent, action = decide(state)
    assert action == PASS
    assert any("SOLO-TAB-2" in line for line in agent.explanations)


def test_normal_row4_enemies_in_range_fires() -> None:  # SOLO-AI-2
    state = position({"Helena": "D1"}, {"Chokai": "D3"}, dice=[["artillery", "artillery"], []], phase="attack")
    agent, action = decide(state)
    assert decode(action).kind == "fire" and "SOLO-TAB-4" in agent.explanations[-1]


def test_normal_row5_repair() -> None:  # SOLO-AI-2
    state = position(
        {"Helena": {"square": "D1", "structure": 2}},
        {"Chokai": "D3"},
        dice=[["movement", "artillery", "admiral"], ["artillery"]],
    )
    agent, action = decide(state)
    assert decode(action).kind == "repair" and "SOLO-TAB-5" in agent.explanations[-1]


# --- SOLO-ATK-3/4: concentration and the doomed unit ------------------------------------------------------


@SOLO
def test_doomed_unit_is_no_target_and_no_blocker(solo: bool) -> None:  # SOLO-ATK-2, SOLO-ATK-3, SOLO-ATK-4
    dice: list[Any] = [["artillery"] * 4, []]
    if solo:
        two = ["artillery", "admiral=artillery"]
        dice = [{"Indianapolis": two, "Washington": two}, []]
    state = position(
        {"Indianapolis": "C1", "Washington": "D1"},
        {"Kirishima": {"square": "D3", "structure": 1}, "Chokai": "D5"},
        dice=dice,
        phase="attack",
        solo_seat=0 if solo else None,
    )
    agent = StrategoAgent()
    agent.start(state.game, 0, random.Random(1))
    fired = play_attack(state, 0, agent)
    # the shortest-ranged unit first, both dice on one target (SOLO-ATK-2, SOLO-ATK-3)
    assert fired[:2] == ["Indianapolis>Kirishima", "Indianapolis>Kirishima"]
    assert "Washington>Kirishima" not in fired  # doomed: no longer a valid target
    assert ("Washington>Chokai" in fired) == solo  # and, under the solo rules, no longer hiding Chokai
    kirishima = next(u for u in agent.enemies() if u.name == "Kirishima")
    chokai = next(u for u in agent.enemies() if u.name == "Chokai")
    washington = next(u for u in agent.mine() if u.name == "Washington")
    assert (kirishima.owner, kirishima.slot) in agent.doomed()
    assert not agent.can_hit(washington, washington.square, 4, chokai)
    assert agent.can_hit(washington, washington.square, 4, chokai, agent.doomed())
    if solo:
        assert state.doomed(0) == {(1, kirishima.slot)}  # the engine agrees


def test_symbol_features_and_carrier_launch() -> None:  # SOLO-ADM-1, SOLO-ADM-2, SOLO-ADM-3
    three = ["artillery", "admiral=artillery", "admiral=symbol"]
    # a useful green feature of its own unit: Superior Steel on Yamato, which Helena (3 x 2 = 6) can hurt
    state = position(
        {"Helena": "D3"}, {"Yamato": "D6"}, solo_seat=1, phase="attack", player=1, dice=[[], {"Yamato": three}]
    )
    agent = StrategoAgent()
    agent.start(state.game, 1, random.Random(1))
    assert play_attack(state, 1, agent) == ["Yamato>Helena", "Yamato>Helena"]
    assert agent.log[-1].rule == "SOLO-ADM-1" and "Superior Steel" in agent.log[-1].text
    # no green feature to use: a red one of the enemy that has it in range (Fletcher's Faulty Torpedoes)
    state = position(
        {"Fletcher": "D4"}, {"Kirishima": "D6"}, solo_seat=1, phase="attack", player=1, dice=[[], {"Kirishima": three}]
    )
    agent = StrategoAgent()
    agent.start(state.game, 1, random.Random(1))
    play_attack(state, 1, agent)
    assert agent.log[-1].rule == "SOLO-ADM-2" and "Faulty Torpedoes" in agent.log[-1].text
    state = position(
        {"Helena": "D1"},
        {"Shokaku": "D8"},
        solo_seat=1,
        phase="attack",
        dice=[[], {"Shokaku": ["admiral=artillery", "admiral=symbol"]}],
    )
    agent, action = decide(state)
    assert decode(action).kind == "strike" and agent.log[-1].rule == "SOLO-ADM-3"


# --- the options it asks for, registration ----------------------------------------------------------------


def test_it_asks_for_the_solo_rules_at_its_seat() -> None:  # SOLO-AI-1
    agent = make_agent("stratego")
    assert isinstance(agent, StrategoAgent)
    assert agent.game_options("admiral", 1) == {"solo_seat": 1} and agent.game_options("stratego", 1) == {}
    normal = make_agent("stratego:normal")
    assert isinstance(normal, StrategoAgent) and normal.game_options("admiral", 0) == {}
    with pytest.raises(GameError, match="solo"):
        make_agent("stratego:fast")
    rnd = RandomAgent()
    assert agent_game_options([rnd, agent], "admiral", {"max_turns": 5}) == {"max_turns": 5, "solo_seat": 1}
    assert agent_game_options([agent, rnd], "admiral", {"solo_seat": None}) == {"solo_seat": 0}
    with pytest.raises(GameError, match="need different game options"):
        agent_game_options([agent, StrategoAgent()], "admiral")
    with pytest.raises(GameError, match="the options say 1"):
        agent_game_options([agent, rnd], "admiral", {"solo_seat": 1})


@pytest.mark.parametrize("index", [0, 1])
def test_the_arena_seats_it_under_the_solo_rules(index: int) -> None:  # SOLO-AI-1
    stratego, rnd = Player("stratego", "stratego"), Player("random", "random")
    red, blue = (stratego, rnd) if index == 0 else (rnd, stratego)
    options: dict[str, Any] = {"max_turns": 40, "layout": "archipelago", "solo_seat": None}
    result = play_game(GameTask(0, index, red, blue, 11 + index, "admiral", options))
    assert result.error is None and result.winner == "stratego", result


@pytest.mark.parametrize("seed", range(4))
def test_only_legal_actions_in_random_play(seed: int) -> None:  # SOLO-AI-2
    game = AdmiralGame(max_turns=8)
    agents = [StrategoAgent(), RandomAgent()] if seed % 2 == 0 else [RandomAgent(), StrategoAgent()]
    record = play_match(game, agents, seed=seed)
    assert record.outcome is not None
    assert "illegal" not in record.outcome.reason and "crashed" not in record.outcome.reason


def test_registered_and_explains() -> None:  # SOLO-EXP-1, SOLO-END-1, ADM-SOLO-5
    agent = make_agent("stratego")
    assert agent.name == "stratego" and isinstance(agent, StrategoAgent)
    agents = [agent, RandomAgent()]
    game = AdmiralGame(**agent_game_options(agents, "admiral", {"max_turns": 40}))
    assert game.solo_seat == 0
    record = play_match(game, agents, seed=3)
    assert record.outcome is not None and record.outcome.winner == 0
    assert record.outcome.termination.value == "fleet_destroyed"  # one fleet destroyed the other
    rules = {e.rule for e in agent.log}
    assert {"SOLO-ATK-1", "SOLO-SET-4"} <= rules and rules & {"SOLO-TAB-1", "SOLO-TAB-3", "SOLO-TAB-5"}
    assert all(RULE_ID.match(e.rule) for e in agent.log)


# --- property tests: random games under the solo rules -------------------------------------------------------


def check_solo_state(state: AdmiralState, solo: int) -> None:
    """Invariants of Stratego's dice (SOLO-DICE-1/2): every die is assigned to one of its units; in the
    movement phase each unit on the board has its Admiral die, pending until its roll, valued after it."""
    c_units = state.units(solo)
    data = state.observation(1 - solo).data
    dice = data["fleets"][solo]["dice"]
    names = {u.card.name for u in c_units}
    assert all(d["unit"] in names for d in dice)
    if state.phase in ("movement", "solo_roll", "reaction"):
        to_act = set(data["solo"]["to_act"])
        for u in c_units:
            if u.where != "board":
                continue
            mine = [d for d in dice if d["unit"] == u.card.name]
            values = [d["as"] for d in mine]
            assert values.count("pending") == (1 if u.card.name in to_act else 0), (u.card.name, values)
            assert values.count("symbol") >= 1 or any(d["used"] for d in mine if d["as"] == "symbol") or not mine
    for p in (0, 1):
        for u in state.units(p):
            assert 0 <= u.structure <= u.card.structure


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    solo=st.sampled_from([0, 1]),
    layout=st.sampled_from(["open_sea", "archipelago", "strait"]),
)
def test_random_play_under_the_solo_rules_never_breaks(seed: int, solo: int, layout: str) -> None:  # SOLO-GEN-1
    state = AdmiralGame(layout=layout, max_turns=3, solo_seat=solo).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        check_solo_state(state, solo)
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            legal = state.legal_actions()
            assert legal and (state.current_player() != solo or PASS not in legal or state.phase != "movement")
            state.apply(rng.choice(legal))


@settings(max_examples=10, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    solo=st.sampled_from([0, 1]),
    layout=st.sampled_from(["open_sea", "archipelago", "strait"]),
)
def test_the_agent_only_plays_legal_actions_and_always_gives_a_rule(seed: int, solo: int, layout: str) -> None:
    # SOLO-EXP-1, SOLO-AI-1
    agent = StrategoAgent()
    agents: list[Any] = [RandomAgent(), RandomAgent()]
    agents[solo] = agent
    game = AdmiralGame(**agent_game_options(agents, "admiral", {"layout": layout, "max_turns": 4}))
    record = play_match(game, agents, seed=seed)
    assert record.outcome is not None
    assert "illegal" not in record.outcome.reason and "crashed" not in record.outcome.reason
    assert agent.log and all(RULE_ID.match(e.rule) and e.text for e in agent.log)


def test_only_stratego_decides_in_its_movement_goes() -> None:  # SOLO-MOVE-2
    state = position({"Helena": "D1"}, {"Chokai": "D8"}, solo_seat=1, player=1)
    roll(state, [MOVEMENT])
    assert PASS not in state.legal_actions() and AIR_PASS not in state.legal_actions()
    assert DECLINE not in state.legal_actions()
