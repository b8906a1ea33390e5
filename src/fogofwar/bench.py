"""`fogofwar bench`: how fast the reference engine plays random games (one core, both repetition rules on)."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from fogofwar.stratego.rules import StrategoGame
from fogofwar.stratego.setup import random_setup

DEFAULT_CAPS = {"classic": 2000, "barrage": 1000, "duel": 1000, "classicfree": 2000}
"""Move caps usual in computer play (README of the rules): a game reaching it is a draw."""


@dataclass
class BenchResult:
    variant: str
    games: int
    moves: int
    seconds: float
    setup_seconds: float
    endings: dict[str, int]

    @property
    def moves_per_second(self) -> float:
        return self.moves / max(self.seconds - self.setup_seconds, 1e-9)

    @property
    def games_per_second(self) -> float:
        return self.games / max(self.seconds, 1e-9)

    def line(self) -> str:
        ends = ", ".join(f"{k} {v}" for k, v in sorted(self.endings.items()))
        return (
            f"{self.variant:<8} {self.games:>6} games {self.moves:>9} moves  "
            f"{self.moves_per_second:>9,.0f} moves/s  {self.games_per_second:>7.1f} games/s  ({ends})"
        )


def bench_random_play(variant: str, seconds: float = 5.0, seed: int = 1, max_games: int | None = None) -> BenchResult:
    """Play uniformly random games for about `seconds`: setups are random, every move goes through
    `legal_actions()` and `apply()` with the two-squares and more-squares rules on."""
    game = StrategoGame(variant, max_moves=DEFAULT_CAPS.get(variant, 2000))
    rng = random.Random(seed)
    games = moves = 0
    setup_time = 0.0
    endings: dict[str, int] = {}
    start = time.perf_counter()
    while time.perf_counter() - start < seconds and (max_games is None or games < max_games):
        t0 = time.perf_counter()
        state = game.new_initial_state()
        for player in (0, 1):
            state.apply_setup(player, random_setup(game.variant, player, rng))
        setup_time += time.perf_counter() - t0
        choice = rng.choice
        while not state.is_terminal():
            state.apply(choice(state.legal_actions()))
            moves += 1
        games += 1
        outcome = state.outcome()
        assert outcome is not None
        endings[outcome.termination.value] = endings.get(outcome.termination.value, 0) + 1
    return BenchResult(variant, games, moves, time.perf_counter() - start, setup_time, endings)
