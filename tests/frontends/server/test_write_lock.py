"""The SQLite writer lock: writers of two processes (and two threads) on one file queue on it, PostgreSQL's do not."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

from fogofwar.frontends.server.write_lock import SUFFIX, WriteLock

HOLD = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(float(sys.argv[2]))
"""


def test_a_writer_of_another_process_waits_for_the_lock_and_wakes_when_it_is_released(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    lock = WriteLock(f"sqlite:///{db}")
    assert lock.shared and Path(f"{db}{SUFFIX}").exists()
    other = subprocess.Popen([sys.executable, "-c", HOLD, f"{db}{SUFFIX}", "0.4"], stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout is not None and other.stdout.readline().strip() == "held"
        started = time.monotonic()
        with lock.held():
            waited = time.monotonic() - started
        assert 0.25 < waited < 5, waited  # it waited for the other process, and no longer than it held the lock
    finally:
        other.kill()
        other.wait()
        lock.close()


def test_two_threads_of_one_process_take_turns(tmp_path: Path) -> None:
    lock = WriteLock(f"sqlite:///{tmp_path / 'games.db'}")
    inside = 0
    most = 0
    guard = threading.Lock()

    def write() -> None:
        nonlocal inside, most
        for _ in range(50):
            with lock.held():
                with guard:
                    inside += 1
                    most = max(most, inside)
                time.sleep(0.0005)
                with guard:
                    inside -= 1

    threads = [threading.Thread(target=write) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lock.close()
    assert most == 1


def test_other_databases_hold_nothing() -> None:
    for url in ("sqlite://", "sqlite:///:memory:", "postgresql+psycopg://user:secret@localhost/db"):
        lock = WriteLock(url)
        assert not lock.shared
        with lock.held(), lock.held():  # not even a thread lock: PostgreSQL's writers run in parallel
            pass
