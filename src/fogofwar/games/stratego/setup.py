"""Setups: the project's setup strings, random setups, and the built-in samples.

A setup string describes one army from its owner's chair (STR-SETUP-3): four rows
separated by '/', the front row first, each row left to right as that player sees the
board, in the classic symbols 1-9, S, B, F ('.' for an empty square). The same string
therefore means the same setup for red and for blue.

>>> from fogofwar.games.stratego.variants import get_variant
>>> v = get_variant("barrage")
>>> placement = parse_setup(SAMPLES["barrage"]["sample"], v, player=0)
>>> format_setup(placement, v, 0) == SAMPLES["barrage"]["sample"]
True
"""

from __future__ import annotations

import random
import tomllib
from collections.abc import Mapping
from importlib import resources

from fogofwar.core import inputs
from fogofwar.core.protocol import InvalidSetupError, NotationError
from fogofwar.games.stratego.pieces import Rank, parse_rank
from fogofwar.games.stratego.rules import check_setup
from fogofwar.games.stratego.variants import Variant
from fogofwar.grid.board import HOME_ROWS, PLAYER_NAMES, SIZE, square_name

SAMPLES: dict[str, dict[str, str]] = tomllib.loads(
    resources.files("fogofwar.games.stratego").joinpath("data/setups.toml").read_text(encoding="utf-8")
)


def row_squares(player: int) -> list[list[int]]:
    """The setup rows front first, each as the owner sees it left to right."""
    rows = HOME_ROWS[inputs.seat(player, PLAYER_NAMES, error=InvalidSetupError)]
    if player == 0:
        return [[r * SIZE + c for c in range(SIZE)] for r in reversed(rows)]
    return [[r * SIZE + c for c in reversed(range(SIZE))] for r in rows]


def setup_squares(player: int) -> list[int]:
    """The player's setup squares in the order of setup strings and of the setup statistics
    (data/setup_stats.toml): the front row first, each row left to right as the owner sees it."""
    return [sq for row in row_squares(player) for sq in row]


def parse_setup(text: str, variant: Variant, player: int) -> dict[int, Rank]:
    """Read a setup string for `player` and check it against the variant's roster and area."""
    text = inputs.text(text, "a setup string", InvalidSetupError)
    _check_variant(variant)
    inputs.seat(player, PLAYER_NAMES, error=InvalidSetupError)
    rows = [r for r in text.replace("\n", "/").replace(" ", "").split("/") if r]
    if len(rows) != 4:
        raise InvalidSetupError(f"a setup string has 4 rows separated by '/', this one has {len(rows)}")
    placement: dict[int, Rank] = {}
    for i, (row_text, squares) in enumerate(zip(rows, row_squares(player), strict=False)):
        if len(row_text) != SIZE:
            raise InvalidSetupError(f"row {i + 1} of the setup string has {len(row_text)} squares, not 10")
        for ch, sq in zip(row_text, squares, strict=False):
            if ch == ".":
                continue
            try:
                placement[sq] = parse_rank(ch)
            except NotationError:
                raise InvalidSetupError(
                    f"{ch!r} (row {i + 1}, {square_name(sq)}) is not a piece: use 1-9, S, B, F or '.'"
                ) from None
    check_setup(variant, player, placement)
    return placement


def _check_variant(variant: object) -> None:
    """The readers take a `Variant` (see `get_variant`), not its name: refuse anything else by name."""
    if not isinstance(variant, Variant):
        raise InvalidSetupError(f"variant must be a Variant (get_variant('classic')), not {inputs.show(variant)}")


def format_setup(placement: Mapping[int, Rank | int], variant: Variant, player: int) -> str:
    """Write a placement as a setup string (from the owner's chair)."""
    del variant  # the rows are the same for every variant played on this board
    return "/".join(
        "".join(Rank(placement[sq]).symbol() if sq in placement else "." for sq in squares)
        for squares in row_squares(player)
    )


def random_setup(variant: Variant, player: int, rng: random.Random) -> dict[int, Rank]:
    """A uniformly random legal setup in the player's home rows."""
    pieces = [rank for rank, n in variant.roster for _ in range(n)]
    squares = rng.sample(setup_squares(player), len(pieces))
    return dict(zip(squares, pieces, strict=False))


def sample_setup(variant: Variant, player: int, name: str | None = None) -> dict[int, Rank]:
    """A built-in sample setup by name (the first one of the variant if no name is given)."""
    _check_variant(variant)
    if name is not None:
        inputs.text(name, "the name of a sample setup", InvalidSetupError)
    samples = SAMPLES.get(variant.name, {})
    if not samples:
        raise InvalidSetupError(f"no sample setups for {variant.name}")
    if name is None:
        name = next(iter(samples))
    if name not in samples:
        raise InvalidSetupError(f"no sample setup {name!r} for {variant.name}; known: {', '.join(samples)}")
    return parse_setup(samples[name], variant, player)
