"""Stratego variants as data: rosters and setup areas read from `data/variants.toml`."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from fogofwar.core.inputs import show
from fogofwar.core.protocol import GameError, InvalidArgumentError
from fogofwar.games.stratego.pieces import RANK_BY_NAME, Rank
from fogofwar.grid.board import LAND_SQUARES, SETUP_SQUARES


@dataclass(frozen=True)
class Variant:
    name: str
    title: str
    roster: tuple[tuple[Rank, int], ...]
    """(rank, count) for one side, strongest first."""
    setup_area: str
    max_moves: int
    composition: str = "exact"
    """'exact': each side sets up exactly the roster; 'at_most': any part of it (Gravon's classicfree)."""

    @property
    def army_size(self) -> int:
        return sum(n for _, n in self.roster)

    def count(self, rank: Rank) -> int:
        return dict(self.roster).get(rank, 0)

    def setup_squares(self, player: int) -> tuple[int, ...]:
        """Squares where `player` may place pieces (STR-SETUP-1, STR-VAR-*)."""
        if self.setup_area == "anywhere":
            return LAND_SQUARES
        return SETUP_SQUARES[player]


def _parse_variant(name: str, raw: dict[str, Any]) -> Variant:
    try:
        roster_raw = raw["roster"]
        roster: list[tuple[Rank, int]] = []
        for rank_name, count in roster_raw.items():
            if rank_name not in RANK_BY_NAME:
                raise GameError(f"variant {name!r}: unknown rank {rank_name!r}")
            if not isinstance(count, int) or count < 0:
                raise GameError(f"variant {name!r}: count of {rank_name} must be a whole number >= 0")
            roster.append((RANK_BY_NAME[rank_name], count))
        area = raw["setup_area"]
        if area not in ("home_rows", "anywhere"):
            raise GameError(f"variant {name!r}: setup_area must be 'home_rows' or 'anywhere', not {area!r}")
        roster.sort(key=lambda rc: -int(rc[0]) if rc[0].movable else (1 if rc[0] == Rank.BOMB else 2))
        composition = raw.get("composition", "exact")
        if composition not in ("exact", "at_most"):
            raise GameError(f"variant {name!r}: composition must be 'exact' or 'at_most', not {composition!r}")
        v = Variant(name, str(raw["title"]), tuple(roster), area, int(raw.get("max_moves", 0)), composition)
    except KeyError as exc:
        raise GameError(f"variant {name!r}: missing field {exc.args[0]!r}") from None
    if v.count(Rank.FLAG) != 1 and composition == "exact":
        raise GameError(f"variant {name!r}: an army needs exactly one flag")
    if v.army_size > len(v.setup_squares(0)):
        raise GameError(f"variant {name!r}: {v.army_size} pieces do not fit the setup area")
    return v


DEFAULT_CAPS = {"classic": 2000, "barrage": 1000, "duel": 1000, "classicfree": 2000}
"""Move caps (a draw when reached) for programs that must see every game end: the benchmarks, the arena,
the research environments and the differential test. People play without one."""


@cache
def variants() -> dict[str, Variant]:
    text = resources.files("fogofwar.games.stratego").joinpath("data/variants.toml").read_text(encoding="utf-8")
    return {name: _parse_variant(name, raw) for name, raw in tomllib.loads(text).items()}


def get_variant(name: str) -> Variant:
    """The variant called `name`; `InvalidArgumentError` (a GameError) lists the known ones otherwise."""
    known = variants()
    if isinstance(name, str) and name in known:
        return known[name]
    raise InvalidArgumentError(f"unknown Stratego variant {show(name)}; known: {', '.join(known)}")
