"""Test settings shared by every test directory (loaded by pytest from the repo root)."""

from hypothesis import settings

# Game logic can be slow on the first call (table building, imports); a per-example
# deadline only makes property tests flaky. CI keeps Hypothesis' own "ci" profile,
# which has no deadline either.
settings.register_profile("default", settings.get_profile("default"), deadline=None)

# Alembic runs the migrations' env.py itself, once it has set up alembic.context; imported on its own (as
# --doctest-modules would) it cannot run.
collect_ignore = ["src/fogofwar/frontends/server/migrations/env.py"]
