"""benchmarks/predict_moves.py: how often each net's likeliest move attacks, beside the player's own attacks."""

from __future__ import annotations

import random
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import pytest
from tests.paths import ROOT

from fogofwar.core.records import GameRecord
from fogofwar.games.stratego.rules import StrategoGame


@pytest.fixture
def predict(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import predict_moves

    return predict_moves


class Greedy:
    """A stand-in net whose likeliest move is its first attack, or its first move when it has none."""

    def __init__(self, predict: ModuleType) -> None:
        self.predict = predict

    def move_probabilities(self, data: Any, legal: Sequence[int]) -> dict[int, float]:
        attacks = [a for a in legal if self.predict.is_attack(data, a)]
        best = (attacks or list(legal))[0]
        return {a: 0.9 if a == best else 0.1 / max(len(legal) - 1, 1) for a in legal}


def test_the_tally_counts_the_nets_attacks_and_the_players_own(predict: ModuleType) -> None:
    from record_turns import play_turns  # on the path with the fixture

    game = StrategoGame("classic", max_moves=120)
    state = game.new_initial_state()
    rng = random.Random(11)
    while not state.is_terminal():
        legal = state.legal_actions()
        attacks = [a for a in legal if a < 10000 and state.piece_at(a % 100) is not None]
        state.apply(rng.choice(attacks) if attacks and rng.random() < 0.5 else rng.choice(legal))
    record = GameRecord.from_state(state, players=["red", "blue"])
    out = predict.tally([(record, game, 0)], {"greedy": Greedy(predict)})
    moves = played = could = 0
    for seen, data, action in play_turns(record, game, 0):
        if action >= 10000:
            continue
        moves += 1
        played += predict.is_attack(data, action)
        could += any(predict.is_attack(data, a) for a in seen.legal_actions())
    assert moves > 20 and 0 < played < moves and 0 < could < moves
    assert (out.attacks, out.moves) == (played, moves)
    assert sorted(out.rows) == [("greedy", "our army shown"), ("greedy", "own view")]
    for row in out.rows.values():
        assert row[2:] == [could, moves]  # the likeliest move attacks wherever one can
        assert 0 <= row[1] <= moves
