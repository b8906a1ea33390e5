"""Setup strings and the built-in sample armies of Stratego LOTR (LOTR-SETUP-3, LOTR-SETUP-4).

Powers go with the character, not the rank, and the Good army has several characters of one rank
(Legolas and Gimli are both 8s), so a LOTR setup string has one letter per *character*: its `letter`
in data/roster.toml. Otherwise it reads like classic Stratego's: four rows separated by '/', the
front row first, each row left to right as the owner sees the board, '.' for an empty square. The
same string therefore means the same setup for Evil and for Good.

>>> game = LotrGame()
>>> text = SAMPLES["evil"]["fortress corner"]
>>> text
'RHKRORKHRE/HUWNESNUKR/BOEUTKBHRO/FBORBEOBRB'
>>> placement = parse_setup(text, game, EVIL)
>>> game.army(EVIL).kinds[placement[0]].name  # A1, the back corner on the left
'Flag'
>>> format_setup(placement, game, EVIL) == text
True
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from importlib import resources

from fogofwar.core import inputs
from fogofwar.core.protocol import GameError, InvalidSetupError
from fogofwar.games.lotr.roster import EVIL, SIDE_NAMES, Army
from fogofwar.games.lotr.rules import LotrGame, check_setup
from fogofwar.grid.board import SIZE, square_name

MAX_TEXT = 200
"""The longest setup string read (one is 43 characters; spaces and line breaks may pad it)."""

SAMPLES: dict[str, dict[str, str]] = tomllib.loads(
    resources.files("fogofwar.games.lotr").joinpath("data/setups.toml").read_text(encoding="utf-8")
)
"""The sample armies by side ('evil', 'good') and name, in the file's order (the first is the default)."""


def setup_rows(game: LotrGame, player: int) -> list[list[int]]:
    """The setup squares in the order of a setup string: front row first, each row left to right
    as `player` sees the board from their chair (Evil sits at row 1, Good at row 10)."""
    area = game.board.setup_squares(player)
    rows = sorted({sq // SIZE for sq in area}, reverse=player == EVIL)
    cols = list(range(SIZE)) if player == EVIL else list(range(SIZE - 1, -1, -1))
    return [[r * SIZE + c for c in cols] for r in rows]


def _letters(army: Army) -> dict[str, int]:
    """Kind index by letter; a letter in the other case too, where that names one character only."""
    exact = {k.letter: i for i, k in enumerate(army.kinds)}
    folded: dict[str, list[int]] = {}
    for letter, i in exact.items():
        folded.setdefault(letter.swapcase(), []).append(i)
    return {ch: ids[0] for ch, ids in folded.items() if len(ids) == 1 and ch not in exact} | exact


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def _check_counts(army: Army, who: str, placement: Mapping[int, int]) -> None:
    """Name every character given too often or too rarely ('Gandalf (G) given twice, Aragorn (A) missing')."""
    got = [0] * len(army.kinds)
    for kind in placement.values():
        got[kind] += 1
    wrong = []
    for k, n in zip(army.kinds, got, strict=True):
        if n == k.count:
            continue
        if n == 0:
            wrong.append(f"{k.name} ({k.letter}) missing")
        else:
            wrong.append(f"{k.name} ({k.letter}) given {_times(n)} (the army has {k.count})")
    if wrong:
        raise InvalidSetupError(f"not {who}'s army: {', '.join(wrong)}")


def parse_setup(text: str, game: LotrGame, player: int) -> dict[int, int]:
    """Read a setup string for `player` into {square: kind index}; `InvalidSetupError` says what is wrong."""
    text = inputs.text(text, "a setup string", InvalidSetupError)
    player = inputs.seat(player, SIDE_NAMES, error=InvalidSetupError)
    if len(text) > MAX_TEXT:
        raise InvalidSetupError(f"a setup string has at most {MAX_TEXT} characters, this one has {len(text)}")
    army, who = game.army(player), SIDE_NAMES[player]
    rows = [r for r in "".join(text.replace("\n", "/").split()).split("/") if r]
    squares = setup_rows(game, player)
    if len(rows) != len(squares):
        raise InvalidSetupError(f"a setup string has {len(squares)} rows separated by '/', this one has {len(rows)}")
    letters = _letters(army)
    placement: dict[int, int] = {}
    for i, (row, line) in enumerate(zip(rows, squares, strict=True)):
        if len(row) != len(line):
            raise InvalidSetupError(f"row {i + 1} of the setup string has {len(row)} squares, not {len(line)}")
        for ch, sq in zip(row, line, strict=True):
            if ch == ".":
                continue
            if ch not in letters:
                known = ", ".join(k.letter for k in army.kinds)
                raise InvalidSetupError(
                    f"{inputs.printable(repr(ch))} (row {i + 1}, {square_name(sq)}) is no piece of the {who} army: "
                    f"use {known} or '.'"
                )
            placement[sq] = letters[ch]
    _check_counts(army, who, placement)
    check_setup(game, player, placement)
    return placement


def format_setup(placement: Mapping[int, int], game: LotrGame, player: int) -> str:
    """Write a placement {square: kind index} as a setup string (from the owner's chair)."""
    kinds = game.army(player).kinds
    return "/".join(
        "".join(kinds[placement[sq]].letter if sq in placement else "." for sq in line)
        for line in setup_rows(game, player)
    )


def sample_names(player: int) -> list[str]:
    """The names of the sample armies of `player`'s side, the default one first."""
    return list(SAMPLES.get(SIDE_NAMES[inputs.seat(player, SIDE_NAMES, error=InvalidSetupError)], {}))


def sample_setup(game: LotrGame, player: int, name: str | None = None) -> dict[int, int]:
    """A sample army by name (the side's first one if no name is given)."""
    names = sample_names(player)
    if name is not None:
        inputs.text(name, "the name of a sample setup", InvalidSetupError)
    if not names:  # pragma: no cover - the built-in file has samples for both sides
        raise GameError(f"no sample setups for {SIDE_NAMES[player]}")
    if name is None:
        name = names[0]
    if name not in names:
        raise InvalidSetupError(
            f"no sample setup {inputs.show(name)} for {SIDE_NAMES[player]}; known: {', '.join(names)}"
        )
    return parse_setup(SAMPLES[SIDE_NAMES[player]][name], game, player)


__all__ = ["MAX_TEXT", "SAMPLES", "format_setup", "parse_setup", "sample_names", "sample_setup", "setup_rows"]
