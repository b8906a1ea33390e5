"""What every terminal game shares, whatever the game: printing, reading a line, the frame of a
game (a quit or Ctrl-C still saves the unfinished record), and saving the record.

The games (`fogofwar.games.stratego.ui.console` for Stratego and LOTR, `fogofwar.games.admiral.ui.console`) bring their
screens and their turns; this class brings the plumbing so it is written once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from fogofwar.core.agents import Agent
from fogofwar.core.protocol import GameError
from fogofwar.core.records import GameRecord


@dataclass(frozen=True)
class PlaySettings:
    """What `fogofwar play` hands any game's terminal: the choices every game has, and the game's own options by
    name (`extras`: only those the person gave; a game refuses one it does not take, `own_extras`)."""

    variant: str | None = None  # None: the game's first
    opponent: str | None = None  # None: the game's default computer player
    color: str | None = None  # the person's seat in the game's words; None: the first seat
    setup: str = "ask"
    seed: int | None = None
    save: Path | None = None
    hotseat: bool = False
    console: Console | None = None
    read: Callable[[], str] | None = None
    extras: Mapping[str, object] = field(default_factory=dict)


TerminalRunner = Callable[[PlaySettings], int]
"""A game's terminal: plays one game with these settings and returns the exit code (0 finished and saved,
1 abandoned, 2 bad input, 130 interrupted)."""


def own_extras(settings: PlaySettings, title: str, defaults: Mapping[str, Any]) -> dict[str, Any]:
    """The game's own options among `settings.extras`, over their `defaults`; `GameError` names one the game does
    not take (the terminal's flag, --layout for `layout`), with the ones it does."""
    for key in settings.extras:
        if key not in defaults:
            takes = ", ".join(f"--{k.replace('_', '-')}" for k in defaults) or "none of its own"
            raise GameError(f"--{key.replace('_', '-')} is not an option of {title} in the terminal (it takes {takes})")
    return {**defaults, **settings.extras}


def refuse(console: Console, text: str) -> int:
    """Say why a terminal game cannot start, and return the exit code for bad input (2)."""
    console.print(Text.assemble(("error:", "bold red"), " ", text))
    return 2


class Abandon(Exception):
    """The person left the game without finishing it (quit, or the input ended)."""


class ConsoleSession:
    """The console, the input and the record of one terminal game (subclasses set `state` and `agent`)."""

    state: Any
    agent: Agent | None
    """The computer's player, or None when two people play (hot-seat)."""

    def __init__(self, console: Console, seed: int | None, save: Path | None, read: Callable[[], str] | None) -> None:
        self.console = console
        self.seed = seed
        """The seed the player chose (a reproducible game), or None: then the computer and the random setups
        draw from a fresh 256-bit secret nobody sees (`fogofwar.core.randomness.play_streams`)."""
        self.save = save
        self._read = read or input

    @property
    def seed_text(self) -> str:
        """' Seed N.' for a seeded game, else nothing: an unseeded game has no seed to show."""
        return f" Seed {self.seed}." if self.seed is not None else ""

    def say(self, text: str, style: str | None = None) -> None:
        self.console.print(text, style=style, markup=False, highlight=False)

    def error(self, text: str) -> None:
        self.console.print(Text(text, style="bold red"))

    def ask(self, prompt: str) -> str:
        """Read one line; the end of the input abandons the game."""
        self.console.print(prompt, end="", markup=False, highlight=False)
        try:
            line = self._read()
        except EOFError:
            raise Abandon("the input ended") from None
        if not self.console.is_terminal:  # a transcript: show what was typed after its prompt
            self.console.print(line, markup=False, highlight=False)
        return line.strip()

    def pass_screen(self, to: str, away: str) -> None:
        """Hot-seat: clear the screen (a few blank lines in a transcript) and wait until `to` sits down
        while `away` looks away, so that nothing of one seat stays on the screen for the other."""
        if self.console.is_terminal:
            self.console.clear()
        else:
            self.console.print("\n" * 3)
        self.console.rule(f"Pass the keyboard to {to}")
        self.ask(f"{to[:1].upper()}{to[1:]}: press Enter when {away} cannot see the screen. ")
        if self.console.is_terminal:
            self.console.clear()

    def play_through(self, turns: Callable[[], None]) -> int:
        """Run `turns` to the end of the game, then the game-over screen; the exit code: 0 finished and
        saved, 1 abandoned or not saved, 130 interrupted. An unfinished game's record is saved too."""
        try:
            turns()
        except Abandon as exc:
            self.console.print()
            self.say(f"Game abandoned ({exc}).", style="bold")
            self.write_record(finished=False)
            return 1
        except KeyboardInterrupt:
            self.console.print()
            self.say("Interrupted: game abandoned.", style="bold")
            self.write_record(finished=False)
            return 130
        self.show_end()
        return 0 if self.write_record(finished=True) else 1

    # -- the game's hooks
    def seat_name(self, seat: int) -> str:
        """A seat's name in the game's words (red, evil, South)."""
        raise NotImplementedError

    def at_keyboard(self, seat: int) -> bool:
        """Whether a person types this seat's moves (both seats in hot-seat)."""
        raise NotImplementedError

    def show_final(self) -> None:
        """What the game-over screen shows below the result (the whole board, the score)."""
        raise NotImplementedError

    @property
    def hotseat(self) -> bool:
        """Two people at this keyboard: no computer plays."""
        return self.agent is None

    def show_end(self) -> None:
        """The game-over screen: who won and why, then the game's own (`show_final`)."""
        outcome = self.state.outcome()
        assert outcome is not None
        self.console.print()
        self.console.rule("Game over")
        if outcome.winner is None:
            head = "Draw"
        elif self.hotseat:
            head = f"{self.seat_name(outcome.winner).capitalize()} wins"
        elif self.at_keyboard(outcome.winner):
            head = "You win"
        else:
            head = f"You lose ({self.seat_name(outcome.winner)} wins)"
        self.console.print(Text(f"{head}: {outcome.reason}.", style="bold"))
        self.show_final()

    def record_players(self) -> list[str]:
        """Who played each seat, as the record names them: "human", or the computer's agent."""
        agent = self.agent
        return ["human" if agent is None or self.at_keyboard(seat) else agent.name for seat in (0, 1)]

    def write_record(self, finished: bool) -> bool:
        """Save the game (if a file was asked for); False if it could not be written."""
        if self.save is None:
            return True
        record = GameRecord.from_state(self.state, players=self.record_players(), seed=self.seed, finished=finished)
        try:
            self.save.parent.mkdir(parents=True, exist_ok=True)
            record.save(self.save)
        except OSError as exc:
            self.error(f"Could not save the record to {self.save}: {exc}")
            return False
        self.say(f"Record saved to {self.save}" + ("" if finished else " (unfinished game)"))
        return True
