"""Where the tests find the repository and the shared data, whatever folder a test lives in."""

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
"""The repository's root."""

GRAVON = ROOT.parent / "shared" / "data" / "gravon"
"""The Gravon archives of ../shared (tests that need them skip, saying why, when they are absent)."""


def tool_module(name: str) -> ModuleType:
    """The script tools/<name>.py, loaded from its file (tools is not a package; its main does not run)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
