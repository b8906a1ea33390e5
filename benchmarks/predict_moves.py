r"""How well does each shipped move net predict one player's moves? Read from game records (issue 13).

The roll-outs of `rollout` play the enemy's plies with a net's likeliest move, so the net that best predicts an
opponent's moves is the better model of it there. For every move of `--player` in the records (classic Stratego),
each net is read from that player's own view (what the game showed it) and, as `rollout:exposed=1` assumes, with
the other side's whole army shown to it; the table gives the mean log-loss of the move played (nats a move) and how
often it was the net's likeliest (top-1).

    .venv/bin/python benchmarks/predict_moves.py RUN/games RUN2/games --player demon5 --games 16

RUN is a `benchmarks/strength.py --out` folder (its `games` holds one JSON record a game).
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict
from pathlib import Path

from record_turns import play_turns, player_games  # benchmarks/ is this script's folder, so on the path

from fogofwar.games.stratego.agents.policy_model import PolicyNet, shipped_net
from fogofwar.games.stratego.observation import StrategoView
from fogofwar.games.stratego.rules import StrategoState

NETS = ("selfplay_net.npz", "policy_net.npz")


def shown_all(data: StrategoView, state: StrategoState) -> StrategoView:
    """`data` with every piece of the other side shown with its rank (the view `exposed=1` gives the enemy)."""
    board = list(data["board"])
    for sq, cell in enumerate(board):
        if isinstance(cell, dict) and cell["owner"] != data["player"] and cell.get("rank") is None:
            piece = state.piece_at(sq)
            assert piece is not None
            board[sq] = {**cell, "rank": piece[1].name.lower(), "revealed": True}
    return {**data, "board": board}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="+", type=Path, help="folders of JSON game records")
    parser.add_argument("--player", required=True, help="the player whose moves are predicted (its record name)")
    parser.add_argument("--games", dest="limit", type=int, default=0, help="at most this many records a folder")
    parser.add_argument("--nets", default=",".join(NETS), help="shipped nets, comma-separated")
    args = parser.parse_args()
    nets: dict[str, PolicyNet] = {}
    for name in args.nets.split(","):
        net = shipped_net(name)
        if net is None:
            parser.error(f"no shipped net {name!r}")
        nets[name] = net
    total: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for record, game, seat in player_games(args.games, args.player, args.limit):
        for state, data, action in play_turns(record, game, seat):
            if action >= 10000:
                continue
            legal = state.legal_actions()
            for view, seen in (("own view", data), ("our army shown", shown_all(data, state))):
                for name, net in nets.items():
                    probs = net.move_probabilities(seen, legal)
                    row = total[(name, view)]
                    row[0] -= math.log(max(probs.get(action, 0.0), 1e-6))
                    row[1] += max(probs, key=lambda a: probs[a]) == action
                    row[2] += 1
    print(f"{'net':<20} {'view':<16} {'moves':>7} {'nats a move':>12} {'top-1':>7}")
    for (name, view), (loss, hits, n) in sorted(total.items()):
        print(f"{name:<20} {view:<16} {int(n):>7} {loss / n:>12.3f} {hits / n:>7.3f}")


if __name__ == "__main__":
    main()
