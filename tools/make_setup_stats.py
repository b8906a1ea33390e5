"""Derive setup statistics from the Gravon archives: how often each rank stands on each setup square.

Writes src/fogofwar/games/stratego/data/setup_stats.toml (counts only, no game is copied). Squares are
indexed as in setup strings: 0-9 the front row left to right from the owner's chair, then the
next row back, 30-39 the back row. Run: python tools/make_setup_stats.py ../shared/data/gravon/*.zip
"""

from __future__ import annotations

import sys
from pathlib import Path

from fogofwar.games.stratego.formats.gravon import read_gravon
from fogofwar.games.stratego.setup import setup_squares

OUT = Path(__file__).resolve().parents[1] / "src/fogofwar/games/stratego/data/setup_stats.toml"
VARIANTS = ("classic", "barrage")


def main(paths: list[str]) -> None:
    index = [{sq: i for i, sq in enumerate(setup_squares(p))} for p in (0, 1)]
    counts = {v: [[0] * 40 for _ in range(12)] for v in VARIANTS}
    setups = dict.fromkeys(VARIANTS, 0)
    for path in paths:
        for game in read_gravon(path):
            if isinstance(game, Exception) or game.game_type not in VARIANTS:
                continue
            try:
                pieces = game.pieces()
            except Exception:
                continue
            for player in (0, 1):
                own = [(sq, r) for sq, o, r in pieces if o == player]
                if not own or any(sq not in index[player] for sq, _ in own):
                    continue
                setups[game.game_type] += 1
                for sq, rank in own:
                    counts[game.game_type][int(rank)][index[player][sq]] += 1
    lines = [
        "# How often each rank stood on each setup square in the Gravon games (tools/make_setup_stats.py).",
        "# Square index as in setup strings: 0-9 front row left to right from the owner's chair ... 30-39 back row.",
        "# Rows of each table: rank strength 0 flag, 1 spy, 2 scout, ..., 10 marshal, 11 bomb.",
        "",
    ]
    for v in VARIANTS:
        lines.append(f"[{v}]")
        lines.append(f"setups = {setups[v]}")
        lines.append("counts = [")
        lines.extend(f"  [{', '.join(map(str, row))}]," for row in counts[v])
        lines.append("]")
        lines.append("")
    OUT.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {OUT.name}: " + ", ".join(f"{v} {setups[v]} setups" for v in VARIANTS))


if __name__ == "__main__":
    main(sys.argv[1:])
