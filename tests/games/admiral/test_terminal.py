"""Admiral in the terminal (`fogofwar play admiral`): scripted sessions, hot seat, and the bench."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator

from rich.console import Console
from typer.testing import CliRunner

from fogofwar.frontends.cli import app
from fogofwar.games.admiral import AdmiralGame
from fogofwar.games.admiral.ui.console import board_text, cards_table, run_admiral_terminal_game, short_names
from fogofwar.tools.bench import bench_admiral


def make_console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=140, color_system=None, force_terminal=False), out


def scripted(lines: list[str]) -> Callable[[], str]:
    it: Iterator[str] = iter(lines)

    def read() -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read


def test_short_names_are_unique() -> None:
    marks = short_names(["Fletcher", "Fleming", "Flemish", "South Dakota"])
    assert len(set(marks.values())) == 4
    assert marks["South Dakota"] == "Sou"


def test_scripted_session_against_random() -> None:
    console, out = make_console()
    lines = ["nonsense", "list", "0", "Washington@A1", "Enterprise@A1", "2", *["1"] * 30, "resign"]
    code = run_admiral_terminal_game(seed=5, console=console, read=scripted(lines))
    text = out.getvalue()
    assert code == 0
    # a bad input is answered with the reason, and the state is unchanged (still the first deployment)
    assert "Not playable: 'nonsense' is not an Admiral action" in text
    assert "No action numbered 0" in text
    assert "Not playable: A1 is already occupied" in text
    assert "Legal actions (" in text and "  1 Washington@A1" in text
    assert "South (you): Washington@A1" in text
    # the face-down enemy fleet is hidden during the deployment; the computer's placements are not shown
    assert "(face down)" in text
    assert "North deploys a unit." in text
    assert "Kirishima" not in text.split("Dice rolled (initiative)")[0]
    # after the deployment: dice are rolled by the program and shown, the enemy's cards are in the table
    assert "Dice rolled (initiative)" in text and "Dice rolled (action dice)" in text
    assert "Initiative: South" in text
    assert "Turn 1, phase movement" in text
    assert "Kirishima" in text and "struct" in text
    assert "You lose (North wins): South resigned." in text


def test_quit_abandons_and_end_of_input() -> None:
    console, out = make_console()
    assert run_admiral_terminal_game(seed=1, console=console, read=scripted(["help", "board", "quit"])) == 1
    assert "Game abandoned (you quit)" in out.getvalue()
    console, out = make_console()
    assert run_admiral_terminal_game(seed=1, console=console, read=scripted([])) == 1
    assert "the input ended" in out.getvalue()


def test_north_seat_and_bad_options() -> None:
    console, out = make_console()
    code = run_admiral_terminal_game(color="north", seed=2, console=console, read=scripted(["list", "1", "quit"]))
    text = out.getvalue()
    assert code == 1
    assert "You play North" in text and "South deploys a unit." in text
    assert "North (you): " in text
    console, out = make_console()
    assert run_admiral_terminal_game(color="east", console=console, read=scripted([])) == 2
    assert run_admiral_terminal_game(layout="nowhere", console=console, read=scripted([])) == 2
    assert run_admiral_terminal_game(opponent="nobody", console=console, read=scripted([])) == 2


def test_hotseat_passes_the_keyboard_while_secrets_are_shown() -> None:
    console, out = make_console()
    # South deploys its 5 surface units, the pass screen (Enter), North deploys its 5; then everything is
    # public: South chooses the first player, both place their submarine, South resigns
    lines = ["1"] * 5 + [""] + ["1"] * 5 + ["1", "1", "1", "resign"]
    code = run_admiral_terminal_game(hotseat=True, seed=4, console=console, read=scripted(lines))
    text = out.getvalue()
    assert code == 0
    assert "Pass the keyboard to North" in text
    before_pass = text.split("Pass the keyboard to North")[0]
    assert "North  (face down)" in before_pass and "Kirishima" not in before_pass
    # North's own view comes after the pass screen, its fleet face up and South's face down
    after = text.split("Pass the keyboard to North")[1]
    assert "South  (face down)" in after.split("North: your decision")[0]
    assert text.count("Pass the keyboard") == 1  # the submarine placements are public
    assert "North wins: South resigned." in text


def test_solo_mode_against_admiral_stratego() -> None:  # SOLO-EXP-1, SOLO-SET-1/2, SOLO-INIT-1
    console, out = make_console()
    lines = ["list", *["1"] * 5, "1", *["pass"] * 8, "rules", *["1"] * 20, "resign"]
    code = run_admiral_terminal_game(seed=6, console=console, read=scripted(lines), solo=True, opponent="stratego")
    text = out.getvalue()
    assert code == 0
    assert "you against Admiral Stratego" in text and "Solo mode: you play South" in text
    # the person deploys from the right-hand corner (H1), then Stratego's deck is dealt from A8
    assert "  1 Washington@H1" in text and "South (you): Washington@H1" in text
    assert "Admiral Stratego's deck deals: " in text and "@A8" in text
    assert "Initiative:" not in text  # no roll: Stratego wins it and moves second
    # each of Stratego's units gets its die, then its go and the reasons, with rule ids
    assert "Dice rolled (Admiral Stratego's die): " in text
    assert "North (computer): hold:" in text or "North (computer): move:" in text
    # its reasons in words; the ids of the solo rules once the person asks for them ('rules')
    before, _, after = text.partition("Rule ids are shown from now on")
    assert "  why: Shokaku (slowest first) rolls admiral" in before and "SOLO-" not in before
    assert "  why [SOLO-TAB-" in after and "slowest first, SOLO-MOVE-1" in after
    assert "North dice: [admiral " in text and "=symbol]" in text
    assert "You lose (North wins): South resigned." in text


def test_solo_mode_options() -> None:
    console, out = make_console()
    assert run_admiral_terminal_game(solo=True, opponent="random", console=console, read=scripted([])) == 2
    assert "the solo mode's opponent is Admiral Stratego" in out.getvalue()
    assert run_admiral_terminal_game(solo=True, hotseat=True, console=console, read=scripted([])) == 2
    runner = CliRunner()
    result = runner.invoke(app, ["play", "admiral", "--solo", "--seed", "2", "--color", "north"], input="quit\n")
    assert result.exit_code == 1, result.output
    assert "Solo mode: you play North" in result.output and "(you): your decision" in result.output
    assert runner.invoke(app, ["play", "--solo"]).exit_code == 2


def test_drawing_shows_terrain_units_and_cards() -> None:
    game = AdmiralGame()
    state = game.new_initial_state()
    state.apply(state.string_to_action("Washington@A1"))
    data = state.observation(0).data
    marks = short_names([n for f in game.fleets for n in f.names])
    console, out = make_console()
    console.print(board_text(data["board"], 0, marks))
    console.print(board_text(data["board"], 1, marks))
    console.print(cards_table(data, game.ruleset, marks, 0))
    text = out.getvalue()
    lines = text.splitlines()
    assert lines[0].split() == list("ABCDEFGH")
    assert lines[8].split()[:2] == ["1", "Was"]  # South's view: row 1 at the bottom, A on the left
    assert "#####" in text  # the archipelago's islands
    assert lines[10].split() == list("HGFEDCBA")  # North's view: turned round
    assert "Washington" in text and "7/7" in text and "to place" in text and "(face down)" in text


def test_cli_play_admiral_and_stratego_still_default() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["play", "admiral", "--seed", "3", "--max-turns", "2"], input="quit\n")
    assert result.exit_code == 1, result.output
    assert "Admiral" in result.output and "turn cap 2" in result.output
    result = runner.invoke(app, ["play", "--game", "admiral", "--hotseat", "--seed", "3"], input="quit\n")
    assert result.exit_code == 1 and "two players at one keyboard" in result.output
    result = runner.invoke(app, ["play", "chess"])
    assert result.exit_code == 2
    result = runner.invoke(app, ["play", "--hotseat", "--opponent", "random"])  # hot-seat has no computer
    assert result.exit_code == 2
    result = runner.invoke(app, ["play", "--setup", "random", "--seed", "1"], input="quit\n")
    assert result.exit_code == 1 and "Stratego" in result.output


def test_bench_admiral() -> None:
    result = bench_admiral(seconds=60.0, seed=3, max_turns=2, max_games=1)
    assert result.games == 1 and result.turns == 2 and result.actions > result.chance > 0
    assert result.endings == {"move_limit": 1}
    line = result.line()
    assert "turns/s" in line and "games/s" in line and "actions/s" in line and "cap 2 turns" in line
    runner = CliRunner()
    out = runner.invoke(app, ["bench", "--game", "admiral", "--seconds", "0", "--max-turns", "2"])
    assert out.exit_code == 0, out.output
    assert "turn cap 2" in out.output and "games/s" in out.output
