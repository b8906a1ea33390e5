"""Which worker process serves a request: the game in its path, and the one worker that owns that game.

With `fogofwar serve --workers N` a game lives in exactly one worker process at a time (its lock, its live
session, its connections), so every request that touches a live game must reach that worker. The supervisor
(supervisor.py) reads the request line of each new connection without consuming it (`request_line`), finds
the game id in the path (`game_in_path`) and hands the connection to the game's owner (`owner`); a worker
checks the same rule again for every request it serves (`Ownership`, the app's guard), because HTTP
keep-alive can bring a second request, for another game, on a connection routed by its first.

The owner is chosen by rendezvous hashing (highest random weight) over the workers' names: every process
computes it alone, with no table to share, and when a worker joins or leaves only the games whose owner it
is (or becomes) move. On one machine the names are the worker slots "0".."N-1", which never change (a dead
worker is replaced in its slot); across machines they would be the live lease holders (docs/architecture.md).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import unquote

MAX_REQUEST_LINE = 8 * 1024
"""Longest request line the supervisor reads (method, target, version): a longer one is refused with 414."""

GAME_PATH = re.compile(r"/(?:api/games|ws/games|game|replay)/([^/]+)(?:/|$)")
"""Paths that name one game: its REST routes (view, seat, act, join, accept, resign, rematch, record, replay,
accounts), its websocket, its page and its replay page. `/api/games` alone (the list, create) names none."""

_METHOD = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_VERSION = re.compile(rb"HTTP/[0-9]\.[0-9]")


class BadHead(Exception):
    """A request line the supervisor will not route: answered with `status` and closed."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


@dataclass(frozen=True)
class RequestLine:
    method: str
    target: str
    """As sent: the path (percent-encoded) and the query."""

    @property
    def path(self) -> str:
        """The path as the app sees it (uvicorn's reading: percent-decoded, the query cut off)."""
        return unquote(self.target.partition("?")[0])


def request_line(head: bytes) -> RequestLine | None:
    """The request line at the start of `head` (the bytes received so far), None while it is incomplete.

    Raises `BadHead`: 414 past `MAX_REQUEST_LINE` bytes, 400 for anything that is not `METHOD TARGET HTTP/x.y`
    (a TLS hello on the plain port, binary noise). Empty lines before it are skipped, as RFC 9112 allows."""
    start = 0
    while head.startswith(b"\r\n", start) or head.startswith(b"\n", start):
        start += 2 if head.startswith(b"\r\n", start) else 1
        if start > MAX_REQUEST_LINE:
            raise BadHead(400, "too many empty lines before the request")
    end = head.find(b"\n", start)
    if end < 0:
        if len(head) - start > MAX_REQUEST_LINE:
            raise BadHead(414, f"the request line is longer than {MAX_REQUEST_LINE} bytes")
        if head[start:] and not _could_start_request(head[start:]):
            raise BadHead(400, "this is not an HTTP request")
        return None
    line = head[start:end].removesuffix(b"\r")
    if len(line) > MAX_REQUEST_LINE:
        raise BadHead(414, f"the request line is longer than {MAX_REQUEST_LINE} bytes")
    parts = line.split(b" ")
    if len(parts) != 3 or not _METHOD.fullmatch(parts[0]) or not _VERSION.fullmatch(parts[2]) or not parts[1]:
        raise BadHead(400, "the request line is not METHOD TARGET HTTP/x.y")
    try:
        target = parts[1].decode("ascii")
    except UnicodeDecodeError:
        raise BadHead(400, "the request target is not ASCII") from None
    if not target.isprintable():
        raise BadHead(400, "the request target has control characters")
    return RequestLine(parts[0].decode("ascii"), target)


def _could_start_request(partial: bytes) -> bool:
    """Whether an incomplete line may still become a request line: a method's characters, then a space."""
    method, space, _rest = partial.partition(b" ")
    return bool(_METHOD.fullmatch(method)) if method else not space


def game_in_path(path: str) -> str | None:
    """The game id a (decoded) path names, None for a path that names no game.

    >>> game_in_path("/api/games/Ab3_-x/act"), game_in_path("/ws/games/Ab3_-x"), game_in_path("/api/games")
    ('Ab3_-x', 'Ab3_-x', None)
    """
    match = GAME_PATH.match(path)
    return match.group(1) if match else None


def _weight(worker: str, game_id: str) -> int:
    digest = hashlib.blake2b(f"{worker}\x00{game_id}".encode(), digest_size=8, person=b"fogofwar-owner").digest()
    return int.from_bytes(digest, "big")


def owner(game_id: str, workers: Sequence[str]) -> str:
    """The worker that owns `game_id` among `workers` (rendezvous hashing: the same answer in every process).

    >>> owner("game1", ["0", "1"]) == owner("game1", ["1", "0"])
    True
    """
    if not workers:
        raise ValueError("no workers to own the game")
    return max(workers, key=lambda w: (_weight(w, game_id), w))


@dataclass(frozen=True)
class Ownership:
    """Which games this process serves: those whose owner among `workers` is `me` (one worker: every game)."""

    me: str = "0"
    workers: tuple[str, ...] = ("0",)

    def __post_init__(self) -> None:
        if self.me not in self.workers:
            raise ValueError(f"worker {self.me!r} is not one of {self.workers}")

    @property
    def alone(self) -> bool:
        return len(self.workers) == 1

    def owns(self, game_id: str) -> bool:
        return self.alone or owner(game_id, self.workers) == self.me

    def new_game_id(self, tries: int = 10_000) -> str:
        """A fresh game id (64 bits from the OS's CSPRNG) that this worker owns, so that a game is born where it
        was created. Each try is owned with probability 1/N: `tries` bounds the time and never runs out in
        practice (N=8: a chance of 1 in 10^580)."""
        for _ in range(tries):
            game_id = secrets.token_urlsafe(8)
            if self.owns(game_id):
                return game_id
        raise RuntimeError(f"no game id owned by worker {self.me} in {tries} tries")


def slots(count: int) -> tuple[str, ...]:
    """The names of the worker slots of one machine's supervisor."""
    if count < 1:
        raise ValueError("at least one worker")
    return tuple(str(i) for i in range(count))


__all__ = [
    "MAX_REQUEST_LINE",
    "BadHead",
    "Ownership",
    "RequestLine",
    "game_in_path",
    "owner",
    "request_line",
    "slots",
]
