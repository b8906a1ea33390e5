"""`fogofwar replay`: replay Gravon archives and fogofwar JSON records through the rules engine."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from fogofwar.core.protocol import GameError, RecordError
from fogofwar.core.records import GameRecord
from fogofwar.stratego.formats.gravon import read_gravon
from fogofwar.stratego.replay import replay_gravon
from fogofwar.stratego.rules import DEFAULT_TWO_SQUARES


@dataclass
class GameCheck:
    source: str
    moves: int
    violations: list[str]
    skipped: str = ""
    unreadable: bool = False


@dataclass
class Summary:
    games: int = 0
    moves: int = 0
    violations: int = 0
    skipped: int = 0
    unreadable: int = 0
    bad_games: list[str] = field(default_factory=list)

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
        return "; ".join(extra)


def check_files(
    paths: list[Path], two_squares: int = DEFAULT_TWO_SQUARES, more_squares: bool = True
) -> Iterator[GameCheck]:
    """Every game of every file, checked; an unreadable game is reported as a violation."""
    for path in paths:
        if path.suffix.lower() in (".zip", ".xml"):
            for item in read_gravon(path):
                if isinstance(item, RecordError):
                    yield GameCheck(str(item).split(":")[0], 0, [str(item)], unreadable=True)
                    continue
                rep = replay_gravon(item, two_squares=two_squares, more_squares=more_squares)
                yield GameCheck(rep.source, rep.moves, rep.violations, rep.skipped)
        else:
            try:
                record = GameRecord.load(path)
            except RecordError as exc:
                yield GameCheck(path.name, 0, [str(exc)], unreadable=True)
                continue
            try:
                state = record.replay(check=True)
                yield GameCheck(path.name, getattr(state, "move_count", len(record.actions)), [])
            except GameError as exc:
                yield GameCheck(path.name, 0, [str(exc)])
