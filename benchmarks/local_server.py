"""A fogofwar server on loopback for a benchmark script: a free port, wait until it answers, stop it.

The benchmarks that start their own server (web_load.py, attacks.py) share these; they import it as a
sibling module, since they run as scripts (`.venv/bin/python benchmarks/NAME.py`).
"""

from __future__ import annotations

import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def wait_until_up(proc: subprocess.Popen[bytes], base: str, log: Path | None = None, seconds: float = 30) -> None:
    """Return once `base`/healthz answers 200; SystemExit (and the server killed) if it exits or takes too long."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            said = f": {log.read_text(errors='replace')}" if log is not None else ""
            raise SystemExit(f"the server exited with code {proc.returncode}{said}")
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    proc.kill()
    proc.wait()
    raise SystemExit(f"the server did not start within {seconds:g} s")


def stop_server(proc: subprocess.Popen[bytes], seconds: float = 15) -> None:
    """Ctrl+C to the server, then a kill if it has not stopped within `seconds`."""
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
