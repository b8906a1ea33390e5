"""The tests' throwaway PostgreSQL servers are cleaned up after a run that could not: a server whose run was killed
is stopped, the directory of a server a restarted machine killed is removed without signalling whatever process now
has its pid, and a live run's server is left alone."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from .postgres import _OWNER, PostgresServer, stop_orphans, unusable
from .processes import identity


@pytest.fixture
def dead_owner() -> str:
    """The identity (pid and start time) of a process that has exited."""
    code = (
        "import os; from pathlib import Path; "
        "print(os.getpid(), Path('/proc/self/stat').read_text().rpartition(')')[2].split()[19])"
    )
    return subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture
def bystander() -> Iterator[subprocess.Popen[bytes]]:
    """A running process that is no PostgreSQL server."""
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        yield proc
    finally:
        proc.kill()
        proc.wait()


@pytest.fixture(autouse=True)
def _needs_postgres() -> None:
    reason = unusable()
    if reason is not None:
        pytest.skip(reason)


def test_a_running_server_whose_run_is_gone_is_stopped_and_removed(dead_owner: str) -> None:
    server = PostgresServer()
    try:
        server.start()
        postmaster = int((server.data / "postmaster.pid").read_text().split("\n", 1)[0])
        assert server.running()
        (server.root / _OWNER).write_text(dead_owner)
        stop_orphans()
        assert not server.root.exists()
        assert identity(postmaster) is None
    finally:
        server.stop()


def test_a_server_killed_by_a_restart_is_removed_and_its_old_pid_left_alone(
    dead_owner: str, bystander: subprocess.Popen[bytes]
) -> None:
    """After a restart, postmaster.pid names a pid that another process may have taken: no signal goes to it."""
    server = PostgresServer()
    try:
        server.data.mkdir()
        (server.data / "postmaster.pid").write_text(f"{bystander.pid}\n{server.data}\n")
        (server.root / _OWNER).write_text(dead_owner)
        assert not server.running()
        stop_orphans()
        assert not server.root.exists()
        assert bystander.poll() is None
    finally:
        server.stop()


def test_the_server_of_a_live_run_is_left_alone() -> None:
    server = PostgresServer()
    try:
        stop_orphans()
        assert server.root.exists()
        assert (server.root / _OWNER).read_text() == identity(os.getpid())
    finally:
        server.stop()
    assert not server.root.exists()
