"""Seeded random classic games for the learned models' tests: the positions each move was played from."""

from __future__ import annotations

import random
from typing import Any

from fogofwar.games.stratego.rules import StrategoGame, StrategoState
from fogofwar.games.stratego.setup import random_setup


def random_game(seed: int, plies: int, **options: Any) -> tuple[StrategoState, list[tuple[StrategoState, int]]]:
    """A seeded random classic game (no move cap; `options` of the game beside) and (the state before, the move
    played) for each of its moves."""
    game = StrategoGame("classic", max_moves=0, **options)
    rng = random.Random(seed)
    state = game.new_initial_state()
    for p in (0, 1):
        state.apply_setup(p, random_setup(game.variant, p, rng))
    before = []
    for _ in range(plies):
        if state.is_terminal():
            break
        move = rng.choice(state.legal_actions())
        before.append((state.clone(), move))
        state.apply(move)
    return state, before
