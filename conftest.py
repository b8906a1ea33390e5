"""Test settings shared by every test directory (loaded by pytest from the repo root)."""

from collections.abc import Iterator

import pytest
from hypothesis import settings

# Game logic can be slow on the first call (table building, imports); a per-example
# deadline only makes property tests flaky. CI keeps Hypothesis' own "ci" profile,
# which has no deadline either.
settings.register_profile("default", settings.get_profile("default"), deadline=None)

# Alembic runs the migrations' env.py itself, once it has set up alembic.context; imported on its own (as
# --doctest-modules would) it cannot run.
collect_ignore = ["src/fogofwar/frontends/server/migrations/env.py"]


@pytest.fixture(autouse=True, scope="session")
def _move_clock_stands_still() -> Iterator[None]:
    """`rollout`'s move budget reads the wall clock, so on a loaded machine a seeded move could be cut short and
    differ; in tests that clock stands still (no budget is ever spent) unless a test sets its own. Session-wide, so
    that module fixtures which play games see it too."""
    from fogofwar.games.stratego.agents import rollout

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rollout, "perf_counter", lambda: 0.0)
        yield
