"""Chat per game: its two rooms, who reads and writes which when, what a message may hold, the flood limit.

Rooms (one rule: a connection writes in the rooms it reads):

- `players`: the two seats of a game between two people on their own devices (an invite game), during the game
  and after it. A game against the computer has one person and a hot-seat game one screen: no players' room.
  Spectators never read it, not even after the game: it is the players' own conversation.
- `spectators`: everybody who watches, during the game and after it. The players read it (and may write in it)
  only once the game is over, as game sites do: nobody watching can help a player during the game.

The server puts nothing of the game in a message: a message is what a person typed (`clean_text`), the seat it
came from (None: a spectator) and that seat's public player name. Chat is stored apart from the game's event
log (`Store.add_chat`), which replays the game and holds nothing else; each room keeps its newest `HISTORY`
messages, in memory and in the database, and a connection is sent them when it starts reading the room (on
connect, and the players the spectators' room when the game ends). A client knows which rooms it reads from the
state it is sent (the game's mode, its seat, whether the game is over), by the rule of `rooms_for`.
Without accounts a spectator has no name, and a player who opens the game as a spectator in another tab reads
the spectators' room like anybody watching: the server cannot tell them apart.
"""

from __future__ import annotations

import math
import re
import time
import unicodedata
from collections import deque
from collections.abc import Iterable
from typing import Any

from fogofwar.frontends.server.limits import SlidingWindow
from fogofwar.frontends.server.session import ClientError
from fogofwar.frontends.server.store import ChatEntry

PLAYERS = "players"
SPECTATORS = "spectators"
ROOMS = (PLAYERS, SPECTATORS)
MAX_CHARS = 300
"""Longest message, in characters (code points), after cleaning."""
HISTORY = 100
"""Messages kept per room (older ones are forgotten) and sent to a connection that starts reading it."""
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
"""Bidirectional overrides and isolates: a name or a line could be made to read backwards."""


def now() -> float:
    """The flood limit's clock (a test moves it instead of waiting)."""
    return time.monotonic()


def rooms_for(mode: str, seat: int | None, over: bool) -> tuple[str, ...]:
    """The rooms a connection reads, and so writes: a spectator (seat None) the spectators' room; a seat the
    players' room of an invite game, and the spectators' room once the game is over."""
    if seat is None:
        return (SPECTATORS,)
    rooms = (PLAYERS,) if mode == "invite" else ()
    return (*rooms, SPECTATORS) if over else rooms


def why_not(room: str, mode: str, seat: int | None) -> ClientError:
    """Why a connection may not write in `room` (one it does not read)."""
    if room == PLAYERS and seat is None:
        return ClientError("forbidden", "the players' room is for the two players; spectators write in theirs", 403)
    if room == PLAYERS:
        nobody = "against the computer" if mode == "agent" else "at one screen"
        return ClientError("no_room", f"a game {nobody} has no players' room: there is nobody to talk to", 409)
    return ClientError(
        "forbidden", "the spectators' room opens to the players when the game is over, so nobody can help them", 403
    )


def clean_text(raw: str) -> str:
    """What a message says: control characters taken out (a tab or a line break becomes a space), bidirectional
    overrides too, spaces trimmed; `ClientError` if nothing is left or it is over `MAX_CHARS`."""
    text = "".join(
        " " if ch in "\t\n\r\v\f\x85\u2028\u2029" else ch
        for ch in raw
        if ch in "\t\n\r\v\f\x85\u2028\u2029" or unicodedata.category(ch) != "Cc"
    )
    text = _BIDI.sub("", text).strip()
    if all(ch.isspace() or unicodedata.category(ch) == "Cf" for ch in text):  # nothing to see: zero-width marks
        raise ClientError("empty", "an empty chat message: write something", 422)
    if len(text) > MAX_CHARS:
        raise ClientError(
            "too_long", f"a chat message holds at most {MAX_CHARS} characters; this one has {len(text)}", 422
        )
    return text


def line(entry: ChatEntry) -> dict[str, Any]:
    """A message as clients get it: its number, who wrote it (seat None: a spectator), the text, when."""
    return {"id": entry.id, "seat": entry.seat, "name": entry.name, "text": entry.text, "at": entry.at}


def chat_message(room: str, entries: Iterable[ChatEntry], history: bool = False) -> dict[str, Any]:
    """The websocket message carrying `entries` of `room`: new ones, or (`history`) the room's recent ones,
    sent when a connection starts reading it."""
    msg: dict[str, Any] = {"type": "chat", "room": room, "messages": [line(e) for e in entries]}
    if history:
        msg["history"] = True
    return msg


class History:
    """The newest `HISTORY` messages of each room of one game."""

    def __init__(self, entries: Iterable[ChatEntry] = ()) -> None:
        self.rooms: dict[str, deque[ChatEntry]] = {room: deque(maxlen=HISTORY) for room in ROOMS}
        for e in entries:
            self.add(e)

    def add(self, entry: ChatEntry) -> None:
        self.rooms[entry.room].append(entry)

    def of(self, room: str) -> list[ChatEntry]:
        return list(self.rooms[room])


class FloodGate:
    """At most `messages` in any `seconds` per writer (a seat, or a spectator's address)."""

    def __init__(self, messages: int, seconds: float) -> None:
        self.messages = messages
        self.seconds = seconds
        self._sent = SlidingWindow(messages, seconds, max_keys=1000)

    def take(self, who: str, at: float | None = None) -> None:
        """Count a message of `who` (at time `at`, by default `now()`); `ClientError` (nothing counted) if it has
        written too much lately."""
        at = now() if at is None else at
        left = self._sent.wait(who, at)
        if left > 0:
            wait = max(1, math.ceil(left))
            raise ClientError(
                "slow_down",
                f"slow down: at most {self.messages} chat messages in {self.seconds:g} seconds; wait {wait} s",
                429,
            )
        self._sent.add(who, at)


__all__ = [
    "HISTORY",
    "MAX_CHARS",
    "PLAYERS",
    "ROOMS",
    "SPECTATORS",
    "FloodGate",
    "History",
    "chat_message",
    "clean_text",
    "rooms_for",
    "why_not",
]
