"""A throwaway PostgreSQL server for the tests: `initdb` in a new temporary directory, `pg_ctl start` listening
on a unix socket in that directory only (no TCP port, so servers of parallel test runs and pytest-xdist workers
never meet), a database emptied for each test, `pg_ctl stop` and the directory removed at the end.

PostgreSQL refuses to run as root: run as root (CI), the server runs as the `postgres` system user that Debian's
package creates, through `runuser`, in a directory that user owns; the tests still connect (root may use any
socket). Durability is off (fsync, full-page writes, synchronous commit): the data dies with the server anyway.
A run killed before it could stop its server leaves it running: the next run stops it (`stop_orphans`). A machine
restarted under a run leaves the directory of a server that is no longer running: the next run removes it. A
process is named by its pid and its start time (`processes.identity`), so a pid used again after a restart is never
taken for the process that wrote it.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

from .processes import identity

SUPERUSER = "postgres"
"""The database role the tests connect as (trust authentication: no password)."""
DATABASE = "fogofwar"
"""The database the tests use, emptied for each test (`PostgresServer.fresh_database`)."""
_SETTINGS = {
    "listen_addresses": "''",
    "fsync": "off",
    "full_page_writes": "off",
    "synchronous_commit": "off",
    "shared_buffers": "16MB",
    "max_connections": "200",
}


_PREFIX = "fogofwar-pg-"
_OWNER = "owner.pid"
"""The file in a server's directory naming the process that started it."""


def find_binaries() -> Path | None:
    """The directory of `initdb` and `pg_ctl`: from PATH, else Debian's newest /usr/lib/postgresql/<version>/bin."""
    on_path = [shutil.which(name) for name in ("initdb", "pg_ctl")]
    if all(on_path):
        return Path(str(on_path[0])).resolve().parent
    debian = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda d: _version(d.parent.name), reverse=True)
    return next((d for d in debian if (d / "initdb").exists() and (d / "pg_ctl").exists()), None)


def _version(name: str) -> tuple[int, ...]:
    return tuple(int(part) for part in name.split(".") if part.isdigit())


def unusable() -> str | None:
    """Why no server can be started here (to skip with), or None."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (scripts/bootstrap dev installs it)"
    if find_binaries() is None:
        return (
            "PostgreSQL is not installed: no initdb and pg_ctl on PATH or in /usr/lib/postgresql/*/bin"
            " (scripts/test installs Debian's postgresql when run as root)"
        )
    if os.geteuid() == 0:
        if shutil.which("runuser") is None:
            return "running as root, PostgreSQL must run as another user, and runuser is missing"
        try:
            pwd.getpwnam(SUPERUSER)
        except KeyError:
            return f"running as root, PostgreSQL must run as another user, and there is no {SUPERUSER!r} user"
    return None


def stop_orphans() -> None:
    """Stop and remove the servers whose test run is gone (killed before it could stop them, or the machine
    restarted under it)."""
    for root in Path(tempfile.gettempdir()).glob(f"{_PREFIX}*"):
        try:
            owner = (root / _OWNER).read_text()
        except OSError:  # not ours to judge: another user's, or being made right now
            continue
        pid, _, _ = owner.partition(" ")
        if pid.isdigit() and identity(int(pid)) != owner:
            PostgresServer(root).stop()


class PostgresServer:
    """One server in its own temporary directory: `start` it, a `fresh_database` for each test, `stop` it.
    (`root`: the directory of a server already made, to stop it.)"""

    def __init__(self, root: Path | None = None, durable: bool = False) -> None:
        bindir = find_binaries()
        assert bindir is not None, unusable()
        self.bindir = bindir
        self.root = root or Path(tempfile.mkdtemp(prefix=_PREFIX))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self._as: list[str] = []
        if os.geteuid() == 0:
            self._as = ["runuser", "-u", SUPERUSER, "--"]
        if root is None:
            (self.root / _OWNER).write_text(str(identity(os.getpid())))
            if os.geteuid() == 0:
                user = pwd.getpwnam(SUPERUSER)
                os.chown(self.root, user.pw_uid, user.pw_gid)
        self._created = False
        self.durable = durable
        """fsync and synchronous commits on, as in production (the load benchmark); off for the tests' speed."""

    def _run(self, program: str, *args: str) -> None:
        cmd = [*self._as, str(self.bindir / program), *args]
        done = subprocess.run(cmd, cwd=self.root, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout}{done.stderr}{log}")

    def start(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "-A", "trust", "-E", "UTF8", "--no-sync")
        settings = {
            **_SETTINGS,
            # Durable as in production, with PostgreSQL's own default for its buffers (the tests' 16 MB is for
            # servers that hold a few games at a time).
            **(
                {"fsync": "on", "full_page_writes": "on", "synchronous_commit": "on", "shared_buffers": "128MB"}
                if self.durable
                else {}
            ),
        }
        options = " ".join([f"-k {self.root}", *(f"-c {key}={value}" for key, value in settings.items())])
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "-t", "60", "start")

    def stop(self) -> None:
        try:
            if self.running():
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def running(self) -> bool:
        """The server of this directory is running: the pid its postmaster.pid names is a live postgres of this
        data directory (after a restart, the file may name a dead pid, or one a new process has since taken)."""
        try:
            pid = int((self.data / "postmaster.pid").read_text().split("\n", 1)[0])
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except (OSError, ValueError):
            return False
        return os.fsencode(self.data) in command and identity(pid) is not None

    def url(self, database: str = "postgres") -> str:
        """The SQLAlchemy URL of `database` (psycopg 3, over the unix socket)."""
        return f"postgresql+psycopg://{SUPERUSER}@/{database}?host={self.root}"

    def _admin(self, *statements: str, database: str = "postgres") -> None:
        import psycopg

        with psycopg.connect(host=str(self.root), user=SUPERUSER, dbname=database, autocommit=True) as conn:
            for sql in statements:
                conn.execute(sql)

    def fresh_database(self) -> str:
        """The URL of the database `fogofwar`, emptied: connections to it closed, its schema `public` dropped with
        everything in it and made anew (a millisecond, where CREATE DATABASE takes a quarter of a second)."""
        if not self._created:
            self._admin(f'CREATE DATABASE "{DATABASE}"')
            self._created = True
        self._admin(
            f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{DATABASE}'"
            " AND pid <> pg_backend_pid()",
            "DROP SCHEMA public CASCADE",
            "CREATE SCHEMA public",
            database=DATABASE,
        )
        return self.url(DATABASE)
