"""A game on the square grid at the terminal: the turns, the setup dialogue, hot-seat and the end, the same for
Stratego and Stratego LOTR; each game's terminal (its `ui/console.py`) draws the board and reads its notation
through the hooks below.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, cast

from rich.console import Console
from rich.text import Text

from fogofwar.core.agents import Agent
from fogofwar.core.console_session import Abandon, ConsoleSession, refuse
from fogofwar.core.match import decide, forfeit
from fogofwar.core.protocol import Game, IllegalActionError, InvalidSetupError, NotationError, State, Termination
from fogofwar.core.randomness import play_streams
from fogofwar.grid.board import FILES, SIZE

HIGHLIGHT_STYLE = "bold yellow"
"""How the squares of the last move are marked on a board drawn in the terminal."""

MOVE_PROMPT = "Your move (e.g. {example}), or: help, moves, resign, quit: "
"""What the terminal asks on the person's turn (the commands `read_move` understands)."""

COMMANDS_HELP = (
    "Commands: moves (your legal moves), board (draw it again), help, rules (show the rule ids in the messages "
    "from now on; 'rules off' hides them), why (the last refusal with its rule ids), resign, quit (leave the "
    "game unfinished)."
)
"""The commands of the move prompt (`GridTerminalGame.read_move`), for the help of each game."""

HOTSEAT_INTRO = (
    "Two players at one keyboard; {first} moves first. Between the turns a 'pass the keyboard' screen "
    "hides the board: each player sees only what their own side may see.{seed}"
)

CellData = Any
"""One cell of an observation's "board": None, "lake" (or a zone), or the piece as the viewer sees it."""


def grid_board_text(
    content: Callable[[int], tuple[str, str]], turned: bool, width: int, highlight: frozenset[int] = frozenset()
) -> Text:
    """A board drawn for the terminal as a player sees it from their chair: file A on the left and row 1 at the
    bottom, or (`turned`, the second seat) the board turned round. `content(square)` gives a square's text
    (`width` - 2 characters) and style; squares in `highlight` (the last move) are drawn in brackets."""
    rows = range(SIZE) if turned else range(SIZE - 1, -1, -1)
    cols = list(range(SIZE - 1, -1, -1)) if turned else list(range(SIZE))
    files = "    " + "".join(f"{FILES[c]:^{width}}" for c in cols)
    text = Text(files + "\n", style="bold")
    for row in rows:
        text.append(f"{row + 1:>3} ", style="bold")
        for col in cols:
            sq = row * SIZE + col
            shown, style = content(sq)
            mark = sq in highlight
            text.append("[" if mark else " ", style=HIGHLIGHT_STYLE)
            text.append(shown, style=style)
            text.append("]" if mark else " ", style=HIGHLIGHT_STYLE)
        text.append(f" {row + 1:<3}\n", style="bold")
    text.append(files, style="bold")
    return text


class GridState(State, Protocol):
    """What the terminal needs of a grid game's state beyond the core protocol."""

    @property
    def phase(self) -> str: ...

    @property
    def move_count(self) -> int: ...

    def apply_setup(self, player: int, placement: Mapping[int, Any]) -> None: ...


class GridTerminalGame(ConsoleSession):
    """One game between a person at the terminal and a computer agent, or two people (hot-seat: no agent).

    `human` is the seat at the keyboard: fixed against the computer, the seat to decide in hot-seat."""

    side_styles: tuple[str, str]
    """How each side's moves are written."""
    setup_prompt: str
    """The question that asks the person for a setup."""
    late_setups: tuple[str, ...] = ("ask", "random")
    """The --setup words resolved only when the game starts (the others are checked before it does)."""
    state: GridState

    def __init__(
        self,
        console: Console,
        game: Game,
        human: int,
        agent: Agent | None,
        setup: str,
        seed: int | None,
        save: Path | None,
        read: Callable[[], str] | None = None,
    ) -> None:
        super().__init__(console, seed, save, read)
        self.game = game
        self.state = cast(GridState, game.new_initial_state())
        self.human = human
        self.agent = agent
        self.unseen: tuple[list[tuple[Any, list[CellData]]], ...] = ([], [])
        """Hot-seat: per seat, the other seat's moves since it last looked, each with its board before it."""
        self.setup = setup
        self.agent_rng, self.setup_rng = play_streams(seed, "agent", "setup")

    # -- the game's hooks
    def title(self) -> str:
        raise NotImplementedError

    def resolve_setup(self, spec: str) -> Mapping[int, Any]:
        """A placement {square: piece} for the person's seat from a setup the person gave."""
        raise NotImplementedError

    def setup_help(self) -> str:
        raise NotImplementedError

    def setup_words(self, placement: Mapping[int, Any]) -> str:
        """A placement as the setup string the person could type."""
        raise NotImplementedError

    def human_turn(self) -> None:
        raise NotImplementedError

    def help_text(self) -> str:
        raise NotImplementedError

    def parse_move(self, line: str) -> int:
        raise NotImplementedError

    def describe(self, event: Mapping[str, Any], before: Sequence[CellData]) -> str:
        """What a move did, in words, from the person's side."""
        raise NotImplementedError

    def show_position(self) -> None:
        raise NotImplementedError

    def show_moves(self) -> None:
        raise NotImplementedError

    def show_final_board(self, data: Mapping[str, Any]) -> None:
        raise NotImplementedError

    def opponent_words(self) -> str:
        """How the intro names the opponent ('the computer 'search'')."""
        return "the other player" if self.agent is None else f"the computer '{self.agent.name}'"

    def intro(self) -> str:
        return HOTSEAT_INTRO.format(first=self.seat_name(0).capitalize(), seed=self.seed_text)

    # -- helpers
    @property
    def me(self) -> str:
        return self.seat_name(self.human)

    @property
    def them(self) -> str:
        return self.seat_name(self.computer)

    @property
    def computer(self) -> int:
        """The other seat: the computer's, or in hot-seat the player's who waits."""
        return 1 - self.human

    def run_checked(self, setup: str) -> int:
        """`run`, after checking a setup given on the command line (anything but a word in `late_setups`),
        so that a bad one is refused before anything starts; exit code 2 when a setup cannot be used."""
        if setup.strip().lower() not in self.late_setups:
            try:
                self.resolve_setup(setup)
            except (InvalidSetupError, NotationError) as exc:
                return refuse(self.console, f"bad --setup: {exc}")
        try:
            return self.run()
        except InvalidSetupError as exc:  # the setup does not fit the free squares (classicfree, computer first)
            return refuse(self.console, f"cannot place your setup: {exc}")

    def run(self) -> int:
        """The whole game: setups, then moves, then the end (each game's screens come from its hooks)."""
        self.console.rule(self.title())
        self.say(self.intro())
        return self.play_through(self.turns)

    def turns(self) -> None:
        if self.agent is not None:
            self.agent.start(self.game, self.computer, self.agent_rng)
        while self.state.phase == "setup" and not self.state.is_terminal():
            if self.person_decides(self.state.current_player()):
                self.human_setup()
            else:
                self.computer_turn()
        while not self.state.is_terminal():
            if self.person_decides(self.state.current_player()):
                self.human_turn()
            else:
                self.computer_turn()

    # -- hot seat
    def person_decides(self, seat: int) -> bool:
        """Whether a person decides for `seat` now; in hot-seat the keyboard is passed to them first."""
        if not self.hotseat:
            return seat == self.human
        if seat != self.human:
            self.pass_keyboard(seat)
        return True

    def pass_keyboard(self, seat: int) -> None:
        """Hot-seat: clear what the other seat had on the screen, wait until `seat` sits down, then tell
        them what the other did since they last looked, as their seat saw it."""
        self.pass_screen(self.seat_name(seat), self.seat_name(self.human))
        self.human = seat
        for event, before in self.unseen[seat]:
            self.tell(self.describe(event, before), style=self.side_styles[int(event["player"])])
        self.unseen[seat].clear()

    def human_setup(self) -> None:
        """Ask for a setup until one is valid (or take the one given on the command line)."""
        asking = self.setup.strip().lower() == "ask"
        if self.hotseat:
            self.tell(f"{self.seat_name(self.human).capitalize()}'s setup", style="bold")
        if asking:
            self.console.print()
            self.say(self.setup_help())
        while True:
            spec = self.ask(self.setup_prompt) if asking else self.setup
            if asking and spec.lower() in ("help", "?"):
                self.say(self.setup_help())
                continue
            if asking and spec.lower() == "quit":
                raise Abandon("quit during the setup")
            if asking and self.session_command(spec.lower()):
                continue
            if asking and not spec:
                continue
            try:
                placement = self.resolve_setup(spec)
                self.state.apply_setup(self.human, placement)
            except (InvalidSetupError, NotationError, IllegalActionError) as exc:
                if not asking:
                    raise
                self.error(f"Not a setup: {exc}")
                continue
            self.say(f"Your setup: {self.setup_words(placement)}")
            return

    # -- turns
    def computer_turn(self) -> None:
        assert self.agent is not None, "hot-seat has no computer turns"
        decision = decide(self.agent, self.state, self.computer, f"the computer ({self.agent.name})")
        if isinstance(decision, str):
            forfeit(self.state, self.computer, decision)
            return
        self.play(decision)

    def read_move(self, prompt: str) -> None:
        """Read commands until one is a legal move (played) or ends the game."""
        while True:
            line = self.ask(prompt)
            word = line.lower()
            if not line:
                continue
            if word in ("help", "?", "h"):
                self.say(self.help_text())
            elif word in ("moves", "m"):
                self.show_moves()
            elif word == "board":
                self.show_position()
            elif word == "resign":
                self.state.end_by(Termination.RESIGNATION, self.computer, f"{self.me} resigned")
                return
            elif word in ("quit", "exit"):
                raise Abandon("you quit")
            elif self.session_command(word):
                continue
            else:
                try:
                    action = self.parse_move(line)
                except (NotationError, IllegalActionError) as exc:
                    self.error(f"Not a legal move: {exc}")
                    continue
                self.play(action)
                return

    def play(self, action: int) -> None:
        """Apply an action and, once the play has begun, say what it did."""
        before = self.state.observation(self.human).data["board"]
        waiting = self.state.observation(self.computer).data["board"] if self.hotseat else None
        was_setup = self.state.phase == "setup"
        self.state.apply(action)
        if was_setup:
            return
        event = self.state.observation(self.human).data["last_move"]
        if event is not None:
            mover = int(event["player"])
            self.tell(self.describe(event, before), style=self.side_styles[mover])
            if waiting is not None:  # told to the other player once the keyboard is theirs
                self.unseen[self.computer].append((self.state.observation(self.computer).data["last_move"], waiting))

    def show_final(self) -> None:
        self.say("The whole board:")
        self.show_final_board(self.state.observation(self.human).data)
        self.say(f"{self.state.move_count} moves played.")

    def at_keyboard(self, seat: int) -> bool:
        return self.hotseat or seat == self.human
