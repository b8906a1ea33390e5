"""The roster file is data, checked on load: a broken edit fails with a message, never a wrong game."""

from __future__ import annotations

from importlib import resources

import pytest

from fogofwar.core import GameError
from fogofwar.games.lotr.roster import parse_roster, roster

TEXT = resources.files("fogofwar.games.lotr").joinpath("data/roster.toml").read_text(encoding="utf-8")


def test_the_built_in_roster_loads_and_every_character_says_where_it_comes_from() -> None:
    r = roster()
    assert parse_roster(TEXT) == r
    for army in r.armies:
        assert all(k.source in ("text", "named", "choice") for k in army.kinds)
        assert len({k.key for k in army.kinds}) == len(army.kinds)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('mount_doom = "H5"', 'mount_doom = "E5"', "Mount Doom lies in a Forbidden Zone"),
        ('["G5", "H5", "G6", "H6"]', '["G5", "H5", "G6", "K6"]', "2x2 block"),
        ("size = 10", "size = 12", "size must be 10"),
        ("good = [7, 8, 9, 10]", "good = [6, 7, 8, 9]", "crosses a Forbidden Zone"),
        ('key = "gandalf"', 'key = "aragorn"', "share a key"),
        ('rank = "spy"', 'rank = "wizard"', "rank must be"),
        ('powers = ["fly"]', 'powers = ["teleport"]', "unknown powers"),
        ('source = "choice"', 'source = "guess"', "source must be"),
        ("count = 8", "count = 40", "do not fit"),
        ('rank = "flag"', 'rank = "fortress"', "exactly one flag"),
    ],
)
def test_a_broken_roster_is_refused_with_a_reason(old: str, new: str, message: str) -> None:
    assert old in TEXT
    with pytest.raises(GameError, match=message):
        parse_roster(TEXT.replace(old, new, 1))


def test_not_toml_is_refused() -> None:
    with pytest.raises(GameError, match="not TOML"):
        parse_roster("[board")
