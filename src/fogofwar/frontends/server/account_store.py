"""The accounts' tables: players, their sign-in sessions, which account sits at which seat, and ratings.

Kept beside the games' tables (store.py) in the same database and metadata, apart from the game log: a game is
replayed from its events alone, and an account only says who sat where. A rated game's result changes the
ratings once: the game's row in `rated_games` is written in the same transaction as the new ratings, so a
result applied twice (a retry, a restart) is refused by the primary key, and a finished rated game without
that row (the server stopped in between) is rated when the server starts again.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy import Boolean, Float, ForeignKey, Integer, String, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from fogofwar.frontends.server.ratings import Rating
from fogofwar.frontends.server.store import GameRow, _Base


class UserRow(_Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(20))
    name_key: Mapped[str] = mapped_column(String(20), unique=True)  # the name in lower case: one player per name
    password_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[float] = mapped_column(Float)


class SessionRow(_Base):
    __tablename__ = "user_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(Integer, ForeignKey("users.id"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    expires_at: Mapped[float] = mapped_column(Float)


class GameAccountRow(_Base):
    __tablename__ = "game_accounts"

    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(Integer, ForeignKey("users.id"), index=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)


class RatingRow(_Base):
    __tablename__ = "ratings"

    user_id: Mapped[int] = mapped_column(Integer, ForeignKey("users.id"), primary_key=True)
    mode: Mapped[str] = mapped_column(String(64), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)


class RatedGameRow(_Base):
    __tablename__ = "rated_games"

    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id"), primary_key=True)
    mode: Mapped[str] = mapped_column(String(64))
    changes: Mapped[str] = mapped_column(String(200))  # "user:before->after;..." for the profile's history
    rated_at: Mapped[float] = mapped_column(Float)


@dataclass(frozen=True)
class User:
    id: int
    name: str
    created_at: float


class NameTaken(Exception):
    pass


class AccountStore:
    """Reads and writes of the account tables (synchronous: the server calls it from worker threads)."""

    def __init__(self, engine: Engine) -> None:
        """On the engine of a `Store`, which made the tables (its migrations)."""
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    @contextmanager
    def _tx(self) -> Iterator[Session]:
        with self._sessions.begin() as session:
            yield session

    # --- players and sessions --------------------------------------------------------------------
    def create_user(self, name: str, key: str, password_hash: str) -> User:
        try:
            with self._tx() as s:
                row = UserRow(name=name, name_key=key, password_hash=password_hash, created_at=time.time())
                s.add(row)
                s.flush()
                return User(row.id, row.name, row.created_at)
        except IntegrityError:
            raise NameTaken(name) from None

    def credentials(self, key: str) -> tuple[User, str] | None:
        """The player of a name and its password hash."""
        with self._tx() as s:
            row = s.scalars(select(UserRow).where(UserRow.name_key == key)).one_or_none()
            return (User(row.id, row.name, row.created_at), row.password_hash) if row is not None else None

    def user(self, key: str) -> User | None:
        found = self.credentials(key)
        return found[0] if found else None

    def open_session(self, user_id: int, token_hash: str, csrf: str, days: float) -> None:
        with self._tx() as s:
            s.add(SessionRow(token_hash=token_hash, user_id=user_id, csrf=csrf, expires_at=time.time() + days * 86400))

    def session_user(self, token_hash: str) -> tuple[User, str] | None:
        """The signed-in player of a session and its CSRF token (None: no such session, or expired)."""
        with self._tx() as s:
            row = s.get(SessionRow, token_hash)
            if row is None or row.expires_at < time.time():
                return None
            user = s.get(UserRow, row.user_id)
            return (User(user.id, user.name, user.created_at), row.csrf) if user is not None else None

    def close_session(self, token_hash: str) -> None:
        with self._tx() as s:
            row = s.get(SessionRow, token_hash)
            if row is not None:
                s.delete(row)

    # --- seats -----------------------------------------------------------------------------------------
    def bind_seat(self, game_id: str, seat: int, user_id: int, rated: bool) -> bool:
        """The account sits at the seat (False: the seat has an account already)."""
        try:
            with self._tx() as s:
                s.add(GameAccountRow(game_id=game_id, seat=seat, user_id=user_id, rated=rated))
            return True
        except IntegrityError:
            return False

    def seats(self, game_id: str) -> dict[int, tuple[User, bool]]:
        """Who sits where in a game (seats without an account are absent), and whether it is rated."""
        with self._tx() as s:
            rows = s.execute(
                select(GameAccountRow, UserRow)
                .join(UserRow, UserRow.id == GameAccountRow.user_id)
                .where(GameAccountRow.game_id == game_id)
            ).all()
            return {ga.seat: (User(u.id, u.name, u.created_at), ga.rated) for ga, u in rows}

    def games_of(self, user_id: int, limit: int = 50) -> list[tuple[str, int]]:
        """A player's games, the most recent first: (game id, seat)."""
        with self._tx() as s:
            rows = s.execute(
                select(GameAccountRow.game_id, GameAccountRow.seat)
                .join(GameRow, GameRow.id == GameAccountRow.game_id)
                .where(GameAccountRow.user_id == user_id)
                .order_by(GameRow.updated_at.desc())
                .limit(limit)
            ).all()
            return [(str(g), int(seat)) for g, seat in rows]

    # --- ratings ---------------------------------------------------------------------------------------
    def rating(self, user_id: int, mode: str) -> Rating:
        with self._tx() as s:
            row = s.get(RatingRow, (user_id, mode))
            return Rating(row.rating, row.rd, row.games) if row is not None else Rating()

    def ratings_of(self, user_id: int) -> dict[str, Rating]:
        with self._tx() as s:
            rows = s.scalars(select(RatingRow).where(RatingRow.user_id == user_id).order_by(RatingRow.mode))
            return {r.mode: Rating(r.rating, r.rd, r.games) for r in rows}

    def leaderboard(self, mode: str, limit: int = 50) -> list[tuple[User, Rating]]:
        with self._tx() as s:
            rows = s.execute(
                select(RatingRow, UserRow)
                .join(UserRow, UserRow.id == RatingRow.user_id)
                .where(RatingRow.mode == mode)
                .order_by(RatingRow.rating.desc())
                .limit(limit)
            ).all()
            return [(User(u.id, u.name, u.created_at), Rating(r.rating, r.rd, r.games)) for r, u in rows]

    def modes(self) -> list[str]:
        """The rating pools anybody has a rating in."""
        with self._tx() as s:
            return list(s.scalars(select(RatingRow.mode).distinct().order_by(RatingRow.mode)))

    def rate(self, game_id: str, mode: str, new: dict[int, Rating], old: dict[int, Rating]) -> bool:
        """Store a rated game's new ratings, once (False: this game was rated already)."""
        changes = ";".join(f"{u}:{round(old[u].rating)}->{round(r.rating)}" for u, r in sorted(new.items()))
        try:
            with self._tx() as s:
                s.add(RatedGameRow(game_id=game_id, mode=mode, changes=changes[:200], rated_at=time.time()))
                s.flush()  # the primary key refuses a second rating of the game before anything changes
                for user_id, r in new.items():
                    row = s.get(RatingRow, (user_id, mode))
                    if row is None:
                        s.add(RatingRow(user_id=user_id, mode=mode, rating=r.rating, rd=r.rd, games=r.games))
                    else:
                        row.rating, row.rd, row.games = r.rating, r.rd, r.games
            return True
        except IntegrityError:
            return False

    def rating_changes(self, game_id: str) -> dict[int, tuple[int, int]]:
        """What a rated game did to each account's rating: user id -> (before, after)."""
        with self._tx() as s:
            row = s.get(RatedGameRow, game_id)
        out: dict[int, tuple[int, int]] = {}
        for part in row.changes.split(";") if row is not None and row.changes else []:
            user, change = part.split(":")
            before, after = change.split("->")
            out[int(user)] = (int(before), int(after))
        return out

    def unrated_finished(self) -> list[str]:
        """Finished rated games whose result has not changed the ratings yet (the server stopped in between)."""
        with self._tx() as s:
            rated = select(RatedGameRow.game_id)
            q = (
                select(GameAccountRow.game_id)
                .join(GameRow, GameRow.id == GameAccountRow.game_id)
                .where(GameAccountRow.rated.is_(True), GameRow.status == "over", GameAccountRow.game_id.not_in(rated))
                .distinct()
            )
            return [str(g) for g in s.scalars(q)]
