"""LOTR setup strings (one letter per character) and the sample armies: what they read, what they refuse,
and that the rules reference's table of letters is the roster's."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.paths import ROOT

from fogofwar.core import GameError
from fogofwar.core.protocol import InvalidSetupError
from fogofwar.games.lotr import LotrGame
from fogofwar.games.lotr.roster import EVIL, GOOD, SIDE_NAMES, parse_roster, roster
from fogofwar.games.lotr.rules import check_setup, random_setup
from fogofwar.games.lotr.setup import (
    MAX_TEXT,
    SAMPLES,
    format_setup,
    parse_setup,
    sample_names,
    sample_setup,
    setup_rows,
)
from fogofwar.grid.board import parse_square

GAME = LotrGame("ring")
EVIL_FORTRESS = SAMPLES["evil"]["fortress corner"]


def kind_at(placement: dict[int, int], seat: int, square: str) -> str:
    return GAME.army(seat).kinds[placement[parse_square(square)]].key


@settings(max_examples=60)
@given(seed=st.integers(0, 2**32 - 1), seat=st.sampled_from((EVIL, GOOD)))
def test_LOTR_SETUP_3_a_random_army_written_and_read_back_is_the_same(seed: int, seat: int) -> None:
    placement = random_setup(GAME, seat, random.Random(seed))
    text = format_setup(placement, GAME, seat)
    assert re.fullmatch(r"[A-Za-z]{10}(/[A-Za-z]{10}){3}", text)
    assert parse_setup(text, GAME, seat) == placement


def test_LOTR_SETUP_3_the_string_reads_from_the_owners_chair() -> None:
    evil = parse_setup(EVIL_FORTRESS, GAME, EVIL)
    assert kind_at(evil, EVIL, "A4") == "warg_rider"  # the first letter: the front row, on Evil's left
    assert (kind_at(evil, EVIL, "A1"), kind_at(evil, EVIL, "A2"), kind_at(evil, EVIL, "B1")) == (
        "flag",
        "fortress",
        "fortress",
    )
    # Good reads the same letters from the other chair: its first square is K7, square n becomes 99 - n.
    good_text = SAMPLES["good"]["fortress corner"]
    good = parse_setup(good_text, GAME, GOOD)
    assert kind_at(good, GOOD, "K7") == "knight" and kind_at(good, GOOD, "K10") == "flag"
    evil_rows = setup_rows(GAME, EVIL)
    assert setup_rows(GAME, GOOD) == [[99 - sq for sq in row] for row in evil_rows]  # the board turned half a round


def test_LOTR_SETUP_3_spaces_line_breaks_and_lower_case_read_the_same() -> None:
    rows = EVIL_FORTRESS.split("/")
    spaced = "\n".join(" ".join(row) for row in rows)
    assert parse_setup(spaced, GAME, EVIL) == parse_setup(EVIL_FORTRESS, GAME, EVIL)
    assert parse_setup(EVIL_FORTRESS.lower() + "/", GAME, EVIL) == parse_setup(EVIL_FORTRESS, GAME, EVIL)


def test_LOTR_SETUP_3_an_empty_square_is_a_dot_and_the_army_must_be_complete() -> None:
    text = "." + EVIL_FORTRESS[1:]
    with pytest.raises(InvalidSetupError, match=r"not evil's army: Warg Rider \(R\) given 7 times \(the army has 8\)"):
        parse_setup(text, GAME, EVIL)


@pytest.mark.parametrize(
    ("text", "seat", "message"),
    [
        ("RHKRORKHRE/HUWNESNUKR/BOEUTKBHRO", EVIL, "a setup string has 4 rows separated by '/', this one has 3"),
        ("nonsense", EVIL, "this one has 1"),
        ("", GOOD, "this one has 0"),
        ("RHKRORKHRE/HUWNESNUKR/BOEUTKBHRO/FBORBEOBR", EVIL, "row 4 of the setup string has 9 squares, not 10"),
        ("RHKRORKHRE/HUWNESNUKR/BOEUTKBHRO/FBORBEOBRX", EVIL, r"'X' \(row 4, K1\) is no piece of the evil army"),
        ("RHKRORKHRE/HUWNESNUKR/BOEUTKBHRO/FBORBEOBRX", EVIL, r"use W, S, N, U, H, K, E, O, R, T, B, F or '.'"),
        ("RHKRORKHRE/HUWNESNUKR/BOEUTKBHRO/FBORBEOBR\x1b", EVIL, r"'\\x1b' \(row 4, K1\) is no piece"),
        ("RHKRORKHRE/HUWNESNUKR/BOEUTKBHRO/FBORBEOBR1", EVIL, r"'1' \(row 4, K1\)"),
        (
            "KEKRLKRSKE/SMOIGGTEKR/BWYBNPSDKS/FBKERBKSBB",  # Aragorn's A made a second G
            GOOD,
            r"not good's army: Gandalf \(G\) given twice \(the army has 1\), Aragorn \(A\) missing",
        ),
        ("GAL" * 100, GOOD, f"at most {MAX_TEXT} characters, this one has 300"),
    ],
)
def test_LOTR_SETUP_4_a_wrong_setup_string_says_what_is_wrong(text: str, seat: int, message: str) -> None:
    with pytest.raises(InvalidSetupError, match=message):
        parse_setup(text, GAME, seat)


@pytest.mark.parametrize("bad", [12345, None, ["RHKRORKHRE"], b"RHKR/"])
def test_LOTR_SETUP_4_what_is_not_text_is_refused(bad: Any) -> None:
    with pytest.raises(InvalidSetupError, match="setup string must be text"):
        parse_setup(bad, GAME, EVIL)


def test_LOTR_SETUP_4_a_seat_that_does_not_exist_is_refused() -> None:
    for bad in (2, -1, "0", None, True):
        with pytest.raises(GameError, match="player"):
            parse_setup(EVIL_FORTRESS, GAME, bad)  # type: ignore[arg-type]


def test_LOTR_SETUP_3_every_sample_is_a_legal_army_of_its_side() -> None:
    assert set(SAMPLES) == set(SIDE_NAMES)
    for seat, side in enumerate(SIDE_NAMES):
        names = sample_names(seat)
        assert len(names) >= 2 and names == list(SAMPLES[side])
        for name in names:
            placement = sample_setup(GAME, seat, name)
            check_setup(GAME, seat, placement)  # every character, every square of the home rows
            assert format_setup(placement, GAME, seat) == SAMPLES[side][name]
            flag = next(sq for sq, k in placement.items() if GAME.army(seat).kinds[k].key == "flag")
            back = 0 if seat == EVIL else 9
            assert flag // 10 == back, f"{side} {name!r}: the Flag is on the back row"
    state = GAME.new_initial_state()
    state.apply_setup(EVIL, sample_setup(GAME, EVIL))  # the engine takes them as they are
    state.apply_setup(GOOD, sample_setup(GAME, GOOD))
    assert state.phase == "play"
    assert sample_setup(GAME, GOOD) == sample_setup(GAME, GOOD, sample_names(GOOD)[0])


def test_LOTR_SETUP_3_a_sample_the_side_has_not_is_refused_by_name() -> None:
    with pytest.raises(InvalidSetupError, match="no sample setup 'nowhere' for good; known: fortress corner, open"):
        sample_setup(GAME, GOOD, "nowhere")
    with pytest.raises(InvalidSetupError, match="name of a sample setup must be text"):
        sample_setup(GAME, GOOD, 3)  # type: ignore[arg-type]


def test_the_rules_reference_lists_the_letters_of_the_roster() -> None:
    text = (ROOT / "docs" / "rules" / "lotr.md").read_text(encoding="utf-8")
    for army in roster().armies:
        row = re.search(rf"^\| {army.side.capitalize()} \| (.*) \|$", text, flags=re.MULTILINE)
        assert row, f"no row of letters for {army.side}"
        listed = re.findall(r"`([A-Za-z])` ([^,]+)", row.group(1))
        assert listed == [(k.letter, k.name) for k in army.kinds]


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('letter = "I"', 'letter = "G"', "share the letter 'G'"),
        ('letter = "I"', 'letter = "Gi"', "one ASCII letter, not 'Gi'"),
        ('letter = "I"', 'letter = "."', "one ASCII letter"),
        ('letter = "I"', "letter = 7", "one ASCII letter, not 7"),
        ('letter = "B"', 'letter = "X"', "the fortress is always written 'B'"),
        ('\nletter = "W"', "", "missing field 'letter'"),
    ],
)
def test_the_roster_refuses_letters_a_setup_string_could_not_use(old: str, new: str, message: str) -> None:
    text = (ROOT / "src" / "fogofwar" / "games" / "lotr" / "data" / "roster.toml").read_text(encoding="utf-8")
    assert old in text
    with pytest.raises(GameError, match=message):
        parse_roster(text.replace(old, new, 1))
