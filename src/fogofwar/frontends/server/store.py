"""Persistence: one row per game and an append-only event log, through SQLAlchemy (and each game's chat,
in a table of its own: `ChatRow`, `Store.add_chat`).

The in-memory game state is never stored: it is rebuilt by replaying a game's events
through the rules engine, so the log is the single source of truth and a crash can lose
nothing that was committed. Each append also refreshes a few summary columns of the
game row (status, whose turn, move count) in the same transaction, so that the lobby can
list games without replaying them.

The tables are the models below; whenever a Store opens a database, the schema's migrations bring it up to
date (`migrations`: Alembic revisions, docs/database.md). Any SQLAlchemy URL works, and PostgreSQL is tested
as SQLite is (`postgresql+psycopg://...`); SQLite (the default) is put in WAL mode with full syncing, so
that a commit survives a killed process and a power cut alike. `fsync=False` (for tests)
keeps WAL's guarantee against a killed process and drops the one against a power cut,
which makes a commit a thousand times cheaper on a busy disk.

All methods are synchronous and thread-safe: the server calls them from worker threads
so that a slow disk never stalls the event loop.
"""

from __future__ import annotations

import copy
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, cast

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import DisconnectionError, IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.pool import StaticPool

from fogofwar.core.web_adapter import Event
from fogofwar.frontends.server import migrations
from fogofwar.frontends.server.write_lock import WriteLock

DEFAULT_DB = "sqlite:///fogofwar.db"
"""A file in the working directory, so that `fogofwar serve` keeps its games across restarts."""
SQLITE_BUSY_SECONDS = 30
"""How long an SQLite connection waits for another process's lock before it answers "database is locked"."""

WRITERS = 1
"""Threads of a server process writing at once to a database server (SQLite: one in any case).

One, because group commit (`group_commit`) already puts what arrives during a commit into the next one: with
eight, PostgreSQL's commits stayed one move each and the threads fought for the interpreter. On this project's
2-core machine one writer a process shortened the tail of moves at human pace and raised the closed-loop
throughput (docs/architecture.md)."""
IDLE_PING = 1.0
"""Seconds a database server's connection may rest in the pool before it is pinged on its way out.

A connection that rested may have been closed by a restart of the server; one in steady use has not, and pinging it
before every commit (SQLAlchemy's `pool_pre_ping`) cost PostgreSQL a round trip and a sixth of a commit's CPU."""


class StoreError(Exception):
    """The database refused a write (for instance an event appended twice at the same place)."""


class _Base(DeclarativeBase):
    pass


class GameRow(_Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    mode: Mapped[str] = mapped_column(String(16))
    agent: Mapped[str | None] = mapped_column(String(64), nullable=True)
    agent_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    secret: Mapped[str] = mapped_column(String(64))  # hex of the game's 256-bit secret (see GameMeta.secret)
    players: Mapped[list[str | None]] = mapped_column(JSON)
    token_hashes: Mapped[list[str | None]] = mapped_column(JSON)
    invite_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float, index=True)
    seq: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), index=True)
    to_move: Mapped[int | None] = mapped_column(Integer, nullable=True)
    move_count: Mapped[int] = mapped_column(Integer, default=0)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)  # the time control; None: untimed
    public: Mapped[bool] = mapped_column(Boolean, default=False)  # an open challenge: listed for anyone to accept


class EventRow(_Base):
    __tablename__ = "events"

    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)


class ChatRow(_Base):
    """A chat message of a game's room (`fogofwar.frontends.server.chat`): apart from the event log, which
    replays the game and must hold nothing else."""

    __tablename__ = "chat"
    __table_args__ = (Index("ix_chat_game_room", "game_id", "room", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id"))
    room: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)  # None: a spectator
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)  # the seat's player name when it wrote
    text: Mapped[str] = mapped_column(String(2000))
    created_at: Mapped[float] = mapped_column(Float)


@dataclass(frozen=True)
class ChatEntry:
    """One stored chat message."""

    id: int
    room: str
    seat: int | None
    name: str | None
    text: str
    at: float


METADATA = _Base.metadata
"""The tables as the code has them: every change to them comes with a revision in migrations/versions/."""
_GAMES = cast(Table, GameRow.__table__)
_EVENTS = cast(Table, EventRow.__table__)
# The statements of `Store.append_events`, built once (SQLAlchemy caches their compiled form).
_ADVANCE = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("b_id"), _GAMES.c.seq == bindparam("b_prev"))
    .values(
        seq=bindparam("b_seq"),
        status=bindparam("b_status"),
        to_move=bindparam("b_to_move"),
        move_count=bindparam("b_move_count"),
        outcome=bindparam("b_outcome", type_=JSON),
        updated_at=bindparam("b_now"),
    )
)
_SEQ_OF = select(_GAMES.c.seq).where(_GAMES.c.id == bindparam("b_id"))
_INSERT_EVENT = insert(_EVENTS)
_SEATS_OF = select(_GAMES.c.invite_hash, _GAMES.c.token_hashes, _GAMES.c.players).where(
    _GAMES.c.id == bindparam("b_id")
)


@dataclass
class GameMeta:
    """Everything about a game that is not its play: who sits where, how it was created, its summary."""

    id: str
    game: str
    options: dict[str, Any]
    mode: str  # "agent" | "hotseat" | "invite"
    agent: str | None
    agent_seat: int | None
    secret: bytes
    """The game's 256-bit secret: every random stream of the game (random setups, the computer's choices,
    dice) is drawn from it (`fogofwar.core.randomness.Streams`). Never sent to anybody."""
    players: list[str | None]
    token_hashes: list[str | None]
    invite_hash: str | None
    created_at: float
    updated_at: float
    seq: int = 0
    status: str = "setup"
    to_move: int | None = None
    move_count: int = 0
    outcome: dict[str, Any] | None = None
    clock: dict[str, Any] | None = None
    """The time control (`clock.TimeControl.to_json`), None for an untimed game."""
    public: bool = False
    """An open challenge: its open seat is listed in the lobby for anyone to take (not only the invite's holder)."""

    def copy(self) -> GameMeta:
        """A copy sharing nothing mutable with this one (as `copy.deepcopy`, without walking every field)."""
        return replace(
            self,
            options=copy.deepcopy(self.options),
            players=list(self.players),
            token_hashes=list(self.token_hashes),
            outcome=copy.deepcopy(self.outcome),
        )

    @classmethod
    def from_row(cls, row: GameRow) -> GameMeta:
        return cls(
            id=row.id,
            game=row.game,
            options=dict(row.options),
            mode=row.mode,
            agent=row.agent,
            agent_seat=row.agent_seat,
            secret=bytes.fromhex(row.secret),
            players=list(row.players),
            token_hashes=list(row.token_hashes),
            invite_hash=row.invite_hash,
            created_at=row.created_at,
            updated_at=row.updated_at,
            seq=row.seq,
            status=row.status,
            to_move=row.to_move,
            move_count=row.move_count,
            outcome=row.outcome,
            clock=row.clock,
            public=bool(row.public),
        )


def _not_consecutive(item: Append) -> StoreError | None:
    if not item.events:
        return StoreError("nothing to append")
    for before, ev in zip(item.events, item.events[1:], strict=False):
        if ev.seq != before.seq + 1:
            return StoreError(f"game {item.game_id}: event {ev.seq} does not follow event {before.seq}")
    return None


@dataclass(frozen=True)
class Summary:
    """The columns of a game row that follow its play, written with each event."""

    status: str
    to_move: int | None
    move_count: int
    outcome: dict[str, Any] | None


@dataclass(frozen=True)
class Append:
    """One game's new events and its summary after them: an item of a group commit (`Store.append_batch`)."""

    game_id: str
    events: list[Event]
    summary: Summary


def make_engine(url: str, fsync: bool = True) -> Engine:
    """An engine for `url`: SQLite gets WAL, fsync on commit and foreign keys; in-memory SQLite one connection."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return _ping_when_idle(create_engine(url))
    memory = parsed.database in (None, "", ":memory:")
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_SECONDS},
        poolclass=StaticPool if memory else None,
    )

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn: Any, _record: Any) -> None:
        cur = dbapi_conn.cursor()
        if not memory:
            _into_wal(cur)
        cur.execute(f"PRAGMA synchronous={'FULL' if fsync else 'NORMAL'}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    return engine


def _into_wal(cur: sqlite3.Cursor) -> None:
    """Switch the database to WAL (a no-op once it is: the mode is kept in the file). Switching a new database takes
    an exclusive lock, and SQLite answers "database is locked" at once, without its busy handler, to a second
    process opening the file at that moment (two servers starting together): wait for the first, up to the busy
    timeout."""
    deadline = time.monotonic() + SQLITE_BUSY_SECONDS
    while True:
        try:
            cur.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
        if time.monotonic() > deadline:
            raise sqlite3.OperationalError(
                f"database is locked: could not switch it to WAL within {SQLITE_BUSY_SECONDS} s"
            )
        time.sleep(0.01)


def _ping_when_idle(engine: Engine) -> Engine:
    """Ping a connection leaving the pool when it rested there over `IDLE_PING` seconds; a dead one is replaced
    (SQLAlchemy's pessimistic disconnect handling: the pool tries a new connection on `DisconnectionError`)."""

    @event.listens_for(engine, "checkin")
    def _rested_from(_dbapi_conn: Any, record: Any) -> None:
        record.info["checked_in"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _ping(dbapi_conn: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("checked_in")
        if since is None or time.monotonic() - since <= IDLE_PING:
            return
        try:
            engine.dialect.do_ping(dbapi_conn)  # what `pool_pre_ping` runs
            dbapi_conn.rollback()  # the ping opened a transaction (the driver's implicit BEGIN)
        except Exception as exc:
            raise DisconnectionError(f"a pooled connection is gone: {exc}") from exc

    return engine


def safe_url(url: str) -> str:
    """The URL with any password masked, for printing."""
    return make_url(url).render_as_string(hide_password=True)


class Store:
    """Games and their event logs in one database."""

    def __init__(self, url: str = DEFAULT_DB, fsync: bool = True) -> None:
        self.url = url
        self.engine = make_engine(url, fsync)
        self.writers = 1 if self.engine.dialect.name == "sqlite" else WRITERS
        """How many threads may usefully write at once: SQLite has one writer at a time."""
        migrations.upgrade(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.write_lock = WriteLock(url)
        """SQLite: the writers of every process on the file queue here rather than in SQLite's busy handler."""

    def close(self) -> None:
        self.engine.dispose()
        self.write_lock.close()

    @contextmanager
    def _tx(self) -> Iterator[Session]:
        with self._sessions.begin() as session:
            yield session

    def create_game(self, meta: GameMeta) -> None:
        with self.write_lock.held(), self._tx() as s:
            s.add(
                GameRow(
                    id=meta.id,
                    game=meta.game,
                    options=meta.options,
                    mode=meta.mode,
                    agent=meta.agent,
                    agent_seat=meta.agent_seat,
                    secret=meta.secret.hex(),
                    players=meta.players,
                    token_hashes=meta.token_hashes,
                    invite_hash=meta.invite_hash,
                    created_at=meta.created_at,
                    updated_at=meta.updated_at,
                    seq=meta.seq,
                    status=meta.status,
                    to_move=meta.to_move,
                    move_count=meta.move_count,
                    outcome=meta.outcome,
                    clock=meta.clock,
                    public=meta.public,
                )
            )

    def append_event(self, game_id: str, ev: Event, summary: Summary) -> float:
        """Append `ev` (its seq must be the next one) and refresh the summary, in one transaction.

        Returns the time stamp written. Raises `StoreError` if the seq is taken or not the next one,
        which means two writers raced: the caller must not acknowledge the event then.
        """
        return self.append_events(game_id, [ev], summary)

    def append_events(self, game_id: str, events: list[Event], summary: Summary) -> float:
        """Append consecutive events (a move and the dice it makes the server roll) in one transaction:
        all of them are stored or none. `summary` is the game's after the last one. Returns the time stamp
        written; raises `StoreError` if they are not the next events of the game."""
        result = self.append_batch([Append(game_id, events, summary)])[0]
        if isinstance(result, StoreError):
            raise result
        return result

    def append_batch(self, batch: list[Append]) -> list[float | StoreError]:
        """Append the events of several games in one transaction and one commit (group commit: one fsync for
        all of them). Each game's events are stored whole or not at all: a game whose events are not its next
        ones gets its `StoreError` in the result and changes nothing, the others are stored. Any other failure
        (the database is down, full) raises, and then nothing of the batch is stored.

        Each game row moves from the seq before its first event to its last one with a conditional UPDATE
        (`WHERE seq = first - 1`), which is the check that the events are the next ones and takes the row's
        write lock, then its events are inserted. (SQLAlchemy Core with cached statements: the ORM's unit of
        work cost more than the commit itself.)
        """
        results: list[float | StoreError] = []
        rows: list[dict[str, Any]] = []
        now = time.time()
        try:
            with self.write_lock.held(), self.engine.begin() as conn:
                for item in batch:
                    problem = _not_consecutive(item)
                    if problem is None:
                        problem = self._advance(conn, item, now)
                    results.append(problem if problem is not None else now)
                    if problem is None:
                        rows.extend(
                            {
                                "game_id": item.game_id,
                                "seq": ev.seq,
                                "kind": ev.kind,
                                "seat": ev.seat,
                                "payload": ev.payload,
                                "created_at": now if ev.at is None else ev.at,
                            }
                            for ev in item.events
                        )
                if rows:
                    conn.execute(_INSERT_EVENT, rows)
        except IntegrityError as exc:
            games = ", ".join(item.game_id for item in batch)
            raise StoreError(f"an event of game(s) {games} already exists") from exc
        return results

    @staticmethod
    def _advance(conn: Connection, item: Append, now: float) -> StoreError | None:
        """Move the game row to the last of its new events (None), or say why they are not the next ones."""
        first, last, summary = item.events[0].seq, item.events[-1].seq, item.summary
        advanced = conn.execute(
            _ADVANCE,
            {
                "b_id": item.game_id,
                "b_prev": first - 1,
                "b_seq": last,
                "b_status": summary.status,
                "b_to_move": summary.to_move,
                "b_move_count": summary.move_count,
                "b_outcome": summary.outcome,
                "b_now": now,
            },
        )
        if advanced.rowcount == 1:
            return None
        stored = conn.execute(_SEQ_OF, {"b_id": item.game_id}).scalar_one_or_none()
        if stored is None:
            return StoreError(f"no game {item.game_id!r}")
        return StoreError(f"game {item.game_id}: event {first} does not follow event {stored}")

    def join(self, game_id: str, seat: int, token_hash: str, name: str) -> bool:
        """Give the open seat to the holder of the invite, once: False if someone was faster.

        The row is written only if its invite is still the one read (`WHERE invite_hash = ...`; joining clears
        it), so of two joins racing exactly one wins, on any database. (`SELECT ... FOR UPDATE` would not do:
        SQLite ignores it, and there two racing joins could both win.)"""
        with self.write_lock.held(), self.engine.begin() as conn:
            row = conn.execute(_SEATS_OF, {"b_id": game_id}).first()
            if row is None or row.invite_hash is None or row.token_hashes[seat] is not None:
                return False
            hashes = list(row.token_hashes)
            hashes[seat] = token_hash
            players = list(row.players)
            players[seat] = name
            taken = conn.execute(
                update(_GAMES)
                .where(_GAMES.c.id == game_id, _GAMES.c.invite_hash == row.invite_hash)
                .values(token_hashes=hashes, players=players, invite_hash=None, updated_at=time.time())
            )
            return bool(taken.rowcount == 1)

    def game(self, game_id: str) -> GameMeta | None:
        with self._tx() as s:
            row = s.get(GameRow, game_id)
            return GameMeta.from_row(row) if row is not None else None

    def games(self, limit: int = 100, unfinished_only: bool = False) -> list[GameMeta]:
        """The most recently active games first."""
        with self._tx() as s:
            q = select(GameRow).order_by(GameRow.updated_at.desc()).limit(limit)
            if unfinished_only:
                q = q.where(GameRow.status != "over")
            return [GameMeta.from_row(r) for r in s.scalars(q)]

    def open_challenges(self, limit: int = 100) -> list[GameMeta]:
        """Open challenges whose seat nobody has taken yet, the newest first."""
        with self._tx() as s:
            q = (
                select(GameRow)
                .where(GameRow.public.is_(True), GameRow.invite_hash.is_not(None), GameRow.status != "over")
                .order_by(GameRow.created_at.desc())
                .limit(limit)
            )
            return [GameMeta.from_row(r) for r in s.scalars(q)]

    def unfinished_ids(self) -> list[str]:
        with self._tx() as s:
            return list(s.scalars(select(GameRow.id).where(GameRow.status != "over")))

    def add_chat(self, game_id: str, room: str, seat: int | None, name: str | None, text: str, keep: int) -> ChatEntry:
        """Store a chat message, and forget the room's older ones past the newest `keep`, in one transaction."""
        now = time.time()
        with self.write_lock.held(), self._tx() as s:
            row = ChatRow(game_id=game_id, room=room, seat=seat, name=name, text=text, created_at=now)
            s.add(row)
            s.flush()
            oldest_kept = s.scalars(
                select(ChatRow.id)
                .where(ChatRow.game_id == game_id, ChatRow.room == room)
                .order_by(ChatRow.id.desc())
                .offset(keep - 1)
                .limit(1)
            ).first()
            if oldest_kept is not None:
                s.execute(
                    delete(ChatRow).where(ChatRow.game_id == game_id, ChatRow.room == room, ChatRow.id < oldest_kept)
                )
            return ChatEntry(row.id, room, seat, name, text, now)

    def chat(self, game_id: str, keep: int) -> list[ChatEntry]:
        """A game's chat, oldest first: the newest `keep` messages of each room."""
        with self._tx() as s:
            rows = s.scalars(select(ChatRow).where(ChatRow.game_id == game_id).order_by(ChatRow.id.desc()))
            kept: dict[str, int] = {}
            out = []
            for r in rows:
                if kept.get(r.room, 0) < keep:
                    kept[r.room] = kept.get(r.room, 0) + 1
                    out.append(ChatEntry(r.id, r.room, r.seat, r.name, r.text, r.created_at))
            return out[::-1]

    def events(self, game_id: str) -> list[Event]:
        with self._tx() as s:
            rows = s.scalars(select(EventRow).where(EventRow.game_id == game_id).order_by(EventRow.seq))
            return [Event(r.seq, r.kind, r.seat, dict(r.payload), r.created_at) for r in rows]
