"""The solo-mode agent "stratego" (docs/rules/admiral-solo.md): targeting hierarchy, dice table, the
doomed-unit rule, legality and a smoke match."""

from __future__ import annotations

import random

import pytest
from tests.admiral.helpers import position

from fogofwar.admiral.actions import COMMIT, PASS, decode
from fogofwar.admiral.data_model import default_ruleset, square_name
from fogofwar.admiral.rules import AdmiralGame, AdmiralState
from fogofwar.admiral.solo import SOLO_TABLE, StrategoAgent, solo_value
from fogofwar.core.agents import RandomAgent, make_agent
from fogofwar.core.match import play_match


def decide(state: AdmiralState) -> tuple[StrategoAgent, int]:
    agent = StrategoAgent()
    player = state.current_player()
    agent.start(state.game, player, random.Random(1))
    action = agent.act(state.observation(player), state.legal_actions())
    assert action in state.legal_actions()
    return agent, action


def first_fire(south: dict[str, object], north: dict[str, object]) -> tuple[str, str]:
    """The target name of the agent's first fire order and the rule that chose it."""
    state = position(south, north, dice=[["artillery"] * 4, []], phase="attack")
    agent, action = decide(state)
    d = decode(action)
    assert d.kind == "fire", agent.explanations
    return state.units(1)[d.target].card.name, agent.explanations[-1]


# --- SOLO-ATK-1: one test per level of the hierarchy ----------------------------------------------------


def test_level1_the_unit_that_can_damage_it() -> None:
    target, why = first_fire({"Washington": "D1"}, {"Shokaku": "D4", "Chokai": "F5"})
    assert target == "Chokai" and "priority 1" in why


def test_level2_severe_damage() -> None:
    target, why = first_fire({"Fletcher": "D1"}, {"Kirishima": "C3", "Chokai": "F3"})
    assert target == "Chokai" and "priority 2" in why


def test_level3_light_damage() -> None:
    target, why = first_fire({"Fletcher": "D1"}, {"Kirishima": "C3", "Yamato": "E3"})
    assert target == "Kirishima" and "priority 3" in why


def test_level4_fewest_structure_points() -> None:
    target, why = first_fire({"Fletcher": "D1"}, {"Yukikaze": "C3", "Shigure": {"square": "E3", "structure": 1}})
    assert target == "Shigure" and "priority 4" in why


def test_level5_strongest_artillery() -> None:
    target, why = first_fire({"Fletcher": "D1"}, {"Jintsu": "C3", "Chokai": {"square": "E3", "structure": 3}})
    assert target == "Chokai" and "priority 5" in why


def test_level6_nearest() -> None:
    target, why = first_fire({"Washington": "D1"}, {"Shigure": "G4", "Yukikaze": "D3"})
    assert target == "Yukikaze" and "priority 6" in why


# --- SOLO-TAB: the dice table ---------------------------------------------------------------------------


def test_table_rows_and_reconstructed_column() -> None:
    assert set(SOLO_TABLE) == {(r, c) for r in ("move", "fire", "repair") for c in (False, True)}
    assert solo_value("move", False).startswith("SOLO-TAB-1")
    assert solo_value("move", True).startswith("SOLO-TAB-2")
    assert solo_value("fire", False).startswith("SOLO-TAB-3")
    assert solo_value("fire", True).startswith("SOLO-TAB-4")
    assert solo_value("repair", True).startswith("SOLO-TAB-5")
    solo = {"+".join(s.value for s in f.symbols): f.solo for f in default_ruleset().die.faces}
    assert solo["admiral"] == "repair"  # the Italian "the two admirals" row (SOLO-A1)
    assert {solo["movement"], solo["movement+depth_charge"]} == {"move"}
    assert {solo["artillery"], solo["artillery+anti_aircraft"], solo["torpedo+anti_aircraft"]} == {"fire"}


def test_row1_no_enemy_in_range_moves_until_a_battery_reaches() -> None:
    state = position({"Helena": "D1"}, {"Chokai": "D6"}, dice=[["movement"], ["artillery"]])
    agent, action = decide(state)
    d = decode(action)
    assert d.kind == "move" and "SOLO-TAB-1" in agent.explanations[-1]
    assert square_name(d.square) == "D3"  # Helena moves 2: from D3 the main battery (range 3) reaches D6


def test_row1_no_damageable_target_closes_in_out_of_range() -> None:
    # Wahoo's deck gun (coefficient 1) cannot hurt Kirishima: close in, outside Kirishima's range 4
    state = position({"Wahoo": "D1"}, {"Kirishima": "D8"}, dice=[["movement"], ["artillery"]])
    agent, action = decide(state)
    d = decode(action)
    assert d.kind == "move" and "SOLO-MOVE-4" in agent.explanations[-1]
    assert square_name(d.square) == "D3"


def test_row2_enemies_in_range_holds() -> None:
    state = position({"Helena": "D1"}, {"Chokai": "D3"}, dice=[["movement"], ["artillery"]])
    agent, action = decide(state)
    assert action == PASS
    assert any("SOLO-TAB-2" in line for line in agent.explanations)


def test_row4_enemies_in_range_fires() -> None:
    state = position({"Helena": "D1"}, {"Chokai": "D3"}, dice=[["artillery", "artillery"], []], phase="attack")
    agent, action = decide(state)
    assert decode(action).kind == "fire" and "SOLO-TAB-4" in agent.explanations[-1]


def test_row5_repair() -> None:
    state = position(
        {"Helena": {"square": "D1", "structure": 2}},
        {"Chokai": "D3"},
        dice=[["movement", "artillery", "admiral"], ["artillery"]],
    )
    agent, action = decide(state)
    assert decode(action).kind == "repair" and "SOLO-TAB-5" in agent.explanations[-1]


# --- SOLO-ATK-3/4: concentration and the doomed unit ------------------------------------------------------


def test_doomed_unit_is_no_target_and_no_blocker() -> None:
    state = position(
        {"Indianapolis": "C1", "Washington": "D1"},
        {"Kirishima": {"square": "D3", "structure": 1}, "Chokai": "D5"},
        dice=[["artillery"] * 4, []],
        phase="attack",
    )
    agent = StrategoAgent()
    agent.start(state.game, 0, random.Random(1))
    fired: list[str] = []
    for _ in range(8):
        action = agent.act(state.observation(0), state.legal_actions())
        assert action in state.legal_actions()
        if action == COMMIT:
            break
        d = decode(action)
        fired.append(f"{state.units(0)[d.slot].card.name}>{state.units(1)[d.target].card.name}")
        state.apply(action)
    # the shortest-ranged unit first, both dice on one target (SOLO-ATK-2, SOLO-ATK-3)
    assert fired[:2] == ["Indianapolis>Kirishima", "Indianapolis>Kirishima"]
    assert "Washington>Kirishima" not in fired  # doomed: no longer a valid target (SOLO-ATK-4)
    kirishima = next(u for u in agent.enemies() if u.name == "Kirishima")
    chokai = next(u for u in agent.enemies() if u.name == "Chokai")
    washington = next(u for u in agent.mine() if u.name == "Washington")
    assert (kirishima.owner, kirishima.slot) in agent.doomed()
    assert not agent.can_hit(washington, washington.square, 4, chokai)
    assert agent.can_hit(washington, washington.square, 4, chokai, agent.doomed())


# --- legality, registration, smoke match ----------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_only_legal_actions_in_random_play(seed: int) -> None:
    game = AdmiralGame(max_turns=8)
    agents = [StrategoAgent(), RandomAgent()] if seed % 2 == 0 else [RandomAgent(), StrategoAgent()]
    record = play_match(game, agents, seed=seed)
    assert record.outcome is not None
    assert "illegal" not in record.outcome.reason and "crashed" not in record.outcome.reason


def test_registered_and_explains() -> None:
    agent = make_agent("stratego")
    assert agent.name == "stratego"
    record = play_match(AdmiralGame(max_turns=40), [agent, RandomAgent()], seed=3)
    assert record.outcome is not None and record.outcome.winner == 0
    assert isinstance(agent, StrategoAgent)
    assert any(line.startswith("[SOLO-SET-2]") for line in agent.explanations)
    assert any("SOLO-ATK-1 priority" in line for line in agent.explanations)
