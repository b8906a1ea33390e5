"""The SQLite writer lock: writers of two processes (and two threads) on one file queue on it, PostgreSQL's do not;
and a new database's switch to WAL waits for another process's write."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from fogofwar.frontends.server.store import make_engine
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


def test_a_new_database_another_connection_is_writing_is_switched_to_wal_once_it_is_free(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second server opening a new database while the first writes it (say, makes its tables): SQLite answers the
    switch to WAL with "database is locked" at once, bypassing its busy handler; the connection waits instead."""
    path = tmp_path / "games.db"
    writer = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    writer.execute("BEGIN IMMEDIATE")  # the first server's write lock, on a database not yet in WAL
    freed = threading.Timer(0.3, lambda: writer.execute("COMMIT"))
    freed.start()
    try:
        engine = make_engine(f"sqlite:///{path}")
        with engine.connect() as conn:  # before the wait: "database is locked" in well under a millisecond
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        engine.dispose()
        assert not freed.is_alive()  # it waited for the lock rather than finding it free
    finally:
        freed.join()
        writer.close()
    monkeypatch.setattr("fogofwar.frontends.server.store.SQLITE_BUSY_SECONDS", 0.2)
    writer = sqlite3.connect(tmp_path / "other.db", isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    try:  # a lock never freed: the same error as SQLite's, after the busy timeout
        with pytest.raises(Exception, match="database is locked"):
            make_engine(f"sqlite:///{tmp_path / 'other.db'}").connect()
    finally:
        writer.close()
