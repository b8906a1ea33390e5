"""Test settings shared by every test directory (loaded by pytest from the repo root)."""

from hypothesis import settings

# Game logic can be slow on the first call (table building, imports); a per-example
# deadline only makes property tests flaky. CI keeps Hypothesis' own "ci" profile,
# which has no deadline either.
settings.register_profile("default", settings.get_profile("default"), deadline=None)
