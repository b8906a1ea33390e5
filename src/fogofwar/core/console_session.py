"""What every terminal game shares, whatever the game: printing, reading a line, the frame of a
game (a quit or Ctrl-C still saves the unfinished record), and saving the record.

The games (`fogofwar.games.stratego.ui.console` for Stratego and LOTR, `fogofwar.games.admiral.ui.console`) bring their
screens and their turns; this class brings the plumbing so it is written once.

Messages are written for players: every line is wrapped at word boundaries to the terminal's width (a long
line keeps its indentation and continues two spaces further in), and the rule ids the engines put in their
reasons ("C5 is a lake (STR-BOARD-1)") are left out unless the player asks for them: `rules` shows them from
then on (`rules off` hides them again) and `why` repeats the last refusal with its rule ids
(`ConsoleSession.session_command`). The engines' own texts, which programs read, are unchanged.
"""

from __future__ import annotations

import re
import textwrap
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


RULE_ID = re.compile(r"\b(?:STR|LOTR|ADM|SOLO)-[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*(?:(?:/|\.\.)[0-9]+[a-z]?)*")
"""A rule id of the rules documents (docs/rules): STR-BOARD-1, LOTR-MOVE-3, ADM-G03, ADM-AIR-12..14, SOLO-TAB."""
_PARENS = re.compile(r"\s*\(([^()]*)\)")


def _plain_parens(match: re.Match[str]) -> str:
    """A parenthesis without the parts that name rules: '(turn 1, ADM-SETUP-6)' -> '(turn 1)'; nothing left,
    no parenthesis ('C5 is a lake (STR-BOARD-1)' -> 'C5 is a lake')."""
    whole, inner = match.group(0), match.group(1)
    if not RULE_ID.search(inner):
        return whole
    kept = [part for part in re.split(r"\s*[,;]\s*", inner) if part and not RULE_ID.search(part)]
    if not kept:
        return ""
    return f"{whole[: whole.index('(')]}({', '.join(kept)})"


def strip_rule_ids(text: str) -> str:
    """`text` without the rule ids the engines write for programs and rule lawyers, in plain words.

    >>> strip_rule_ids("C5 is a lake (STR-BOARD-1)")
    'C5 is a lake'
    >>> strip_rule_ids("only scouts move more than one square (STR-MOVE-3); A1-A10 is 9 squares")
    'only scouts move more than one square; A1-A10 is 9 squares'
    >>> strip_rule_ids("Stratego holds (a move of 0 squares, SOLO-MOVE-2), slowest first, SOLO-MOVE-1")
    'Stratego holds (a move of 0 squares), slowest first'
    """
    if not RULE_ID.search(text):
        return text
    for _ in range(3):  # inner parentheses first: "(Admiral Stratego's die (SOLO-DICE-2))"
        text = _PARENS.sub(_plain_parens, text)
    text = re.sub(r"^" + RULE_ID.pattern + r":?\s*", "", text)  # "ADM-AIR-9: ..."
    text = re.sub(r"(?:[,;] *| +)?" + RULE_ID.pattern + r"(?::(?= ))?", "", text)
    text = re.sub(r" +(?=[.,;:)])", "", text)
    return re.sub(r"\(\s*\)|\[\s*\]", "", text)


def wrap_text(text: str, width: int) -> str:
    """`text` wrapped at word boundaries to `width` columns, line by line: a long line keeps its own
    indentation and goes on two spaces further in; words are never split unless one is wider than a line.

    >>> print(wrap_text("  Pieces step one square up, down, left or right", 24))
      Pieces step one square
        up, down, left or
        right
    """
    width = max(width, 20)
    lines = []
    for line in text.split("\n"):
        if len(line) <= width or not line.strip():
            lines.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip(" "))]
        lines += textwrap.wrap(
            line, width, subsequent_indent=indent + "  ", break_on_hyphens=False, drop_whitespace=True
        ) or [line]
    return "\n".join(lines)


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
    console.print(Text.assemble(("error:", "bold red"), " ", strip_rule_ids(text)), soft_wrap=False)
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
        self.rule_ids = False
        """Whether messages show the rules' ids (the `rules` command); off: plain words."""
        self.last_refusal = ""
        """The engine's whole reason for the last refusal (the `why` command shows it with its rule ids)."""
        self._refusal_notation = False

    @property
    def seed_text(self) -> str:
        """' Seed N.' for a seeded game, else nothing: an unseeded game has no seed to show."""
        return f" Seed {self.seed}." if self.seed is not None else ""

    def words(self, text: str) -> str:
        """A message as the player reads it: without rule ids unless asked for (`rules`), in the game's
        plain words (`plain_words`)."""
        return self.plain_words(text if self.rule_ids else strip_rule_ids(text))

    def plain_words(self, text: str) -> str:
        """The game's hook: engine identifiers in a message turned into the game's words (Admiral: unit
        and feature names); the text as it is by default."""
        return text

    def tell(self, text: str, style: str | None = None) -> None:
        """Print a message (its own words, `words`), wrapped at word boundaries to the terminal's width."""
        self.console.print(Text(wrap_text(self.words(text), self.console.width), style=style or ""), soft_wrap=False)

    def say(self, text: str, style: str | None = None) -> None:
        self.tell(text, style)

    def error(self, text: str, notation: bool = False) -> None:
        """Say what was refused and why; `notation`: the reason shows the notation to type, so it is printed
        as written (without rule ids, but not in the game's plain words)."""
        self.last_refusal, self._refusal_notation = text, notation
        if notation:
            shown = text if self.rule_ids else strip_rule_ids(text)
            self.console.print(Text(wrap_text(shown, self.console.width), style="bold red"), soft_wrap=False)
        else:
            self.tell(text, "bold red")

    def session_command(self, word: str) -> bool:
        """The commands every terminal game understands besides its own: `rules` (show the rules' ids in the
        messages from now on; `rules off` hides them) and `why` (the last refusal with its rule ids).
        Returns whether `word` was one of them."""
        if word in ("rules", "rules on", "rule ids", "rules off"):
            self.rule_ids = word != "rules off"
            if self.rule_ids:
                self.say("Rule ids are shown from now on (docs/rules has the rules); 'rules off' hides them.")
            else:
                self.say("Rule ids are hidden again; 'rules' shows them.")
            return True
        if word == "why":
            if not self.last_refusal:
                self.say("Nothing was refused yet: 'why' repeats the last refusal with the rules behind it.")
            else:
                reason = self.last_refusal if self._refusal_notation else self.plain_words(self.last_refusal)
                tail = "" if RULE_ID.search(reason) else " (no rule id given)"
                self.console.print(Text(wrap_text(f"Why: {reason}{tail}", self.console.width)), soft_wrap=False)
            return True
        return False

    def ask(self, prompt: str) -> str:
        """Read one line; the end of the input abandons the game."""
        shown = wrap_text(self.words(prompt).rstrip(), self.console.width) + (" " if prompt.endswith(" ") else "")
        self.console.print(shown, end="", markup=False, highlight=False, soft_wrap=True)
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
        self.tell(f"{head}: {outcome.reason}.", style="bold")
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
