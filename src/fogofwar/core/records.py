"""Game records: everything needed to replay a game exactly, as JSON.

A record holds the game name and options, an optional start position, the action ids in
order (with their notation for people), the players' names, the outcome and free-form
metadata. `replay()` rebuilds the final state through the one rules engine and checks
that it agrees with the stored notation and outcome.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fogofwar.core.protocol import JSON, GameError, IllegalActionError, Outcome, RecordError, State
from fogofwar.core.registry import make_game
from fogofwar.core.state_json import outside_ending, start_of

FORMAT = "fogofwar-record"
VERSION = 1


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
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f'not a fogofwar record: expected an object with "format": "{FORMAT}"')
        if data.get("version") != VERSION:
            raise RecordError(f"record version {data.get('version')!r} is not supported (expected {VERSION})")
        try:
            actions = data["actions"]
            if not isinstance(actions, list) or not all(isinstance(a, int) for a in actions):
                raise RecordError('"actions" must be a list of integers')
            outcome = data.get("outcome")
            return cls(
                game=str(data["game"]),
                options=dict(data.get("options") or {}),
                actions=list(actions),
                notation=[str(n) for n in data.get("notation") or []],
                players=[str(p) for p in data.get("players") or []],
                outcome=Outcome.from_json(outcome) if outcome else None,
                start=data.get("start"),
                metadata=dict(data.get("metadata") or {}),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"bad record: {exc!r}") from exc

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        try:
            return cls.from_json(json.loads(text))
        except json.JSONDecodeError as exc:
            raise RecordError(f"not JSON: {exc}") from exc

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps() + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"{path}: cannot read: {exc}") from exc
        return cls.loads(text)


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
