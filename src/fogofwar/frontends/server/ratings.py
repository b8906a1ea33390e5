"""Ratings: Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012) per game mode, through the `glicko2` library.

Glicko-2 is what lichess uses, and its scale is the Elo scale our computer levels are measured on
(docs/strength.md, Demon of Ignorance level 1 = 1500): a player's rating against the computer and against
people mean the same thing. Each game is its own rating period, as on game sites. A computer level carries its
measured rating with a fixed deviation and is never changed by a game; a computer without a measured rating
plays unrated games only.

>>> new = updated(Rating(), Rating(), 1.0)
>>> round(new.rating), round(new.rd), new.games
(1662, 290, 1)
"""

from __future__ import annotations

from dataclasses import dataclass

import glicko2

START = 1500.0
START_RD = 350.0
START_VOL = 0.06
PROVISIONAL_RD = 110.0
"""A rating this uncertain or more is shown as provisional ("1620?"), as lichess does."""
COMPUTER_RD = 50.0
"""The deviation given to a computer level's measured rating (its 95% intervals span about +-100)."""


@dataclass(frozen=True)
class Rating:
    """One player's Glicko-2 rating in one game mode."""

    rating: float = START
    rd: float = START_RD
    vol: float = START_VOL
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
    p = glicko2.Player(rating=player.rating, rd=player.rd, vol=player.vol)
    p.update_player([opponent.rating], [opponent.rd], [score])
    return Rating(float(p.rating), float(p.rd), float(p.vol), player.games + 1)


def computer(elo: float | None) -> Rating | None:
    """A computer level's fixed rating (None: it has none, its games are unrated)."""
    return None if elo is None else Rating(float(elo), COMPUTER_RD, START_VOL)


def mode_of(game: str, variant: object) -> str:
    """The rating pool a game counts in: the game and its variant ("stratego/classic", "lotr/powers")."""
    return f"{game}/{variant}" if variant else game
