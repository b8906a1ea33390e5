"""The computer's levels: named agents with a measured rating, in `data/levels.toml`.

Why a data file: the lobby, the terminal and the rating fit (`benchmarks/levels.py`) must agree on what each
level is and how strong it measured, and a rating is a measurement that changes when an agent does, not code.

>>> [level.label for level in levels()]
['Beginner', 'Novice', 'Club', 'Strong', 'Advanced', 'Expert', 'Master']
>>> level_named("search").label
'Strong'
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

LEVELS_FILE = "data/levels.toml"


@dataclass(frozen=True)
class Level:
    """One level: the agent name a player picks, the spec it plays as, and what it measured."""

    name: str
    spec: str
    label: str
    blurb: str
    elo: float | None = None
    seconds: float | None = None

    def describe(self) -> dict[str, object]:
        """What a client shows: the label, a line on how it plays, its rating and time a move."""
        return {
            "name": self.name,
            "label": self.label,
            "blurb": self.blurb,
            "elo": None if self.elo is None else round(self.elo),
            "seconds": self.seconds,
        }

    def title(self) -> str:
        """'Strong (Elo 1376)', or the label alone before any rating was measured."""
        return self.label if self.elo is None else f"{self.label} (Elo {round(self.elo)})"


def parse_levels(text: str) -> tuple[Level, ...]:
    """Levels from the TOML text; `ValueError` says which entry is wrong."""
    data = tomllib.loads(text)
    out = []
    for k, row in enumerate(data.get("level", [])):
        try:
            out.append(
                Level(
                    name=str(row["name"]),
                    spec=str(row["spec"]),
                    label=str(row["label"]),
                    blurb=str(row.get("blurb", "")),
                    elo=None if row.get("elo") is None else float(row["elo"]),
                    seconds=None if row.get("seconds") is None else float(row["seconds"]),
                )
            )
        except KeyError as exc:
            raise ValueError(f"level {k + 1} has no {exc.args[0]!r}") from None
    names = [level.name for level in out]
    if len(set(names)) != len(names):
        raise ValueError(f"level names repeat: {names}")
    return tuple(out)


@cache
def levels() -> tuple[Level, ...]:
    """The shipped levels, weakest first."""
    text = resources.files("fogofwar.games.stratego.agents").joinpath(LEVELS_FILE).read_text(encoding="utf-8")
    return parse_levels(text)


def level_named(name: str) -> Level:
    """The level an agent name stands for; `KeyError` if it is no level."""
    for level in levels():
        if level.name == name:
            return level
    raise KeyError(name)


__all__ = ["Level", "level_named", "levels", "parse_levels"]
