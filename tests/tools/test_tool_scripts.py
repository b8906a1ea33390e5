"""The scripts of tools/ (not a package, so nothing else imports them): each loads, and the one that made a shipped
data file makes it again, to the byte, from the Gravon archives."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.paths import GRAVON, ROOT, tool_module

SCRIPTS = sorted(p.stem for p in (ROOT / "tools").glob("*.py"))


@pytest.mark.parametrize("name", SCRIPTS)
def test_each_tool_script_loads(name: str) -> None:
    assert callable(tool_module(name).main)


def test_make_setup_stats_counts_the_shipped_setup_statistics_again(tmp_path: Path) -> None:
    zips = sorted(GRAVON.glob("*.zip"))
    if not zips:
        pytest.skip(f"no Gravon archives in {GRAVON} (../shared is absent)")
    script = tool_module("make_setup_stats")
    shipped = Path(script.OUT).read_text(encoding="utf-8")
    script.OUT = tmp_path / "setup_stats.toml"
    script.main([str(z) for z in zips])
    assert script.OUT.read_text(encoding="utf-8") == shipped
