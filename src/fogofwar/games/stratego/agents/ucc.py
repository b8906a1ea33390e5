"""The UCC 2012 Stratego bot protocol, both sides.

The UCC Programming Competition 2012 ran Stratego bots under a line protocol on stdin/stdout
(docs: the protocol notes `ucc.md`). This module speaks it both ways:

* `UccBotAgent` is the manager side: an `Agent` that runs an external bot program and talks
  to it as the original manager does, so such a bot can play in `play_match`. Registered as
  the agent `ucc`; the spec is ``ucc:[timeout=SECONDS:][opponent=NAME:][log=FILE:]COMMAND``,
  for example ``ucc:timeout=5:./bots/vixen`` or ``ucc:python3 -u mybot.py``. With ``log=FILE`` every
  protocol line is appended to FILE in both directions (``M>B`` manager to bot, ``B>M`` bot to
  manager), with the bot's stderr (``ERR``) and the manager's notes (``---``), each line led by
  ``[bot pid] seconds since the bot started``: enough to replay a dispute with a bot by hand.
  The bot's process gets a seed for its own randomness in the environment (``FOGOFWAR_BOT_SEED``,
  drawn from the agent's random stream), so a bot that reads it repeats its choices in a seeded series.
* `run_ucc_bot` is the bot side: it makes any registered fogofwar agent a bot program
  (the CLI command ``fogofwar ucc-bot --agent random``), so it can be run by the original
  manager or by `UccBotAgent`.

The frame: UCC's x is our column and UCC's y is our row (y=0 at the top is red's back row,
our row 0 = rank 1), so square = y * 10 + x. ``UP`` is y-1 (towards red), ``DOWN`` is y+1.

Choices this implementation makes where the protocol is silent or our engine differs:

* Variants other than classic (barrage, duel) are a fogofwar extension: the manager adds the
  variant's name as a fifth field of the header line (``RED opponent 10 10 barrage``) and the
  setup rows use ``.`` for empty squares, as the original manager reads them. A classic game
  sends the plain four-field header.
* The per-move timeout (default 10 s, ``timeout=inf`` or ``timeout=0`` for none) covers the
  whole reply line, not only its first byte, and applies to each setup line separately.
* The manager does not stop (SIGSTOP) the bot while its opponent thinks.
* Our rules engine judges the moves: to play exactly the original manager's rules, use
  ``StrategoGame(variant, two_squares=0, more_squares=False)``; otherwise a move the
  repetition rules forbid is a forfeit whose reason says so. The agent sees only observations,
  so it names the rule (two-squares or more-squares) only when whoever runs the match hands it
  the engine's explanation (`UccBotAgent.set_referee`, as the arena does); the UCC manager is the
  referee of the protocol, so it may ask the engine why it refused a move.
* Every forfeit is a `UccForfeit` whose `kind` says what went wrong ("not started", "crash",
  "timeout", "bad setup", "protocol", "illegal move", "repetition (two-squares)", ...), so a
  tournament can count the endings apart. The bot's stderr is read by the manager (passed on to
  our stderr, or to the log): a crash's reason quotes the bot's last words there.
* A reply ``SURRENDER`` is scored as a forfeit (the agent gives up) with reason "surrendered".
* The game-ending move is never reported to a bot (as in the original); `UccBotAgent.close`
  writes ``QUIT`` plus, when the caller gives it, the result line (`ucc_result_line`).
  `play_match` does not close agents: whoever runs the match calls `close` (a forgotten bot
  is killed when the agent is garbage-collected or the interpreter exits).
* Replies are read like the original: whitespace-separated fields, a trailing space or ``\r``
  is fine, the direction must be upper case, fields after N are ignored; a fourth field that is
  not a whole number makes the reply unreadable. Setup rows must be exactly 10 characters of
  ``1-9 s B F .`` (the spy is lower-case ``s`` only), checked against the variant's roster.
* The opponent's moves are written as ``X Y DIR [N]`` (N only when more than 1), since the
  manager side sees the opponent's move only through the observation, not its exact text.
* The bot side keeps its own view from the result lines (ranks shown by battles, moved pieces,
  a scout shown by a long move), takes the piece positions of every board dump as authoritative
  (a disagreement is logged as a "board mismatch" on stderr), offers its agent every move the
  original manager accepts (no repetition rules), and sends ``SURRENDER`` when it has no move or
  its agent fails.
"""

from __future__ import annotations

import contextlib
import os
import queue
import random
import re
import shlex
import subprocess
import sys
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, Any, TextIO

from fogofwar.core.agents import AgentForfeit, make_agent
from fogofwar.core.protocol import JSON, Game, GameError, InvalidSetupError, Observation, Termination
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import (
    FINISH_SETUP,
    PLACE_BASE,
    StrategoGame,
    StrategoState,
    check_setup,
    render_text,
)
from fogofwar.games.stratego.variants import Variant, get_variant
from fogofwar.grid.board import HOME_ROWS, LAKES, NEIGHBOURS, NUM_SQUARES, RAYS, SIZE, parse_square, square_name

DEFAULT_TIMEOUT = 10.0
"""Seconds a bot may take for one reply (one setup line or one move)."""

DIRECTIONS: dict[str, tuple[int, int]] = {"UP": (0, -1), "DOWN": (0, 1), "LEFT": (-1, 0), "RIGHT": (1, 0)}
"""UCC direction -> (dx, dy) in UCC coordinates (x = column, y = row, y=0 = red's back row)."""

COLOURS = ("RED", "BLUE")
# The environment variable that hands the bot process a seed for its own randomness (a whole number below 2**63,
# drawn from the agent's random stream): a bot that uses it (Demon's wrapper, `benchmarks/build_demon.sh`, picks its
# setup by it) plays the same setup in the same game of a seeded series, so series of two players can be compared
# game by game. A bot that ignores it is unaffected.
BOT_SEED_ENV = "FOGOFWAR_BOT_SEED"
OUTCOME_WORDS = ("OK", "KILLS", "DIES", "BOTHDIE", "ILLEGAL", "VICTORY_FLAG", "VICTORY_ATTRITION")
_SPEC_OPTION = re.compile(r"(timeout|opponent|log)=([^:]*):")
SPEC_FORMAT = "ucc:[timeout=SECONDS:][opponent=NAME:][log=FILE:]COMMAND"

FORFEIT_KINDS = (
    "not started",
    "crash",
    "timeout",
    "bad setup",
    "protocol",
    "illegal move",
    "repetition (two-squares)",
    "repetition (more-squares)",
    "repetition",
    "surrender",
)
"""What a `UccForfeit` can be about; "repetition" alone when the engine's explanation was not at hand."""


class UccForfeit(AgentForfeit):
    """A bot's forfeit with its `kind` (one of `FORFEIT_KINDS`): tournaments count crashes, timeouts, illegal
    moves and repetitions apart instead of reading them out of the message."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


# --- symbols and squares ------------------------------------------------------------------
def ucc_symbol(rank: Rank | int) -> str:
    """The UCC mark of a rank: classic numbers (1 = marshal, 9 = scout), 's', 'B', 'F'."""
    r = Rank(rank)
    return "s" if r is Rank.SPY else r.symbol("classic")


_RANK_BY_SYMBOL: dict[str, Rank] = {ucc_symbol(r): r for r in Rank}


def parse_ucc_symbol(ch: str) -> Rank | None:
    """The rank of a UCC mark, or None if `ch` is not one (the spy is lower-case 's' only)."""
    return _RANK_BY_SYMBOL.get(ch)


def piece_value(rank: Rank | int) -> int:
    """The value used in the UCC result line: marshal 10 ... spy 1, bomb and flag 0."""
    r = Rank(rank)
    return 0 if r in (Rank.BOMB, Rank.FLAG) else int(r)


def _xy(sq: int) -> tuple[int, int]:
    return sq % SIZE, sq // SIZE


def move_text(src: int, dst: int) -> str:
    """A move as UCC writes it: 'X Y DIRECTION', plus the number of squares when more than one."""
    sx, sy = _xy(src)
    dx, dy = _xy(dst)
    if sy == dy and sx != dx:
        direction, n = ("RIGHT", dx - sx) if dx > sx else ("LEFT", sx - dx)
    elif sx == dx and sy != dy:
        direction, n = ("DOWN", dy - sy) if dy > sy else ("UP", sy - dy)
    else:
        raise ValueError(f"{square_name(src)}-{square_name(dst)} is not a straight move")
    return f"{sx} {sy} {direction}" + (f" {n}" if n > 1 else "")


def _outcome_text(event: dict[str, Any]) -> str:
    """The outcome part of a result line from a `MoveEvent.to_json()` dict."""
    if "defender" not in event:
        return "OK"
    word = {"attacker_won": "KILLS", "defender_won": "DIES", "both_lost": "BOTHDIE"}[event["result"]]
    a = ucc_symbol(Rank[str(event["attacker"]).upper()])
    d = ucc_symbol(Rank[str(event["defender"]).upper()])
    return f"{word} {a} {d}"


def ucc_result_line(state: StrategoState, names: Sequence[str] = ("red", "blue")) -> str:
    """The manager's final line for a finished game: '<name> <COLOUR> <OUTCOME> <turn> <red> <blue>'.

    The named side is the one whose turn it was when the game stopped; send it to bots as
    ``QUIT <line>`` (`UccBotAgent.close`).
    """
    outcome = state.outcome()
    setup = state.phase == "setup"
    moves = int(state.observation(0).data["move_count"])
    turn = 0 if setup else moves // 2 + 1
    values = [0, 0]
    for sq in range(NUM_SQUARES):
        piece = state.piece_at(sq)
        if piece is not None:
            values[piece[0]] += piece_value(piece[1])
    side = state.current_player() if state.current_player() in (0, 1) else (moves + 1) % 2
    if outcome is None:
        word = "INTERNAL_ERROR"
    elif outcome.termination in (Termination.MOVE_LIMIT,):
        word = "DRAW_DEFAULT"
    elif outcome.winner is None:
        word = "DRAW"
    elif outcome.termination in (Termination.FLAG_CAPTURED, Termination.NO_MOVES, Termination.FLEET_DESTROYED):
        word, side = "VICTORY", outcome.winner
    else:
        side = 1 - outcome.winner
        word = "BAD_SETUP" if setup else ("SURRENDER" if outcome.termination is Termination.RESIGNATION else "ILLEGAL")
    name = (names[side].split() or ["?"])[0]
    return f"{name} {COLOURS[side]} {word} {turn} {values[0]} {values[1]}"


# --- the manager side -----------------------------------------------------------------------
class ProtocolLog:
    """The `log=FILE` of a bot: protocol lines both ways, its stderr and the manager's notes, one marked line each.

    Lines are written whole, unbuffered and in append mode, so the reader threads and the games of other
    arena workers that share the file do not tear each other's lines (each line names the bot's pid).
    """

    def __init__(self, path: str) -> None:
        self._file: IO[bytes] | None = open(path, "ab", buffering=0)  # noqa: SIM115 (closed by close)
        self._lock = threading.Lock()
        self._t0 = time.monotonic()
        self.pid = 0

    def write(self, marker: str, text: str) -> None:
        """One line: '[pid] seconds marker text' (markers: M>B, B>M, ERR, ---); ignored once closed."""
        line = f"[{self.pid}] {time.monotonic() - self._t0:8.3f} {marker} {text}\n"
        with self._lock:
            if self._file is not None:
                with contextlib.suppress(OSError, ValueError):
                    self._file.write(line.encode("utf-8", "replace"))

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                with contextlib.suppress(OSError):
                    self._file.close()
                self._file = None


def _decode(raw: bytes) -> str:
    text = raw.decode("utf-8", "replace")
    return text[:-1] if text.endswith("\n") else text


def _pump(stream: IO[bytes], lines: queue.Queue[bytes | None], log: ProtocolLog | None = None) -> None:
    """Reader thread: every line the bot writes goes to `lines` (and the log); None marks the end of its output."""
    try:
        for raw in iter(stream.readline, b""):
            if log is not None:
                log.write("B>M", _decode(raw))
            lines.put(raw)
    except (OSError, ValueError):
        pass
    finally:
        lines.put(None)


def _pump_stderr(stream: IO[bytes], tail: deque[str], log: ProtocolLog | None) -> None:
    """Reader thread for the bot's stderr: to the log when there is one, else on to ours; the tail is kept for
    the reason of a crash."""
    try:
        for raw in iter(stream.readline, b""):
            text = _decode(raw).rstrip("\r")
            tail.append(text)
            if log is not None:
                log.write("ERR", text)
            else:
                with contextlib.suppress(OSError, ValueError, AttributeError):
                    sys.stderr.write(text + "\n")
                    sys.stderr.flush()
    except (OSError, ValueError):
        pass
    finally:
        with contextlib.suppress(OSError, ValueError):
            stream.close()


def last_words(tail: Sequence[str]) -> str:
    """The line of a bot's stderr that says why it died: the last one that is not indented (a stack trace's
    'at ...' lines are), at most 200 characters; '' when it said nothing."""
    lines = [line for line in tail if line.strip()]
    if not lines:
        return ""
    heads = [line for line in lines if not line[:1].isspace()]
    line = (heads or lines)[-1].strip()
    return line if len(line) <= 200 else line[:197] + "..."


def _reap(proc: subprocess.Popen[bytes], log: ProtocolLog | None, threads: Sequence[threading.Thread] = ()) -> None:
    """Kill a bot process that is still running (garbage collection, interpreter exit, close)."""
    with contextlib.suppress(OSError, ValueError):
        if proc.stdin is not None:
            proc.stdin.close()
    if proc.poll() is None:
        with contextlib.suppress(OSError):
            proc.kill()
    with contextlib.suppress(subprocess.TimeoutExpired, OSError):
        proc.wait(timeout=5)
    for thread in threads:  # the last of its stderr (a stack trace) still goes to the log
        thread.join(timeout=0.5)
    with contextlib.suppress(OSError, ValueError):
        if proc.stdout is not None:
            proc.stdout.close()
    if log is not None:
        log.write("---", f"bot ended ({_status_text(proc.returncode)})")
        log.close()


def _status_text(code: int | None) -> str:
    if code is None:
        return "still running"
    return f"exit status {code}" if code >= 0 else f"killed by signal {-code}"


def parse_spec(arg: str) -> tuple[dict[str, str], str]:
    """Split the text after 'ucc:' into its leading options and the command.

    Options are ``timeout=SECONDS:``, ``opponent=NAME:`` (the opponent field of the header line)
    and ``log=FILE:`` (the protocol lines both ways and the bot's stderr are appended there), in any
    order, each ended by ':' (so a value cannot hold one); the rest is the command, split like a
    shell would (`shlex.split`).

    >>> parse_spec("timeout=5:opponent=vixen:./bots/my bot")
    ({'timeout': '5', 'opponent': 'vixen'}, './bots/my bot')
    """
    options: dict[str, str] = {}
    rest = arg
    while m := _SPEC_OPTION.match(rest):
        options[m.group(1)] = m.group(2)
        rest = rest[m.end() :]
    return options, rest.strip()


def _parse_timeout(text: str) -> float | None:
    t = text.strip().lower()
    if t in ("inf", "none", ""):
        return None
    try:
        value = float(t)
    except ValueError:
        raise GameError(f"ucc timeout must be a number of seconds or 'inf', not {text!r}") from None
    return value if value > 0 else None


class UccBotAgent:
    """An external UCC 2012 bot program, run as a fogofwar agent (the manager's side of the protocol).

    A new process is started for every game (`start`); `close` ends it (``QUIT``, then kill). The
    process is also killed when the agent is garbage-collected or the interpreter exits.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        timeout: float | None = DEFAULT_TIMEOUT,
        opponent: str = "fogofwar",
        log: str | None = None,
        name: str | None = None,
    ) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise GameError(f"the ucc agent needs a command to run: {SPEC_FORMAT}")
        self.timeout = timeout
        self.opponent = opponent
        self.log = log
        self.name = name or "ucc:" + (command if isinstance(command, str) else shlex.join(command))
        self._proc: subprocess.Popen[bytes] | None = None
        self._log: ProtocolLog | None = None
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._stderr_tail: deque[str] = deque(maxlen=40)
        self._stderr_thread: threading.Thread | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None
        self._start_error = ""
        self._explain: Callable[[int], str] | None = None
        self._game: StrategoGame | None = None
        self._player = 0
        self._setup_queue: list[int] | None = None
        self._seen_moves = 0
        self._pending: str | None = None  # the bot's last reply, reported back with its outcome

    @classmethod
    def from_spec(cls, arg: str) -> UccBotAgent:
        """Build from the text after 'ucc:' (see `SPEC_FORMAT`)."""
        options, command = parse_spec(arg)
        if not command:
            raise GameError(f"the ucc agent needs a command to run: {SPEC_FORMAT}")
        timeout = _parse_timeout(options["timeout"]) if "timeout" in options else DEFAULT_TIMEOUT
        return cls(command, timeout=timeout, opponent=options.get("opponent", "fogofwar"), log=options.get("log"))

    def set_referee(self, explain: Callable[[int], str] | None) -> None:
        """Let the engine say why it refuses a move (the game state's `explain_illegal`), so that a repetition
        forfeit names the rule; given by whoever runs the match, for the game about to start."""
        self._explain = explain

    # --- the Agent protocol --------------------------------------------------------------------
    def start(self, game: Game, player: int, rng: random.Random) -> None:
        bot_seed = rng.getrandbits(63)  # the bot's own randomness, where it takes it from us (`BOT_SEED_ENV`)
        if not isinstance(game, StrategoGame):
            raise GameError(f"the ucc agent plays Stratego only, not {game.name}")
        self.close()
        self._game = game
        self._player = player
        self._setup_queue = None
        self._seen_moves = 0
        self._pending = None
        self._lines = queue.Queue()
        self._stderr_tail = deque(maxlen=40)
        self._start_error = ""
        log: ProtocolLog | None = None
        try:
            log = ProtocolLog(self.log) if self.log else None
            self._proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env={**os.environ, BOT_SEED_ENV: str(bot_seed)},
            )
        except OSError as exc:
            self._start_error = f"bot could not be started ({' '.join(self.argv)!r}): {exc}"
            self._proc = None
            if log is not None:
                log.write("---", self._start_error)
                log.close()
            return
        self._log = log
        if log is not None:
            log.pid = self._proc.pid
            note = f"bot started ({shlex.join(self.argv)}, managed by pid {os.getpid()})"
            log.write("---", f"{note}, plays {COLOURS[player]}, {game.variant.name}")
        assert self._proc.stdout is not None and self._proc.stderr is not None
        threading.Thread(target=_pump, args=(self._proc.stdout, self._lines, log), daemon=True).start()
        self._stderr_thread = threading.Thread(
            target=_pump_stderr, args=(self._proc.stderr, self._stderr_tail, log), daemon=True
        )
        self._stderr_thread.start()
        self._finalizer = weakref.finalize(self, _reap, self._proc, log, [self._stderr_thread])

    def act(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        try:
            if self._proc is None:
                raise UccForfeit("not started", self._start_error or "the bot was not started (start() was not called)")
            if observation.data.get("phase") == "setup":
                return self._setup_action(legal_actions)
            if self._setup_queue is None:
                raise UccForfeit(
                    "protocol", "the UCC protocol starts with the setup, and this game started without one"
                )
            return self._move(observation, legal_actions)
        except AgentForfeit:
            self.close()
            raise

    def close(self, result: str = "") -> None:
        """End the bot: write ``QUIT [result]`` as the manager does, give it a moment, then kill it."""
        proc = self._proc
        if proc is None:
            return
        self._proc = None
        if proc.poll() is None:
            quit_line = "QUIT " + result if result else "QUIT"
            if self._log is not None:
                self._log.write("M>B", quit_line)
            with contextlib.suppress(OSError, ValueError):
                assert proc.stdin is not None
                proc.stdin.write(quit_line.encode() + b"\n")
                proc.stdin.flush()
                proc.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=0.5)
        if self._finalizer is not None:
            self._finalizer()  # kills it if still running, closes the pipes and the log
            self._finalizer = None

    # --- talking to the bot --------------------------------------------------------------------
    def _send(self, *lines: str) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        if self._log is not None:
            for line in lines:
                self._log.write("M>B", line)
        try:
            proc.stdin.write("".join(line + "\n" for line in lines).encode())
            proc.stdin.flush()
        except (OSError, ValueError):
            raise UccForfeit(
                "crash", f"bot crashed or exited ({self._exit_status()}): it no longer reads its input"
            ) from None

    def _receive(self, what: str) -> str:
        try:
            raw = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise UccForfeit("timeout", f"timeout: the bot sent no {what} within {self.timeout:g} s") from None
        if raw is None:
            raise UccForfeit("crash", f"bot crashed or exited ({self._exit_status()}) instead of sending {what}")
        return _decode(raw)

    def _exit_status(self) -> str:
        """How the bot ended, with its last words on stderr when it left any."""
        proc = self._proc
        if proc is None:
            return "not running"
        try:
            code = proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return "it closed its output"
        if self._stderr_thread is not None:
            self._stderr_thread.join(timeout=1.0)  # its stderr ends with it
        words = last_words(self._stderr_tail)
        return _status_text(code) + (f"; stderr: {words!r}" if words else "")

    # --- setup -----------------------------------------------------------------------------------
    def _setup_action(self, legal_actions: Sequence[int]) -> int:
        if self._setup_queue is None:
            self._setup_queue = self._read_setup()
        while self._setup_queue:
            action = self._setup_queue.pop(0)
            if action in legal_actions:
                return action
            raise UccForfeit("bad setup", f"bot setup invalid: the engine refuses placement {action} at this point")
        if FINISH_SETUP in legal_actions:
            return FINISH_SETUP
        raise UccForfeit("bad setup", "bot setup invalid: the engine still expects pieces after the whole setup")

    def _read_setup(self) -> list[int]:
        game = self._game
        assert game is not None
        me = self._player
        header = f"{COLOURS[me]} {self.opponent} {SIZE} {SIZE}"
        if game.variant.name != "classic":
            header += f" {game.variant.name}"
        self._send(header)
        rows = HOME_ROWS[me]
        placement: dict[int, Rank] = {}
        for i, y in enumerate(rows):
            line = self._receive(f"setup line {i + 1} of 4")
            if len(line) != SIZE:
                raise UccForfeit(
                    "bad setup",
                    f"bot setup invalid: setup line {i + 1} {line!r} has {len(line)} characters, not {SIZE}",
                )
            for x, ch in enumerate(line):
                if ch == ".":
                    continue
                rank = parse_ucc_symbol(ch)
                if rank is None:
                    raise UccForfeit(
                        "bad setup",
                        f"bot setup invalid: {ch!r} in setup line {i + 1} {line!r} is not a piece "
                        "(use 1-9, s, B, F or .)",
                    )
                placement[y * SIZE + x] = rank
        try:
            check_setup(game.variant, me, placement)
        except InvalidSetupError as exc:
            raise UccForfeit("bad setup", f"bot setup invalid: {exc}") from None
        return [PLACE_BASE + int(rank) * 100 + sq for sq, rank in sorted(placement.items())]

    # --- play ------------------------------------------------------------------------------------
    def _move(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        data = observation.data
        me = self._player
        count = int(data.get("move_count", 0))
        lines: list[str] = []
        if count == 0 and self._seen_moves == 0 and self._pending is None:
            lines.append("START")
        else:
            recent: list[dict[str, Any]] = list(data.get("recent_moves") or [])
            new = count - self._seen_moves
            for event in recent[max(0, len(recent) - new) :]:
                if event.get("player") == me and self._pending is not None:
                    text = self._pending
                    self._pending = None
                else:
                    text = move_text(parse_square(event["from"]), parse_square(event["to"]))
                lines.append(f"{text} {_outcome_text(event)}")
        lines.extend(board_dump(data["board"], me))
        self._send(*lines)
        reply = self._receive("move")
        action = judge_reply(reply, data["board"], me, legal_actions, explain=self._explain)
        self._pending = reply
        self._seen_moves = count  # moves reported so far; this reply comes back with its outcome next time
        return action


def board_dump(cells: Sequence[JSON], player: int) -> list[str]:
    """The 10 lines of the board as `player`'s bot sees it: own marks, '#' for every enemy piece."""
    out = []
    for y in range(SIZE):
        row = []
        for x in range(SIZE):
            cell = cells[y * SIZE + x]
            if cell == "lake":
                row.append("+")
            elif cell is None:
                row.append(".")
            elif cell["owner"] != player:
                row.append("#")
            else:
                row.append(ucc_symbol(Rank[str(cell["rank"]).upper()]))
        out.append("".join(row))
    return out


def judge_reply(
    reply: str,
    cells: Sequence[JSON],
    player: int,
    legal_actions: Sequence[int],
    explain: Callable[[int], str] | None = None,
) -> int:
    """The action id of a bot's move reply; `UccForfeit` says what is wrong with a bad one.

    A move the board allows but the engine refuses breaks a repetition rule; `explain` (the state's
    `explain_illegal`) tells which, else the message names both and the kind is plain "repetition".
    """
    tokens = reply.split()
    if tokens == ["SURRENDER"]:
        raise UccForfeit("surrender", "surrendered (the bot sent SURRENDER)")
    usage = "expected 'X Y UP|DOWN|LEFT|RIGHT [N]'"
    if len(tokens) < 3 or tokens[2] not in DIRECTIONS:
        raise UccForfeit("protocol", f"unreadable reply {reply!r}: {usage}")
    try:
        x, y = int(tokens[0]), int(tokens[1])
        n = int(tokens[3]) if len(tokens) > 3 else 1
    except ValueError:
        raise UccForfeit("protocol", f"unreadable reply {reply!r}: {usage}") from None

    def illegal(why: str, kind: str = "illegal move") -> UccForfeit:
        return UccForfeit(kind, f"illegal move {reply!r}: {why}")

    if not (0 <= x < SIZE and 0 <= y < SIZE):
        raise illegal(f"the start square ({x}, {y}) is off the board")
    src = y * SIZE + x
    cell = cells[src]
    if cell is None or cell == "lake":
        raise illegal(f"not its own piece: ({x}, {y}) is {'a lake' if cell == 'lake' else 'empty'}")
    if cell["owner"] != player:
        raise illegal(f"not its own piece: ({x}, {y}) holds an enemy piece")
    rank = Rank[str(cell["rank"]).upper()]
    if not rank.movable:
        raise illegal(f"a {rank.name.lower()} cannot move")
    if n <= 0:
        raise illegal("the number of squares must be at least 1")
    if n > 1 and rank is not Rank.SCOUT:
        raise illegal(f"only a scout may move more than one square, this is a {rank.name.lower()}")
    dx, dy = DIRECTIONS[tokens[2]]
    cx, cy = x, y
    for step in range(1, n + 1):
        cx, cy = cx + dx, cy + dy
        if not (0 <= cx < SIZE and 0 <= cy < SIZE):
            raise illegal("moves off the board")
        sq = cy * SIZE + cx
        if sq in LAKES:
            raise illegal("moves onto a lake" if step == n else "moves through a lake")
        target = cells[sq]
        if step < n and target is not None:
            raise illegal(f"a scout cannot pass the piece on ({cx}, {cy})")
        if step == n and target is not None and target["owner"] == player:
            raise illegal(f"moves onto its own piece on ({cx}, {cy})")
    action = src * 100 + cy * SIZE + cx
    if action not in legal_actions:
        why = explain(action) if explain is not None else ""
        for rule in ("two-squares", "more-squares"):
            if f"{rule} rule" in why:
                raise illegal(f"{why} (the original UCC manager does not enforce it)", f"repetition ({rule})")
        if why:  # the engine refuses it for a reason of its own
            raise illegal(why)
        raise illegal(
            "not legal now (a repetition rule of this game: two-squares or more-squares; "
            "the original UCC manager does not enforce them)",
            "repetition",
        )
    return action


# --- the bot side -----------------------------------------------------------------------------
@dataclass
class _Piece:
    owner: int
    rank: Rank | None  # None: an enemy piece of unknown rank
    moved: bool = False
    revealed: bool = False


class BotView:
    """What a UCC bot knows: its own army, enemy pieces (unknown unless combat showed them), moves seen.

    It builds an `Observation` in the JSON shape of `StrategoState.observation`, and the legal move
    ids as the UCC manager allows them (no repetition rules).
    """

    def __init__(self, variant: Variant, player: int) -> None:
        self.variant = variant
        self.player = player
        self.pieces: dict[int, _Piece] = {}
        self.to_place: dict[Rank, int] = {r: n for r, n in variant.roster if n}
        self.captured: tuple[list[Rank], list[Rank]] = ([], [])
        self.events: list[dict[str, JSON]] = []
        self.phase = "setup"
        self.synced = False

    # --- setup ---
    def placements(self) -> list[int]:
        squares = [r * SIZE + c for r in HOME_ROWS[self.player] for c in range(SIZE)]
        free = [sq for sq in squares if sq not in self.pieces]
        out = sorted(PLACE_BASE + int(rank) * 100 + sq for rank, n in self.to_place.items() if n for sq in free)
        if (
            out
            and self.variant.composition == "at_most"
            and any(self.to_place.get(r, 0) < n for r, n in self.variant.roster)
        ):
            out.append(FINISH_SETUP)
        return out

    def place(self, action: int) -> None:
        if action == FINISH_SETUP:
            self.to_place = {}
            return
        rank, sq = divmod(action - PLACE_BASE, 100)
        self.to_place[Rank(rank)] -= 1
        self.pieces[sq] = _Piece(self.player, Rank(rank))

    def setup_rows(self) -> list[str]:
        """The four setup lines, top to bottom (red: back row first; blue: front row first)."""
        return [
            "".join(
                ucc_symbol(p.rank) if (p := self.pieces.get(y * SIZE + x)) and p.rank is not None else "."
                for x in range(SIZE)
            )
            for y in HOME_ROWS[self.player]
        ]

    # --- play ---
    def sync(self, rows: Sequence[str], log: TextIO) -> None:
        """Take the occupancy of a board dump: it adds the enemy army at first, then should agree."""
        me = self.player
        for y, row in enumerate(rows):
            for x, ch in enumerate(row[:SIZE]):
                sq = y * SIZE + x
                have = self.pieces.get(sq)
                if ch == "#":
                    if have is None or have.owner == me:
                        if self.synced:
                            log.write(f"ucc-bot: board mismatch at ({x}, {y}): an enemy piece I did not expect\n")
                        self.pieces[sq] = _Piece(1 - me, None)
                elif ch in (".", "+"):
                    if have is not None:
                        log.write(f"ucc-bot: board mismatch at ({x}, {y}): a piece I expected is gone\n")
                        del self.pieces[sq]
                else:
                    rank = parse_ucc_symbol(ch)
                    if rank is not None and (have is None or have.owner != me or have.rank is not rank):
                        log.write(f"ucc-bot: board mismatch at ({x}, {y}): my {rank.name.lower()} I did not expect\n")
                        self.pieces[sq] = _Piece(me, rank)
        self.synced = True

    def apply_result(self, line: str, log: TextIO) -> None:
        """Apply one result line: 'X Y DIR [N] OK|KILLS a d|DIES a d|BOTHDIE a d|ILLEGAL'."""
        tokens = line.split()
        try:
            x, y, direction = int(tokens[0]), int(tokens[1]), tokens[2]
            dx, dy = DIRECTIONS[direction]
            n = int(tokens[3]) if len(tokens) > 3 and tokens[3].lstrip("-").isdigit() else 1
        except (IndexError, ValueError, KeyError):
            log.write(f"ucc-bot: cannot read the result line {line!r}\n")
            return
        if len(tokens) >= 3 and tokens[-3] in ("KILLS", "DIES", "BOTHDIE"):
            word, a_sym, d_sym = tokens[-3:]
        else:
            word, a_sym, d_sym = tokens[-1], "", ""
        if word not in ("OK", "KILLS", "DIES", "BOTHDIE"):
            if word not in ("ILLEGAL", "VICTORY_FLAG", "VICTORY_ATTRITION"):
                log.write(f"ucc-bot: result line without an outcome, ignored: {line!r}\n")
            return
        src = y * SIZE + x
        dst = (y + dy * n) * SIZE + x + dx * n
        if not (0 <= x < SIZE and 0 <= y < SIZE and 0 <= x + dx * n < SIZE and 0 <= y + dy * n < SIZE):
            log.write(f"ucc-bot: result line off the board, ignored: {line!r}\n")
            return
        mover = self.pieces.pop(src, None)
        if mover is None:  # an enemy piece seen before the first board dump (blue's first turn)
            mover = _Piece(1 - self.player, None)
        p, q = mover.owner, 1 - mover.owner
        mover.moved = True
        event: dict[str, JSON] = {"player": p, "from": square_name(src), "to": square_name(dst)}
        if word == "OK":
            if n > 1:
                mover.rank, mover.revealed = Rank.SCOUT, True
                event["attacker"] = "scout"
            self.pieces[dst] = mover
        else:
            a, d = parse_ucc_symbol(a_sym), parse_ucc_symbol(d_sym)
            if a is None or d is None:
                log.write(f"ucc-bot: bad ranks in the result line {line!r}\n")
                a = a or mover.rank or Rank.SCOUT
                d = d or Rank.FLAG
            defender = self.pieces.pop(dst, None) or _Piece(q, None)
            mover.rank, mover.revealed = a, True
            defender.rank, defender.revealed = d, True
            event["attacker"], event["defender"] = a.name.lower(), d.name.lower()
            if word == "KILLS":
                self.captured[q].append(d)
                self.pieces[dst] = mover
                event["result"] = "attacker_won"
            elif word == "DIES":
                self.captured[p].append(a)
                self.pieces[dst] = defender
                event["result"] = "defender_won"
            else:
                self.captured[p].append(a)
                self.captured[q].append(d)
                event["result"] = "both_lost"
        self.events.append(event)

    def legal_moves(self) -> list[int]:
        """Every move the UCC manager accepts (it has no repetition rules)."""
        me = self.player
        out: list[int] = []
        for src, piece in self.pieces.items():
            if piece.owner != me or piece.rank is None or not piece.rank.movable:
                continue
            if piece.rank is Rank.SCOUT:
                for ray in RAYS[src]:
                    for dst in ray:
                        other = self.pieces.get(dst)
                        if other is None:
                            out.append(src * 100 + dst)
                            continue
                        if other.owner != me:
                            out.append(src * 100 + dst)
                        break
            else:
                for dst in NEIGHBOURS[src]:
                    other = self.pieces.get(dst)
                    if other is None or other.owner != me:
                        out.append(src * 100 + dst)
        return sorted(out)

    def observation(self) -> Observation:
        me = self.player
        cells: list[JSON] = []
        for sq in range(NUM_SQUARES):
            piece = self.pieces.get(sq)
            if sq in LAKES:
                cells.append("lake")
            elif piece is None:
                cells.append(None)
            else:
                known = piece.owner == me or piece.revealed
                cells.append(
                    {
                        "owner": piece.owner,
                        "rank": piece.rank.name.lower() if known and piece.rank is not None else None,
                        "moved": piece.moved,
                        "revealed": piece.revealed,
                    }
                )
        data: dict[str, JSON] = {
            "game": "stratego",
            "variant": self.variant.name,
            "player": me,
            "phase": self.phase,
            "to_move": me,
            "move_count": len(self.events),
            "board": cells,
            "captured": [[r.name.lower() for r in self.captured[o]] for o in (0, 1)],
            "last_move": self.events[-1] if self.events else None,
            "recent_moves": self.events[-2:],
            "to_place": {r.name.lower(): n for r, n in self.to_place.items() if n},
            "outcome": None,
        }
        return Observation(me, data, render_text)


def _parse_header(line: str) -> tuple[int, str, str | None]:
    """'RED|BLUE <opponent> 10 10 [variant]' -> (player, opponent, variant or None)."""
    tokens = line.split()
    if len(tokens) < 4 or tokens[0] not in COLOURS:
        raise GameError(f"expected 'RED|BLUE <opponent> 10 10', got {line!r}")
    variant = None
    if not tokens[-1].isdigit():
        variant = tokens[-1]
        tokens = tokens[:-1]
    if len(tokens) < 4 or tokens[-2:] != [str(SIZE), str(SIZE)]:
        raise GameError(f"only a 10x10 board is supported, the header says {line!r}")
    return COLOURS.index(tokens[0]), " ".join(tokens[1:-2]), variant


def run_ucc_bot(
    agent_spec: str,
    stdin: TextIO,
    stdout: TextIO,
    seed: int | None = None,
    variant: str | None = None,
    log: TextIO | None = None,
) -> int:
    """Play one game as a UCC bot with the fogofwar agent `agent_spec`; return an exit status.

    Reads the manager's lines from `stdin`, writes only protocol lines to `stdout` (flushed one by
    one) and notes to `log` (stderr by default). The variant is the header's fifth field if any,
    else `variant`, else classic. Ends on ``QUIT`` or at the end of the input.
    """
    err = log if log is not None else sys.stderr

    def say(text: str) -> bool:
        try:
            stdout.write(text + "\n")
            stdout.flush()
        except (OSError, ValueError):
            return False
        return True

    header = stdin.readline()
    if not header or header.startswith("QUIT"):
        return 0
    try:
        player, opponent, header_variant = _parse_header(header)
        game = StrategoGame(header_variant or variant or "classic", two_squares=0, more_squares=False)
        v = get_variant(game.variant.name)
        agent = make_agent(agent_spec)
        agent.start(game, player, random.Random(seed))
    except (GameError, ValueError) as exc:
        err.write(f"ucc-bot: {exc}\n")
        return 2
    err.write(f"ucc-bot: {agent.name} plays {COLOURS[player]} ({v.name}) against {opponent!r}\n")
    view = BotView(v, player)
    while legal := view.placements():
        try:
            action = agent.act(view.observation(), legal)
        except Exception as exc:  # no setup, no game: say why on stderr
            err.write(f"ucc-bot: the agent failed during the setup ({exc!r})\n")
            return 1
        if action not in legal:
            err.write(f"ucc-bot: the agent chose an illegal placement {action}\n")
            return 1
        view.place(action)
        if action == FINISH_SETUP:
            break
    view.phase = "play"
    for row in view.setup_rows():
        if not say(row):
            return 0
    rows: list[str] = []
    try:
        while True:
            line = stdin.readline()
            if not line:
                return 0
            text = line.rstrip("\r\n")
            if text.startswith("QUIT"):
                err.write(f"ucc-bot: {text}\n")
                return 0
            if text.strip() == "START" or not text.strip():
                continue
            if " " not in text.strip() and len(text.strip()) == SIZE:
                rows.append(text.strip())
                if len(rows) < SIZE:
                    continue
                view.sync(rows, err)
                rows = []
                if not say(_choose_move(agent, view, err)):
                    return 0
                continue
            view.apply_result(text, err)
    finally:
        close = getattr(agent, "close", None)
        if callable(close):
            close()


def _choose_move(agent: Any, view: BotView, err: TextIO) -> str:
    legal = view.legal_moves()
    if not legal:
        err.write("ucc-bot: no legal move left: surrendering\n")
        return "SURRENDER"
    try:
        action = agent.act(view.observation(), legal)
    except Exception as exc:  # the agent gave up or failed: resign rather than hang the manager
        err.write(f"ucc-bot: the agent failed ({exc!r}): surrendering\n")
        return "SURRENDER"
    if action not in legal:
        err.write(f"ucc-bot: the agent chose an illegal move {action}: surrendering\n")
        return "SURRENDER"
    return move_text(*divmod(action, 100))


__all__ = [
    "DEFAULT_TIMEOUT",
    "FORFEIT_KINDS",
    "SPEC_FORMAT",
    "BotView",
    "ProtocolLog",
    "UccBotAgent",
    "UccForfeit",
    "board_dump",
    "judge_reply",
    "last_words",
    "move_text",
    "parse_spec",
    "run_ucc_bot",
    "ucc_result_line",
    "ucc_symbol",
]
