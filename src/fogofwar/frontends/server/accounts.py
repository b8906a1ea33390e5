"""Player accounts, optional: names, passwords, sign-in sessions and CSRF tokens.

Play never needs an account (a seat is its token); an account adds a name, ratings and a profile. Passwords
are hashed with Argon2id (argon2-cffi, OWASP's minimum parameters: 19 MiB, two passes), so a stolen database
gives nobody a password cheaply. A signed-in browser holds a random session token in an HttpOnly cookie;
the server keeps only its hash, and a CSRF token (synchronizer pattern) that every request changing
something on the account's behalf must send back in a header: a page of another site can make the browser
send the cookie, never the token. Failed sign-ins are limited per name and per address (account_api.py, with
`limits.SlidingWindow`), so guessing a password costs hours, not seconds, and hashing costs bounded time.

>>> check_name("Ada_99")
'Ada_99'
>>> check_name("a")
Traceback (most recent call last):
...
fogofwar.frontends.server.accounts.AccountError: a player name has 3 to 20 letters, digits, '_' or '-'
"""

from __future__ import annotations

import hashlib
import re
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

NAME = re.compile(r"^[A-Za-z0-9_-]{3,20}$")
MIN_PASSWORD = 8
MAX_PASSWORD = 128
"""Longer passwords are refused: hashing cost must stay bounded whatever a client sends."""
SESSION_DAYS = 30
SESSION_COOKIE = "fow_session"
CSRF_HEADER = "X-CSRF-Token"

_HASHER = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)


class AccountError(Exception):
    """A refused account request; `status` is the HTTP status, the message says what is wrong."""

    def __init__(self, message: str, status: int = 422, code: str = "bad_request") -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code


def check_name(name: str) -> str:
    """A valid player name (unique whatever the case: `name_key`)."""
    if not isinstance(name, str) or not NAME.match(name):
        raise AccountError("a player name has 3 to 20 letters, digits, '_' or '-'")
    return name


def name_key(name: str) -> str:
    """How names are compared: "Ada" and "ada" are one player."""
    return name.lower()


def check_password(password: str, name: str) -> str:
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError(f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    if password.lower() == name.lower():
        raise AccountError("the password must not be the player name")
    return password


def hash_password(password: str) -> str:
    return _HASHER.hash(password)


def verify_password(stored: str, password: str) -> bool:
    try:
        return _HASHER.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


def new_token() -> str:
    """A session or CSRF token: 256 bits from the OS."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """Session tokens are stored hashed: a leaked database opens no session."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
