"""Fit the spy-pair factors from the Gravon archives: how much likelier the spy is set up beside a general, a
colonel or a major than its square's own frequency says. (They were the belief's `SPY_PAIR_FACTORS`, which
`rollout:pairs` used until it was removed in session 54; the figures of docs/strength.md, session 42, come from here.)

Model: for one side's setup, P(spy on square s) is proportional to the spy's count on s in the setup statistics
times f_r for each piece of rank r (general, colonel, major) set up beside s; the squares of those pieces are out.
The factors f maximise the likelihood of the spy's true square (a conditional logit, fitted by Newton's method);
every 4th game is held out of the fit and of the statistics, and its log-likelihood a setup is printed with and
without the factors. Run: python tools/fit_spy_pairs.py ../shared/data/gravon/*.zip
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from fogofwar.games.stratego.agents.belief_training import gravon_games, setup_counts, split
from fogofwar.games.stratego.formats.gravon import GravonGame
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.setup import setup_squares
from fogofwar.grid.board import NEIGHBOURS

PAIRED = (Rank.GENERAL, Rank.COLONEL, Rank.MAJOR)

Case = tuple[np.ndarray, np.ndarray, int]  # log prior by candidate square, (squares, PAIRED) neighbours, true index


def cases(games: list[GravonGame], counts: tuple[tuple[int, ...], ...]) -> list[Case]:
    """One case a side of each readable setup: the spy's candidate squares, their features, the true square."""
    out = []
    for game in games:
        try:
            pieces = game.pieces()
        except Exception:  # an archive's unreadable setup: not a case
            continue
        for owner in (0, 1):
            index = {sq: i for i, sq in enumerate(setup_squares(owner))}
            ranks = {sq: int(r) for sq, o, r in pieces if o == owner}
            if len(ranks) != 40 or set(ranks) != set(index):
                continue
            free = [sq for sq in index if ranks[sq] not in {int(r) for r in PAIRED}]
            spy = next(i for i, sq in enumerate(free) if ranks[sq] == int(Rank.SPY))
            prior = np.log([counts[int(Rank.SPY)][index[sq]] + 0.5 for sq in free])
            near = np.array([[sum(ranks.get(n) == int(r) for n in NEIGHBOURS[sq]) for r in PAIRED] for sq in free])
            out.append((prior, near.astype(float), spy))
    return out


def log_likelihood(data: list[Case], w: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """(mean log-likelihood a setup, its gradient, its Hessian) at log-factors `w`."""
    total, grad, hess = 0.0, np.zeros(len(w)), np.zeros((len(w), len(w)))
    for prior, near, spy in data:
        z = prior + near @ w
        p = np.exp(z - z.max())
        p /= p.sum()
        mean = p @ near
        total += float(np.log(p[spy]))
        grad += near[spy] - mean
        hess -= (near * p[:, None]).T @ near - np.outer(mean, mean)
    return total / len(data), grad / len(data), hess / len(data)


def main(paths: list[str]) -> None:
    games = gravon_games([Path(p) for p in paths])
    train, held = split(games, 4)
    counts = setup_counts(train)
    fit, test = cases(train, counts), cases(held, counts)
    w = np.zeros(len(PAIRED))
    for _ in range(20):
        _, grad, hess = log_likelihood(fit, w)
        w -= np.linalg.solve(hess, grad)
    print(f"{len(fit)} setups fitted, {len(test)} held out")
    print("factors:", {r.name.lower(): round(float(np.exp(x)), 2) for r, x in zip(PAIRED, w, strict=True)})
    plain, fitted = log_likelihood(test, np.zeros(len(PAIRED)))[0], log_likelihood(test, w)[0]
    print(f"held-out log-likelihood a setup: {plain:.3f} without, {fitted:.3f} with")


if __name__ == "__main__":
    main(sys.argv[1:])
