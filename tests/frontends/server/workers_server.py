"""`fogofwar serve --workers N` as a real process for the tests: started on a free loopback port, its output read
as it comes (the workers' and the spare's pids from the supervisor's lines), stopped as a service manager would."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import threading
from typing import Any

import pytest

from fogofwar.frontends.server.routing import slots

TWO = slots(2)
"""The slot names of a server with two workers (for `routing.owner`)."""
READY = re.compile(r"worker (\d+) ready \(pid (\d+)\)")
SPARE = re.compile(r"spare worker ready \(pid (\d+)\)")


class WorkersServer:
    """`fogofwar serve --workers N` in its own process group; its output is read (and kept) as it comes."""

    def __init__(self, db: str, workers: int = 2) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.base = f"http://127.0.0.1:{self.port}"
        self.lines: list[str] = []
        self.pids: dict[int, int] = {}
        self.spares: list[int] = []
        self.changed = threading.Condition()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "fogofwar.frontends.cli", "serve", "--port", str(self.port), "--db", db]
            + ["--agent-delay", "0", "--workers", str(workers)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "COLUMNS": "200"},
        )
        threading.Thread(target=self._read, daemon=True).start()
        self.wait_for(lambda: len(self.pids) == workers and self.spares, "every worker ready, and a spare")

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            with self.changed:
                self.lines.append(line)
                ready = READY.search(line)
                if ready:
                    self.pids[int(ready.group(1))] = int(ready.group(2))
                spare = SPARE.search(line)
                if spare:
                    self.spares.append(int(spare.group(1)))
                self.changed.notify_all()

    def wait_for(self, condition: Any, what: str, seconds: float = 30) -> None:
        with self.changed:
            if not self.changed.wait_for(lambda: condition() or self.proc.poll() is not None, seconds):
                raise AssertionError(f"timed out waiting for {what}: {''.join(self.lines)}")
            assert condition(), f"the server exited ({self.proc.returncode}): {''.join(self.lines)}"

    def stop(self) -> None:
        """SIGTERM, as a service manager stops it: the supervisor stops its workers and waits for them."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                for pid in {*self.pids.values(), *self.spares}:  # it could not stop them: none is left behind
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                raise AssertionError(f"the supervisor did not stop within 20 s: {''.join(self.lines)}") from None
        assert self.proc.returncode == 0, "".join(self.lines)
        for pid in {*self.pids.values(), *self.spares}:
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)  # gone, and reaped by the supervisor
