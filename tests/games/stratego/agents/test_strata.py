"""The hidden facts a move's fate turns on (`strata`): which worlds hold them, worlds turned to hold them, and the
weights that give each class the belief's chance."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from tests.games.stratego.agents.test_rollout import SPIED, Piece, _spied, _sure_move_played, crafted

from fogofwar.games.stratego.agents import rollout
from fogofwar.games.stratego.agents.knowledge import BOMB, SPY
from fogofwar.games.stratego.agents.rollout import RolloutAgent, _fields
from fogofwar.games.stratego.agents.strata import (
    MIN_CHANCE,
    Factor,
    doubtful,
    forced_worlds,
    spy_beside,
    spy_chance,
    spy_factor,
    spy_threats,
    stratified_weights,
    target_factor,
    with_rank,
)
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.sim.batch import BatchSim
from fogofwar.grid.board import parse_square


def test_spy_threats_are_the_hidden_pieces_beside_where_our_shown_marshal_stands_after_the_move() -> None:
    state, _, know, marginals = _spied(SPIED)
    e7, f6 = parse_square("E7"), parse_square("F6")
    take = state.string_to_action("E5xE6")
    threats = spy_threats(know, marginals, take)
    assert threats == {e7: marginals[e7][SPY], f6: marginals[f6][SPY]}  # not E5: ours; not D6: a lake
    assert spy_chance(threats) == pytest.approx(marginals[e7][SPY] + marginals[f6][SPY])
    factor = spy_factor(know, marginals, take)
    assert factor is not None and factor.chances == pytest.approx({1: spy_chance(threats), 0: 1 - spy_chance(threats)})
    assert factor.classify({e7: SPY, f6: BOMB}) == 1 and factor.classify({e7: BOMB, f6: int(Rank.MINER)}) == 0
    assert spy_threats(know, marginals, state.string_to_action("H1-H2")) == {}  # the general beside E5 is no spy
    hidden = [(sq, o, r, m, sq != "E5" and v) for sq, o, r, m, v in SPIED]
    state, _, know, marginals = _spied(hidden)
    assert spy_threats(know, marginals, state.string_to_action("E5-E4")) == {}  # a hidden marshal: nothing to aim at
    assert set(spy_threats(know, marginals, take)) == {e7, f6}  # its capture shows it
    shown_spy = [(sq, o, r, m, v or sq == "E7") for sq, o, r, m, v in SPIED]
    state, _, know, marginals = _spied(shown_spy)
    assert spy_threats(know, marginals, take) == {e7: 1.0}  # F6 cannot be the spy: E7 is


def test_spy_beside_swaps_the_spy_onto_a_threat_unless_a_moved_piece_would_be_a_bomb() -> None:
    state, _, know, _ = _spied(SPIED)
    e7, f6, a10, b10, k10 = (parse_square(s) for s in ("E7", "F6", "A10", "B10", "K10"))
    guess = {e7: int(Rank.SCOUT), f6: int(Rank.MINER), a10: int(Rank.SPY), b10: int(Rank.BOMB), k10: int(Rank.FLAG)}
    landed = set()
    for seed in range(8):
        out = spy_beside(know, guess, {e7: 0.3, f6: 0.3}, random.Random(seed))
        assert out is not None and sorted(out.values()) == sorted(guess.values())
        there = next(sq for sq, r in out.items() if r == SPY)
        assert there in (e7, f6) and out[a10] == guess[there]
        assert all(out[sq] == guess[sq] for sq in guess if sq not in (there, a10))
        landed.add(there)
    assert landed == {e7, f6}
    bombed = {**guess, e7: int(Rank.BOMB), b10: int(Rank.SCOUT)}
    assert spy_beside(know, bombed, {e7: 0.3}, random.Random(1)) is None  # A10 has moved: no bomb
    assert spy_beside(know, {**guess, a10: int(Rank.SCOUT), e7: int(Rank.SPY)}, {e7: 0.3}, random.Random(1)) == {
        **guess,
        a10: int(Rank.SCOUT),
        e7: int(Rank.SPY),
    }


TARGETED: list[Piece] = [
    ("A1", 0, Rank.FLAG, False, False),
    ("E5", 0, Rank.MARSHAL, True, True),
    ("H1", 0, Rank.SCOUT, False, False),
    ("F5", 1, Rank.BOMB, False, False),  # hidden, never moved: what our marshal may attack
    ("E7", 1, Rank.SPY, False, False),
    ("A10", 1, Rank.SCOUT, True, False),
    ("K10", 1, Rank.FLAG, False, False),
]
"""Red's shown marshal beside a hidden blue piece that has never moved: a bomb, the flag, the spy or a scout."""


def test_an_attack_on_a_hidden_piece_is_sorted_by_the_battle_s_outcome() -> None:
    state, _, know, marginals = _spied(TARGETED)
    f5, e7, a10, k10 = (parse_square(s) for s in ("F5", "E7", "A10", "K10"))
    factor = target_factor(know, marginals, state.string_to_action("E5xF5"))
    assert factor is not None
    assert factor.chances == pytest.approx({0: 1 - marginals[f5][BOMB], 1: marginals[f5][BOMB]})  # win, lose
    assert factor.classify({f5: BOMB}) == 1 and factor.classify({f5: SPY}) == 0
    guess = {f5: SPY, e7: BOMB, a10: int(Rank.SCOUT), k10: int(Rank.FLAG)}
    bombed = factor.force(guess, 1, random.Random(1))
    assert bombed == {**guess, f5: BOMB, e7: SPY}
    assert target_factor(know, marginals, state.string_to_action("E5-E4")) is None  # no battle
    assert target_factor(know, marginals, state.string_to_action("H1-H2")) is None
    assert doubtful([factor])


def test_with_rank_swaps_a_rank_in_and_keeps_bombs_and_the_flag_off_moved_pieces() -> None:
    _, _, know, _ = _spied(TARGETED)
    f5, e7, a10, k10 = (parse_square(s) for s in ("F5", "E7", "A10", "K10"))
    guess = {f5: SPY, e7: BOMB, a10: int(Rank.SCOUT), k10: int(Rank.FLAG)}
    rng = random.Random(1)
    assert with_rank(know, guess, f5, SPY, rng) == guess
    assert with_rank(know, guess, e7, int(Rank.SCOUT), rng) is None  # the bomb would go onto the moved scout
    assert with_rank(know, guess, a10, BOMB, rng) is None  # A10 has moved: no bomb
    assert with_rank(know, {**guess, a10: SPY, f5: int(Rank.SCOUT)}, f5, SPY, rng) is not None
    assert with_rank(know, guess, f5, int(Rank.SCOUT), rng) == {**guess, f5: int(Rank.SCOUT), a10: SPY}
    assert with_rank(know, {**guess, f5: BOMB, e7: SPY}, a10, int(Rank.FLAG), rng) is None


def test_forced_worlds_fill_each_likely_class_and_the_weights_give_each_its_chance() -> None:
    seen = {0: 0.9, 1: 0.1 - MIN_CHANCE / 2, 2: MIN_CHANCE / 2}
    factor = Factor(seen, lambda g: g[0], lambda g, cls, rng: {0: cls})
    drawn = [{0: 0}] * 7 + [{0: 1}]
    more = forced_worlds([factor], drawn, lambda: {0: 0}, 4, random.Random(1))
    assert more == [{0: 1}] * 3  # class 0 has its four, class 2 is too unlikely to add
    weights = stratified_weights([factor], [*drawn, *more])
    assert weights[:7] == pytest.approx([0.9 / 7 / (1 - MIN_CHANCE / 2)] * 7)
    assert weights[7:] == pytest.approx([(0.1 - MIN_CHANCE / 2) / 4 / (1 - MIN_CHANCE / 2)] * 4)
    assert weights.sum() == pytest.approx(1)
    sure = Factor({0: 0.99, 1: 0.01}, lambda g: g[0], lambda g, cls, rng: None)
    assert not doubtful([sure]) and doubtful([factor])


def test_rollout_target_scores_an_attack_by_the_belief_s_chance_of_winning_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A world scores 1 when our marshal stands on the square it attacked, else 0: with `rollout:target` the attack
    on the hidden piece scores the belief's chance that it is no bomb, bombs or not among the eight worlds drawn."""
    state, data, know, _ = _spied(TARGETED)
    f5 = parse_square("F5")

    def won(sim: BatchSim, *args: object) -> npt.NDArray[np.float64]:
        present, owner, rank = (a[:, f5] for a in _fields(sim.board))
        return (present & (owner == 0) & (rank == int(Rank.MARSHAL))).astype(np.float64)

    monkeypatch.setattr(rollout, "scores", won)
    for seed in range(3):
        agent = RolloutAgent(guesses=8, depth=0, target=True)
        agent.start(state.game, 0, random.Random(seed))
        agent._belief.update(data)
        (score,) = agent.look_ahead(data, [state.string_to_action("E5xF5")])
        assert score == pytest.approx(1 - agent._belief.marginals(know)[f5][BOMB])


@pytest.mark.parametrize("others", [{}, {"futile": False, "watch": 0.0}])
def test_rollout_target_looks_ahead_at_a_sure_attack_on_a_piece_that_may_be_a_bomb(others: dict[str, Any]) -> None:
    state, _ = crafted(TARGETED)
    wish = {"E5xF5": 0.97, "H1-H2": 0.02, "E5-E4": 0.01}
    played = [_sure_move_played(state, wish, target=on, **others) for on in (False, True)]
    assert played == [("E5xF5", False), ("E5xF5", True)]
