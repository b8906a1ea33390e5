"""The database's schema, one Alembic revision at a time (`versions/`), brought up to date by `upgrade`, which
`Store` calls whenever it opens a database: a new database gets every revision, an old one the revisions it
lacks, and a database at the newest revision is left alone. No alembic.ini is needed: `config` points Alembic
at this directory and hands it the connection (see `env.py`). `python -m fogofwar.frontends.server.migrations`
writes a new revision (docs/database.md says how to add one).
"""

from __future__ import annotations

import importlib
import threading
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, MetaData, text

HERE = Path(__file__).parent
"""The script directory: env.py, script.py.mako, versions/."""
_PG_LOCK = 0x666F67  # "fog": the advisory lock that makes servers starting together migrate one after the other
_ONE_AT_A_TIME = threading.Lock()
"""Alembic's `context` and `op` are proxies shared by the whole process: two upgrades running in two threads at
once would run each other's revisions. (Across processes the database's own lock orders them.)"""


class SchemaError(Exception):
    """The database's schema cannot be brought up to date by this version of fogofwar."""


def models() -> MetaData:
    """Every table of the server's models, as the revisions must make them: the games' (store.py) and the
    accounts' (account_store.py, whose models join the same metadata when it is imported)."""
    importlib.import_module("fogofwar.frontends.server.account_store")
    from fogofwar.frontends.server.store import METADATA

    return METADATA


def config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for this directory, with `connection` for env.py to run the revisions on."""
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.set_main_option("file_template", "v%%(rev)s_%%(slug)s")  # v0002_games_clock.py; a name mypy accepts
    cfg.attributes["connection"] = connection
    return cfg


def heads() -> set[str]:
    """The newest revision (a set, as Alembic has it: one element while the history has no branches)."""
    return set(ScriptDirectory.from_config(config()).get_heads())


def current(connection: Connection) -> set[str]:
    """The revision the database is at (empty for a new database or one written before the migrations)."""
    return set(MigrationContext.configure(connection).get_current_heads())


def upgrade(engine: Engine) -> None:
    """Bring the database to the newest revision, all revisions in one transaction (so that a failure or a
    killed process leaves the database as it was). Raises `SchemaError` for a database at a revision this
    fogofwar does not know (written by a newer one)."""
    with _ONE_AT_A_TIME:
        _upgrade(engine)


def _upgrade(engine: Engine) -> None:
    script = ScriptDirectory.from_config(config())
    newest = set(script.get_heads())
    with engine.connect() as conn:
        now = current(conn)
        conn.rollback()
        if now == newest:
            return
        unknown = sorted(now - {rev.revision for rev in script.walk_revisions()})
        if unknown:
            raise SchemaError(
                f"the database is at schema revision {', '.join(unknown)}, which this fogofwar does not know"
                f" (its newest is {', '.join(sorted(newest))}): it was written by a newer version"
            )
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:
            # A revision that rebuilds a table (Alembic's batch mode: copy, drop, rename) must not trip the
            # references to it; the pragma cannot change inside a transaction.
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
            conn.commit()
        try:
            with conn.begin():
                if sqlite:
                    # pysqlite opens no transaction before DDL: open one, holding the write lock from the start.
                    conn.exec_driver_sql("BEGIN IMMEDIATE")
                elif conn.dialect.name == "postgresql":
                    conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_LOCK})
                command.upgrade(config(conn), "head")
                if sqlite and conn.exec_driver_sql("PRAGMA foreign_key_check").first() is not None:
                    raise SchemaError("the upgraded database has events of games it does not have")
        finally:
            if sqlite:
                conn.exec_driver_sql("PRAGMA foreign_keys=ON")
                conn.commit()
