"""The schema's migrations (Alembic, `fogofwar.frontends.server.migrations`), on SQLite and PostgreSQL.

A database of each version fogofwar had before the migrations (its tables written here as raw SQL, as those
versions made them) upgrades in place when a Store opens it: no game is lost, each replays to the state it had,
and the database ends at the newest revision with exactly the schema of the models. A new database gets the
newest revision. And the models agree with the migrations: a column added to a model without a revision fails
`test_the_models_and_the_migrations_agree`.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from fastapi.testclient import TestClient
from sqlalchemy import JSON

from fogofwar.frontends.server import create_app, migrations
from fogofwar.frontends.server.store import Store, make_engine

from .server_helpers import BOTH_DATABASES, act, create, seat_view

pytestmark = BOTH_DATABASES
MODELS = migrations.models()

# The tables of fogofwar before the migrations, as its `create_all` and its `upgrade_schema` wrote them (the same
# SQL for SQLite and PostgreSQL). Frozen here: the models change, these versions do not.
_EVENTS = """CREATE TABLE events (
    game_id VARCHAR(32) NOT NULL,
    seq INTEGER NOT NULL,
    kind VARCHAR(16) NOT NULL,
    seat INTEGER,
    payload JSON NOT NULL,
    created_at FLOAT NOT NULL,
    PRIMARY KEY (game_id, seq),
    FOREIGN KEY(game_id) REFERENCES games (id)
)"""
_GAMES = """CREATE TABLE games (
    id VARCHAR(32) NOT NULL,
    game VARCHAR(32) NOT NULL,
    options JSON NOT NULL,
    mode VARCHAR(16) NOT NULL,
    agent VARCHAR(64),
    agent_seat INTEGER,
    {random} NOT NULL,
    players JSON NOT NULL,
    token_hashes JSON NOT NULL,
    invite_hash VARCHAR(64),
    created_at FLOAT NOT NULL,
    updated_at FLOAT NOT NULL,
    seq INTEGER NOT NULL,
    status VARCHAR(16) NOT NULL,
    to_move INTEGER,
    move_count INTEGER NOT NULL,
    outcome JSON,{later}
    PRIMARY KEY (id)
)"""
_INDEXES = ["CREATE INDEX ix_games_status ON games (status)", "CREATE INDEX ix_games_updated_at ON games (updated_at)"]
_SEED = [_GAMES.format(random="seed INTEGER", later=""), *_INDEXES, _EVENTS]
_SECRET_FOR_SEED = [  # what `upgrade_schema` did to a database with seeds (while it has no game yet)
    "ALTER TABLE games ADD COLUMN secret VARCHAR(64)",
    "ALTER TABLE games DROP COLUMN seed",
]
OLD_VERSIONS: dict[str, list[str]] = {
    "seed": _SEED,
    "secret": [_GAMES.format(random="secret VARCHAR(64)", later=""), *_INDEXES, _EVENTS],
    "secret-upgraded": [*_SEED, *_SECRET_FOR_SEED],
    "public": [
        _GAMES.format(random="secret VARCHAR(64)", later="\n    clock JSON,\n    public BOOLEAN NOT NULL,"),
        *_INDEXES,
        _EVENTS,
    ],
    "accounts": [
        _GAMES.format(random="secret VARCHAR(64)", later="\n    clock JSON,\n    public BOOLEAN NOT NULL,"),
        *_INDEXES,
        _EVENTS,
        """CREATE TABLE users (
    id {serial} NOT NULL,
    name VARCHAR(20) NOT NULL,
    name_key VARCHAR(20) NOT NULL,
    password_hash VARCHAR(200) NOT NULL,
    created_at FLOAT NOT NULL,
    PRIMARY KEY (id),
    UNIQUE (name_key)
)""",
        """CREATE TABLE game_accounts (
    game_id VARCHAR(32) NOT NULL,
    seat INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    rated BOOLEAN NOT NULL,
    PRIMARY KEY (game_id, seat),
    FOREIGN KEY(game_id) REFERENCES games (id),
    FOREIGN KEY(user_id) REFERENCES users (id)
)""",
        "CREATE INDEX ix_game_accounts_user_id ON game_accounts (user_id)",
        """CREATE TABLE rated_games (
    game_id VARCHAR(32) NOT NULL,
    mode VARCHAR(64) NOT NULL,
    changes VARCHAR(200) NOT NULL,
    rated_at FLOAT NOT NULL,
    PRIMARY KEY (game_id),
    FOREIGN KEY(game_id) REFERENCES games (id)
)""",
        """CREATE TABLE ratings (
    user_id INTEGER NOT NULL,
    mode VARCHAR(64) NOT NULL,
    rating FLOAT NOT NULL,
    rd FLOAT NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (user_id, mode),
    FOREIGN KEY(user_id) REFERENCES users (id)
)""",
        """CREATE TABLE user_sessions (
    token_hash VARCHAR(64) NOT NULL,
    user_id INTEGER NOT NULL,
    csrf VARCHAR(64) NOT NULL,
    expires_at FLOAT NOT NULL,
    PRIMARY KEY (token_hash),
    FOREIGN KEY(user_id) REFERENCES users (id)
)""",
        "CREATE INDEX ix_user_sessions_user_id ON user_sessions (user_id)",
        # A player with a session and a rating, at a seat of the first game (filled in by _old_database).
        "INSERT INTO users (name, name_key, password_hash, created_at) VALUES ('Ann', 'ann', 'argon2id-hash', 1.5)",
        "INSERT INTO user_sessions VALUES ('session', 1, 'csrf', 2.5)",
        "INSERT INTO ratings VALUES (1, 'stratego/barrage', 1500.0, 350.0, 0)",
    ],
    "public-upgraded": [
        *_SEED,
        "ALTER TABLE games ADD COLUMN clock JSON",
        "ALTER TABLE games ADD COLUMN public BOOLEAN NOT NULL DEFAULT FALSE",
        *_SECRET_FOR_SEED,
    ],
}
"""Each version's tables, by what its games have: a 31-bit `seed` (before the 256-bit secrets), a `secret`, then
also a `clock` and `public` (time controls, open challenges), then the accounts' tables beside (with a player in
them); "-upgraded": made by the version before the secrets, then brought up by `upgrade_schema` (its columns added
last, `secret` nullable). `{serial}`: how `create_all` wrote an autoincrementing key on each database."""
ACCOUNT_TABLES = ("users", "user_sessions", "game_accounts", "ratings", "rated_games")
TABLES = ("games", "events")
_GAME_COLUMNS = (
    *("id", "game", "options", "mode", "agent", "agent_seat", "players", "token_hashes", "invite_hash"),
    *("created_at", "updated_at", "seq", "status", "to_move", "move_count", "outcome"),
)
"""The columns of `games` in every one of those versions."""
_EVENT_COLUMNS = ("game_id", "seq", "kind", "seat", "payload", "created_at")
_JSON = {"options", "players", "token_hashes", "outcome", "payload", "clock"}


def _columns(version: str) -> tuple[str, ...]:
    """The columns of `games` in `version` that the tests fill."""
    random = "seed" if version == "seed" else "secret"
    return (*_GAME_COLUMNS, random, *(("clock", "public") if version.startswith(("public", "accounts")) else ()))


def _schema_diff(url: str) -> list[Any]:
    """What autogenerate finds between the database and the models (what `alembic check` reports)."""
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return list(compare_metadata(MigrationContext.configure(conn), MODELS))
    finally:
        engine.dispose()


def _account_rows(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """The rows of the accounts' tables (none for a database that has not got them)."""
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            there = set(sa.inspect(conn).get_table_names())
            return {
                t: sorted(tuple(r) for r in conn.execute(sa.select(MODELS.tables[t]))) if t in there else []
                for t in ACCOUNT_TABLES
            }
    finally:
        engine.dispose()


def _revision(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return migrations.current(conn)
    finally:
        engine.dispose()


def _play(url: str) -> tuple[str, dict[str, Any], dict[str, list[dict[str, Any]]]]:
    """Games on the current code: a hot-seat game in play (both setups, some moves), a resigned one and an open
    challenge with a clock; the id of the first, each seat's token and view (by game id), the rows of both tables."""
    rng = random.Random(5)
    with TestClient(create_app(url, fsync=False, seed=3)) as client:
        hot = create(client, opponent="hotseat")
        gid, tokens = hot["game"]["id"], hot["seats"]
        for seat in "01":
            act(client, gid, tokens[seat], type="setup", setup="sample")
        for _ in range(6):
            mover = tokens[str(seat_view(client, gid, tokens["0"])["game"]["to_move"])]
            act(client, gid, mover, type="action", action=rng.choice(seat_view(client, gid, mover)["legal"]))
        done = create(client, opponent="hotseat")
        act(client, done["game"]["id"], done["seats"]["1"], type="resign")
        challenge = create(client, opponent="challenge", color="blue", name="Host", clock="10+5")
        shown = {
            game["game"]["id"]: {
                seat: (token, seat_view(client, game["game"]["id"], token)) for seat, token in game["seats"].items()
            }
            for game in (hot, done, challenge)
        }
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            rows = {t: [dict(r._mapping) for r in conn.execute(sa.select(MODELS.tables[t]))] for t in TABLES}
    finally:
        engine.dispose()
    return gid, shown, rows


def _old_database(url: str, version: str, rows: dict[str, list[dict[str, Any]]]) -> set[str]:
    """Make `url` a database of an old `version` holding `rows` (what that version could hold: no clock nor
    challenge before those columns); the ids of the games it holds."""
    columns = _columns(version)
    games = sa.table("games", *(sa.column(name, JSON if name in _JSON else None) for name in columns))
    events = sa.table("events", *(sa.column(name, JSON if name in _JSON else None) for name in _EVENT_COLUMNS))
    kept = [r for r in rows["games"] if "clock" in columns or (r["clock"] is None and not r["public"])]
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            serial = "SERIAL" if conn.dialect.name == "postgresql" else "INTEGER"
            for statement in OLD_VERSIONS[version]:
                conn.exec_driver_sql(statement.replace("{serial}", serial))
            for row in kept:
                old = {name: row[name] for name in columns if name != "seed"}
                if "seed" in columns:
                    old["seed"] = 12345
                conn.execute(sa.insert(games).values(old))
            ids = {r["id"] for r in kept}
            logs = [{name: r[name] for name in _EVENT_COLUMNS} for r in rows["events"] if r["game_id"] in ids]
            if logs:
                conn.execute(sa.insert(events), logs)
            if version == "accounts":
                first = min(ids)
                conn.exec_driver_sql(f"INSERT INTO game_accounts VALUES ('{first}', 0, 1, FALSE)")
    finally:
        engine.dispose()
    return ids


@pytest.mark.parametrize("version", list(OLD_VERSIONS))
def test_a_database_of_an_older_version_upgrades_in_place(
    db_url: str, version: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    gid, shown, rows = _play(f"sqlite:///{tmp_path_factory.mktemp('scratch') / 'scratch.db'}")
    kept = _old_database(db_url, version, rows)
    assert len(kept) == (2 if version.startswith(("seed", "secret")) else 3)
    accounts = _account_rows(db_url)
    assert any(accounts.values()) == (version == "accounts")
    with TestClient(create_app(db_url, fsync=False)) as client:
        for game_id in kept:
            for token, view in shown[game_id].values():
                assert seat_view(client, game_id, token) == view  # replayed to the same state
        listed = [g["id"] for g in client.get("/api/games").json()["games"]]
        assert sorted(listed) == sorted(kept)
        ((token, view),) = [(t, v) for t, v in shown[gid].values() if v["legal"]]
        act(client, gid, token, type="action", action=view["legal"][0])  # and play goes on
    assert _revision(db_url) == migrations.heads()
    assert _schema_diff(db_url) == []  # exactly the models' schema: no `seed`, `secret` NOT NULL, the new columns
    assert _account_rows(db_url) == accounts  # kept, or made empty
    store = Store(db_url)
    try:
        metas = {m.id: m for m in store.games()}
        assert set(metas) == kept
        logged = sum(1 for r in rows["events"] if r["game_id"] == gid)
        assert [e.seq for e in store.events(gid)] == list(range(1, logged + 2))  # the log, and the move played
        secrets = {m.id: m.secret.hex() for m in metas.values()}
        if version == "seed":  # each game got its own fresh secret
            assert len(set(secrets.values())) == len(kept) and all(len(s) == 64 for s in secrets.values())
        else:
            assert secrets == {r["id"]: r["secret"] for r in rows["games"] if r["id"] in kept}
        assert {m.id: (m.clock, m.public) for m in metas.values()} == {
            r["id"]: (r["clock"], r["public"]) for r in rows["games"] if r["id"] in kept
        }
    finally:
        store.close()


def test_a_new_database_gets_the_newest_revision(db_url: str) -> None:
    Store(db_url).close()
    assert _revision(db_url) == migrations.heads()
    Store(db_url).close()  # at the newest revision already: nothing to do
    assert _revision(db_url) == migrations.heads()


def test_servers_starting_together_migrate_one_after_the_other(db_url: str) -> None:
    """Two processes open a new database at the same moment: the database's lock (SQLite's write lock, taken when
    the upgrade begins; PostgreSQL's advisory lock) lets one create the tables and the other find them made."""
    at = time.time() + 2  # after both have imported fogofwar
    program = (
        "import sys, time; from fogofwar.frontends.server.store import Store;"
        "time.sleep(max(0.0, float(sys.argv[2]) - time.time())); Store(sys.argv[1]).close()"
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", program, db_url, str(at)], stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    errors = [p.communicate(timeout=60)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], errors
    assert _revision(db_url) == migrations.heads()


def test_the_models_and_the_migrations_agree(db_url: str) -> None:
    """`alembic check`: the newest revision makes exactly the tables of the models. A model changed without a
    revision (say a column `clock` added to GameRow) fails here: write its revision (docs/database.md)."""
    Store(db_url).close()
    assert _schema_diff(db_url) == []
    # The comparison does see a change: the same models with one more column differ.
    changed = sa.MetaData()
    for table in MODELS.tables.values():
        table.to_metadata(changed)
    changed.tables["games"].append_column(sa.Column("in_no_revision", sa.JSON(), nullable=True))
    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), changed)
    finally:
        engine.dispose()
    assert [(d[0], d[2], d[3].name) for d in diff] == [("add_column", "games", "in_no_revision")]


def test_a_failed_upgrade_changes_nothing(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """All revisions run in one transaction (SQLite included, where pysqlite would commit each DDL statement
    by itself): a revision that fails half-way leaves the old database as it was, to be upgraded next time."""
    _old_database(db_url, "seed", {"games": [], "events": []})
    engine = sa.create_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql(
                "INSERT INTO games VALUES ('g1', 'stratego', '{}', 'hotseat', NULL, NULL, 7, '[null, null]',"
                " '[null, null]', NULL, 1.5, 2.5, 0, 'setup', NULL, 0, NULL)"
            )

        def broken() -> bytes:
            raise RuntimeError("the disk is full")

        # Alembic loads the revision files afresh each time: the first one fails where it draws a secret,
        # after it added the column.
        monkeypatch.setattr("fogofwar.core.randomness.new_secret", broken)
        with pytest.raises(RuntimeError, match="the disk is full"):
            Store(db_url)
        columns = {c["name"] for c in sa.inspect(engine).get_columns("games")}
        assert "seed" in columns and "secret" not in columns
        assert not sa.inspect(engine).has_table("alembic_version")
        monkeypatch.undo()
        Store(db_url).close()
        assert _revision(db_url) == migrations.heads()
        with engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT id, created_at, updated_at FROM games").all() == [("g1", 1.5, 2.5)]
    finally:
        engine.dispose()


def test_a_database_of_a_newer_version_is_refused(db_url: str) -> None:
    Store(db_url).close()
    engine = sa.create_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql("UPDATE alembic_version SET version_num = '9999'")
    finally:
        engine.dispose()
    with pytest.raises(migrations.SchemaError, match="revision 9999, which this fogofwar does not know"):
        Store(db_url)
