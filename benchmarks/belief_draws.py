r"""Do the roll-outs' worlds carry the belief? Read from game records (issue 13).

`rollout` scores each candidate move in worlds drawn from its belief (`BeliefTracker.sample`), so what the
roll-outs know of the enemy is the draws, not the marginals. Along the records, `--player`'s belief is followed as
`rollout` keeps it, and at every `--every`-th move of that player each hidden enemy piece's true rank is scored
(log-loss, nats a piece) under the marginals, under the share of `--draws` worlds that gave the piece that rank for
each way of drawing (`plain`: the default, `faithful`: `sample(..., faithful=True)`), and under as many independent
draws from each piece's marginal (`independent`: what a faithful draw of that many worlds can reach at best, as the
shares of a finite draw add their own error). A draw the belief does not survive scores far above `independent`.
The last line counts the moved pieces that were a major or better against the count each expects.

    .venv/bin/python benchmarks/belief_draws.py RUN/games RUN2/games --player rollout --games 2 --draws 100

RUN is a `benchmarks/strength.py --out` folder (its `games` holds one JSON record a game).
"""

from __future__ import annotations

import argparse
import math
import random
from collections import Counter, defaultdict
from pathlib import Path

from record_turns import play_turns, player_games  # benchmarks/ is this script's folder, so on the path

from fogofwar.games.stratego.agents.knowledge import BOMB, FLAG, Knowledge
from fogofwar.games.stratego.agents.rollout import RolloutAgent
from fogofwar.games.stratego.pieces import Rank

OFFICERS = frozenset(int(r) for r in (Rank.MARSHAL, Rank.GENERAL, Rank.COLONEL, Rank.MAJOR))
WAYS = ("marginals", "plain", "faithful", "independent")
GROUPS = ("all", "moved", "never moved", "bombs and flag")


def draw_shares(
    agent: RolloutAgent, know: Knowledge, marginals: dict[int, dict[int, float]], draws: int, rng: random.Random
) -> dict[str, dict[int, Counter[int]]]:
    """How often each way of drawing gave each hidden piece each rank, over `draws` worlds."""
    counts: dict[str, dict[int, Counter[int]]] = {w: defaultdict(Counter) for w in WAYS[1:]}
    for _ in range(draws):
        for way, faithful in (("plain", False), ("faithful", True)):
            for sq, rank in agent._belief.sample(know, marginals, rng, faithful).items():
                counts[way][sq][rank] += 1
        for sq, row in marginals.items():
            ranks, weights = zip(*row.items(), strict=True)
            counts["independent"][sq][rng.choices(ranks, weights)[0]] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="+", type=Path, help="folders of JSON game records")
    parser.add_argument("--player", default="rollout", help="the player whose belief is followed (its record name)")
    parser.add_argument("--games", dest="limit", type=int, default=0, help="at most this many records a folder")
    parser.add_argument("--draws", type=int, default=100, help="worlds drawn each way at each reading")
    parser.add_argument("--every", type=int, default=10, help="read at every this many moves of the player")
    args = parser.parse_args()
    loss: dict[tuple[str, str], float] = defaultdict(float)
    pieces: Counter[str] = Counter()
    officers: dict[str, float] = defaultdict(float)
    rng = random.Random(5)
    for record, game, seat in player_games(args.games, args.player, args.limit):
        agent = RolloutAgent()
        agent.start(game, seat, random.Random(1))
        for turn, (state, data, _) in enumerate(play_turns(record, game, seat), 1):
            agent._belief.update(data)
            if turn % args.every:
                continue
            know = Knowledge.from_observation(data)
            marginals = agent._belief.marginals(know)
            shares = draw_shares(agent, know, marginals, args.draws, rng)
            for sq, row in marginals.items():
                piece, cell = state.piece_at(sq), know.cells[sq]
                assert piece is not None and cell is not None
                true = int(piece[1])
                groups = ["all", "moved" if cell.moved else "never moved"]
                groups += ["bombs and flag"] if true in (BOMB, FLAG) else []
                chance = {"marginals": row.get(true, 0.0)}
                for way, counts in shares.items():  # smoothed, as a share of 0 is no chance
                    chance[way] = (counts[sq][true] + 0.5) / (args.draws + 0.5 * len(row))
                for group in groups:
                    pieces[group] += 1
                    for way, p in chance.items():
                        loss[(group, way)] -= math.log(max(p, 1e-9))
                if cell.moved:
                    officers["true"] += true in OFFICERS
                    officers["marginals"] += sum(row.get(r, 0.0) for r in OFFICERS)
                    for way, counts in shares.items():
                        officers[way] += sum(counts[sq][r] for r in OFFICERS) / args.draws
    print(f"| hidden pieces | readings | {' | '.join(WAYS)} |")
    print("|---|---|" + "---|" * len(WAYS))
    for group in GROUPS:
        if pieces[group]:
            cells = " | ".join(f"{loss[(group, way)] / pieces[group]:.4f}" for way in WAYS)
            print(f"| {group} | {pieces[group]} | {cells} |")
    if officers:
        expected = ", ".join(f"{way} {officers[way]:.1f}" for way in WAYS)
        print(f"moved pieces that were a major or better: {officers['true']:.0f}; expected by {expected}")


if __name__ == "__main__":
    main()
