"""Game records: everything needed to replay a game exactly, as JSON.

A record holds the game name and options, an optional start position, the action ids in
order (with their notation for people), the players' names, the outcome and free-form
metadata. `replay()` rebuilds the final state through the one rules engine and checks
that it agrees with the stored notation and outcome.

Records come from files and uploads, so reading one (`load`, `loads`, `from_json`) treats it as
hostile: anything wrong — bytes that are not UTF-8, text that is not JSON, nesting too deep, an
integer too long, a wrong type anywhere, a lone surrogate — is a `RecordError` that says what,
never another exception, and the work done is bounded by the size of the input (`load` refuses a
file over `MAX_RECORD_BYTES` before reading it).
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from fogofwar.core import inputs
from fogofwar.core.protocol import JSON, GameError, IllegalActionError, Outcome, RecordError, State, Termination
from fogofwar.core.registry import game_names, make_game
from fogofwar.core.state_json import outside_ending, start_of

FORMAT = "fogofwar-record"
VERSION = 1

MAX_RECORD_BYTES = 16 << 20
"""Largest record file `GameRecord.load` reads (16 MiB; a long classic game is under 100 KiB as JSON)."""

MAX_RECORD_DEPTH = 32
"""Deepest nesting of arrays and objects in a record (the games' own JSON nests 4 deep); deeper data could
exhaust the stack of whatever walks it later (repr, deepcopy, the engines)."""

MAX_INT_DIGITS = 50
"""Longest integer (in decimal digits) a record may hold: room for 128-bit seeds, far below Python's 4,300-digit
limit for turning an integer into text (past which `str()` and `json.dumps` raise ValueError)."""

MAX_ACTION = 2**31 - 1
"""Largest action id a record may hold (every game's ids are far smaller)."""

_INT_LIMIT = 10**MAX_INT_DIGITS
_TERMINATIONS = {t.value for t in Termination}


@dataclass
class GameRecord:
    game: str
    options: dict[str, JSON]
    actions: list[int]
    notation: list[str] = field(default_factory=list)
    players: list[str] = field(default_factory=list)
    outcome: Outcome | None = None
    start: dict[str, JSON] | None = None
    metadata: dict[str, JSON] = field(default_factory=dict)

    @classmethod
    def from_state(cls, state: State, players: list[str] | None = None, **metadata: JSON) -> GameRecord:
        """Record a game from its final state: the state's own serialization plus notation and outcome."""
        data = state.to_json()
        notation = _notation(state, list(state.history))
        return cls(
            game=str(data["game"]),
            options=dict(data.get("options") or {}),
            actions=list(data["actions"]),
            notation=notation,
            players=list(players or []),
            outcome=state.outcome(),
            start=data.get("start"),
            metadata=dict(metadata),
        )

    def state_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {"game": self.game, "options": self.options, "actions": self.actions}
        if self.start is not None:
            data["start"] = self.start
        ended = outside_ending(self.outcome)
        if ended is not None:
            data["ended_by"] = ended
        return data

    def replay(self, check: bool = True) -> State:
        """Rebuild the final state; with `check`, `RecordError` if notation or outcome disagree."""
        try:
            game = make_game(self.game, **self.options)
        except (GameError, TypeError, ValueError) as exc:
            raise RecordError(f"cannot build game {self.game!r} with options {self.options}: {exc}") from exc
        state = game.state_from_json(self.state_json())
        if check:
            if self.notation and self.notation != _notation(state, self.actions):
                raise RecordError("the record's notation does not match its actions")
            if self.outcome is not None and state.outcome() != self.outcome:
                raise RecordError(f"the record says {self.outcome}, the rules say {state.outcome()}")
        return state

    def to_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": self.options,
            "players": self.players,
            "actions": self.actions,
            "notation": self.notation,
            "outcome": self.outcome.to_json() if self.outcome else None,
            "metadata": self.metadata,
        }
        if self.start is not None:
            data["start"] = self.start
        return data

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """A record from parsed JSON; `RecordError` says what is wrong with any part of it (and nothing else is
        raised, whatever `data` holds)."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f'not a fogofwar record: expected an object with "format": "{FORMAT}"')
        version = data.get("version")
        if type(version) is not int or version != VERSION:
            raise RecordError(f"record version {_describe(version)} is not supported (expected {VERSION})")
        _check_json(data)
        game = data.get("game")
        if not isinstance(game, str):
            raise RecordError(f'"game" must be a string, not {_describe(game)}')
        if game not in game_names():
            known = ", ".join(game_names())
            raise RecordError(f"cannot build game {_describe(game)}: not a game fogofwar knows (known: {known})")
        options = _object(data, "options")
        actions = data.get("actions")
        if not isinstance(actions, list):
            raise RecordError(f'"actions" must be a list of integers, not {_describe(actions)}')
        for i, a in enumerate(actions, 1):
            if type(a) is not int or not 0 <= a <= MAX_ACTION:
                raise RecordError(f"action {i} must be an integer from 0 to {MAX_ACTION:,}, not {_describe(a)}")
        start = data.get("start")
        if start is not None and not isinstance(start, dict):
            raise RecordError(f'"start" must be an object or null, not {_describe(start)}')
        return cls(
            game=game,
            options=options,
            actions=list(actions),
            notation=_strings(data, "notation"),
            players=_strings(data, "players"),
            outcome=_outcome(data.get("outcome")),
            start=start,
            metadata=_object(data, "metadata"),
        )

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def loads(cls, text: str | bytes, max_bytes: int | None = None) -> GameRecord:
        """A record from JSON text, or from bytes that must be UTF-8; with `max_bytes`, longer input is refused
        before it is parsed. `RecordError` for anything wrong, as `from_json`."""
        if max_bytes is not None and len(text) > max_bytes:
            unit = "characters" if isinstance(text, str) else "bytes"
            raise RecordError(f"the record has {len(text):,} {unit}, over the cap of {max_bytes:,} bytes")
        if isinstance(text, bytes | bytearray):
            try:
                text = text.decode("utf-8-sig")
            except UnicodeDecodeError as exc:
                raise RecordError(f"not UTF-8 text (byte {exc.start} cannot be read)") from None
        try:
            data = json.loads(text.removeprefix("\ufeff"), parse_int=_parse_int, parse_constant=_parse_constant)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not JSON: malformed JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
        except RecursionError:
            raise RecordError(
                f"not JSON this program reads: nested too deeply (the cap is {MAX_RECORD_DEPTH})"
            ) from None
        return cls.from_json(data)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps() + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path, max_bytes: int | None = None) -> GameRecord:
        """Read a record file; one over `max_bytes` (default `MAX_RECORD_BYTES`) is refused before it is read."""
        cap = MAX_RECORD_BYTES if max_bytes is None else max_bytes
        try:
            with open(path, "rb") as f:
                size = os.fstat(f.fileno()).st_size
                if size > cap:
                    raise RecordError(f"the file has {size:,} bytes, over the cap of {cap:,} bytes for a record")
                data = f.read(cap + 1)  # a pipe or device has no size: read one byte past the cap at most
        except OSError as exc:
            raise RecordError(f"{path}: cannot read: {exc}") from exc
        return cls.loads(data, cap)


def _parse_int(text: str) -> int:
    """`json.loads`' integer hook: refuse a long integer from its length, before converting it."""
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise RecordError(f"an integer of {len(text.lstrip('-')):,} digits (the cap is {MAX_INT_DIGITS})")
    return int(text)


def _parse_constant(name: str) -> NoReturn:
    """`json.loads`' hook for NaN and Infinity, which Python accepts but JSON does not have."""
    raise RecordError(f"{name} is not a JSON number")


def _describe(value: object) -> str:
    """A short description of a value for an error message: small values as they are, never a huge repr (a long
    integer cannot even be turned into text, and deep nesting cannot be printed)."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int):
        if -_INT_LIMIT < value < _INT_LIMIT:
            return str(value)
        return f"an integer of about {int(value.bit_length() * math.log10(2)):,} digits"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return repr(value[:40]) + ("..." if len(value) > 40 else "")  # repr escapes lone surrogates
    if isinstance(value, list):
        return f"a list of {len(value)} items"
    if isinstance(value, dict):
        return f"an object of {len(value)} keys"
    return f"a {type(value).__name__}"


def _check_json(data: dict[str, Any]) -> None:
    """Refuse what JSON cannot hold or this program cannot use safely, anywhere in the record
    (`inputs.json_problem`: too deep, integers too long, NaN, lone surrogates, keys that are not strings)."""
    problem = inputs.json_problem(data, max_depth=MAX_RECORD_DEPTH, max_int_digits=MAX_INT_DIGITS, root="the record")
    if problem:
        raise RecordError(f"bad record: {problem}")


def _object(data: dict[str, Any], key: str) -> dict[str, JSON]:
    """An optional object field (missing or null: empty)."""
    value = data.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise RecordError(f'"{key}" must be an object, not {_describe(value)}')
    return dict(value)


def _strings(data: dict[str, Any], key: str) -> list[str]:
    """An optional list of strings (missing or null: empty)."""
    value = data.get(key)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RecordError(f'"{key}" must be a list of strings, not {_describe(value)}')
    return list(value)


def _outcome(value: Any) -> Outcome | None:
    """The record's outcome: null (or an empty object, as older records wrote it) for a game not over."""
    if value is None or value == {}:
        return None
    if not isinstance(value, dict):
        raise RecordError(f'"outcome" must be an object or null, not {_describe(value)}')
    termination, winner, reason = value.get("termination"), value.get("winner"), value.get("reason", "")
    if not isinstance(termination, str) or termination not in _TERMINATIONS:
        known = ", ".join(sorted(_TERMINATIONS))
        raise RecordError(f'"outcome": termination {_describe(termination)} is not one of {known}')
    if winner is not None and (type(winner) is not int or winner < 0):
        raise RecordError(f'"outcome": winner must be a player number or null, not {_describe(winner)}')
    if not isinstance(reason, str):
        raise RecordError(f'"outcome": reason must be a string, not {_describe(reason)}')
    return Outcome(Termination(termination), winner, reason)


def _notation(state: State, actions: list[int]) -> list[str]:
    """Notation of each action, computed on a replay from the start (notation may depend on the position)."""
    replay = start_of(state.game, state.to_json())
    out = []
    for a in actions:
        out.append(replay.action_to_string(a))
        try:
            replay.apply(a)
        except IllegalActionError as exc:
            raise RecordError(f"action {len(out)} ({a}) is illegal: {exc}") from exc
    return out
