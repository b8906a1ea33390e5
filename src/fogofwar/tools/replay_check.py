"""`fogofwar replay`: replay Gravon archives and fogofwar JSON records through the rules engine.

A batch of files is checked to its end whatever the files hold: a file or game that cannot be read is
one violation (`unreadable`) that says why, and the next file is read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from fogofwar.core.protocol import GameError, RecordError
from fogofwar.core.records import GameRecord
from fogofwar.games.stratego.formats.gravon import UnreadableGame, read_gravon
from fogofwar.games.stratego.params import Repetition
from fogofwar.games.stratego.replay import replay_gravon
from fogofwar.games.stratego.rules import DEFAULT_TWO_SQUARES


@dataclass
class GameCheck:
    source: str
    moves: int
    violations: list[str]
    skipped: str = ""
    unreadable: bool = False
    not_played: str = ""
    """Why the record holds no game (no setup and no move): counted apart, neither a game nor a violation."""
    repetition: str = ""
    """The reading of the repetition rules a Gravon game was replayed under (STR-REP-8), else empty."""


@dataclass
class Summary:
    games: int = 0
    moves: int = 0
    violations: int = 0
    skipped: int = 0
    unreadable: int = 0
    not_played: int = 0
    eras: Counter[str] = field(default_factory=Counter)
    """Games replayed under each reading of the repetition rules."""
    bad_games: list[str] = field(default_factory=list)

    def add(self, check: GameCheck) -> None:
        """Count one checked game (or a record passed over: skipped, not played)."""
        if check.skipped:
            self.skipped += 1
        elif check.not_played:
            self.not_played += 1
        else:
            self.games += 1
            self.unreadable += check.unreadable
            self.moves += check.moves
            self.violations += len(check.violations)
            if check.repetition:
                self.eras[check.repetition] += 1

    def line(self) -> str:
        """The closing summary line: `N games, M moves, K violations`."""
        return f"{self.games} games, {self.moves} moves, {self.violations} violations"

    def notes(self) -> str:
        """What was passed over or could not be read (empty when nothing was)."""
        extra = []
        if self.skipped:
            extra.append(f"{self.skipped} games skipped (rules fogofwar does not play)")
        if self.unreadable:
            extra.append(f"{self.unreadable} files or games unreadable (counted as violations)")
        if self.not_played:
            extra.append(f"{self.not_played} games not played (no setup and no move; not counted)")
        return "; ".join(extra)

    def rules(self) -> str:
        """Which readings of the repetition rules the Gravon games were replayed under (empty if none)."""
        if not self.eras:
            return ""
        return "repetition rules: " + ", ".join(f"{name} {n} games" for name, n in sorted(self.eras.items()))


def check_files(
    paths: list[Path],
    two_squares: int = DEFAULT_TWO_SQUARES,
    more_squares: bool = True,
    repetition: Repetition | None = None,
) -> Iterator[GameCheck]:
    """Every game of every file, checked; an unreadable game is reported as a violation and the batch goes on.
    `repetition` None: each Gravon game under the reading of its own date (STR-REP-8)."""
    for path in paths:
        if path.suffix.lower() in (".zip", ".xml"):
            yield from _check_gravon(path, two_squares, more_squares, repetition)
        else:
            yield _check_record(path)


def _check_gravon(
    path: Path, two_squares: int, more_squares: bool, repetition: Repetition | None
) -> Iterator[GameCheck]:
    for item in read_gravon(path):
        if isinstance(item, RecordError):
            source = item.source if isinstance(item, UnreadableGame) else path.name
            reason = item.reason if isinstance(item, UnreadableGame) else str(item)
            yield GameCheck(source, 0, [reason], unreadable=True)
            continue
        try:
            rep = replay_gravon(item, two_squares=two_squares, more_squares=more_squares, repetition=repetition)
        except Exception as exc:  # a game the engine fails on is a violation, not the end of the batch
            yield GameCheck(item.source, 0, [_failure(exc)])
            continue
        yield GameCheck(
            rep.source,
            rep.moves,
            rep.violations,
            rep.skipped,
            not_played=rep.not_played,
            repetition=rep.repetition or "",
        )


def _check_record(path: Path) -> GameCheck:
    try:
        record = GameRecord.load(path)
    except RecordError as exc:
        return GameCheck(path.name, 0, [str(exc)], unreadable=True)
    try:
        state = record.replay(check=True)
    except GameError as exc:
        return GameCheck(path.name, 0, [str(exc)])
    except Exception as exc:  # a record the engine fails on is a violation, not the end of the batch
        return GameCheck(path.name, 0, [_failure(exc)])
    return GameCheck(path.name, getattr(state, "move_count", len(record.actions)), [])


def _failure(exc: Exception) -> str:
    """A violation for an error the rules engine should have turned into a `GameError` (a bug to report)."""
    try:
        text = str(exc)
    except Exception:  # e.g. a message that holds an integer too long to print
        text = ""
    return f"the rules engine failed on this game ({type(exc).__name__}: {text[:200]})"
