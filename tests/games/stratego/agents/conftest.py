"""Fixtures shared by the agents' tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.paths import GRAVON

DATA = GRAVON


@pytest.fixture
def gravon_archive() -> Path:
    """One Gravon archive of ../shared for the training smoke runs; the test skips, saying why, without it."""
    if not DATA.is_dir():
        pytest.skip("../shared/data/gravon not found: the training smoke run needs the shared data")
    return sorted(DATA.glob("*.zip"))[0]
