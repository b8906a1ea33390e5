"""Ratings: the Weng-Lin Bayesian rating system (Weng & Lin, JMLR 2011; Bradley-Terry model) per game mode,
through the maintained `openskill` library, its parameters set so that ratings read on the Elo scale.

Like Glicko-2 (which lichess uses), each player has a rating and a deviation that shrinks with games. With
mu = 1500, sigma = 350 and beta = 400 / ln 10 / sqrt 2, the model's logistic curve between two well-known
players is Elo's, so a rating means what our computer levels' measured Elo means (docs/strength.md, Demon of
Ignorance level 1 = 1500): a player's rating against the computer and against people is one number. Each game
is rated on its own, as on game sites. A computer level carries its measured rating with a fixed deviation and
is never changed by a game; a computer without a measured rating plays unrated games only.

>>> new = updated(Rating(), Rating(), 1.0)
>>> round(new.rating), round(new.rd), new.games
(1617, 337, 1)
>>> updated(Rating(), Rating(), 0.5).rating == 1500
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from openskill.models import BradleyTerryFull

START = 1500.0
START_RD = 350.0
BETA = 400 / math.log(10) / math.sqrt(2)
"""Half the skill gap (squared) of one game's luck: sqrt(2) * BETA = 400 / ln 10, Elo's logistic scale."""
PROVISIONAL_RD = 110.0
"""A rating this uncertain or more is shown as provisional ("1620?"), as lichess does."""
COMPUTER_RD = 50.0
"""The deviation given to a computer level's measured rating (its 95% intervals span about +-100)."""

_MODEL = BradleyTerryFull(mu=START, sigma=START_RD, beta=BETA)


@dataclass(frozen=True)
class Rating:
    """One player's rating in one game mode: the estimate, its deviation, and the games it rests on."""

    rating: float = START
    rd: float = START_RD
    games: int = 0

    @property
    def provisional(self) -> bool:
        return self.rd >= PROVISIONAL_RD

    def to_json(self) -> dict[str, object]:
        return {
            "rating": round(self.rating),
            "rd": round(self.rd),
            "games": self.games,
            "provisional": self.provisional,
        }


def updated(player: Rating, opponent: Rating, score: float) -> Rating:
    """`player`'s rating after one game against `opponent` (score 1 a win, 0.5 a draw, 0 a loss)."""
    if score not in (0.0, 0.5, 1.0):
        raise ValueError(f"a game scores 0, 0.5 or 1, not {score}")
    ranks: list[float] = [0.0, 0.0] if score == 0.5 else [0.0, 1.0] if score == 1.0 else [1.0, 0.0]  # 0 = first
    me = _MODEL.rating(mu=player.rating, sigma=player.rd)
    them = _MODEL.rating(mu=opponent.rating, sigma=opponent.rd)
    [[after], _] = _MODEL.rate([[me], [them]], ranks=ranks)
    return Rating(float(after.mu), float(after.sigma), player.games + 1)


def computer(elo: float | None) -> Rating | None:
    """A computer level's fixed rating (None: it has none, its games are unrated)."""
    return None if elo is None else Rating(float(elo), COMPUTER_RD)


def mode_of(game: str, variant: object) -> str:
    """The rating pool a game counts in: the game and its variant ("stratego/classic", "lotr/powers")."""
    return f"{game}/{variant}" if variant else game
