"""Fixtures for the server tests: an app on a fresh SQLite file, and a TestClient running it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fogofwar.frontends.server import create_app


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    # Seeded: random setups, dice and computer moves are the same each run (a rare game cannot come and go).
    with TestClient(create_app(db_url, fsync=False, seed=7)) as c:  # the SIGKILL test runs with fsync
        yield c
