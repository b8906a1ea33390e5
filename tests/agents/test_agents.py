"""Agents: legal actions only, beliefs that never contradict observations, reproducible play."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fogofwar.agents.belief import BeliefTracker
from fogofwar.agents.heuristic import HeuristicAgent
from fogofwar.agents.knowledge import BOMB, FLAG, Knowledge
from fogofwar.agents.search import SearchAgent
from fogofwar.agents.setups import human_like_setup, prior_by_square
from fogofwar.core.agents import make_agent
from fogofwar.core.match import play_match
from fogofwar.core.protocol import GameError
from fogofwar.stratego.rules import StrategoGame, check_setup
from fogofwar.stratego.setup import random_setup
from fogofwar.stratego.variants import get_variant


def _random_position(variant: str, seed: int, plies: int) -> tuple[StrategoGame, object]:
    game = StrategoGame(variant, max_moves=400)
    rng = random.Random(seed)
    state = game.new_initial_state()
    for p in (0, 1):
        state.apply_setup(p, random_setup(game.variant, p, rng))
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return game, state


@pytest.mark.parametrize("name", ["random", "heuristic", "search:guesses=4"])
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 120))
@settings(max_examples=15, deadline=None)
def test_agents_only_return_legal_actions(name: str, seed: int, plies: int) -> None:
    game, state = _random_position("barrage" if seed % 2 else "classic", seed, plies)
    if state.is_terminal():
        return
    agent = make_agent(name)
    player = state.current_player()
    agent.start(game, player, random.Random(seed))
    action = agent.act(state.observation(player), state.legal_actions())
    assert action in state.legal_actions()


@pytest.mark.parametrize("variant", ["classic", "barrage"])
def test_human_like_setups_are_legal(variant: str) -> None:
    v = get_variant(variant)
    rng = random.Random(3)
    for player in (0, 1):
        for _ in range(20):
            check_setup(v, player, human_like_setup(v, player, rng))


def test_setup_prior_puts_the_flag_on_the_back_row() -> None:
    prior = prior_by_square(get_variant("classic"), 0)
    assert prior is not None
    back = sum(prior[sq][FLAG] for sq in range(10))  # red's back row is row 1 (squares 0-9)
    front = sum(prior[sq][FLAG] for sq in range(30, 40))
    assert back > 20 * front


@pytest.mark.parametrize("seed", range(4))
def test_belief_never_contradicts_what_was_observed(seed: int) -> None:
    """Track a whole game from blue's seat: every unknown piece's true rank keeps a positive
    probability, moved pieces are never bombs or the flag, and ranks with none left get nothing."""
    game = StrategoGame("classic", max_moves=500)
    state = game.new_initial_state()
    agents = [HeuristicAgent(), HeuristicAgent()]
    for p in (0, 1):
        agents[p].start(game, p, random.Random(seed * 10 + p))
    while state.phase == "setup":
        p = state.current_player()
        state.apply(agents[p].act(state.observation(p), state.legal_actions()))
    tracker = BeliefTracker()
    me = 1
    while not state.is_terminal():
        p = state.current_player()
        if p == me:
            data = state.observation(me).data
            tracker.update(data)
            know = Knowledge.from_observation(data)
            marginals = tracker.marginals(know)
            assert set(marginals) == set(know.unknown_enemy_squares())
            for sq, dist in marginals.items():
                piece = state.piece_at(sq)
                assert piece is not None and piece[0] == 1 - me
                assert dist.get(int(piece[1]), 0.0) > 0.0, (sq, piece, dist)
                assert all(know.unknown_pool[r] > 0 for r, w in dist.items() if w > 0)
                if piece[2]:  # moved
                    assert dist.get(BOMB, 0.0) == 0.0 and dist.get(FLAG, 0.0) == 0.0
                assert abs(sum(dist.values()) - 1.0) < 1e-6
            guess = tracker.sample(know, marginals, random.Random(seed))
            assert sorted(guess) == sorted(marginals)
        state.apply(agents[p].act(state.observation(p), state.legal_actions()))


def test_matches_between_agents_are_reproducible() -> None:
    game = StrategoGame("barrage", max_moves=300)
    a = play_match(game, [make_agent("search:guesses=4"), make_agent("heuristic")], seed=11)
    b = play_match(game, [make_agent("search:guesses=4"), make_agent("heuristic")], seed=11)
    assert a.actions == b.actions and a.outcome == b.outcome


def test_search_spec_errors_are_clear() -> None:
    with pytest.raises(GameError, match="unknown option 'depth'"):
        make_agent("search:depth=3")
    assert isinstance(make_agent("search:time=0.2"), SearchAgent)
