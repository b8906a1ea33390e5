"""A game added the way docs/architecture.md says: one module (tests/core/toy_game.py) and one registration.

Nothing of core or the conformance test changes for it: registered, the toy is built by name, passes the
conformance test every real game passes, plays through the match runner with the built-in agents, and its
records replay. The registration is undone after each test, so no other test sees the toy.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
import test_conformance as conformance
from toy_game import EXAMPLES, NAME, HiddenNimGame, HiddenNimParams

from fogofwar.core import GameError, Termination, make_game
from fogofwar.core.agents import make_agent
from fogofwar.core.match import play_match
from fogofwar.core.records import GameRecord
from fogofwar.core.registry import game_entry, game_names, register_game, unregister_game, web_adapters


@pytest.fixture
def toy() -> Iterator[str]:
    register_game(NAME, HiddenNimGame, params=HiddenNimParams, examples=EXAMPLES)  # what a plugin does when imported
    try:
        yield NAME
    finally:
        unregister_game(NAME)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_the_toy_passes_the_conformance_test(toy: str, example: str, seed: int) -> None:
    options = game_entry(toy).examples[example]
    conformance.test_protocol_conformance(lambda: make_game(toy, **options), seed)


def test_a_toy_game_ended_by_forfeit_serializes_and_replays_as_such(toy: str) -> None:
    game = make_game(toy)
    state = game.new_initial_state()
    state.apply(4)  # a pile of five
    state.apply(0)  # the first seat takes one
    state.end_by(Termination.FORFEIT, 0, "seat 1 left")
    assert state.legal_actions() == [] and state.returns() == [1.0, -1.0]
    conformance.check_end(game, state)
    conformance.check_json_round_trip(game, state)
    conformance.check_record(game, state)


def test_the_registry_knows_the_toy_only_while_it_is_registered(toy: str) -> None:
    assert toy in game_names()
    assert isinstance(make_game(toy), HiddenNimGame)
    assert toy not in web_adapters()  # no web adapter: the server does not offer it
    with pytest.raises(GameError, match="hidden Nim has no option 'colour'; its options are first_sees_pile"):
        make_game(toy, colour="red")
    with pytest.raises(GameError, match="hidden Nim option first_sees_pile must be true or false, not 'yes'"):
        make_game(toy, first_sees_pile="yes")
    unregister_game(toy)
    with pytest.raises(GameError, match="unknown game 'hidden-nim'"):
        make_game(toy)


def test_the_built_in_agents_play_the_toy_and_its_records_replay(toy: str) -> None:
    endings = set()
    for seed in range(20):
        record = play_match(make_game(toy), [make_agent("random"), make_agent("random")], seed=seed)
        again = GameRecord.loads(record.dumps()).replay()
        assert again.outcome() == record.outcome
        assert record.outcome is not None
        endings.add((record.outcome.termination, record.outcome.winner))
    assert endings == {(Termination.NO_MOVES, 0), (Termination.NO_MOVES, 1)}


def test_the_second_seat_never_sees_the_pile_before_the_end(toy: str) -> None:
    rng = random.Random(9)
    state = make_game(toy).new_initial_state()
    while not state.is_terminal():
        assert state.observation(1).data["pile"] is None
        actions = [a for a, _ in state.chance_outcomes()] or state.legal_actions()
        state.apply(rng.choice(actions))
    assert state.observation(1).data["pile"] is not None
    conformance.check_record(state.game, state)
