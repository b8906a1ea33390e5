"""Stratego LOTR in the terminal (`fogofwar play --variant lotr-...`): scripted sessions and the drawing."""

from __future__ import annotations

import builtins
import io
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from fogofwar.core.records import GameRecord
from fogofwar.frontends.cli import app
from fogofwar.games.lotr import LotrGame
from fogofwar.games.lotr.roster import EVIL, GOOD
from fogofwar.games.lotr.rules import random_setup
from fogofwar.games.lotr.setup import SAMPLES
from fogofwar.games.lotr.ui.console import (
    board_text,
    describe_move,
    format_setup,
    format_words,
    parse_setup,
    run_lotr_terminal_game,
    short_names,
)
from fogofwar.grid.board import parse_square

BOARD_ROW = re.compile(r"^\s*(\d+) (.*) (\d+)\s*$")
CELL = re.compile(r"[ \[]([^\[\]]{6})[ \]]")

# Evil's setup, front row (row 4) first, files A to K: the Witch-king on A3 behind a Warg Rider, so that
# 'fly A3-A5' is legal from the first move (the first free square above A4).
EVIL_SETUP = (
    "War War War War Har Har War War War War / Wit Sar Naz Naz Uru Uru Uru Har Har Wor / "
    "Ber Ber Ber Ber Eas Eas Eas Eas Orc Orc / Orc Orc Orc For For Fla For For For For"
)


def make_console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=120, color_system=None, force_terminal=False), out


def scripted(lines: list[str]) -> Callable[..., str]:
    it: Iterator[str] = iter(lines)

    def read(*_prompt: object) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read


def board_cells(text: str) -> list[dict[int, list[str]]]:
    """Every drawing of the board in `text`: {row: [the 10 six-character cells, stripped]}."""
    drawings: list[dict[int, list[str]]] = []
    rows: dict[int, list[str]] = {}
    for line in text.splitlines():
        m = BOARD_ROW.match(line)
        if m and m.group(1) == m.group(3):
            cells = [c.strip() for c in CELL.findall(m.group(2) + " ")]
            assert len(cells) == 10, line
            rows[int(m.group(1))] = cells
            if len(rows) == 10:
                drawings.append(rows)
                rows = {}
    return drawings


def test_scripted_powers_session_bad_input_a_power_and_resignation(monkeypatch: pytest.MonkeyPatch) -> None:
    console, out = make_console()
    lines = ["Z9-Z10", "A1-A2", "fly A2-A5", "C4-C5", "why", "detect A7", "moves", "help", "fly A3-A5", "resign"]
    monkeypatch.setattr(builtins, "input", scripted(lines))
    code = run_lotr_terminal_game(
        variant="lotr-powers", opponent="heuristic", color="evil", setup=EVIL_SETUP, seed=4, console=console
    )
    text = out.getvalue()
    assert code == 0
    assert "Game 2, Special Powers" in text
    assert "'Z9' is not a square" in text
    # the engine's reasons in plain words; their rule ids only on demand ('why')
    assert "Not a legal move: A2 holds evil's own piece\n" in text
    assert "Not a legal move: the Berserker on A2 has no power Fly\n" in text
    assert "Not a legal move: C5 is in a Forbidden Zone\n" in text
    assert "Why: Not a legal move: C5 is in a Forbidden Zone (LOTR-MOVE-4)\n" in text
    assert text.count("(LOTR-") == 1
    assert "no piece can use Detect Enemy on A7 now" in text
    assert "Your legal moves" in text and "powers: fly A3-A5" in text
    assert "fly E4-E8" in text and "[Witch-king]" in text  # the help lists the powers of the army
    assert "Your Witch-king (10) flew A3-A5." in text
    assert "You lose (good wins): evil resigned." in text
    before, _, after = text.partition("Game over")
    drawings = board_cells(before)
    assert len(drawings) == 2, "the board is drawn before each of the person's turns"
    for rows in drawings:  # Good's pieces stay hidden: at most one moved ('?'') piece, never a name
        for row in (7, 8, 9, 10):
            assert set(rows[row]) <= {"?", "?'", "."}, rows[row]
        assert rows[5][2:4] == ["~~~~~~", "~~~~~~"] and rows[6][6:8] == ["~~~~~~", "~~~~~~"]
    assert drawings[0][3][0] == "Wit 10" and drawings[0][5][0] == "."
    assert drawings[1][5][0] == "Wit 10" and drawings[1][3][0] == "."
    assert drawings[1][1][5] == "Flag" and drawings[1][1][3] == "Fort"
    final = board_cells(after)[-1]
    enemies = [c for row in final.values() for c in row if c.endswith("*")]
    lost = re.search(r"^Good lost: (.*)$", after, flags=re.M)
    assert lost is not None
    n_lost = 0 if lost.group(1) == "nothing" else len(lost.group(1).split())
    assert len(enemies) + n_lost == 40, "the end shows Good's whole army, marked as enemies"


def test_good_sees_the_board_turned_with_mount_doom(monkeypatch: pytest.MonkeyPatch) -> None:
    console, out = make_console()
    monkeypatch.setattr(builtins, "input", scripted(["moves", "quit"]))
    code = run_lotr_terminal_game(
        variant="lotr-ring", opponent="random", color="good", setup="auto", seed=1, console=console
    )
    text = out.getvalue()
    assert code == 1
    assert "Game abandoned (you quit)" in text
    assert "The Ring: Frodo still carries it (Mount Doom is H5)." in text
    rows = board_cells(text)[-1]
    assert rows[5][2] == "DOOM", "Good sees file K on the left: H is the third file"
    assert rows[7][1] == "Fro  4", "the heuristic setup puts Frodo on I7"
    assert re.search(r"^\s+K\s+I\s+H\s+G\s+F\s+E\s+D\s+C\s+B\s+A\s*$", text, flags=re.M)
    assert "I7 Frodo (4): I7-I6" in text


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"variant": "lotr-chess"}, "unknown Stratego LOTR variant 'lotr-chess'"),
        ({"variant": "lotr-ring", "color": "green"}, "unknown side 'green'"),
        ({"variant": "lotr-ring", "captured": "lost"}, "unknown captured-piece mode 'lost'"),
        ({"variant": "lotr-powers", "opponent": "nobody"}, "unknown agent 'nobody'"),
        ({"variant": "lotr-powers", "setup": "Gan / Gan"}, "bad --setup"),
    ],
)
def test_bad_options_exit_2(kwargs: dict[str, str], message: str) -> None:
    console, out = make_console()
    assert run_lotr_terminal_game(console=console, **kwargs) == 2  # type: ignore[arg-type]
    assert message in out.getvalue()


def test_setup_strings_round_trip_and_are_checked() -> None:
    game = LotrGame(game="ring")
    rng = random.Random(2)
    for player in (EVIL, GOOD):
        placement = random_setup(game, player, rng)
        assert parse_setup(format_setup(placement, game, player), game, player) == placement
        assert parse_setup(format_words(placement, game, player), game, player) == placement  # the older form
    assert short_names(game.army(GOOD))["gandalf"] == "Gan"
    assert len(set(short_names(game.army(EVIL)).values())) == len(game.army(EVIL).kinds)


def test_setup_takes_a_sample_and_letters_as_the_web_app_writes_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """The words of classic Stratego's terminal: sample, sample:NAME, a setup string (one letter per character)."""
    console, out = make_console()
    lines = ["help", "sample:nowhere", "sample:open flank", "quit"]
    monkeypatch.setattr(builtins, "input", scripted(lines))
    code = run_lotr_terminal_game(variant="lotr-ring", opponent="random", color="good", seed=2, console=console)
    text = out.getvalue()
    assert code == 1
    assert "sample, sample:NAME" in text  # the prompt
    assert "G Gandalf, A Aragorn, L Legolas, I Gimli" in text  # the help names the letters
    assert "samples for good: fortress corner, open flank" in text
    assert "no sample setup 'nowhere' for good" in text
    assert f"Your setup: {SAMPLES['good']['open flank']}" in text  # the letters, ready to type again
    rows = board_cells(text)[-1]
    assert rows[7][1] == "Fro  4" and rows[10][2] == "Flag"  # Frodo on I7, the Flag on H10, as the sample says
    # A string of letters given on the command line is read before the game starts; a bad one is refused.
    console, out = make_console()
    monkeypatch.setattr(builtins, "input", scripted(["quit"]))
    evil = SAMPLES["evil"]["fortress corner"]
    assert run_lotr_terminal_game(variant="lotr-classic", setup=evil.lower(), seed=2, console=console) == 1
    assert f"Your setup: {evil}" in out.getvalue()
    console, out = make_console()
    assert run_lotr_terminal_game(variant="lotr-classic", setup=evil[:-1] + "W", seed=2, console=console) == 2
    assert "bad --setup: not evil's army: Witch-king (W) given twice (the army has 1), Fortress (B)" in out.getvalue()


def test_setup_is_asked_until_valid(monkeypatch: pytest.MonkeyPatch) -> None:
    console, out = make_console()
    lines = ["nonsense", EVIL_SETUP.replace("Fla", "For"), "auto", "quit"]
    monkeypatch.setattr(builtins, "input", scripted(lines))
    assert (
        run_lotr_terminal_game(
            variant="lotr-classic", opponent="random", color="red", setup="ask", seed=2, console=console
        )
        == 1
    )
    text = out.getvalue()
    assert "A setup string is 4 rows separated by '/'" in text
    assert "a setup string has 4 rows separated by '/', this one has 1" in text
    assert "Not a setup: evil's setup has 7 x Fortress; the army has 6" in text
    assert "Your setup: " in text


def test_describe_every_kind_of_action_from_both_chairs() -> None:
    """Random Games 2 and 3: every action is told from both chairs without naming a hidden enemy piece."""
    kinds = set()
    for mode in ("powers", "ring"):
        game = LotrGame(game=mode, max_moves=400)
        for seed in range(3):
            state = game.new_initial_state()
            rng = random.Random(seed)
            for p in (EVIL, GOOD):
                state.apply_setup(p, random_setup(game, p, rng))
            while not state.is_terminal():
                before = [state.observation(me).data["board"] for me in (EVIL, GOOD)]
                state.apply(rng.choice(state.legal_actions()))
                for me in (EVIL, GOOD):
                    data = state.observation(me).data
                    event = data["last_move"]
                    line = describe_move(event, me, before[me], game)
                    assert line.endswith((".", "!")), line
                    kinds.add(event.get("power") or event.get("result") or "move")
            board_text(data["board"], GOOD, game)
    assert {"move", "attacker_won", "fly", "long_bow"} <= kinds


def test_cli_play_lotr(tmp_path: Path) -> None:
    save = tmp_path / "lotr.json"
    result = CliRunner().invoke(
        app,
        [
            "play",
            "--variant",
            "lotr-powers",
            "--setup",
            "auto",
            "--seed",
            "3",
            "--captured",
            "hidden",
            "--save",
            str(save),
        ],
        input="E4-E9\nresign\n",
    )
    assert result.exit_code == 0, result.output
    assert "Not a legal move" in result.output
    assert "You lose (good wins): evil resigned." in result.output
    record = GameRecord.load(save)
    assert record.game == "lotr" and record.options["variant"] == "powers"
    assert record.options["captured_mode"] == "hidden"
    assert record.players == ["human", "search"]  # the default opponent
    state = record.replay()
    assert state.is_terminal()


def test_board_marks_known_enemies_and_own_revealed_pieces() -> None:
    game = LotrGame(game="ring")
    cells: list[object] = [None] * 100
    for sq in (42, 43, 52, 53, 46, 47, 56, 57):
        cells[sq] = "zone"
    cells[parse_square("A1")] = {"owner": 0, "kind": "witch_king", "rank": "10", "moved": False, "revealed": True}
    cells[parse_square("A10")] = {"owner": 1, "kind": None, "rank": None, "moved": False, "revealed": False}
    cells[parse_square("B10")] = {"owner": 1, "kind": None, "rank": None, "moved": True, "revealed": False}
    cells[parse_square("C10")] = {"owner": 1, "kind": "eowyn", "rank": "spy", "moved": True, "revealed": True}
    cells[parse_square("D10")] = {"owner": 1, "kind": "fortress", "rank": "fortress", "moved": False, "revealed": True}
    rows = board_cells(board_text(cells, EVIL, game, highlight=frozenset({parse_square("C10")})).plain)[0]
    assert rows[10][:4] == ["?", "?'", "Eow S*", "Fort*"]
    assert rows[1][0] == "Wit 10"
    assert rows[5][6:8] == ["~~~~~~", "DOOM"]


def test_hotseat_evil_and_good_take_turns_behind_the_curtain() -> None:
    """Hot-seat LOTR: the keyboard passes between Evil and Good by their names, Good's drawings come from
    Good's chair with Evil's characters hidden (and the other way round), and each side is told the
    other's move before its own; a resignation ends it with the winner's name."""
    console, out = make_console()
    seen = 0
    answers = 0
    move = re.compile(r"\b[A-K]\d{1,2}-[A-K]\d{1,2}\b")

    def read() -> str:
        nonlocal seen, answers
        out.seek(seen)
        tail = out.read()
        seen = out.tell()
        answers += 1
        if tail.rstrip().endswith("cannot see the screen."):
            return ""
        if answers > 24:
            return "resign"
        if "legal moves" not in tail:
            return "moves"
        listed = tail.partition("legal moves")[2]
        return move.findall("\n".join(line for line in listed.splitlines() if "powers:" not in line))[0]

    code = run_lotr_terminal_game(variant="lotr-powers", setup="auto", seed=6, console=console, read=read, hotseat=True)
    text = out.getvalue()
    assert code == 0
    game, _, end = text.partition("Game over")
    assert "Two players at one keyboard; Evil moves first." in game
    assert re.search(r"^(Good|Evil) wins: (evil|good) resigned\.$", end, flags=re.M)
    turns = re.split(r"^─* Pass the keyboard to (evil|good) ─*$", game, flags=re.M)
    assert turns[1::2][:4] == ["good", "evil", "good", "evil"]
    assert "Good: press Enter when evil cannot see the screen." in game
    moves_seen = 0
    for seat, chunk in zip(["evil", *turns[1::2]], turns[0::2], strict=True):
        for drawing in board_cells(chunk):
            assert next(iter(drawing)) == (10 if seat == "evil" else 1)  # each from their own chair
            enemy_rows = range(7, 11) if seat == "evil" else range(1, 5)
            assert all(c.startswith("?") for r in enemy_rows for c in drawing[r] if c not in (".", "~~~~~~"))
        moves_seen += bool(re.search(r"^(Evil|Good) moved ", chunk, flags=re.M))
    assert moves_seen >= 3
