"""The UCC 2012 Stratego bot protocol: our manager side (`UccBotAgent`) and bot side (`ucc-bot`)."""

from __future__ import annotations

import io
import random
import shlex
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from fogofwar.core.agents import Agent, AgentForfeit, make_agent
from fogofwar.core.match import play_match
from fogofwar.core.protocol import Termination
from fogofwar.core.records import GameRecord
from fogofwar.games.stratego.agents.ucc import (
    BotView,
    UccBotAgent,
    UccForfeit,
    board_dump,
    judge_reply,
    move_text,
    parse_spec,
    run_ucc_bot,
    ucc_result_line,
)
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import StrategoGame, StrategoState, parse_action
from fogofwar.games.stratego.variants import get_variant
from fogofwar.grid.board import parse_square

# A bot written only from the protocol (no fogofwar imports): random legal-looking moves read off the
# board dump. Its first argument picks a behaviour: play, lake (tries to walk into a lake), garbage,
# exit (exits at once), sleep (never answers its first move), badsetup; its second, if given, seeds it,
# else the seed the manager hands it in the environment (FOGOFWAR_BOT_SEED).
TEST_BOT = textwrap.dedent(
    """
    import os, random, sys, time

    mode = sys.argv[1] if len(sys.argv) > 1 else "play"
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else int(os.environ.get("FOGOFWAR_BOT_SEED", "0")))
    ROSTERS = {
        "classic": "1" + "2" + "33" + "444" + "5555" + "6666" + "7777" + "88888" + "99999999" + "s" + "BBBBBB" + "F",
        "barrage": "12899sBF",
        "duel": "1288 99sBBF".replace(" ", ""),
    }
    DIRS = {"UP": (0, -1), "DOWN": (0, 1), "LEFT": (-1, 0), "RIGHT": (1, 0)}

    def say(text):
        sys.stdout.write(text + "\\n")
        sys.stdout.flush()

    sys.stderr.write(f"testbot {mode} says hello on stderr\\n")
    sys.stderr.flush()
    if mode == "exit":
        sys.exit(3)
    header = sys.stdin.readline().split()
    if not header or header[0] == "QUIT":
        sys.exit(0)
    colour, variant = header[0], (header[4] if len(header) > 4 else "classic")
    pieces = list(ROSTERS[variant].ljust(40, "."))
    rng.shuffle(pieces)
    if mode == "badsetup":
        pieces[0] = "X"
    for i in range(4):
        say("".join(pieces[i * 10:(i + 1) * 10]))
    board = []
    while True:
        line = sys.stdin.readline()
        if not line or line.startswith("QUIT"):
            break
        line = line.rstrip("\\n")
        if " " in line or len(line) != 10:
            continue  # START or a result line: this bot reads everything off the board dump
        board.append(line)
        if len(board) < 10:
            continue
        if mode == "sleep":
            time.sleep(30)
        if mode == "garbage":
            say("hello manager")
            continue
        moves, lake_moves = [], []
        for y in range(10):
            for x in range(10):
                ch = board[y][x]
                if ch not in "123456789s":
                    continue
                for name, (dx, dy) in DIRS.items():
                    for n in range(1, 10 if ch == "9" else 2):
                        cx, cy = x + dx * n, y + dy * n
                        if not (0 <= cx < 10 and 0 <= cy < 10):
                            break
                        target = board[cy][cx]
                        if target == "+":
                            if n == 1:
                                lake_moves.append(f"{x} {y} {name}")
                            break
                        if target not in ".#":
                            break
                        moves.append(f"{x} {y} {name}" + (f" {n}" if n > 1 else ""))
                        if target == "#":
                            break
        board = []
        if mode == "lake" and lake_moves:
            say(rng.choice(lake_moves))
        elif moves:
            say(rng.choice(moves))
        else:
            say("SURRENDER")
    """
)

UCC_RULES = {"two_squares": 0, "more_squares": False}  # what the original manager enforces: no repetition rules
UCC_BOT_CMD = f"{shlex.quote(sys.executable)} -m fogofwar.frontends.cli ucc-bot --agent random"


@pytest.fixture
def test_bot(tmp_path: Path) -> str:
    path = tmp_path / "testbot.py"
    path.write_text(TEST_BOT, encoding="utf-8")
    return f"{shlex.quote(sys.executable)} -u {shlex.quote(str(path))}"


def _play(game: StrategoGame, agents: list[Agent], seed: int) -> GameRecord:
    result = ""
    try:
        record = play_match(game, agents, seed=seed)
        state = record.replay()
        assert isinstance(state, StrategoState)
        result = ucc_result_line(state, [a.name for a in agents])
        return record
    finally:
        for agent in agents:
            if isinstance(agent, UccBotAgent):
                agent.close(result)  # QUIT <result>, as the manager ends a game


def _assert_clean(record: GameRecord) -> None:
    assert record.outcome is not None
    assert record.outcome.termination is not Termination.FORFEIT, record.outcome.reason
    record.replay()  # the rules engine agrees with the whole game


@pytest.fixture
def ucc_log(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "ucc-bot.log"
    yield path
    if path.exists():  # the bot side checks every board dump against what the result lines told it
        assert "mismatch" not in path.read_text(encoding="utf-8")


# --- pure pieces ------------------------------------------------------------------------------------
def test_spec_parsing() -> None:
    assert parse_spec("timeout=5:./bot") == ({"timeout": "5"}, "./bot")
    assert parse_spec("python3 -c 'print(1)'") == ({}, "python3 -c 'print(1)'")
    agent = make_agent("ucc:timeout=2.5:opponent=vixen:./bots/my bot --fast")
    assert isinstance(agent, UccBotAgent)
    assert agent.argv == ["./bots/my", "bot", "--fast"]
    assert (agent.timeout, agent.opponent) == (2.5, "vixen")
    assert UccBotAgent.from_spec("timeout=inf:./bot").timeout is None
    assert UccBotAgent.from_spec("./bot").timeout == 10.0


def test_frame_and_move_text() -> None:
    # UCC (x, y) = (column, row): y=0 is red's back row (our row 0), UP is y-1.
    assert move_text(parse_square("A4"), parse_square("A5")) == "0 3 DOWN"
    assert move_text(parse_square("K7"), parse_square("K6")) == "9 6 UP"
    assert move_text(parse_square("E6"), parse_square("A6")) == "4 5 LEFT 4"
    state = StrategoGame("barrage").new_initial_state()
    state.apply_setup(0, {parse_square("A1"): 10, parse_square("E4"): 2, parse_square("B1"): 0,
                          parse_square("C1"): 9, parse_square("D1"): 3, parse_square("F1"): 2,
                          parse_square("G1"): 1, parse_square("H1"): 11})  # fmt: skip
    obs = state.observation(0)
    dump = board_dump(obs.data["board"], 0)
    assert dump[0] == "1F28.9sB.."  # 1 = marshal, s = spy, 8 = miner, 9 = scout
    assert dump[3] == "....9....." and dump[4] == "..++..++.." and all(len(r) == 10 for r in dump)


def test_judge_reply_reasons() -> None:
    game = StrategoGame("barrage", **UCC_RULES)
    state = game.new_initial_state()
    state.apply_setup(0, {3: 2, 2: 10, 0: 0, 1: 11, 4: 9, 5: 3, 6: 2, 7: 1})
    state.apply_setup(1, {93: 2, 92: 10, 90: 0, 91: 11, 94: 9, 95: 3, 96: 2, 97: 1})
    cells, legal = state.observation(0).data["board"], state.legal_actions()
    assert judge_reply("3 0 DOWN 2", cells, 0, legal) == 3 * 100 + 23  # a scout's long move
    assert judge_reply("3 0 DOWN 3 \r", cells, 0, legal) == 3 * 100 + 33  # trailing space and CR are fine
    cases = {
        "hello": "unreadable reply 'hello'",
        "2 0 down": "unreadable",
        "1 0 DOWN": "a bomb cannot move",
        "3 9 UP": "not its own piece",
        "8 0 UP": "not its own piece",
        "2 0 UP": "off the board",
        "2 0 DOWN 2": "only a scout",
        "3 0 DOWN 0": "at least 1",
        "3 0 DOWN 4": "onto a lake",
        "3 0 DOWN 6": "through a lake",
        "3 0 LEFT": "onto its own piece",
        "SURRENDER": "surrendered",
    }
    for reply, why in cases.items():
        with pytest.raises(AgentForfeit, match=why):
            judge_reply(reply, cells, 0, legal)
    with pytest.raises(AgentForfeit, match="not legal now"):  # e.g. barred by the two-squares rule
        judge_reply("3 0 DOWN", cells, 0, [a for a in legal if a != 313])


def test_result_line() -> None:
    state = StrategoGame("barrage").new_initial_state()
    state.apply_setup(0, {3: 2, 2: 10, 0: 0, 1: 11, 4: 9, 5: 3, 6: 2, 7: 1})
    state.end_by(Termination.FORFEIT, 0, "blue's setup was invalid")
    assert ucc_result_line(state, ["bots/a", "bots/b c"]) == "bots/b BLUE BAD_SETUP 0 27 0"


def test_bot_side_in_process() -> None:
    """run_ucc_bot on a scripted conversation: setup rows, START and a board, one move, QUIT."""
    log = io.StringIO()
    out = io.StringIO()  # first learn the setup the seeded agent makes
    assert run_ucc_bot("random", io.StringIO("RED opp 10 10 barrage\nQUIT\n"), out, seed=7, log=log) == 0
    rows = out.getvalue().splitlines()
    assert len(rows) == 4 and all(len(r) == 10 for r in rows)
    assert sorted("".join(rows).replace(".", "")) == sorted("12899sBF")
    dump = rows + ["..++..++..", "..++..++..", "#" * 8 + "..", "." * 10, "." * 10, "." * 10]
    script = "RED opp 10 10 barrage\nSTART\n" + "\n".join(dump) + "\nQUIT opp BLUE VICTORY 1 0 0\n"
    out = io.StringIO()
    assert run_ucc_bot("random", io.StringIO(script), out, seed=7, log=log) == 0
    lines = out.getvalue().splitlines()
    assert lines[:4] == rows and len(lines) == 5
    assert "mismatch" not in log.getvalue()
    view = BotView(get_variant("barrage"), 0)
    view.sync(dump, io.StringIO())  # (an empty view: it takes its own pieces from the dump)
    judge_reply(lines[4], view.observation().data["board"], 0, view.legal_moves())  # a legal move


def test_bot_view_follows_result_lines() -> None:
    view = BotView(get_variant("barrage"), 1)  # blue
    for rank, sq in ((2, 60), (1, 61), (10, 68)):  # scout (0, 6), spy (1, 6), marshal (8, 6)
        view.place(10000 + rank * 100 + sq)
    log = io.StringIO()
    view.apply_result("0 0 DOWN 5 OK", log)  # red's first move arrives before blue's first board dump
    view.sync(["." + "#" * 7 + "..", "." * 10, "." * 10, "." * 10, "..++..++..", "#.++..++..",
               "9s......1.", "." * 10, "." * 10, "." * 10], log)  # fmt: skip
    view.apply_result("0 6 UP BOTHDIE 9 9", log)
    view.apply_result("1 0 DOWN 6 KILLS 9 s", log)
    view.apply_result("8 6 UP OK", log)
    assert log.getvalue() == ""
    data = view.observation().data
    board = data["board"]
    assert board[parse_square("B7")] == {"owner": 0, "rank": "scout", "moved": True, "revealed": True}
    assert board[parse_square("I6")] == {"owner": 1, "rank": "marshal", "moved": True, "revealed": False}
    assert board[parse_square("C1")] == {"owner": 0, "rank": None, "moved": False, "revealed": False}
    assert board[parse_square("A6")] is None and board[parse_square("A7")] is None
    assert data["captured"] == [["scout"], ["scout", "spy"]]
    assert data["move_count"] == 4
    assert data["recent_moves"] == [
        {"player": 0, "from": "B1", "to": "B7", "attacker": "scout", "defender": "spy", "result": "attacker_won"},
        {"player": 1, "from": "I7", "to": "I6"},
    ]
    targets = sorted(m % 100 for m in view.legal_moves())
    assert targets == sorted(parse_square(s) for s in ("I5", "I7", "K6"))  # H6 is a lake


# --- whole games --------------------------------------------------------------------------------------
def test_test_bot_vs_random_barrage(test_bot: str) -> None:
    start = time.monotonic()
    for seed in range(4):
        game = StrategoGame("barrage", max_moves=1000, **UCC_RULES)
        bot = make_agent(f"ucc:timeout=5:{test_bot} play {seed}")
        agents = [bot, make_agent("random")] if seed % 2 == 0 else [make_agent("random"), bot]
        record = _play(game, agents, seed)
        _assert_clean(record)
    assert time.monotonic() - start < 15


def test_test_bot_vs_random_classic(test_bot: str) -> None:
    game = StrategoGame("classic", max_moves=300, **UCC_RULES)
    record = _play(game, [make_agent("random"), make_agent(f"ucc:{test_bot} play 5")], 5)
    _assert_clean(record)
    assert len(record.actions) > 80  # both setups (80 placements) and some play


def test_the_bot_gets_a_seed_of_the_game(test_bot: str) -> None:
    """The manager hands the bot a seed drawn from the game's seed (`BOT_SEED_ENV`): a bot that uses it sets up alike
    in the same game of a seeded series, whatever plays against it, and otherwise not."""

    def bot_setup(seed: int, opponent: str) -> list[int]:
        game = StrategoGame("classic", max_moves=100, **UCC_RULES)
        record = _play(game, [make_agent(opponent), make_agent(f"ucc:{test_bot} play")], seed)
        _assert_clean(record)
        return record.actions[40:80]  # blue's placements

    first = bot_setup(11, "random")
    assert bot_setup(11, "heuristic") == first
    assert bot_setup(12, "random") != first


def test_ucc_bot_cli_vs_manager(ucc_log: Path) -> None:
    for seed, variant in enumerate(("barrage", "barrage", "classic")):
        game = StrategoGame(variant, max_moves=300, **UCC_RULES)
        bot = make_agent(f"ucc:log={ucc_log}:{UCC_BOT_CMD} --seed {seed}")
        agents = [bot, make_agent("random")] if seed != 1 else [make_agent("random"), bot]
        _assert_clean(_play(game, agents, seed))


def test_both_seats_external(test_bot: str, ucc_log: Path) -> None:
    for seed in range(2):
        game = StrategoGame("barrage", max_moves=600, **UCC_RULES)
        ours = make_agent(f"ucc:log={ucc_log}:{UCC_BOT_CMD} --seed {seed}")
        theirs = make_agent(f"ucc:{test_bot} play {seed}")
        _assert_clean(_play(game, [ours, theirs] if seed == 0 else [theirs, ours], seed))


# --- forfeits ---------------------------------------------------------------------------------------------
def _forfeit(test_bot: str, mode: str, timeout: float = 5, seat: int = 0, variant: str = "barrage") -> str:
    game = StrategoGame(variant, max_moves=200, **UCC_RULES)
    bot = make_agent(f"ucc:timeout={timeout}:{test_bot} {mode} 1")
    agents = [bot, make_agent("random")] if seat == 0 else [make_agent("random"), bot]
    record = _play(game, agents, 1)
    assert record.outcome is not None
    assert record.outcome.termination is Termination.FORFEIT
    assert record.outcome.winner == 1 - seat
    return record.outcome.reason


def test_forfeit_garbage(test_bot: str) -> None:
    assert "unreadable reply 'hello manager'" in _forfeit(test_bot, "garbage", seat=1)


def test_forfeit_exit(test_bot: str) -> None:
    reason = _forfeit(test_bot, "exit")
    assert "crashed or exited" in reason and "exit status 3" in reason


def test_forfeit_timeout(test_bot: str) -> None:
    start = time.monotonic()
    assert "timeout" in _forfeit(test_bot, "sleep", timeout=1)
    assert time.monotonic() - start < 5


def test_forfeit_illegal_move(test_bot: str) -> None:
    assert "onto a lake" in _forfeit(test_bot, "lake", variant="classic")


def test_forfeit_bad_setup(test_bot: str) -> None:
    reason = _forfeit(test_bot, "badsetup", seat=1)
    assert "bot setup invalid" in reason and "'X'" in reason


def test_missing_program() -> None:
    game = StrategoGame("barrage")
    record = _play(game, [make_agent("ucc:./no-such-bot-here"), make_agent("random")], 0)
    assert record.outcome is not None and "could not be started" in record.outcome.reason


def test_close_sends_quit_and_ends_the_process(test_bot: str) -> None:
    agent = UccBotAgent(f"{test_bot} play 0")
    agent.start(StrategoGame("barrage"), 0, random.Random(0))
    proc = agent._proc
    assert proc is not None and proc.poll() is None
    agent.close("x RED VICTORY 1 0 0")
    assert proc.returncode == 0  # it read QUIT and left by itself
    agent.close()  # twice is fine


# --- the repetition rules by name, the protocol log ----------------------------------------------------------------
CORNERS = [("C1", 0, Rank.FLAG), ("K1", 0, Rank.SERGEANT), ("C10", 1, Rank.FLAG), ("K10", 1, Rank.SERGEANT)]


def _position(pieces: list[tuple[str, int, Rank]], *moves: str) -> StrategoState:
    """A crafted classic position under ISF rules (both repetition rules on), then `moves` played."""
    state = StrategoGame("classic").state_from_position([(parse_square(s), o, r) for s, o, r in pieces], to_move=0)
    for move in moves:
        state.apply(parse_action(move))
    return state


def test_judge_reply_names_the_repetition_rule_the_engine_applied() -> None:
    """Before: every refused repetition said 'two-squares or more-squares', although the engine knows which."""
    waits = ["K10-K9", "K9-K8", "K8-K7", "K7-K8", "K8-K9"]
    shuffle = ["E4-E5", "E5-E4", "E4-E5", "E5-E4", "E4-E5"]
    two = _position(
        [*CORNERS, ("E4", 0, Rank.SERGEANT)], *[m for pair in zip(shuffle, waits, strict=True) for m in pair]
    )
    chase = ["E7-E8", "F8-F9", "E8-F8", "F9-E9", "F8-F9", "E9-E8", "F9-E9", "E8-F8"]
    more = _position([*CORNERS, ("E7", 0, Rank.MARSHAL), ("F8", 1, Rank.CAPTAIN)], *chase)
    for state, reply, rule in ((two, "4 4 UP", "two-squares"), (more, "4 8 UP", "more-squares")):
        cells, legal = state.observation(0).data["board"], state.legal_actions()
        with pytest.raises(UccForfeit) as info:
            judge_reply(reply, cells, 0, legal, explain=state.explain_illegal)
        assert info.value.kind == f"repetition ({rule})"
        assert f"{rule} rule (STR-REP-" in str(info.value)
        other = "more-squares" if rule == "two-squares" else "two-squares"
        assert other not in str(info.value)
        with pytest.raises(UccForfeit) as vague:  # without the engine's word: both rules named, kind unknown
            judge_reply(reply, cells, 0, legal)
        assert vague.value.kind == "repetition"


def test_forfeit_kinds(test_bot: str) -> None:
    game = StrategoGame("barrage", max_moves=200, **UCC_RULES)
    for mode, kind in (("exit", "crash"), ("garbage", "protocol"), ("badsetup", "bad setup")):
        bot = make_agent(f"ucc:timeout=5:{test_bot} {mode} 1")
        assert isinstance(bot, UccBotAgent)
        bot.start(game, 0, random.Random(0))
        state = game.new_initial_state()
        with pytest.raises(UccForfeit) as info:
            while True:
                player = state.current_player()
                agent = bot if player == 0 else make_agent("random")
                state.apply(agent.act(state.observation(player), state.legal_actions()))
        assert info.value.kind == kind, str(info.value)
        bot.close()
    with pytest.raises(UccForfeit) as missing:
        bot = UccBotAgent("./no-such-bot-here")
        bot.start(game, 0, random.Random(0))
        bot.act(game.new_initial_state().observation(0), game.new_initial_state().legal_actions())
    assert missing.value.kind == "not started"


def test_log_keeps_the_protocol_both_ways_and_stderr(test_bot: str, tmp_path: Path) -> None:
    """Before: `ucc:log=FILE` kept only the bot's stderr."""
    log = tmp_path / "bot.log"
    game = StrategoGame("barrage", max_moves=40, **UCC_RULES)
    record = _play(game, [make_agent(f"ucc:log={log}:{test_bot} play 3"), make_agent("random")], 3)
    text = log.read_text(encoding="utf-8")
    assert "M>B RED fogofwar 10 10 barrage" in text  # manager to bot
    assert "M>B START" in text
    setup = [line for line in text.splitlines() if " B>M " in line][:4]  # bot to manager: the four setup rows
    assert len(setup) == 4 and all(len(line.split(" B>M ")[1]) == 10 for line in setup)
    assert "ERR testbot play says hello on stderr" in text  # the bot's stderr, marked
    assert "M>B QUIT" in text
    moves = [line for line in text.splitlines() if " B>M " in line][4:]
    assert len(moves) == (len(record.actions) - 16 + 1) // 2  # barrage: 16 placements, then red moves first
