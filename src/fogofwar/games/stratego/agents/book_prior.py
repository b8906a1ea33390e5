"""What the pieces a game has shown say about the hidden ones, read from whole setups people played.

Why: the belief's prior (`setups.prior_by_square`) takes each setup square alone, but players set up wholes: a
marshal on the left, bombs around the flag, a setup copied from a book. The setups of the setup book
(`setups.book_setups`, each also mirrored left to right) are weighed by how well they agree with what the game
showed of each enemy setup square (a rank seen there, alive or fallen; a piece that moved from there, so no bomb
and no flag), and their ranks on the hidden pieces' setup squares give a second prior. The two are mixed as a
Bayesian mixture: the book's share grows with how much better than the squares alone it explains what was shown,
so an army set up like a book setup is read from the book and any other from its squares.

Each book setup is taken as noisy (`noise`): a square holds the setup's rank with chance 1 - noise, and otherwise a
rank drawn from the square's own prior; a setup that disagrees somewhere keeps a weight.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping
from functools import cache

import numpy as np

from fogofwar.games.stratego.agents.setups import book_setups, mirrored
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.setup import parse_setup, setup_squares
from fogofwar.games.stratego.variants import get_variant

EMPTY = len(Rank)
"""The code of a setup square a book setup leaves empty (Barrage)."""

Prior = Mapping[int, Mapping[int, float]]
"""P(rank) by setup square (board square numbers)."""


class SetupBookPrior:
    """The setups of a book for one player, as ranks by setup square, and the prior they give a game's hidden
    pieces.

    >>> book = SetupBookPrior([[0, 11], [11, 0]], squares=(90, 91))
    >>> squares = {90: {0: 0.5, 11: 0.5}, 91: {0: 0.5, 11: 0.5}}
    >>> rows = book.prior(squares, shown={90: 11}, moved=(), hidden=(91,), weight=0.5, noise=0.0)
    >>> round(rows[91][0], 3)  # the book says the flag; the squares alone, even
    0.75
    >>> book.prior(squares, shown={90: 11}, moved=(), hidden=(91,), weight=0.0, noise=0.0)[91]  # no book
    {0: 0.5, 11: 0.5}
    """

    def __init__(self, setups: Iterable[Iterable[int]], squares: tuple[int, ...]) -> None:
        self.ranks = np.array([list(s) for s in setups], np.int64)  # [setup, setup index] -> rank (EMPTY: none)
        self.squares = squares
        self.index = {sq: i for i, sq in enumerate(squares)}
        self._gaps = bool((self.ranks == EMPTY).any())  # setups leave squares empty (Barrage)
        self._taken = np.maximum((self.ranks != EMPTY).mean(axis=0), 1e-3)  # how often each square is taken
        self._cells = self.ranks + (EMPTY + 1) * np.arange(len(squares))  # one bin per (setup index, rank)

    def prior(
        self,
        squares: Prior,
        shown: Mapping[int, int],
        moved: Collection[int],
        hidden: Collection[int],
        weight: float,
        noise: float,
    ) -> dict[int, dict[int, float]]:
        """P(rank) of each `hidden` setup square: the square prior `squares` mixed with the book's, given the
        ranks `shown` by setup square, the setup squares of pieces that have `moved` and of those `hidden`.
        `weight` is the book's share before anything was shown."""
        n = len(self.ranks)
        log_book = np.zeros(n)
        log_squares = 0.0
        for sq, rank in shown.items():
            p = squares[sq].get(rank, 0.0)
            column = self.ranks[:, self.index[sq]]
            log_book += np.log(np.where(column == rank, 1.0 - noise, 0.0) + noise * p + 1e-12)
            log_squares += math.log(p + 1e-12)
        for sq in moved:
            p = 1.0 - squares[sq].get(int(Rank.BOMB), 0.0) - squares[sq].get(int(Rank.FLAG), 0.0)
            column = self.ranks[:, self.index[sq]]
            can_move = (column != int(Rank.BOMB)) & (column != int(Rank.FLAG)) & (column != EMPTY)
            log_book += np.log(np.where(can_move, 1.0 - noise, 0.0) + noise * p + 1e-12)
            log_squares += math.log(p + 1e-12)
        if self._gaps:  # a piece was set up on each of these squares: a setup that left one empty is unlike it,
            # and the squares alone say each is taken as often as the book's setups take it
            for sq in set(hidden) - set(moved):
                column = self.ranks[:, self.index[sq]]
                log_book += np.log(np.where(column != EMPTY, 1.0 - noise, 0.0) + noise)
            for sq in set(hidden) | set(shown):
                log_squares += math.log(float(self._taken[self.index[sq]]))
        top = float(log_book.max())
        w = np.exp(log_book - top)
        evidence = top + math.log(float(w.sum()) / n)  # log P(shown | book)
        w /= w.sum()
        share = 0.0  # the book's share after what was shown: its prior odds times how much better it explains it
        if weight > 0:
            share = 1.0 / (1.0 + (1.0 - weight) / weight * math.exp(min(log_squares - evidence, 700.0)))
        counts = np.bincount(
            self._cells.ravel(),
            weights=np.repeat(w, len(self.squares)),
            minlength=len(self.squares) * (EMPTY + 1),
        )
        counts = counts.reshape(len(self.squares), EMPTY + 1)
        out: dict[int, dict[int, float]] = {}
        for sq in hidden:
            row = counts[self.index[sq]]
            filled = 1.0 - float(row[EMPTY])
            own = squares[sq]
            out[sq] = {
                r: (1.0 - share) * p
                + share * ((1.0 - noise) * (float(row[r]) / filled if filled > 0 else p) + noise * p)
                for r, p in own.items()
            }
        return out


@cache
def setup_book_prior(variant: str, player: int) -> SetupBookPrior | None:
    """The setup book of `variant` for `player`'s setup squares, each setup also mirrored left to right; None when
    the variant has no book."""
    texts = book_setups(variant)
    if not texts:
        return None
    v = get_variant(variant)
    squares = tuple(setup_squares(player))
    rows = []
    for text in texts:
        for t in (text, mirrored(text)):
            placed = parse_setup(t, v, player)
            rows.append([int(placed[sq]) if sq in placed else EMPTY for sq in squares])
    return SetupBookPrior(rows, squares)
