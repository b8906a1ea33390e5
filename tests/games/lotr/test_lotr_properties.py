"""Properties of whole games: random play ends, observations hide what they must, state round trips."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lotr_helpers import pos

from fogofwar.core import Observation, Termination, make_game
from fogofwar.core.agents import RandomAgent
from fogofwar.core.match import play_match
from fogofwar.games.lotr import LotrGame, LotrState
from fogofwar.games.lotr.powers import STOP, decode
from fogofwar.games.lotr.rules import CAPTURED_MODES, captured_visible

GAMES = ("classic", "powers", "ring")


def random_game(game: LotrGame, seed: int, check: bool = False) -> LotrState:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if check:
            for p in (0, 1):
                obs = state.observation(p)
                assert_hides(state, obs)
                assert_depends_only_on_what_the_seat_may_know(state, obs, rng)
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
        if "defender" not in ev and "targets" not in ev and "power" not in ev and "ring" not in ev:
            assert "attacker" not in ev or ev["attacker_rank"] == "2"  # a Knight's run
    json.dumps(data)


def assert_depends_only_on_what_the_seat_may_know(state: LotrState, obs: Observation, rng: random.Random) -> None:
    """Shuffle the enemy pieces this seat has not seen, and the captured piles it may not see: its
    observation must not change (LOTR-INFO-1, LOTR-CAPT-*, LOTR-CHOICE-DETECT-VIEW)."""
    me = obs.player
    other = state.clone()
    board = other._board
    hidden = [sq for sq in range(100) if board[sq] and (board[sq] >> 5) & 1 != me and not board[sq] & 128]
    kinds = [board[sq] & 31 for sq in hidden]
    rng.shuffle(kinds)
    for sq, k in zip(hidden, kinds, strict=True):
        board[sq] = (board[sq] & ~31) | k
    for owner in (0, 1):
        if not captured_visible(state.game.captured_mode, me, owner):
            size = len(state.game.army(owner).kinds)
            other._captured[owner][:] = [rng.randrange(size) for _ in other._captured[owner]]
    assert other.observation(me) == obs


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("mode", CAPTURED_MODES)
def test_random_play_ends_and_observations_hide_hidden_ranks(game: str, mode: str) -> None:
    lotr = LotrGame(game=game, captured_mode=mode, max_moves=200)
    state = random_game(lotr, CAPTURED_MODES.index(mode), check=True)
    outcome = state.outcome()
    assert outcome is not None and state.move_count <= 200


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=12)
@given(st.integers(0, 2**32))
def test_random_play_never_crashes_and_ends(game: str, seed: int) -> None:
    state = random_game(LotrGame(game=game, max_moves=2000), seed)
    assert state.is_terminal() and state.legal_actions() == []


@settings(max_examples=10)
@given(st.integers(0, 2**32), st.sampled_from(CAPTURED_MODES), st.sampled_from(GAMES))
def test_json_round_trip_rebuilds_the_same_state(seed: int, mode: str, game: str) -> None:
    lotr = LotrGame(game=game, captured_mode=mode, max_moves=300)
    state = random_game(lotr, seed)
    data = json.loads(json.dumps(state.to_json()))
    again = lotr.state_from_json(data)
    assert again.to_json() == state.to_json()
    assert again.outcome() == state.outcome()
    for p in (0, 1):
        assert again.observation(p) == state.observation(p)
        assert again.public_history() == state.public_history()


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=3)
@given(st.integers(0, 2**32))
def test_undo_walks_a_whole_game_back(game: str, seed: int) -> None:
    lotr = LotrGame(game=game, max_moves=150)
    rng = random.Random(seed)
    state = lotr.new_initial_state()
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


def test_undo_takes_back_a_resignation_before_any_move() -> None:
    """As in Stratego: the first undo after a resignation takes back the resignation, the next the last move."""
    state = LotrGame().new_initial_state()
    rng = random.Random(5)
    while state.phase == "setup" or state.move_count < 10:
        state.apply(rng.choice(state.legal_actions()))
    before, played = state.to_json(), len(state.history)
    state.end_by(Termination.RESIGNATION, 1, "evil resigned")
    assert state.is_terminal()
    state.undo()
    assert not state.is_terminal() and state.to_json() == before
    state.undo()
    assert len(state.history) == played - 1 and state.move_count == 9


@pytest.mark.parametrize("game", ["powers", "ring"])
def test_every_power_shows_up_in_random_play(game: str) -> None:
    """Random play reaches every power, so the properties above exercise them all."""
    seen: set[str] = set()
    for seed in range(12):
        rng = random.Random(seed)
        state = LotrGame(game=game, max_moves=600).new_initial_state()
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            pa = decode(action)
            seen.add("stop" if action == STOP else pa.power if pa is not None else "move")
            state.apply(action)
        for ev in state.public_history():
            if ev.power == "repeat_attack":
                seen.add("repeat_attack")
    assert seen >= {"move", "fly", "sense_enemy", "long_bow", "dwarf_axe", "swift_steed", "rage", "repeat_attack"}


def test_crafted_positions_round_trip_with_moved_and_revealed_flags() -> None:
    state = pos({"E2": (0, "orc"), "E3": (1, "fortress"), "K10": (1, "knight", True, True), "A1": (0, "flag")})
    state.apply(state.string_to_action("E2xE3"))
    again = LotrState.from_json(json.loads(json.dumps(state.to_json())))
    assert again.to_json() == state.to_json()
    assert again.piece_at("K10") == (1, "knight", 2, True, True)


def test_the_random_agent_plays_lotr_through_the_match_runner() -> None:
    for mode in GAMES:
        game = make_game("lotr", game=mode, captured_mode="hidden", max_moves=500)
        record = play_match(game, [RandomAgent(), RandomAgent()], seed=3)
        assert record.game == "lotr" and record.outcome is not None
        assert record.replay().to_json()["actions"] == record.actions
