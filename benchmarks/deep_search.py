r"""Speed of the compiled look-ahead (`...stratego.agents.deep_kernel`): nodes a second and the depth reached.

Positions come from game records (e.g. an arena's OUT/games/*.json): every Nth move of each game, seen with full
knowledge from the side to move (one "world" of the search). For each depth the table gives the time and nodes
to value every legal move exactly, summed over the positions; so a change of the kernel (ordering, tables) shows
as fewer nodes or more nodes a second on the same work.

    .venv/bin/python benchmarks/deep_search.py OUT/games/*.json --every 40 --depth 5
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from fogofwar.core.records import GameRecord
from fogofwar.games.stratego.agents.deep_kernel import root_values
from fogofwar.games.stratego.agents.knowledge import VALUE


def positions(paths: list[str], every: int, limit: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """(board, legal move ids) from the side to move at every `every`-th play move of each record."""
    out: list[tuple[np.ndarray, np.ndarray]] = []
    for path in paths:
        record = GameRecord.load(path)
        actions = list(record.actions)
        for cut in range(every, len(actions), every):
            cut_record = GameRecord.from_json(
                {**record.to_json(), "actions": actions[:cut], "outcome": None, "notation": []}
            )
            state = cut_record.replay(check=False)
            if state.is_terminal():
                break
            me = state.current_player()
            board = np.zeros(100, np.int64)
            for sq in range(100):
                piece = state.piece_at(sq)  # type: ignore[attr-defined]
                if piece is not None:
                    owner, rank = piece[0], int(piece[1])
                    board[sq] = (rank + 1) * (1 if owner == me else -1)
            legal = [a for a in state.legal_actions() if a < 10000]
            if legal:
                out.append((board, np.array(legal, np.int64)))
            if len(out) >= limit:
                return out
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records", nargs="+")
    ap.add_argument("--every", type=int, default=40)
    ap.add_argument("--limit", type=int, default=40, help="positions at most")
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--quiescence", type=int, default=6)
    args = ap.parse_args()
    vals = np.array([VALUE[r] for r in range(12)], np.float64)
    vals[10] = 260.0
    pos = positions(args.records, args.every, args.limit)
    zeros = np.zeros(100, np.int64)
    root_values(pos[0][0][None, :], zeros, zeros, pos[0][1], vals, vals, 8.0, 0.05, 1, 0, 10**6, 11, 0.0)  # compile
    print(f"{len(pos)} positions")
    print("depth  seconds      nodes   nodes/s")
    for depth in range(1, args.depth + 1):
        t0 = time.perf_counter()
        nodes = 0
        for board, legal in pos:
            _, n, _ = root_values(
                board[None, :], zeros, zeros, legal, vals, vals, 8.0, 0.05, depth, args.quiescence, 10**12, 11, 0.0
            )
            nodes += int(n)
        dt = time.perf_counter() - t0
        print(f"{depth:5d} {dt:8.3f} {nodes:10d} {nodes / dt:9.0f}")


if __name__ == "__main__":
    main()
