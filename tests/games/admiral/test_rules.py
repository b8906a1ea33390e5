"""Admiral setup: deployment, reserve, the initiative roll as chance nodes, submarine placement, options,
notation and records (rule ids in docs/rules/admiral.md)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from fogofwar.core import CHANCE, TERMINAL, GameError, IllegalActionError, NotationError, RecordError, Termination
from fogofwar.games.admiral.data_model import Symbol, default_ruleset, load_ruleset, square_index
from fogofwar.games.admiral.rules import (
    CHOOSE_FIRST,
    NUM_ACTIONS,
    ROLL_BASE,
    SUBMARINE_BASE,
    AdmiralGame,
    AdmiralState,
    deployment_squares,
    home_half,
)

from .test_data import data_dir, shipped

FACES = default_ruleset().die.faces
ADMIRAL = ROLL_BASE + next(f.index for f in FACES if f.shows(Symbol.ADMIRAL))
BLANK = ROLL_BASE + next(f.index for f in FACES if not f.shows(Symbol.ADMIRAL))


def playable(state: AdmiralState) -> list[int]:
    if state.current_player() == CHANCE:
        return [a for a, _ in state.chance_outcomes()]
    return state.legal_actions()


def deploy_all(state: AdmiralState) -> None:
    """Deploy both fleets, each unit on the first free square."""
    while state.phase == "deploy":
        state.apply(state.legal_actions()[0])


def roll(state: AdmiralState, south: list[int], north: list[int]) -> None:
    """Roll the given initiative dice (action ids) for South then North."""
    for action in south + north:
        assert state.current_player() == CHANCE
        state.apply(action)


def to_submarines(state: AdmiralState, first: int = 0) -> None:
    deploy_all(state)
    south, north = state.initiative_dice(0), state.initiative_dice(1)
    roll(state, [ADMIRAL] * south, [BLANK] * north)
    state.apply(CHOOSE_FIRST + first)


def test_deployment_is_in_the_two_home_rows_and_hidden() -> None:  # ADM-SETUP-2/3
    state = AdmiralGame().new_initial_state()
    assert state.phase == "deploy" and state.current_player() == 0
    squares = {a % 64 for a in state.legal_actions()}
    assert squares == set(deployment_squares(0)) == {square_index(f"{c}{r}") for c in "ABCDEFGH" for r in (1, 2)}
    names = {state.units(0)[a // 64].card.name for a in state.legal_actions()}
    assert "Wahoo" not in names and "Washington" in names  # submarines come later (ADM-SETUP-6)
    while state.current_player() == 0:
        state.apply(state.legal_actions()[-1])
    assert state.current_player() == 1
    assert {a % 64 for a in state.legal_actions()} == set(deployment_squares(1))
    north_view = state.observation(1).data
    assert all(not cell["units"] for cell in north_view["board"])  # South's cards are face down
    assert north_view["fleets"][0]["to_place"] is None
    deploy_all(state)
    assert state.phase == "initiative"
    assert sum(len(c["units"]) for c in state.observation(1).data["board"]) == 10  # revealed


def test_illegal_actions_change_nothing() -> None:
    state = AdmiralGame().new_initial_state()
    before = (state.to_json(), state.legal_actions().copy())
    cases = {
        square_index("A5"): "not in South's deployment zone (ADM-SETUP-2)",
        5 * 64 + square_index("A1"): "Wahoo is a submarine: it is placed later (ADM-SETUP-6)",
        31 * 64: "South's fleet has no unit number 31",
        ROLL_BASE: "no die is being rolled",
        CHOOSE_FIRST: "no first player is being chosen",
        SUBMARINE_BASE: "submarines are placed after the first initiative roll",
        NUM_ACTIONS: "is not an action id of Admiral",
    }
    for action, reason in cases.items():
        with pytest.raises(IllegalActionError, match=reason.replace("(", r"\(").replace(")", r"\)")):
            state.apply(action)
        assert (state.to_json(), state.legal_actions()) == before
    state.apply(square_index("A1"))  # unit 0 (Washington) on A1
    with pytest.raises(IllegalActionError, match="Washington is already placed"):
        state.apply(square_index("B1"))
    with pytest.raises(IllegalActionError, match="A1 is already occupied"):
        state.apply(64 + square_index("A1"))


def test_initiative_dice_count_admiral_units() -> None:  # ADM-INIT-1
    state = AdmiralGame().new_initial_state()
    deploy_all(state)
    # Washington and Enterprise bear the Admiral symbol for South, Chokai for North.
    assert (state.initiative_dice(0), state.initiative_dice(1)) == (4, 2)
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(ROLL_BASE, ROLL_BASE + 6))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert state.legal_actions() == [a for a, _ in outcomes]


def test_initiative_tie_rolls_again_then_the_winner_chooses() -> None:  # ADM-INIT-2/3
    state = AdmiralGame().new_initial_state()
    deploy_all(state)
    roll(state, [ADMIRAL, BLANK, BLANK, BLANK], [ADMIRAL, BLANK])  # 1 - 1: a tie
    assert state.phase == "initiative" and state.observation(0).data["initiative"]["round"] == 2
    roll(state, [BLANK] * 4, [BLANK, ADMIRAL])  # North wins 1 - 0
    assert state.phase == "choose_first" and state.current_player() == 1
    assert state.legal_actions() == [CHOOSE_FIRST, CHOOSE_FIRST + 1]
    state.apply(CHOOSE_FIRST + 0)  # North lets South act first
    assert state.first_player == 0
    assert state.phase == "submarines" and state.current_player() == 0  # the first player places first


def test_a_fleet_without_admiral_units_rolls_nothing() -> None:  # ADM-INIT-2 reading
    game = AdmiralGame(fleets=[["Fletcher", "Jenkins"], ["Yukikaze", "Shigure"]])
    state = game.new_initial_state()
    deploy_all(state)
    assert (state.initiative_dice(0), state.initiative_dice(1)) == (2, 2)  # neither has one: both roll 2
    game = AdmiralGame(fleets=[["Fletcher"], ["Chokai"]])
    state = game.new_initial_state()
    deploy_all(state)
    assert (state.initiative_dice(0), state.initiative_dice(1)) == (0, 2)
    assert state.observation(0).data["initiative"]["admirals"] == [0, 0]
    roll(state, [], [BLANK, BLANK])  # 0 - 0 again
    assert state.phase == "initiative"
    roll(state, [], [ADMIRAL, BLANK])
    assert state.phase == "choose_first" and state.current_player() == 1
    state.apply(CHOOSE_FIRST + 1)
    assert state.current_player() == CHANCE  # no submarines: straight to the action dice


def test_submarines_are_placed_submerged_in_the_own_half() -> None:  # ADM-SETUP-6, ADM-TERR-3
    state = AdmiralGame(fleets=[["Washington", "Wahoo", "Tang"], ["Yamato", "I-19"]]).new_initial_state()
    to_submarines(state, first=1)
    assert state.current_player() == 1
    squares = {(a - SUBMARINE_BASE) % 64 for a in state.legal_actions()}
    terrain = state.game.terrain
    assert squares == {sq for sq in home_half(1) if sq not in terrain or terrain[sq].id == "fog_bank"}
    assert square_index("B5") not in squares  # Shallows: no diving there
    yamato = next(u for u in state.units(1) if u.card.name == "Yamato")
    assert yamato.square in squares  # may share a square with a surface unit (ADM-SUB-3)
    state.apply(SUBMARINE_BASE + 64 + yamato.square)
    assert state.units_at(yamato.square)[1].submerged
    assert state.current_player() == 0  # alternate
    state.apply(state.string_to_action("Wahoo@C3"))
    with pytest.raises(IllegalActionError, match="C3 already holds a submarine"):
        state.apply(state.string_to_action("Tang@C3"))
    with pytest.raises(IllegalActionError, match="not in South's half"):
        state.apply(SUBMARINE_BASE + 2 * 64 + square_index("C6"))
    with pytest.raises(IllegalActionError, match="cannot lie submerged on Island"):
        state.apply(SUBMARINE_BASE + 2 * 64 + square_index("C4"))
    assert state.current_player() == 0  # North has none left: South goes on
    state.apply(state.string_to_action("tang @ d3"))
    assert state.phase == "action_dice"


def test_setup_leads_to_the_action_dice_roll() -> None:  # ADM-TURN-1, ADM-DICE-1
    state = AdmiralGame().new_initial_state()
    to_submarines(state)
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    assert state.phase == "action_dice" and state.current_player() == CHANCE and not state.is_terminal()
    assert state.legal_actions() == [a for a, _ in state.chance_outcomes()] == list(range(ROLL_BASE, ROLL_BASE + 6))
    assert state.pool_size(0) == 12 and state.pool_size(1) == 12  # six units a side, submarines included
    state.observation(0)  # still observable and storable
    assert AdmiralState.from_json(json.loads(json.dumps(state.to_json()))).phase == "action_dice"


def test_reserve_takes_the_units_that_do_not_fit(tmp_path: Path) -> None:  # ADM-SETUP-4
    text = shipped("units.toml")
    start = text.index('[[unit]]\nname = "Fletcher"')
    block = text[start : text.index("[[unit]]", start + 1)]
    extra = "".join(block.replace('"Fletcher"', f'"Fletcher {i}"') for i in range(1, 17))
    rs = load_ruleset(data_dir(tmp_path, units=text + "\n" + extra))
    fleet = ["Fletcher", *(f"Fletcher {i}" for i in range(1, 17)), "Wahoo"]
    state = AdmiralGame(fleets=[fleet, ["Yamato"]], budget=1000, ruleset=rs).new_initial_state()
    for _ in range(16):
        state.apply(state.legal_actions()[0])
    assert state.current_player() == 1  # the zone is full: South is done
    reserve = [u.card.name for u in state.units(0) if u.where == "reserve"]
    assert reserve == ["Fletcher 16"]  # the one not chosen; the submarine waits for ADM-SETUP-6
    assert state.observation(1).data["fleets"][0]["reserve"] is None  # hidden until the reveal
    state.apply(state.legal_actions()[0])
    assert state.observation(1).data["fleets"][0]["reserve"] == ["Fletcher 16"]


def test_layouts() -> None:
    game = AdmiralGame(layout={"D4": "island", "e5": "fog_bank"})
    assert {sq: t.id for sq, t in game.terrain.items()} == {
        square_index("D4"): "island",
        square_index("E5"): "fog_bank",
    }
    assert AdmiralGame(layout="open_sea").terrain == {}
    cases: list[tuple[str | dict[str, str], str]] = [
        ("nowhere", "unknown terrain layout 'nowhere'"),
        ({"D1": "island"}, "D1 is in a deployment zone"),
        ({"D4": "reef"}, "unknown terrain 'reef'"),
        ({"Q4": "island"}, "'Q4' is not a square"),
    ]
    for layout, message in cases:
        with pytest.raises(GameError, match=message):
            AdmiralGame(layout=layout)


def test_options_are_checked() -> None:
    with pytest.raises(GameError, match="exceed the budget"):
        AdmiralGame(budget=100)
    with pytest.raises(GameError, match=r"Admiral option factions must have at least 2 items, not \[.usn.\]"):
        AdmiralGame(factions=("usn",))
    with pytest.raises(GameError, match="belongs to ijn"):
        AdmiralGame(fleets=[["Yamato"], ["Yamato"]])


def test_notation_round_trip_and_errors() -> None:
    state = AdmiralGame().new_initial_state()
    for action in state.legal_actions():
        assert state.string_to_action(state.action_to_string(action)) == action
    with pytest.raises(NotationError):
        state.string_to_action("fire!")
    with pytest.raises(IllegalActionError):
        state.string_to_action("Washington@A5")
    deploy_all(state)
    assert state.string_to_action("roll:admiral") == ADMIRAL
    assert state.action_to_string(CHOOSE_FIRST + 1) == "first:North"


def test_random_play_keeps_the_protocol_promises() -> None:
    for seed in range(5):
        rng = random.Random(seed)
        state = AdmiralGame(layout=rng.choice(["open_sea", "archipelago", "strait"])).new_initial_state()
        while state.phase not in ("action_dice", "movement"):
            actions = playable(state)
            assert actions == sorted(actions) and actions
            action = rng.choice(actions)
            snapshot = json.dumps(state.to_json()), state.observation(0).text, state.observation(1).text
            twin = state.clone()
            state.apply(action)
            assert json.dumps(twin.to_json()) == snapshot[0]  # the clone did not move
            state.undo()
            assert (json.dumps(state.to_json()), state.observation(0).text, state.observation(1).text) == snapshot
            state.apply(action)
            twin.apply(action)
            assert twin.to_json() == state.to_json()
        rebuilt = AdmiralState.from_json(json.loads(json.dumps(state.to_json())))
        assert rebuilt.observation(0).data == state.observation(0).data


def test_end_by_and_records() -> None:
    state = AdmiralGame().new_initial_state()
    state.apply(state.legal_actions()[0])
    state.end_by(Termination.RESIGNATION, 1, "South resigned")
    assert state.current_player() == TERMINAL and state.returns() == [-1.0, 1.0]
    assert state.legal_actions() == [] and state.chance_outcomes() == []
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(0)
    rebuilt = AdmiralState.from_json(state.to_json())
    assert rebuilt.outcome() == state.outcome()
    with pytest.raises(RecordError, match="not an Admiral state"):
        AdmiralState.from_json({"game": "stratego"})
    with pytest.raises(RecordError, match="action 1 .* is illegal"):
        AdmiralState.from_json({"game": "admiral", "options": state.game.options, "actions": [ROLL_BASE]})
    with pytest.raises(RecordError, match="bad Admiral options"):
        AdmiralState.from_json({"game": "admiral", "options": {"budget": 10}})
