"""Game clocks: the time control chosen when a game is created, and each seat's time as the log says.

The server is the clock's only judge. Every stored event carries the time the server accepted it
(`Event.at`), so the clocks are rebuilt from the log like everything else: a restarted server
knows to the millisecond how much time each seat had left. The clock of the seat to act runs; in
Admiral that is the seat whose decision it is (a clock per decision, not per turn of the rulebook).
Clocks start when the play starts (the setups are untimed; a player who will not set up can be
aborted), and the dice the server rolls take no time.

Two kinds of control, as on game sites:
- live, "M+S": M minutes for the game and S seconds added each time a seat's turn passes;
- correspondence, "D days": D days for each move, the clock set back to D days when a turn starts.

A seat whose clock reaches zero loses on time (a `timeout` event the server logs at the exact moment
the time ran out, so the record is the same whenever the server noticed it). When a server starts
again, the running clock goes on from where it stood at the last stored event (a `resume` event): the
log holds no time of the crash, and an outage is nobody's move.

>>> tc = TimeControl.parse("5+3")
>>> tc.label, tc.initial, tc.increment
('5+3', 300.0, 3.0)
>>> TimeControl.parse("2 days").label
'2 days a move'
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, field
from typing import Any

MAX_MINUTES = 180
"""Longest live game: three hours a side."""
MAX_INCREMENT = 180
"""Largest increment, in seconds."""
MAX_DAYS = 14
"""Longest correspondence move."""
DAY = 86400.0
PRESETS = ("3+2", "5+3", "10+5", "15+10", "30+20", "1 day", "3 days")
"""What the lobby offers (any other valid control is accepted too)."""
SLACK = 0.001
"""Seconds a logged timeout may differ from the recomputed clock (floating point, not judgement)."""

_LIVE = re.compile(r"^\s*(\d{1,3}(?:\.\d{1,2})?)\s*\+\s*(\d{1,3})\s*$")
_DAYS = re.compile(r"^\s*(\d{1,2})\s*(?:d|days?)\s*$", re.IGNORECASE)


def now() -> float:
    """The server's time, seconds since the epoch (one place, so that a test can move it)."""
    return time.time()


class TimeControlError(ValueError):
    """A time control the server does not accept; the message says what is wrong."""


@dataclass(frozen=True)
class TimeControl:
    """How much time the seats have: `initial` seconds and `increment` per turn (live), or `per_move`
    seconds for every move (correspondence)."""

    initial: float = 0.0
    increment: float = 0.0
    per_move: float | None = None

    @classmethod
    def parse(cls, spec: Any) -> TimeControl | None:
        """Read a control as a client writes it: "5+3" (minutes + seconds), "2 days" (a move),
        or "" / "none" / None for an untimed game."""
        if spec is None:
            return None
        if isinstance(spec, dict):
            return cls.from_json(spec)
        if not isinstance(spec, str) or len(spec) > 20:
            raise TimeControlError('a time control is written like "5+3" (minutes + seconds) or "2 days"')
        if spec.strip().lower() in ("", "none", "untimed"):
            return None
        live = _LIVE.match(spec)
        if live:
            minutes, increment = float(live.group(1)), float(live.group(2))
            if not 0 < minutes <= MAX_MINUTES:
                raise TimeControlError(f"a live game has more than 0 and at most {MAX_MINUTES} minutes a side")
            if increment > MAX_INCREMENT:
                raise TimeControlError(f"the increment is at most {MAX_INCREMENT} seconds")
            return cls(initial=minutes * 60, increment=increment)
        days = _DAYS.match(spec)
        if days:
            n = int(days.group(1))
            if not 1 <= n <= MAX_DAYS:
                raise TimeControlError(f"a correspondence move takes 1 to {MAX_DAYS} days")
            return cls(per_move=n * DAY)
        raise TimeControlError(f'{spec!r} is not a time control: write "5+3" (minutes + seconds) or "2 days"')

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TimeControl:
        """The control as stored with the game (`to_json`)."""
        try:
            per_move = data.get("per_move")
            tc = cls(
                initial=float(data.get("initial", 0)),
                increment=float(data.get("increment", 0)),
                per_move=float(per_move) if per_move is not None else None,
            )
        except (TypeError, ValueError):
            raise TimeControlError(f"not a stored time control: {data!r}"[:200]) from None
        values = (tc.initial, tc.increment, tc.per_move or 0.0)
        if not all(math.isfinite(v) and v >= 0 for v in values) or (tc.per_move is None and tc.initial <= 0):
            raise TimeControlError(f"not a stored time control: {data!r}"[:200])
        return tc

    def to_json(self) -> dict[str, Any]:
        if self.per_move is not None:
            return {"per_move": self.per_move, "label": self.label}
        return {"initial": self.initial, "increment": self.increment, "label": self.label}

    @property
    def label(self) -> str:
        """How players write it: "5+3", "2 days a move"."""
        if self.per_move is not None:
            days = round(self.per_move / DAY)
            return f"{days} day a move" if days == 1 else f"{days} days a move"
        minutes = self.initial / 60
        return f"{minutes:g}+{self.increment:g}"

    @property
    def start(self) -> float:
        """Seconds on each clock when the play starts."""
        return self.per_move if self.per_move is not None else self.initial


@dataclass
class Clocks:
    """Each seat's time left, as of `since` for the seat whose clock runs (`running`)."""

    control: TimeControl
    left: list[float] = field(default_factory=list)
    running: int | None = None
    since: float | None = None

    def __post_init__(self) -> None:
        if not self.left:
            self.left = [self.control.start, self.control.start]

    def copy(self) -> Clocks:
        return Clocks(self.control, list(self.left), self.running, self.since)

    def time_left(self, seat: int, now: float) -> float:
        """Seconds `seat` has at `now` (never below zero)."""
        left = self.left[seat]
        if seat == self.running and self.since is not None:
            left -= max(0.0, now - self.since)
        return max(0.0, left)

    def deadline(self) -> float | None:
        """When the running clock reaches zero (None: no clock runs)."""
        if self.running is None or self.since is None:
            return None
        return self.since + self.left[self.running]

    def flagged(self, now: float) -> int | None:
        """The seat whose time has run out at `now`, if any."""
        end = self.deadline()
        return self.running if end is not None and now >= end else None

    def advance(self, at: float | None, to_act: int | None) -> None:
        """An event accepted at `at`: charge the running seat for its thinking, then run `to_act`'s clock
        (None: no clock runs, as in the setup or once the game is over). A seat whose turn passes gets
        the increment; a correspondence clock is set back to a whole move when its seat's turn starts."""
        if self.running is not None and self.since is not None and at is not None:
            self.left[self.running] = max(0.0, self.left[self.running] - max(0.0, at - self.since))
        if to_act != self.running:
            if self.running is not None and to_act is not None:
                self.left[self.running] += self.control.increment
            if to_act is not None and self.control.per_move is not None:
                self.left[to_act] = self.control.per_move
            self.running = to_act
        self.since = at if to_act is not None else None

    def resume(self, at: float | None) -> None:
        """The server started again at `at`: the running clock goes on from there with the time it had at the
        last event (neither the outage nor the thinking it cut short is charged)."""
        if self.running is not None and at is not None:
            self.since = at

    def to_json(self, now: float) -> dict[str, Any]:
        """What every seat and spectator is shown: each seat's time left at `now`, and whose clock runs."""
        return {
            "control": self.control.to_json(),
            "left": [round(self.time_left(s, now), 3) for s in (0, 1)],
            "running": self.running,
        }
