"""Fixtures for the browser tests: the web app in a thread, and Debian's headless chromium.

Playwright's own browser download is not used: the tests drive the system chromium at
/usr/bin/chromium, and skip with a clear message if it or the playwright package is missing.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.paths import ROOT

from fogofwar.frontends.server import create_app

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app on a free loopback port, served by uvicorn in a thread; yields its base URL."""
    import uvicorn

    db = tmp_path_factory.mktemp("browser") / "games.db"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    app = create_app(f"sqlite:///{db}", agent_delay=0.05, fsync=False, seed=7)  # seeded: the same games every run
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the web app did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(f"no chromium at {CHROMIUM}: install Debian's package (apt-get install chromium) to run this")
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="the playwright package is missing: scripts/bootstrap dev installs it"
    )
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
