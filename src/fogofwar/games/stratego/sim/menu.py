"""Setup menus for `VectorStratego(setup="menu")`: a fixed list of armies an agent chooses from by index.

A menu entry is a setup string (`fogofwar.games.stratego.setup`: four rows from the owner's chair), so
one entry means the same army for red and for blue. The kernels hold a menu as ranks per *chair index*
(0..39: the front row first, each row left to right as the owner sees it; -1 for an empty square) and
`CHAIR[p, i]`, the board square of chair index i for seat p.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from fogofwar.games.stratego.setup import SAMPLES, format_setup, parse_setup, setup_squares
from fogofwar.games.stratego.variants import Variant

CHAIR: npt.NDArray[np.int64] = np.array([setup_squares(p) for p in (0, 1)], np.int64)
DEFAULT_MENU_SIZE = 16


def default_menu(variant: Variant, size: int = DEFAULT_MENU_SIZE, seed: int = 0) -> list[str]:
    """The variant's built-in samples, then setups drawn from real games' statistics (seeded) up to `size`."""
    from fogofwar.games.stratego.agents.setups import human_like_setup  # only menus need it

    texts = list(SAMPLES.get(variant.name, {}).values())[:size]
    rng = random.Random(seed)
    while len(texts) < size:
        text = format_setup(human_like_setup(variant, 0, rng), variant, 0)
        if text not in texts:
            texts.append(text)
    return texts


def menu_table(variant: Variant, texts: Sequence[str]) -> npt.NDArray[np.int64]:
    """(len(texts), 40) ranks per chair index (-1 empty); each text is checked against the variant."""
    if not texts:
        raise ValueError("a setup menu needs at least one setup")
    out = np.full((len(texts), CHAIR.shape[1]), -1, np.int64)
    index = {int(sq): i for i, sq in enumerate(CHAIR[0])}
    for k, text in enumerate(texts):
        for sq, rank in parse_setup(text, variant, 0).items():
            out[k, index[sq]] = int(rank)
    return out
