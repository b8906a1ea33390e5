"""A learned part of the belief: how a piece's history changes the odds of its rank.

The setup statistics say what usually starts on a square; what the piece has done since says more. A piece
that moved in the first turns is likelier a scout or a miner than a marshal; one that went far forward,
one that keeps moving, one that never moved in 200 turns (a bomb or the flag) each tell something. The
belief multiplies each rank's odds by `exp(w[rank] . features(history))`, with weights fitted on the Gravon
games by `fit` (softmax regression on top of the setup prior; `fogofwar train belief` writes them to
data/belief_weights.toml) and shipped with the package: they are small (12 ranks x a dozen features).

>>> h = PieceHistory(moves=0, first_moved=None, start_row=0, row=0, turns=0)
>>> features(h)
[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

WEIGHTS_FILE = "data/belief_weights.toml"
RANKS = 12

FEATURES = (
    "moved once",
    "moved 2-3 times",
    "moved 4-9 times",
    "moved 10+ times",
    "first move in the first 10 turns",
    "first move in turns 11-40",
    "advanced 1-2 rows",
    "advanced 3+ rows",
    "in the other half",
    "unmoved after 50 turns",
    "unmoved after 150 turns",
    "moved, 150+ turns played",
)
"""What the model reads of a piece's history, each 0 or 1 (names as in the weights file)."""


@dataclass(frozen=True)
class PieceHistory:
    """An enemy piece's history as the belief tracks it."""

    moves: int  # moves it made
    first_moved: int | None  # the owner's turn of its first move (None: never moved)
    start_row: int  # its setup row, 0 = its owner's back row
    row: int  # its row now, counted the same way
    turns: int  # moves its owner has made in all


def row_from_owner(sq: int, owner: int) -> int:
    """The row of a square counted from `owner`'s back row (0) toward the other side (9)."""
    row = sq // 10
    return row if owner == 0 else 9 - row


def features(h: PieceHistory) -> list[float]:
    """The 0/1 features of `FEATURES` for one piece."""
    advance = h.row - h.start_row
    first = h.first_moved
    return [
        float(h.moves == 1),
        float(2 <= h.moves <= 3),
        float(4 <= h.moves <= 9),
        float(h.moves >= 10),
        float(first is not None and first <= 10),
        float(first is not None and 10 < first <= 40),
        float(1 <= advance <= 2),
        float(advance >= 3),
        float(h.row >= 5),
        float(h.moves == 0 and h.turns >= 50),
        float(h.moves == 0 and h.turns >= 150),
        float(h.moves > 0 and h.turns >= 150),
    ]


@dataclass(frozen=True)
class BeliefWeights:
    """w[rank][feature]: the log-odds each feature adds to each rank."""

    names: tuple[str, ...]
    w: tuple[tuple[float, ...], ...]

    def factors(self, h: PieceHistory) -> list[float]:
        """exp(w[rank] . features) for every rank: what to multiply the prior odds by."""
        f = features(h)
        active = [i for i, x in enumerate(f) if x]
        return [math.exp(sum(row[i] for i in active)) for row in self.w]

    def to_toml(self, note: str) -> str:
        lines = [f"# {line}" for line in note.splitlines()]
        lines.append(f"features = [{', '.join(repr(n).replace(chr(39), chr(34)) for n in self.names)}]")
        lines.append("# weights[rank][feature], ranks 0 flag, 1 spy, 2 scout, ..., 10 marshal, 11 bomb")
        lines.append("weights = [")
        lines.extend("  [" + ", ".join(f"{x:.4f}" for x in row) + "]," for row in self.w)
        lines.append("]")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_toml(cls, text: str) -> BeliefWeights:
        data = tomllib.loads(text)
        names = tuple(str(n) for n in data["features"])
        if names != FEATURES:
            raise ValueError(f"the weights are for features {names}, the model reads {FEATURES}")
        w = tuple(tuple(float(x) for x in row) for row in data["weights"])
        if len(w) != RANKS or any(len(row) != len(FEATURES) for row in w):
            raise ValueError(f"the weights must be {RANKS} rows of {len(FEATURES)}")
        return cls(names, w)


@cache
def learned_weights() -> BeliefWeights | None:
    """The shipped weights, or None when the package has none."""
    path = resources.files("fogofwar.games.stratego.agents").joinpath(WEIGHTS_FILE)
    if not path.is_file():
        return None
    return BeliefWeights.from_toml(path.read_text(encoding="utf-8"))


def weights_path() -> Path:
    """Where `fogofwar train belief` writes the weights in a source checkout."""
    return Path(__file__).resolve().parent / WEIGHTS_FILE


__all__ = ["FEATURES", "BeliefWeights", "PieceHistory", "features", "learned_weights", "row_from_owner"]
