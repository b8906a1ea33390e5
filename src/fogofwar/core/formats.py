"""Other programs' record formats that a game's plugin can read and write (Stratego: Gravon's XML).

The web app's import and export and the replay page offer every registered format besides fogofwar's own
JSON record, so they name none: a game registers its formats when its plugin is imported.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from fogofwar.core.records import GameRecord
from fogofwar.core.registry import load_plugins


@dataclass(frozen=True)
class RecordFormat:
    """How records are read from and written to one outside format."""

    name: str
    """The format's name in requests and exports ("gravon")."""
    title: str
    """How people call it ("Gravon XML")."""
    media_type: str
    extension: str
    starts_with: str
    """The first character of its files, after any blank: how an uploaded file is told apart from a JSON record."""
    read: Callable[[str, str], GameRecord]
    """(text, where it came from) -> the game's record; `RecordError` says what is wrong."""
    write: Callable[[GameRecord], str]
    """The record in this format; `RecordError` (or `GameError`) when this game cannot be written in it."""


_FORMATS: dict[str, RecordFormat] = {}


def register_record_format(fmt: RecordFormat) -> None:
    _FORMATS[fmt.name] = fmt


def record_formats() -> dict[str, RecordFormat]:
    """Every registered outside format, by name."""
    load_plugins()
    return dict(_FORMATS)
