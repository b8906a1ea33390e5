"""Write the setup book: the setups that won Gravon games on the board, for `search:book=K`.

A setup chosen piece by piece from square statistics (`setups.human_like_setup`) has each piece where people
often put it, but not the shape of a whole army people chose (bombs that wall in no piece of their own, the
strong pieces spread over the three lanes, a flag among its guards). The book keeps whole setups instead: the
winner's of every Gravon game decided on the board (flag taken or no movable piece left) or given up after
`--min-moves` moves, written as setup strings from the owner's chair (`setup.format_setup`), each once.

Writes src/fogofwar/games/stratego/agents/data/setup_book.toml. Run:
    python tools/make_setup_book.py ../shared/data/gravon/*.zip
"""

from __future__ import annotations

import argparse
from pathlib import Path

from fogofwar.core.protocol import GameError, RecordError
from fogofwar.games.stratego.formats.gravon import VARIANT_OF_TYPE, GravonGame, read_gravon
from fogofwar.games.stratego.rules import check_setup
from fogofwar.games.stratego.setup import format_setup
from fogofwar.games.stratego.variants import get_variant

OUT = Path(__file__).resolve().parents[1] / "src/fogofwar/games/stratego/agents/data/setup_book.toml"
VARIANTS = ("classic", "barrage")
_BOARD_RESULTS = (0, 1)  # Gravon result types: no movable piece left, flag taken
_GIVEN_UP = 3  # a resignation or forfeit


def winning_setup(game: GravonGame, min_moves: int) -> str | None:
    """The winner's setup string, or None when the game was not won on the board or after a real fight."""
    variant = VARIANT_OF_TYPE.get(game.game_type)
    if variant not in VARIANTS or game.winner not in (1, 2):
        return None
    decided = game.result_type in _BOARD_RESULTS or (game.result_type == _GIVEN_UP and len(game.moves) >= min_moves)
    if not decided:
        return None
    seat = game.winner - 1
    try:
        own = {sq: rank for sq, owner, rank in game.pieces() if owner == seat}
        check_setup(get_variant(variant), seat, own)
    except (RecordError, GameError):
        return None
    return format_setup(own, get_variant(variant), seat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("archives", nargs="+", type=Path)
    parser.add_argument("--min-moves", type=int, default=100, help="a game given up counts after this many moves")
    args = parser.parse_args()
    book: dict[str, dict[str, None]] = {v: {} for v in VARIANTS}  # insertion-ordered sets
    for path in args.archives:
        for game in read_gravon(path):
            if isinstance(game, GravonGame) and (text := winning_setup(game, args.min_moves)):
                book[VARIANT_OF_TYPE[game.game_type]][text] = None
    lines = [
        "# Setups that won Gravon games on the board (flag taken, no movable piece left) or after a long fight,",
        f"# each once; written by tools/make_setup_book.py (--min-moves {args.min_moves}). Setup strings from the",
        "# owner's chair (fogofwar.games.stratego.setup), played by search:book=K.",
        "",
    ]
    for v in VARIANTS:
        lines += [f"[{v}]", "setups = ["] + [f'  "{s}",' for s in book[v]] + ["]", ""]
    OUT.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {OUT.name}: " + ", ".join(f"{v} {len(book[v])} setups" for v in VARIANTS))


if __name__ == "__main__":
    main()
