"""Processes the server tests start and look for, read from /proc: whether one has exited, and a name for it that a
pid used again later does not share."""

from __future__ import annotations

from pathlib import Path


def identity(pid: int) -> str | None:
    """ "<pid> <start time>" of a running process (the start time in clock ticks since boot), or None when no
    process has that pid (a zombie, waiting for its parent to reap it, has exited and counts as none)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return None if fields[0] == "Z" else f"{pid} {fields[19]}"


def gone(pid: int) -> bool:
    """The process has exited (a zombie waiting for a parent to reap it counts as gone)."""
    return identity(pid) is None
