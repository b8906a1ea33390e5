"""Secrets and the random streams drawn from them.

A hosted game has one 256-bit secret from the operating system's CSPRNG. Everything random about
the game (each seat's random setup, the computer player's choices, each die) is a separate stream
whose 256-bit key is BLAKE2b keyed with the secret over the stream's label (`Streams.key`), and
whose bits come from BLAKE2b in counter mode under that key (`KeyedRandom`). So a player who learns
all of one stream (its own random army, or every die rolled so far) learns nothing about another
stream or the secret: that would take breaking BLAKE2b as a pseudo-random function, not searching
a 31-bit seed as with one Mersenne Twister seeded for everything.

Reproducible runs (tests, `fogofwar arena --seed`, `fogofwar play --seed`) derive the secret from
an integer with `Streams.from_seed`; a server never does that for a real game.

>>> s = Streams(bytes(32))
>>> s.rng("setup", 0).random() == s.rng("setup", 0).random()
True
>>> s.key("setup", 0) != s.key("setup", 1)
True
"""

from __future__ import annotations

import hashlib
import os
import random
from typing import Any

SECRET_BYTES = 32
"""Size of a game secret and of every stream key: 256 bits."""
_BLOCK = 64  # bytes of one BLAKE2b output
_REFILL_BLOCKS = 16  # blocks computed per refill of a stream's buffer
_PERSON_STREAM = b"fogofwar-stream"
_PERSON_BITS = b"fogofwar-bits"
_PERSON_SEED = b"fogofwar-seed"


def new_secret() -> bytes:
    """256 fresh bits from the operating system's CSPRNG."""
    return os.urandom(SECRET_BYTES)


def _label(purpose: str, ids: tuple[int | str, ...]) -> bytes:
    """An injective encoding of a stream's label: each part is length-prefixed, so ("setup", 1, 23)
    and ("setup", 12, 3) never share a key."""
    out = bytearray()
    for part in (purpose, *ids):
        if isinstance(part, bool) or not isinstance(part, int | str):
            raise TypeError(f"a stream label part is a str or an int, not {type(part).__name__}")
        tag = b"i" if isinstance(part, int) else b"s"
        raw = str(part).encode("utf-8")
        out += tag + len(raw).to_bytes(4, "big") + raw
    return bytes(out)


class KeyedRandom(random.Random):
    """The `random.Random` API (shuffle, choice, choices, randrange, ...) with bits from BLAKE2b in
    counter mode under a 256-bit key: deterministic for a key, unpredictable without it.

    Unlike the Mersenne Twister, its outputs do not give its state away, however many are seen.

    >>> a, b = KeyedRandom(bytes(32)), KeyedRandom(bytes(32))
    >>> [a.randrange(6) for _ in range(5)] == [b.randrange(6) for _ in range(5)]
    True
    >>> KeyedRandom(b"short")
    Traceback (most recent call last):
    ...
    ValueError: a KeyedRandom key is 32 bytes, not 5
    """

    _key: bytes
    _counter: int
    _buffer: bytes
    _pos: int

    def __init__(self, key: bytes | None = None) -> None:
        super().__init__(key)

    def seed(self, a: Any = None, version: int = 2) -> None:  # noqa: ARG002 (the API of random.Random)
        """Re-key: `a` is a 32-byte key, or None for a fresh one from the OS."""
        key = new_secret() if a is None else a
        if not isinstance(key, bytes | bytearray) or len(key) != SECRET_BYTES:
            size = len(key) if isinstance(key, bytes | bytearray) else type(key).__name__
            raise ValueError(f"a KeyedRandom key is {SECRET_BYTES} bytes, not {size}")
        self._key = bytes(key)
        self._counter = 0
        self._buffer = b""
        self._pos = 0
        self.gauss_next = None

    def _take(self, n: int) -> bytes:
        if self._pos + n > len(self._buffer):
            blocks = max(_REFILL_BLOCKS, -(-n // _BLOCK))
            fresh = b"".join(
                hashlib.blake2b((self._counter + i).to_bytes(16, "big"), key=self._key, person=_PERSON_BITS).digest()
                for i in range(blocks)
            )
            self._counter += blocks
            self._buffer = self._buffer[self._pos :] + fresh
            self._pos = 0
        out = self._buffer[self._pos : self._pos + n]
        self._pos += n
        return out

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k == 0:
            return 0
        n = (k + 7) // 8
        return int.from_bytes(self._take(n), "big") >> (8 * n - k)

    def random(self) -> float:
        return self.getrandbits(53) * (1.0 / (1 << 53))

    def getstate(self) -> tuple[Any, ...]:
        return (self._key, self._counter, self._buffer, self._pos, self.gauss_next)

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._key, self._counter, self._buffer, self._pos, self.gauss_next = state


class Streams:
    """The independent random streams of one secret, each named by a label such as ("setup", seat).

    >>> Streams(b"x")
    Traceback (most recent call last):
    ...
    ValueError: a secret is 32 bytes, not 1
    """

    def __init__(self, secret: bytes) -> None:
        if not isinstance(secret, bytes) or len(secret) != SECRET_BYTES:
            size = len(secret) if isinstance(secret, bytes) else type(secret).__name__
            raise ValueError(f"a secret is {SECRET_BYTES} bytes, not {size}")
        self.secret = secret

    @classmethod
    def fresh(cls) -> Streams:
        """Streams of a new secret from the OS: what every real game uses."""
        return cls(new_secret())

    @classmethod
    def from_seed(cls, seed: int) -> Streams:
        """Reproducible streams from an integer (tests, seeded tournaments); never for a hosted game."""
        return cls(seed_secret(seed))

    def key(self, purpose: str, *ids: int | str) -> bytes:
        """The 256-bit key of one stream: BLAKE2b keyed with the secret over the stream's label."""
        return hashlib.blake2b(_label(purpose, ids), key=self.secret, person=_PERSON_STREAM, digest_size=32).digest()

    def rng(self, purpose: str, *ids: int | str) -> KeyedRandom:
        """A generator for one stream, e.g. `rng("setup", seat)` or `rng("chance", seq)`."""
        return KeyedRandom(self.key(purpose, *ids))


def seed_secret(seed: int) -> bytes:
    """A secret made from an integer, for reproducible runs only (anyone who knows the integer knows it)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"a seed is an integer, not {type(seed).__name__}")
    raw = str(seed).encode("ascii")
    return hashlib.blake2b(raw, person=_PERSON_SEED, digest_size=SECRET_BYTES).digest()


def play_streams(seed: int | None, *purposes: str) -> list[random.Random]:
    """One generator per purpose for a local game: with a seed the user chose, the reproducible
    streams the program always drew from it (a Mersenne Twister per purpose, seeded in turn from
    the seed); without one, independent `KeyedRandom` streams of a fresh secret, which nobody can
    work out from what the game shows."""
    if seed is None:
        streams = Streams.fresh()
        return [streams.rng(p) for p in purposes]
    master = random.Random(seed)
    return [random.Random(master.getrandbits(64)) for _ in purposes]


__all__ = ["SECRET_BYTES", "KeyedRandom", "Streams", "new_secret", "play_streams", "seed_secret"]
