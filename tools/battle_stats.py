"""How the battles of a series went, from one player's side: where its pieces were lost.

Reads the game records an arena or strength run writes (`OUT/games/*.json`) and counts every battle by
who attacked, what the attacker knew of the defender (revealed, moved but unknown, never moved), and
the result: the figures that say where a Stratego agent leaks material (for instance revealed pieces left
next to stronger ones).

    .venv/bin/python tools/battle_stats.py artifacts/strength/demon1 --player search
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from fogofwar.core.records import GameRecord
from fogofwar.core.registry import make_game
from fogofwar.games.stratego.rules import StrategoState


def battles(path: Path, player: str) -> tuple[Counter[tuple[str, str, str]], int]:
    """(battle counts by (who, knowledge of the defender, result), the number of games read)."""
    counts: Counter[tuple[str, str, str]] = Counter()
    games = 0
    for f in sorted((path / "games").glob("*.json")):
        rec = GameRecord.load(f)
        if player not in rec.players:
            continue
        games += 1
        me = rec.players.index(player)
        state = make_game(rec.game, **rec.options).new_initial_state()
        assert isinstance(state, StrategoState)
        for action in rec.actions:
            if state.current_player() >= 0 and action < 10000:  # a move, not a placement
                src, dst = divmod(action, 100)
                attacker, defender = state.piece_at(src), state.piece_at(dst)
                state.apply(action)
                if attacker is None or defender is None:
                    continue
                after = state.piece_at(dst)
                result = "win" if after and after[0] == attacker[0] else ("both die" if after is None else "lose")
                _owner, _rank, moved, revealed = defender
                known = "revealed" if revealed else "moved, unknown" if moved else "unmoved, unknown"
                who = "we attack" if attacker[0] == me else "they attack"
                counts[(who, known, result)] += 1
            else:
                state.apply(action)
    return counts, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path, help="an arena or strength output folder (with games/)")
    parser.add_argument("--player", default="search", help="the player's name in the records")
    args = parser.parse_args()
    counts, games = battles(args.out, args.player)
    print(f"{games} games of {args.player}: battles by who attacked, the defender as the attacker knew it, result")
    for who in ("we attack", "they attack"):
        for known in ("revealed", "moved, unknown", "unmoved, unknown"):
            row = {r: counts[(who, known, r)] for r in ("win", "both die", "lose")}
            total = sum(row.values())
            cells = ", ".join(f"{r} {n}" for r, n in row.items())
            print(f"  {who:11s} {known:17s} {total:5d}  ({cells})")


if __name__ == "__main__":
    main()
