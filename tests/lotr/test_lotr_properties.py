"""Properties of whole games: random play ends, observations hide what they must, state round trips."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lotr_helpers import pos

from fogofwar.core import Observation, make_game
from fogofwar.core.agents import RandomAgent
from fogofwar.core.match import play_match
from fogofwar.lotr import LotrGame, LotrState
from fogofwar.lotr.rules import CAPTURED_MODES, captured_visible


def random_game(game: LotrGame, seed: int, check: bool = False) -> LotrState:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if check:
            for p in (0, 1):
                assert_hides(state, state.observation(p))
        state.apply(rng.choice(state.legal_actions()))
    return state


def assert_hides(state: LotrState, obs: Observation) -> None:
    """The observation names no enemy piece the rules keep hidden from this seat (LOTR-INFO-1, LOTR-CAPT-*)."""
    me = obs.player
    data = obs.data
    for sq, cell in enumerate(data["board"]):
        piece = state.piece_at(sq)
        if cell is None or cell == "zone":
            assert piece is None or (state.phase == "setup" and piece[0] != me)
            continue
        assert piece is not None and cell["owner"] == piece[0]
        known = cell["owner"] == me or piece[4]
        assert known == (cell["kind"] is not None) == (cell["rank"] is not None) == (cell["name"] is not None)
        if known:
            assert cell["kind"] == piece[1]
    mode = state.game.captured_mode
    for owner in (0, 1):
        shown = data["captured"][owner]
        assert (shown is not None) == captured_visible(mode, me, owner)
        if shown is not None:
            assert shown == state.captured(owner)
    for ev in data["recent_moves"]:  # only what the last two moves showed to both players
        if "defender" not in ev:
            assert "attacker" not in ev or ev["attacker_rank"] == "2"
    json.dumps(data)


@pytest.mark.parametrize("mode", CAPTURED_MODES)
def test_random_play_ends_and_observations_hide_hidden_ranks(mode: str) -> None:
    game = LotrGame(captured_mode=mode, max_moves=400)
    for seed in range(3):
        state = random_game(game, seed, check=True)
        outcome = state.outcome()
        assert outcome is not None and state.move_count <= 400


@settings(max_examples=25)
@given(st.integers(0, 2**32))
def test_random_play_never_crashes_and_ends(seed: int) -> None:
    state = random_game(LotrGame(max_moves=2000), seed)
    assert state.is_terminal() and state.legal_actions() == []


@settings(max_examples=10)
@given(st.integers(0, 2**32), st.sampled_from(CAPTURED_MODES))
def test_json_round_trip_rebuilds_the_same_state(seed: int, mode: str) -> None:
    game = LotrGame(captured_mode=mode, max_moves=300)
    state = random_game(game, seed)
    data = json.loads(json.dumps(state.to_json()))
    again = game.state_from_json(data)
    assert again.to_json() == state.to_json()
    assert again.outcome() == state.outcome()
    for p in (0, 1):
        assert again.observation(p) == state.observation(p)


@settings(max_examples=5)
@given(st.integers(0, 2**32))
def test_undo_walks_a_whole_game_back(seed: int) -> None:
    game = LotrGame(max_moves=200)
    rng = random.Random(seed)
    state = game.new_initial_state()
    snapshots = []
    while not state.is_terminal():
        snapshots.append((state.to_json(), state.legal_actions().copy(), state.observation(0), state.observation(1)))
        state.apply(rng.choice(state.legal_actions()))
    clone = state.clone()
    while snapshots:
        state.undo()
        data, legal, obs0, obs1 = snapshots.pop()
        assert state.to_json() == data and state.legal_actions() == legal
        assert state.observation(0) == obs0 and state.observation(1) == obs1
    assert clone.is_terminal(), "undo on the original left the clone alone"


def test_crafted_positions_round_trip_with_moved_and_revealed_flags() -> None:
    state = pos({"E2": (0, "orc"), "E3": (1, "fortress"), "K10": (1, "knight", True, True), "A1": (0, "flag")})
    state.apply(state.string_to_action("E2xE3"))
    again = LotrState.from_json(json.loads(json.dumps(state.to_json())))
    assert again.to_json() == state.to_json()
    assert again.piece_at("K10") == (1, "knight", 2, True, True)


def test_the_random_agent_plays_lotr_through_the_match_runner() -> None:
    game = make_game("lotr", captured_mode="hidden", max_moves=500)
    record = play_match(game, [RandomAgent(), RandomAgent()], seed=3)
    assert record.game == "lotr" and record.outcome is not None
    assert record.replay().to_json()["actions"] == record.actions
