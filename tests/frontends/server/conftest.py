"""Fixtures for the server tests: an app on a fresh database, and a TestClient running it.

`db_url` is a new SQLite file, unless a test asks for both databases (`server_helpers.BOTH_DATABASES`): then it
runs once on SQLite and once on an emptied database of the session's throwaway PostgreSQL server (`postgres.py`
beside this file; one server per pytest-xdist worker), skipped with the reason when PostgreSQL cannot run here.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fogofwar.frontends.server import create_app

from .postgres import PostgresServer, stop_orphans, unusable


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server for this session (this xdist worker), stopped and removed at its end."""
    reason = unusable()
    if reason is not None:
        pytest.skip(reason)
    stop_orphans()
    server = PostgresServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    kind = getattr(request, "param", "sqlite")
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.db'}"
        return
    assert kind == "postgresql", kind
    server: PostgresServer = request.getfixturevalue("postgres")
    yield server.fresh_database()


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    # Seeded: random setups, dice and computer moves are the same each run (a rare game cannot come and go).
    with TestClient(create_app(db_url, fsync=False, seed=7)) as c:  # the SIGKILL test runs with fsync
        yield c
