"""Admiral in the terminal (`fogofwar play admiral`): scripted sessions, hot seat, and the bench."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator

from rich.console import Console
from typer.testing import CliRunner

from fogofwar.frontends.cli import app
from fogofwar.games.admiral import AdmiralGame
from fogofwar.games.admiral.rules import AdmiralState
from fogofwar.games.admiral.ui.console import (
    AdmiralTerminal,
    AdmiralWords,
    board_text,
    cards_table,
    run_admiral_terminal_game,
    short_names,
)
from fogofwar.tools.bench import bench_admiral

from .helpers import position


def make_console(width: int = 140, soft_wrap: bool = False) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=width, soft_wrap=soft_wrap, color_system=None, force_terminal=False), out


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
    assert "Legal actions (" in text and "Washington (battleship, to place):\n  deploy on: 1 A1   2 B1" in text
    assert "South (you): Washington deploys on A1" in text
    # the face-down enemy fleet is hidden during the deployment; the computer's placements are not shown
    assert "(face down)" in text
    assert "North deploys a unit." in text
    assert "Kirishima" not in text.split("Dice rolled (initiative)")[0]
    # after the deployment: dice are rolled by the program and shown, the enemy's cards are in the table
    assert "Dice rolled (initiative)" in text and "Dice rolled (action dice)" in text
    assert "Initiative: South" in text
    assert "Turn 1, movement phase" in text
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
    assert "Washington (battleship, to place):\n  deploy on: 1 H1\n" in text
    assert "South (you): Washington deploys on H1" in text
    assert "Admiral Stratego's deck deals: " in text and " on A8" in text
    assert "Initiative:" not in text  # no roll: Stratego wins it and moves second
    # each of Stratego's units gets its die, then its go and the reasons, with rule ids
    assert "Dice rolled (Admiral Stratego's die): " in text
    assert "North (computer): I-19 is placed submerged on A8" in text
    assert "North (computer): Shokaku moves to C7 (admiral die)" in text
    # its reasons in words; the ids of the solo rules once the person asks for them ('rules')
    before, _, after = text.partition("Rule ids are shown from now on")
    assert "  why: Shokaku (slowest first) rolls admiral" in before and "SOLO-" not in before
    assert "  why [SOLO-TAB-" in after and "slowest first, SOLO-MOVE-1" in after
    assert "North dice: [admiral for Kirishima, value to come] [admiral for Kirishima as its symbol]" in text
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


def hotseat_session(state: AdmiralState, lines: list[str]) -> str:
    """Two people at the keyboard play on from a crafted position; what the terminal printed."""
    console, out = make_console(160)
    session = AdmiralTerminal(console, state.game, (0, 1), None, seed=1, read=scripted(lines))
    session.state = state
    session.play_through(session.turns)
    return out.getvalue()


def test_the_words_the_prompt_offers_play_whatever_their_notation() -> None:
    """The air phase offers 'pass' (its notation is air:pass): typed, it plays; so do done and commit."""
    state = position({"Enterprise": "A1", "Washington": "H1"}, {"Kirishima": "D6", "Yamato": "H8"}, [["admiral"], []])
    text = hotseat_session(state, ["pass", "pass", "pass", "done", "commit", "quit"])
    # pass, pass, then pass in the air phase: none is refused; 'done' is no choice in the attack phase
    refused = [line for line in text.splitlines() if line.startswith("Not playable")]
    assert refused == [
        "Not playable: 'done' is not one of the choices now (give your units their attack orders (artillery, "
        "torpedoes, depth charges, special features); or commit)."
    ]
    assert (
        "Turn 2, air attack phase, South acts first: South to decide: an air attack by one of your carriers; or pass."
        in text
    )
    assert "South: your decision (pass, a number from 'list'" in text
    assert "South: makes no air attack" in text
    assert "South: commits its attack orders" in text


def test_the_list_is_grouped_by_unit_and_its_numbers_play() -> None:
    """139 legal moves: 'list' is an overview by unit (one line each); 'list Helena' numbers Helena's moves, by
    destination, with the die each spends; the number typed plays that move."""
    south = {"Washington": "A1", "Enterprise": "B1", "Helena": "C1", "Fletcher": "D1"}
    south["Wahoo"] = {"square": "F3", "submerged": True}
    state = position(south, {"Yamato": "H8"}, [["movement", "movement+depth_charge", "admiral", "artillery"], []])
    legal = len(state.legal_actions())
    assert legal > 100
    text = hotseat_session(state, ["list", "list Helena", "12", "quit"])
    overview = text.split("South: your decision")[1].split("\n")[1:-1]
    assert overview[0] == f"Legal actions ({legal}): type a number (or the notation, see help)."
    assert "Or: 1 pass: decline to move (your movement results are lost)" in overview
    assert "Helena (light cruiser, C1): 12 choices (to B2, C2, D2, C3)" in overview
    assert len(overview) < 12
    helena = text.split("South: your decision")[2]
    assert "Helena (light cruiser, C1):\n" in helena
    assert "  to C2: 11 admiral die   12 movement die   13 movement + depth charge die\n" in helena
    assert "Washington" not in helena
    assert "South: Helena moves to C2 (movement die)" in text


def test_engine_identifiers_are_shown_as_names() -> None:
    words = AdmiralWords(AdmiralGame())
    assert words.text("critical marker on Helena's battery:main") == "critical marker on Helena's main battery"
    assert words.text("Enterprise.armoured_fighters") == "Enterprise's Armoured Fighters"
    assert words.text("anti-aircraft fire destroys Enterprise's torpedo_bomber") == (
        "anti-aircraft fire destroys Enterprise's torpedo bomber"
    )
    assert words.text("Helena@D3; Helena.main > Kirishima (artillery+anti_aircraft)") == (
        "Helena on D3; Helena's main battery at Kirishima (artillery + anti-aircraft)"
    )
    assert (
        words.text("South has no unused artillery+anti_aircraft die")
        == "South has no unused artillery + anti-aircraft die"
    )
    example = "write e.g. 'Fletcher@C1' or fire:Washington.main>Yamato/artillery"
    assert words.text(example) == example  # notation quoted to be typed stays as it is
    said = {
        "move:Wahoo:surface>C2/movement": "Wahoo surfaces, then moves to C2 (movement die)",
        "move:Fletcher>C3:smoke-v/admiral": "Fletcher moves to C3 laying smoke, along the column first (admiral die)",
        "fire:Helena.main>Kirishima/artillery": "Helena's main battery fires at Kirishima (artillery die)",
        "squadron:torpedo_bomber>Kirishima@D5": "sends a torpedo bomber against Kirishima from D5",
        "activate:Enterprise.armoured_fighters": "activates Armoured Fighters on Enterprise",
        "repair:Helena/movement,artillery": "Helena repairs (movement and artillery dice)",
        "Helena@D3": "Helena deploys on D3",
        "air:pass": "makes no air attack",
    }
    for notation, sentence in said.items():
        assert words.action(notation, 0).sentence == sentence
    assert (
        words.action("critical:battery:main", 1, "Helena").sentence
        == "puts the critical marker on Helena's main battery"
    )
    assert words.action("critical:battery:main", 1, "Helena").item == "main battery"


def test_a_session_shows_names_wraps_its_lines_and_still_reads_the_notation() -> None:
    """Through deployment, an air attack, a critical marker and the attack orders: no engine identifier reaches
    the screen (Washington@A1, torpedo_bomber, battery:main, Helena.main, air:done), every line fits an
    80-column console that soft-wraps like the command line's, and the notation typed still plays."""
    console, out = make_console(80, soft_wrap=True)
    lines = ["Washington@A1", "1", "1", "1", "1", "first:South", "list", "1", *["1"] * 40, "list", "resign"]
    assert run_admiral_terminal_game(seed=5, console=console, read=scripted(lines)) == 0
    text = out.getvalue()
    assert "South (you): Washington deploys on A1" in text and "South (you): chooses South to act first" in text
    assert "South (you): sends a bomber against Kirishima" in text
    assert "South (you): puts the critical marker on Kirishima's movement" in text
    assert "In the air: South's bomber from Enterprise, attacking Kirishima at G6" in text
    identifier = re.compile(r"@[A-H][1-8]|[a-z]_[a-z]|battery:|\b[a-z]+:[A-Za-z]|\b[A-Z][a-z-]+\.[a-z]")
    for line in text.splitlines():
        shown = next((line.removesuffix(a) for a in lines if line.endswith(f": {a}")), line)  # what was typed
        assert not identifier.search(shown), line
        assert len(shown.rstrip()) <= 80, line
