"""Win rate of `stratego` against `random` over seeded games, alternating seats; the solo rules at
Stratego's seat (`solo_seat`, SOLO-AI-1), or with --normal the common two-player rules.

python -m fogofwar.games.admiral.solo.measure --games 500 --max-turns 40
(`fogofwar arena --game admiral -o max_turns=40 -p stratego,random` measures the same with Elo.)
"""

from __future__ import annotations

import argparse
import time

from fogofwar.core.agents import Agent, RandomAgent
from fogofwar.core.match import play_match
from fogofwar.games.admiral.rules import AdmiralGame
from fogofwar.games.admiral.solo.agent import StrategoAgent


def measure(games: int, max_turns: int, first_seed: int = 0, solo: bool = True) -> dict[str, float]:
    wins = draws = losses = 0
    start = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        seat = seed % 2
        agents: list[Agent] = [RandomAgent(), RandomAgent()]
        agents[seat] = StrategoAgent(solo=solo)
        game = AdmiralGame(max_turns=max_turns, solo_seat=seat if solo else None)
        outcome = play_match(game, agents, seed=seed).outcome
        winner = None if outcome is None else outcome.winner
        if winner == seat:
            wins += 1
        elif winner is None:
            draws += 1
        else:
            losses += 1
    return {
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win_rate": wins / games if games else 0.0,
        "seconds": round(time.perf_counter() - start, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--max-turns", type=int, default=40)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--normal", action="store_true", help="the common two-player rules, not the solo rules")
    args = parser.parse_args()
    print(measure(args.games, args.max_turns, args.first_seed, solo=not args.normal))


if __name__ == "__main__":
    main()
