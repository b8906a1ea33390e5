"""Where the tests find the repository and the shared data, whatever folder a test lives in."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
"""The repository's root."""

GRAVON = ROOT.parent / "shared" / "data" / "gravon"
"""The Gravon archives of ../shared (tests that need them skip, saying why, when they are absent)."""
