"""The opponent's reply model (`search:reply=W`): the planes it builds for the opponent are what the reference
engine shows the opponent, before and after each of our moves, when the belief is the truth; the replies it
weighs are the opponent's legal moves; and the search plays legal moves with it."""

from __future__ import annotations

import numpy as np
import pytest
from tests.games.stratego.agents.random_games import random_game
from tests.games.stratego.agents.test_agents import _tactic_values

from fogofwar.core.agents import make_agent
from fogofwar.core.match import play_match
from fogofwar.core.protocol import Termination
from fogofwar.games.stratego.agents.belief import oracle_marginals
from fogofwar.games.stratego.agents.knowledge import Knowledge
from fogofwar.games.stratego.agents.policy_model import shipped_policy
from fogofwar.games.stratego.agents.reply_model import _after, _replies, _squares, opponent_planes, reply_chances
from fogofwar.games.stratego.agents.search import QUIET, battle_result
from fogofwar.games.stratego.observation import stratego_view
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import StrategoGame, StrategoState
from fogofwar.games.stratego.sim.planes import planes_from_observation
from fogofwar.grid.board import parse_square


def _positions(seed: int, plies: int) -> list[StrategoState]:
    """The states of a seeded random classic game without repetition rules (so the legal moves are the moves)."""
    return [state for state, _ in random_game(seed, plies, two_squares=0, more_squares=False)[1]]


def test_the_opponents_planes_are_what_the_engine_shows_it_before_and_after_each_of_our_moves() -> None:
    battles = quiet = 0
    for seed in range(3):
        for state in _positions(seed, 600)[::7]:
            me = state.current_player()
            data = stratego_view(state.observation(me).data)
            know = Knowledge.from_observation(data)
            truth = oracle_marginals(state, know)
            now = opponent_planes(know, truth, data["recent_moves"])
            want = planes_from_observation(state.observation(1 - me).data, state.game.variant)
            assert (now == want).all(), "the opponent's planes now differ"
            kept = now.copy()
            squares = _squares(know)
            for action in state.legal_actions():
                src, dst = divmod(action, 100)
                target = state.piece_at(dst)
                mover = state.piece_at(src)
                assert mover is not None
                result = QUIET if target is None else battle_result(int(mover[1]), int(target[1]))
                if target is not None and int(target[1]) == 0:
                    continue  # the flag: the game ends, no reply
                after, ours, theirs = _after(now, know, squares, action, result)
                nxt = state.clone()
                nxt.apply(action)
                want = planes_from_observation(nxt.observation(1 - me).data, state.game.variant)
                assert (after == want).all(), f"the opponent's planes differ after {action} (result {result})"
                legal = set(nxt.legal_actions()) if not nxt.is_terminal() else set()
                if legal:
                    assert set(_replies(know, truth, ours, theirs)) == legal, f"its replies differ after {action}"
                battles += target is not None
                quiet += target is None
            assert (now == kept).all() and squares == _squares(know)
    assert battles > 30 and quiet > 1000


def test_reply_chances_cover_every_battle_result_and_sum_to_one() -> None:
    net = shipped_policy()
    if net is None:
        pytest.skip("no policy net ships")
    state = _positions(4, 300)[-1]
    me = state.current_player()
    data = stratego_view(state.observation(me).data)
    know = Knowledge.from_observation(data)
    marginals = {sq: know.rank_distribution(sq) for sq in know.unknown_enemy_squares()}
    legal = state.legal_actions()
    chances = reply_chances(net, know, marginals, data["recent_moves"], legal)
    for action in legal:
        src, dst = divmod(action, 100)
        if know.cells[dst] is None:
            assert (action, QUIET) in chances
    for row in chances.values():
        assert row and abs(sum(row.values()) - 1.0) < 1e-6
        assert all(0.0 <= p <= 1.0 for p in row.values())
    attacks = {a for a, r in chances if r != QUIET}
    assert {r for a, r in chances if a in attacks} <= {0, 1, 2}
    assert np.isfinite(list(chances[next(iter(chances))].values())).all()


def test_search_with_the_reply_model_plays_legal_moves_to_the_end() -> None:
    if shipped_policy() is None:
        pytest.skip("no policy net ships")
    game = StrategoGame("barrage")
    agents = [make_agent("search:prior=0.01,reply=1,guesses=4"), make_agent("search:guesses=4")]
    for seed in range(2):
        record = play_match(game, agents, seed=seed)
        assert record.outcome.termination is not Termination.FORFEIT, record.outcome.reason


def test_reply_sure_takes_a_capture_the_opponent_knows_it_wins_as_made() -> None:
    """Our revealed captain stands next to the enemy's revealed general. The net gives the capture some chance
    below one; with `reply_sure=1` it is taken as made, as the search's own model of the reply takes it, so a
    move elsewhere that leaves the captain there is worth less, and about what it is worth without the net."""
    if shipped_policy() is None:
        pytest.skip("no policy net ships")
    pieces = [
        ("A1", 0, Rank.FLAG, False, False),
        ("E5", 0, Rank.CAPTAIN, True, True),
        ("C2", 0, Rank.MAJOR, True, False),
        ("E6", 1, Rank.GENERAL, True, True),
        ("H10", 1, Rank.SCOUT, False, False),
        ("K10", 1, Rank.FLAG, False, False),
    ]
    elsewhere = parse_square("C2") * 100 + parse_square("C3")

    def value(**knobs: float) -> float:
        values, _ = _tactic_values("classic", pieces, 0, guesses=4, **knobs)
        return values[elsewhere]

    net, sure, model = value(reply=1.0), value(reply=1.0, reply_sure=1.0), value()
    assert sure < net
    assert sure == pytest.approx(model, rel=1e-6)
