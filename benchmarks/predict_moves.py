r"""How well does each shipped move net predict one player's moves? Read from game records (issue 13).

The roll-outs of `rollout` play the enemy's plies with a net's likeliest move, so the net that best predicts an
opponent's moves is the better model of it there. For every move of `--player` in the records (classic Stratego),
each net is read from that player's own view (what the game showed it) and, as `rollout:exposed=1` assumes, with
the other side's whole army shown to it; the table gives the mean log-loss of the move played (nats a move), how
often it was the net's likeliest (top-1), and how often the net's likeliest move is an attack, beside how often the
player attacked: an enemy in the roll-outs that attacks more than the opponent does prices our pieces beside its
own as the opponent does not (docs/strength.md, session 72).

    .venv/bin/python benchmarks/predict_moves.py RUN/games RUN2/games --player demon5 --games 16

RUN is a `benchmarks/strength.py --out` folder (its `games` holds one JSON record a game).
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import NamedTuple

from record_turns import play_turns, player_games  # benchmarks/ is this script's folder, so on the path

from fogofwar.core.protocol import Game
from fogofwar.core.records import GameRecord
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


def is_attack(data: StrategoView, action: int) -> bool:
    """Whether the play-phase move `action` (src x 100 + dst) steps onto a piece of the other side in `data`."""
    target = data["board"][action % 100]
    return isinstance(target, dict) and target["owner"] != data["player"]


class Tally(NamedTuple):
    """What `tally` counted: by (net, view), [nats of the moves played, top-1 hits, likeliest moves that attack,
    moves]; and of the player's own moves, how many attacked and how many there were."""

    rows: dict[tuple[str, str], list[float]]
    attacks: int
    moves: int


def tally(records: Iterable[tuple[GameRecord, Game, int]], nets: Mapping[str, PolicyNet]) -> Tally:
    """Each net's prediction of the seat's play-phase moves along `records`, read from its own view and with the
    other side's army shown (`shown_all`), and the seat's own attacks."""
    rows: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
    attacks = moves = 0
    for record, game, seat in records:
        for state, data, action in play_turns(record, game, seat):
            if action >= 10000:
                continue
            legal = state.legal_actions()
            attacks += is_attack(data, action)
            moves += 1
            for view, seen in (("own view", data), ("our army shown", shown_all(data, state))):
                for name, net in nets.items():
                    probs = net.move_probabilities(seen, legal)
                    likeliest = max(probs, key=lambda a: probs[a])
                    row = rows[(name, view)]
                    row[0] -= math.log(max(probs.get(action, 0.0), 1e-6))
                    row[1] += likeliest == action
                    row[2] += is_attack(data, likeliest)
                    row[3] += 1
    return Tally(dict(rows), attacks, moves)


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
    total = tally(player_games(args.games, args.player, args.limit), nets)
    print(f"{'net':<20} {'view':<16} {'moves':>7} {'nats a move':>12} {'top-1':>7} {'attacks':>8}")
    for (name, view), (loss, hits, attacks, n) in sorted(total.rows.items()):
        print(f"{name:<20} {view:<16} {int(n):>7} {loss / n:>12.3f} {hits / n:>7.3f} {attacks / n:>8.3f}")
    share = total.attacks / max(total.moves, 1)
    print(f"{args.player} attacked in {total.attacks} of its {total.moves} moves ({share:.3f})")


if __name__ == "__main__":
    main()
