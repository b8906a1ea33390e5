"""Human-like setups, drawn from how often each rank stood on each square in real Gravon games.

The statistics (data/setup_stats.toml, made by tools/make_setup_stats.py) count ranks per
setup square. A setup is drawn piece by piece, the most placement-sensitive first (flag,
bombs, then the strongest), each on a free square chosen with probability proportional to
its count; bombs are then pulled next to the flag when the flag has a free neighbour, as
players do. Variants without statistics fall back to a random setup.
"""

from __future__ import annotations

import random
import tomllib
from functools import cache
from importlib import resources

from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.setup import parse_setup, random_setup, setup_squares
from fogofwar.games.stratego.variants import Variant
from fogofwar.grid.board import NEIGHBOURS

_ORDER = (
    Rank.FLAG,
    Rank.BOMB,
    Rank.MARSHAL,
    Rank.GENERAL,
    Rank.SPY,
    Rank.COLONEL,
    Rank.MAJOR,
    Rank.MINER,
    Rank.CAPTAIN,
    Rank.LIEUTENANT,
    Rank.SERGEANT,
    Rank.SCOUT,
)


@cache
def setup_counts(variant: str) -> tuple[tuple[int, ...], ...] | None:
    """counts[rank][index 0..39] for a variant, or None if there are no statistics for it."""
    text = resources.files("fogofwar.games.stratego").joinpath("data/setup_stats.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    if variant not in data:
        return None
    return tuple(tuple(int(x) for x in row) for row in data[variant]["counts"])


def prior_by_square(variant: Variant, player: int) -> dict[int, dict[int, float]] | None:
    """For each board square of `player`'s setup area: P(rank) of the piece that starts there, or None."""
    counts = setup_counts(variant.name)
    if counts is None:
        return None
    squares = setup_squares(player)
    out: dict[int, dict[int, float]] = {}
    for i, sq in enumerate(squares):
        col = {r: counts[r][i] + 0.5 for r in range(12) if variant.count(Rank(r))}
        total = sum(col.values())
        out[sq] = {r: c / total for r, c in col.items()}
    return out


def human_like_setup(variant: Variant, player: int, rng: random.Random) -> dict[int, Rank]:
    """A legal setup for `player` drawn from the real-game statistics (random where there are none)."""
    counts = setup_counts(variant.name)
    if counts is None or variant.setup_area != "home_rows":
        return random_setup(variant, player, rng)
    squares = setup_squares(player)
    free = set(range(len(squares)))
    placement: dict[int, Rank] = {}
    flag_index: int | None = None
    for rank in _ORDER:
        for _ in range(variant.count(rank)):
            choices = sorted(free)
            weights = [counts[rank][i] + 0.2 for i in choices]
            if rank is Rank.BOMB and flag_index is not None:
                flag_sq = squares[flag_index]
                near = {squares.index(n) for n in NEIGHBOURS[flag_sq] if n in squares}
                weights = [w * (25.0 if i in near else 1.0) for i, w in zip(choices, weights, strict=True)]
            i = rng.choices(choices, weights=weights)[0]
            free.discard(i)
            placement[squares[i]] = rank
            if rank is Rank.FLAG:
                flag_index = i
    return placement


@cache
def book_setups(variant: str) -> tuple[str, ...]:
    """The setup book of a variant (data/setup_book.toml, made by tools/make_setup_book.py: setups that won Gravon
    games), as setup strings from the owner's chair; empty for a variant it has none of."""
    data = resources.files("fogofwar.games.stratego.agents").joinpath("data/setup_book.toml")
    text = data.read_text(encoding="utf-8")
    return tuple(tomllib.loads(text).get(variant, {}).get("setups", ()))


def mirrored(text: str) -> str:
    """A setup string turned left to right, as the owner sees it (a setup and its mirror image are equally good).

    >>> mirrored("123/456")
    '321/654'
    """
    return "/".join(row[::-1] for row in text.split("/"))


def book_setup(variant: Variant, player: int, rng: random.Random) -> dict[int, Rank] | None:
    """A setup of the book drawn at random, turned left to right half the time; None when the book has none."""
    book = book_setups(variant.name)
    if not book:
        return None
    text = rng.choice(book)
    if rng.random() < 0.5:
        text = mirrored(text)
    return parse_setup(text, variant, player)
