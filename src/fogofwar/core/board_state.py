"""The bookkeeping that the two-player board games without dice (Stratego, LOTR) keep the same way.

A state keeps whose turn it is, the actions played, the phase, the moves played, the outcome and
a public event per action (None for actions nobody else sees, such as placing a piece); the
protocol's plain accessors over those live here once, and each game keeps its rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, TypeVar

from fogofwar.core.protocol import TERMINAL, IllegalActionError, Outcome, Termination

E = TypeVar("E")


class BoardStateBase(Generic[E]):
    """Protocol accessors over `_player`, `_history`, `_phase`, `_moves`, `_outcome` and `_events`."""

    _player: int
    _history: list[int]
    _phase: str
    _moves: int
    _outcome: Outcome | None
    _events: list[E | None]

    @property
    def phase(self) -> str:
        """'setup' while pieces are being placed, then 'play' (also once the game is over)."""
        return self._phase

    @property
    def history(self) -> Sequence[int]:
        return self._history

    @property
    def move_count(self) -> int:
        """Turns played since the setup (both players' turns count)."""
        return self._moves

    def current_player(self) -> int:
        return TERMINAL if self._outcome is not None else self._player

    def is_terminal(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        return self._outcome

    def returns(self) -> list[float]:
        return self._outcome.returns(2) if self._outcome is not None else [0.0, 0.0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []  # no dice in these games

    def end_by(self, termination: Termination, winner: int | None, reason: str = "") -> None:
        """End the game for a reason outside the board (resignation, agreed draw, clock, forfeit)."""
        if self._outcome is not None:
            raise IllegalActionError(f"the game is over ({self._outcome.reason})")
        self._outcome = Outcome(termination, winner, reason or termination.value.replace("_", " "))

    def last_event(self) -> E | None:
        """The last move everybody saw, or None."""
        for ev in reversed(self._events):
            if ev is not None:
                return ev
        return None

    def _recent_events(self, n: int) -> list[E]:
        """The last `n` public moves in a row (stopping at the setup), oldest first."""
        out: list[E] = []
        for ev in reversed(self._events):
            if ev is None or len(out) == n:
                break
            out.append(ev)
        return out[::-1]

    def public_history(self) -> list[E]:
        """Every move as both players saw it when it was played: the perfect-recall public information."""
        return [ev for ev in self._events if ev is not None]
