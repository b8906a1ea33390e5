"""The terminal game (`fogofwar play`): scripted input, a whole game through the UI, and a real tmux pane."""

from __future__ import annotations

import builtins
import io
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from rich.console import Console
from tests.paths import ROOT

from fogofwar.core.records import GameRecord
from fogofwar.games.stratego.ui.console import board_text, describe_move, run_terminal_game
from fogofwar.grid.board import parse_square

BOARD_ROW = re.compile(r"^\s*(\d+) (.*) (\d+)\s*$")
MOVE = re.compile(r"\b[A-K]\d{1,2}[-x][A-K]\d{1,2}\b")


def make_console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=120, color_system=None, force_terminal=False), out


def scripted(lines: list[str]) -> Callable[[], str]:
    """An `input` replacement that answers with `lines`, then reports the end of the input."""
    it: Iterator[str] = iter(lines)

    def read(*_prompt: object) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read


def moves_player(out: io.StringIO, rng: random.Random, limit: int) -> Callable[[], str]:
    """A scripted person (or two, at one keyboard) who reads what was printed since their last answer:
    they press Enter at a 'pass the keyboard' screen, ask for `moves` at a move prompt, then play one
    of them, an attack first; more than `limit` answers fail the test (the game should have ended)."""
    seen = 0
    answers = 0

    def read() -> str:
        nonlocal seen, answers
        out.seek(seen)  # what was printed since the last answer; the position ends at the end again
        tail = out.read()
        seen = out.tell()
        answers += 1
        assert answers < limit, "the game should have ended"
        if tail.rstrip().endswith("cannot see the screen."):
            return ""
        if "Your legal moves" not in tail:
            return "moves"
        moves = MOVE.findall(tail.partition("Your legal moves")[2])
        attacks = [m for m in moves if "x" in m]
        return attacks[0] if attacks else rng.choice(moves)

    return read


def board_rows(text: str) -> dict[int, list[str]]:
    """The cells of each drawn board row of `text`, by row number (the last drawing wins)."""
    rows: dict[int, list[str]] = {}
    for line in text.splitlines():
        m = BOARD_ROW.match(line)
        if m and m.group(1) == m.group(3):
            rows[int(m.group(1))] = m.group(2).replace("[", " ").replace("]", " ").split()
    return rows


def all_board_drawings(text: str) -> list[dict[int, list[str]]]:
    """Every drawing of the board in `text` (a drawing starts and ends with the file letters)."""
    drawings = []
    for chunk in re.split(r"^\s+[AK](?:\s+[A-K]){9}\s*$", text, flags=re.M)[1::2]:
        rows = board_rows(chunk)
        if len(rows) == 10:
            drawings.append(rows)
    return drawings


def test_scripted_input_errors_and_resignation(monkeypatch: pytest.MonkeyPatch) -> None:
    console, out = make_console()
    # red's barrage sample: 9...1..2.9/....S...../........../..BF...8.. (bomb on C1, marshal on E4)
    monkeypatch.setattr(builtins, "input", scripted(["Z9-Z10", "C1-C2", "E4-E6", "help", "moves", "resign"]))
    code = run_terminal_game(variant="barrage", opponent="random", color="red", setup="sample", seed=7, console=console)
    text = out.getvalue()
    assert code == 0
    assert "'Z9' is not a square" in text
    assert "the bomb on C1 can never move" in text
    assert "only scouts move more than one square" in text
    assert "Your legal moves" in text and "E4-E5" in text
    assert "Moves: the square a piece stands on" in text
    assert "You lose (blue wins): red resigned." in text
    before, _, after = text.partition("Game over")
    assert after, "the end of the game is shown"
    drawings = all_board_drawings(before)
    assert drawings, "the board was drawn before the end"
    for rows in drawings:  # nothing of blue shows but '?' (no battle happened: red never moved)
        for row in (7, 8, 9, 10):
            assert set(rows[row]) <= {"?", "."}, rows[row]
        assert rows[4] == ["9", ".", ".", ".", "1", ".", ".", "2", ".", "9"]
        assert rows[1] == [".", ".", "B", "F", ".", ".", ".", "8", ".", "."]
    # The revealed board at the end shows blue's whole army, each piece marked as enemy with '*'.
    final = all_board_drawings(after)[-1]
    blue = [c for row in (7, 8, 9, 10) for c in final[row] if c != "."]
    assert sorted(blue) == sorted(["1*", "2*", "8*", "9*", "9*", "S*", "B*", "F*"])


def test_move_then_error_keeps_state_and_reports_the_reply(monkeypatch: pytest.MonkeyPatch) -> None:
    console, out = make_console()
    monkeypatch.setattr(builtins, "input", scripted(["E4-E5", "E5-E7", "resign"]))
    code = run_terminal_game(variant="barrage", setup="sample", seed=11, console=console)
    text = out.getvalue()
    assert code == 0
    assert "You moved your marshal (1) E4-E5." in text
    assert re.search(r"^Blue moved", text, flags=re.M) or "Blue's" in text
    assert "Not a legal move" in text
    before = text.partition("Game over")[0]
    last = all_board_drawings(before)[-1]
    assert last[5][4] == "1"  # the marshal stayed on E5 after the refused move


def test_end_of_input_abandons_with_exit_code_1(monkeypatch: pytest.MonkeyPatch) -> None:
    console, out = make_console()
    monkeypatch.setattr(builtins, "input", scripted([]))
    assert run_terminal_game(variant="duel", setup="random", seed=1, console=console) == 1
    assert "Game abandoned (the input ended)" in out.getvalue()


def test_setup_is_asked_until_valid_and_blue_sees_the_board_turned(monkeypatch: pytest.MonkeyPatch) -> None:
    console, out = make_console()
    lines = ["nonsense", "9...1..2.9/....S...../........../..BF...8.B", "sample:nope", "sample", "quit"]
    monkeypatch.setattr(builtins, "input", scripted(lines))
    code = run_terminal_game(variant="barrage", color="blue", setup="ask", seed=2, notation="modern", console=console)
    text = out.getvalue()
    assert code == 1
    assert "A setup string is 4 rows separated by '/'" in text
    assert "a setup string has 4 rows separated by '/', this one has 1" in text
    assert "blue's setup has 2 bombs; barrage needs 1 bomb" in text
    assert "no sample setup 'nope' for barrage" in text
    assert "Your setup: 9...1..2.9/....S...../........../..BF...8.." in text
    rows = all_board_drawings(text)[-1]
    # Blue's front row from blue's chair, K to A, in modern notation (10 = marshal, 2 = scout).
    assert [c for c in rows[7]] == ["2", ".", ".", ".", "10", ".", ".", "9", ".", "2"]
    assert re.search(r"^\s+K\s+I\s+H\s+G\s+F\s+E\s+D\s+C\s+B\s+A\s*$", text, flags=re.M)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"variant": "chess"}, "variant must be one of classic, barrage, duel, classicfree, not 'chess'"),
        ({"opponent": "nobody"}, "unknown agent 'nobody'"),
        ({"color": "green"}, "unknown color 'green'"),
        ({"notation": "roman"}, "unknown notation 'roman'"),
        ({"setup": "1/2/3"}, "bad --setup"),
    ],
)
def test_bad_options_exit_2(kwargs: dict[str, str], message: str) -> None:
    console, out = make_console()
    assert run_terminal_game(console=console, **kwargs) == 2  # type: ignore[arg-type]
    assert message in out.getvalue()


def test_describe_battles() -> None:
    before: list[object] = [None] * 100
    before[parse_square("E6")] = {"owner": 1, "rank": None, "moved": False, "revealed": False}
    before[parse_square("E5")] = {"owner": 0, "rank": "captain", "moved": True, "revealed": False}
    event = {"player": 0, "from": "E5", "to": "E6", "attacker": "captain", "defender": "bomb", "result": "defender_won"}
    assert describe_move(event, 0, before) == (
        "Your captain (5) attacked blue's unknown piece on E6: it was a bomb — your captain is lost."
    )
    event = {"player": 1, "from": "E6", "to": "E5", "attacker": "general", "defender": "captain"}
    event["result"] = "attacker_won"
    assert describe_move(event, 0, before, "modern") == (
        "Blue's unknown piece from E6 attacked your captain (6) on E5: it was a general (9) — your captain is lost."
    )


def test_board_hides_enemy_ranks() -> None:
    cells: list[object] = [None] * 100
    cells[parse_square("A1")] = {"owner": 0, "rank": "marshal", "moved": False, "revealed": False}
    cells[parse_square("A10")] = {"owner": 1, "rank": None, "moved": False, "revealed": False}
    cells[parse_square("B10")] = {"owner": 1, "rank": None, "moved": True, "revealed": False}
    cells[parse_square("C10")] = {"owner": 1, "rank": "scout", "moved": True, "revealed": True}
    rows = board_rows(board_text(cells, 0, highlight=frozenset({parse_square("C10")})).plain)
    assert rows[10][:3] == ["?", "?'", "9*"]
    assert rows[1][0] == "1"


def test_whole_game_through_the_ui_and_saved_record(tmp_path: Path) -> None:
    """A scripted person asks for `moves` every turn and plays one of them (attacks first) until the end."""
    console, out = make_console()
    read = moves_player(out, random.Random(3), limit=2000)

    save = tmp_path / "game.json"
    code = run_terminal_game(variant="barrage", setup="random", seed=3, save=save, console=console, read=read)
    text = out.getvalue()
    assert code == 0
    assert "Game over" in text
    assert re.search(r"^(You win|You lose \(blue wins\)|Draw): .+\.$", text, flags=re.M)
    assert f"Record saved to {save}" in text
    record = GameRecord.load(save)
    state = record.replay()
    assert state.is_terminal()
    assert record.players == ["human", "random"]
    assert record.outcome is not None and record.outcome.termination.value != "resignation"


class Tmux:
    """A tmux server of our own (its socket in a temporary directory): the test never touches other sessions."""

    def __init__(self, socket: Path) -> None:
        self.socket = socket

    def __call__(self, *args: str, check: bool = True) -> str:
        command = ["tmux", "-S", str(self.socket), *args]
        return subprocess.run(command, check=check, capture_output=True, text=True, timeout=10).stdout

    def wait_for(self, session: str, predicate: Callable[[str], bool], timeout: float = 15.0) -> str:
        deadline = time.monotonic() + timeout
        pane = ""
        while time.monotonic() < deadline:
            pane = self("capture-pane", "-p", "-t", session, "-S", "-200")
            if predicate(pane):
                return pane
            time.sleep(0.1)
        raise AssertionError(f"timed out; the pane shows:\n{pane}")


def test_tmux_session() -> None:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (apt-get install -y tmux)")
    session = "play"
    socket_dir = Path(tempfile.mkdtemp(prefix="fw-tmux-"))  # short: a socket path has a length limit
    tmux = Tmux(socket_dir / "sock")
    python = shlex.quote(sys.executable)
    command = (
        f"cd {shlex.quote(str(ROOT))} && {python} -m fogofwar.frontends.cli play --variant barrage "
        "--setup sample --seed 3; "
        "echo EXIT=$?; sleep 30"
    )
    tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "50", command)
    try:
        tmux.wait_for(session, lambda p: "Your move (e.g." in p)
        # Red's barrage sample has the marshal on E4: E4-E5 is legal from the opening position.
        tmux("send-keys", "-t", session, "E4-E5", "Enter")
        pane = tmux.wait_for(session, lambda p: "Move 3: your turn (red)." in p)
        assert "You moved your marshal (1) E4-E5." in pane
        assert re.search(r"^Blue (moved|'s)", pane, flags=re.M) or "Blue's" in pane
        assert re.search(r"^\s+A\s+B\s+C\s+D\s+E\s+F\s+G\s+H\s+I\s+K\s*$", pane, flags=re.M)
        assert pane.rstrip().endswith("resign, quit:")
        tmux("send-keys", "-t", session, "resign", "Enter")
        pane = tmux.wait_for(session, lambda p: "EXIT=" in p)
        assert "Game over" in pane
        assert "You lose (blue wins): red resigned." in pane
        assert "EXIT=0" in pane
    finally:
        tmux("kill-server", check=False)
        shutil.rmtree(socket_dir, ignore_errors=True)


def test_classicfree_random_setup_fits_around_the_computers_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """In classicfree red may set up anywhere, so blue's random setup uses the free squares of its rows."""
    console, out = make_console()
    monkeypatch.setattr(builtins, "input", scripted(["resign"]))
    assert run_terminal_game(variant="classicfree", color="blue", setup="random", seed=9, console=console) == 0
    assert "You lose (red wins): blue resigned." in out.getvalue()


def test_hotseat_game_passes_the_keyboard_and_each_seat_sees_only_its_own_army(tmp_path: Path) -> None:
    """Two scripted people play a whole barrage game at one keyboard: a 'pass the keyboard' screen stands
    between every two turns, each player's drawings show only their own ranks (and what battles showed),
    seen from their own chair, and each is told the other's move before their own."""
    console, out = make_console()
    read = moves_player(out, random.Random(5), limit=6000)

    save = tmp_path / "hotseat.json"
    code = run_terminal_game(
        variant="barrage", setup="random", seed=4, save=save, console=console, read=read, hotseat=True
    )
    text = out.getvalue()
    assert code == 0
    assert "Two players at one keyboard; Red moves first." in text
    game, _, end = text.partition("Game over")
    assert re.search(r"^(Red wins|Blue wins|Draw): .+\.$", end, flags=re.M)
    # The turns, each behind its curtain: red's from red's chair (row 10 drawn first), blue's turned round.
    turns = re.split(r"^─* Pass the keyboard to (red|blue) ─*$", game, flags=re.M)
    assert turns[1::2][:4] == ["blue", "red", "blue", "red"]  # blue sets up after red, then the moves
    assert len(turns) > 20
    for seat, chunk in zip(["red", *turns[1::2]], turns[0::2], strict=True):
        for drawing in all_board_drawings(chunk):
            first_row = next(iter(drawing))
            assert first_row == (10 if seat == "red" else 1)
            cells = [c for row in drawing.values() for c in row if c not in (".", "~~~")]
            own = [c for c in cells if not c.startswith("?") and not c.endswith("*")]
            assert 1 <= len(own) <= 8 and len(cells) - len(own) <= 8  # barrage: 8 pieces a side, no more
    # From the first move on, each player is told the other's move before their own.
    assert re.search(r"Pass the keyboard to blue ─*\n.*\nRed moved", game)
    record = GameRecord.load(save)
    assert record.players == ["human", "human"] and record.replay().is_terminal()


def test_refusals_are_plain_words_and_rule_ids_come_on_demand(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine's reasons carry rule ids for programs ('H5 is a lake (STR-BOARD-1)'); the terminal says them
    in plain words, `why` repeats the last one with its rule ids, `rules` shows them from then on."""
    console, out = make_console()
    # red's barrage sample: 9...1..2.9/... (the general on H4, below the lake on H5)
    lines = ["H4-H5", "why", "rules", "H4-H5", "rules off", "H4-H5", "quit"]
    monkeypatch.setattr(builtins, "input", scripted(lines))
    assert run_terminal_game(variant="barrage", opponent="random", setup="sample", seed=7, console=console) == 1
    text = out.getvalue()
    refusals = [line for line in text.splitlines() if line.startswith(("Not a legal move", "Why"))]
    assert refusals == [
        "Not a legal move: H5 is a lake",
        "Why: Not a legal move: H5 is a lake (STR-BOARD-1)",
        "Not a legal move: H5 is a lake (STR-BOARD-1)",
        "Not a legal move: H5 is a lake",
    ]
    assert "Rule ids are shown from now on" in text and "Rule ids are hidden again" in text
    assert "rules (show the rule ids in the messages" in run_help(["help", "quit"])


def run_help(lines: list[str], notation: str = "classic", width: int = 400) -> str:
    """What a classic game at the terminal prints for `lines` (its own help among them)."""
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, force_terminal=False)
    run_terminal_game(
        variant="barrage", setup="sample", seed=1, notation=notation, console=console, read=scripted(lines)
    )
    return out.getvalue()


def test_tmux_narrow_pane_wraps_the_help_between_words() -> None:
    """Through the real command (its console soft-wraps) in a pane 52 columns wide: the help arrives wrapped
    at word boundaries, so no word is cut in two at the pane's edge."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (apt-get install -y tmux)")
    socket_dir = Path(tempfile.mkdtemp(prefix="fw-tmux-"))
    tmux = Tmux(socket_dir / "sock")
    python = shlex.quote(sys.executable)
    command = (  # without the COLUMNS and LINES the test runner's readline may have put in the environment
        f"unset COLUMNS LINES; cd {shlex.quote(str(ROOT))} && {python} -m fogofwar.frontends.cli play "
        "--variant barrage --setup sample --seed 3; echo EXIT=$?; sleep 30"
    )
    tmux("new-session", "-d", "-s", "narrow", "-x", "52", "-y", "60", command)
    try:
        tmux.wait_for("narrow", lambda p: p.rstrip().endswith("quit:"))
        tmux("send-keys", "-t", "narrow", "help", "Enter")
        pane = tmux.wait_for("narrow", lambda p: "game unfinished)." in p and p.rstrip().endswith("quit:"))
        help_part = pane[pane.rindex("Moves: the square") :]
        assert max(len(line.rstrip()) for line in help_part.splitlines()) <= 52
        words = set(help_part.split())
        assert [w for w in help_text_words() if w not in words] == []
        tmux("send-keys", "-t", "narrow", "quit", "Enter")
        tmux.wait_for("narrow", lambda p: "EXIT=1" in p)
    finally:
        tmux("kill-server", check=False)
        shutil.rmtree(socket_dir, ignore_errors=True)


def test_the_help_says_which_number_is_stronger_in_the_notation_in_use() -> None:
    classic = run_help(["help", "quit"])
    assert "the higher rank wins" not in classic
    assert "the stronger rank wins, which is the lower number (1 = marshal, the strongest; 9 = scout" in classic
    assert "Ranks, strongest first: 1 marshal, 2 general," in classic
    assert "You moved" not in classic and "Your setup" in classic
    modern = run_help(["help", "quit"], notation="modern")
    assert "the stronger rank wins, which is the higher number (10 = marshal, the strongest; 2 = scout" in modern
    assert "Ranks, strongest first: 10 marshal, 9 general," in modern


def test_long_lines_wrap_at_word_boundaries_to_the_terminal_width() -> None:
    """The command line's console soft-wraps (the terminal would cut words anywhere): every message, the help
    and the legend are wrapped by the game at word boundaries to the console's width."""
    width = 60
    out = io.StringIO()
    console = Console(file=out, width=width, soft_wrap=True, color_system=None, force_terminal=False)
    answers = ["help", "H4-H5", "moves", "quit"]
    run_terminal_game(variant="barrage", setup="sample", seed=1, console=console, read=scripted(answers))
    text = out.getvalue()
    for line in text.splitlines():
        shown = next((line.removesuffix(a) for a in answers if line.endswith(f": {a}")), line)
        assert len(shown.rstrip()) <= width, line
    words = set(text.split())
    for word in help_text_words():
        assert word in words, f"{word!r} was cut"


def help_text_words() -> list[str]:
    from fogofwar.games.stratego.ui.console import help_text

    return help_text("classic").split()
