"""Slow attacks on the web server: how much memory, how many file descriptors, and what an attacker sees.

    .venv/bin/python benchmarks/attacks.py                                # every attack, defaults (~2-3 min)
    .venv/bin/python benchmarks/attacks.py --attacks bodies --body-mb 50  # one attack, smaller
    .venv/bin/python benchmarks/attacks.py --attacks slowloris,ws --sources 16 --json out.json

    # an older server: its source exported (the work tree is not touched), imported first
    git archive 0db480d src | tar -x -C /tmp/old && PYTHONPATH=/tmp/old/src .venv/bin/python benchmarks/attacks.py

The script starts `fogofwar serve` itself (the `fogofwar` next to the running Python, on 127.0.0.1, on a
free port unless --port is given, on a fresh SQLite database in a temporary directory that is deleted
afterwards, with the server killed at the end). Every byte goes to 127.0.0.1 only; every loop is bounded
in count and in time, so the script always stops by itself. The attacker's connections come from
127.0.0.1, or in turn from --sources N loopback addresses 127.0.1.1..N (an attack from many hosts, which
per-address caps do not stop). The attacks run one after the other:

- bodies     a large body (--body-mb, default 300 MB) streamed from a generator in --chunk-kb pieces (the
             client never holds it) to `POST /api/games/{id}/act` (a hot-seat game's seat token), `POST
             /api/games`, `POST /api/setup-preview` and `POST /api/replay/import`; each body is a JSON
             object whose one string field is the filler, sent with a Content-Length header and again with
             chunked transfer encoding (--body-modes). The upload stops once the server answers (then
             --after-answer seconds more are offered, to see whether the server keeps reading) or closes.
- slowloris  --slow-conns (450) connections that each send one byte of a never-ending request head every
             --slow-interval (5) s, for --slow-duration (75) s; the connections still open are counted at
             the --slow-checkpoints (10, 30, 70 s).
- idle       --idle-conns (300) TCP connections that send nothing, watched for --idle-wait (40) s; as a
             control, --idle-control (10) connections (from the probe's address) that make one keep-alive
             request and then go quiet.
- ws         --ws (500) websocket spectators of one game connect, say hello, get the first state and drop:
             half abruptly (the TCP connection is aborted, no close frame), half cleanly; then --ws of them
             are held open at once for --ws-hold (5) s.
- games      --games (300) hot-seat games created over REST, each then read (`GET /api/games/{id}`); the
             server's RSS before, after and --games-settle (5) s later. A game costs little, and memory
             freed by the attacks before is reused first: run `--attacks games --games 3000` alone for a
             cleaner per-game figure.

What the figures mean, for every attack:

- rss        the server process's memory: `hwm` is VmHWM from /proc/PID/status (its peak resident set
             size), reset before each attack through /proc/PID/clear_refs so that it is the peak of that
             attack alone (marked "lifetime" where the kernel refuses the reset); `peak` is the highest
             VmRSS sampled every --sample-interval s during the attack; `start`/`end` are VmRSS before the
             attack and once it is over (its connections closed, 1 s later).
- fds        the count of /proc/PID/fd: before, sampled peak, after. Each accepted connection costs one.
- probe      a legitimate client: `GET /healthz` every 0.5 s during the attack (new connection each time,
             5 s timeout) from another loopback address (--probe-source, 127.0.0.2), so that per-address
             caps do not lump it with the attacker; its worst latency and failures show whether the server
             still served others.
- attacker   what the attacking client saw: HTTP status codes, bytes sent before the answer, how long a
             connection stayed open, how many the server refused or closed.

For the bodies, `sent@answer` is what the client had written when the status line arrived, and
`read@answer` how much of it the server had read by then: the bytes sent less those still queued in the
client's buffer and in the two sockets' kernel queues (/proc/net/tcp tx_queue and rx_queue); both count
bytes on the wire (with the chunk framing). `resp` is the size of the response body; "kept open after
answer" means the server did not close the connection, and "then N MB more written" is how much more the
server took in the --after-answer seconds after its answer (it reads and discards the rest of the body).
MB are MiB (2**20 bytes). `--json OUT` also writes every figure to OUT. Exits 1 if the server died or an
attack failed to run, 130 if interrupted (Ctrl+C, SIGTERM: the server is stopped and the directory removed
all the same; the server is also killed by the kernel should this script die).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import itertools
import json
import logging
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from local_server import HOST, free_port, stop_server, wait_until_up
from rich.console import Console
from rich.table import Table
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

# HOST (local_server): the only address this script ever talks to
SOURCES = [HOST]
"""The loopback addresses the attacking connections come from, in turn (--sources); set by `main`."""
PROBE_SOURCE = "127.0.0.2"
"""The legitimate client's loopback address (--probe-source): not the attacker's, so per-address caps spare it."""
_turn = itertools.count()


def attacker_addr() -> tuple[str, int] | None:
    """The local address of the next attacking connection (None: the default, 127.0.0.1)."""
    if SOURCES == [HOST]:
        return None
    return SOURCES[next(_turn) % len(SOURCES)], 0


MB = 1024 * 1024
ATTACKS = ("bodies", "slowloris", "idle", "ws", "games")
ENDPOINTS = ("act", "games", "setup-preview", "import")


# --- the server and its /proc figures ------------------------------------------------------------------
def fogofwar_command() -> str:
    here = Path(sys.executable).parent / "fogofwar"
    found = str(here) if here.exists() else shutil.which("fogofwar")
    if not found:
        raise SystemExit("no `fogofwar` command next to this Python or on PATH: run with .venv/bin/python")
    return found


def _die_with_parent() -> None:
    """In the server's process before exec: the kernel kills it if this script dies (PR_SET_PDEATHSIG)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)


def start_server(port: int, db: str, log: Path) -> subprocess.Popen[bytes]:
    cmd = [fogofwar_command(), "serve", "--host", HOST, "--port", str(port), "--db", db]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, preexec_fn=_die_with_parent)
    wait_until_up(proc, f"http://{HOST}:{port}", log)
    return proc


class ProcStats:
    """The server's figures, from /proc/PID."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.root = Path(f"/proc/{pid}")

    def mem_kb(self) -> tuple[int, int]:
        """(VmRSS, VmHWM) in kB; (0, 0) once the process is gone."""
        rss = hwm = 0
        try:
            for row in (self.root / "status").read_text().splitlines():
                if row.startswith("VmRSS:"):
                    rss = int(row.split()[1])
                elif row.startswith("VmHWM:"):
                    hwm = int(row.split()[1])
        except OSError:
            pass
        return rss, hwm

    def fds(self) -> int:
        try:
            return len(os.listdir(self.root / "fd"))
        except OSError:
            return 0

    def reset_hwm(self) -> bool:
        """Reset VmHWM to the current RSS (Linux >= 4.0: write 5 to clear_refs); False if refused."""
        try:
            (self.root / "clear_refs").write_text("5")
            return True
        except OSError:
            return False


class Sampler:
    """Samples the server's VmRSS and fd count in a thread while an attack runs; `figures()` sums it up."""

    def __init__(self, stats: ProcStats, interval: float) -> None:
        self.stats = stats
        self.interval = interval
        self.peak_rss = 0
        self.peak_fds = 0
        self.samples = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.sample()
            self._stop.wait(self.interval)

    def sample(self) -> tuple[int, int]:
        rss, _ = self.stats.mem_kb()
        fds = self.stats.fds()
        self.peak_rss = max(self.peak_rss, rss)
        self.peak_fds = max(self.peak_fds, fds)
        self.samples += 1
        return rss, fds

    def __enter__(self) -> Sampler:
        self.hwm_reset = self.stats.reset_hwm()
        self.start_rss, _ = self.stats.mem_kb()
        self.start_fds = self.stats.fds()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.sample()

    def figures(self) -> dict[str, Any]:
        time.sleep(1.0)  # the connections of the attack were just closed: let the server notice
        end_rss, hwm = self.stats.mem_kb()
        return {
            "rss_start_mb": self.start_rss / 1024,
            "rss_peak_mb": max(self.peak_rss, end_rss) / 1024,
            "rss_hwm_mb": hwm / 1024,
            "hwm_scope": "attack" if self.hwm_reset else "lifetime",
            "rss_end_mb": end_rss / 1024,
            "fds_start": self.start_fds,
            "fds_peak": max(self.peak_fds, self.start_fds),
            "fds_end": self.stats.fds(),
            "samples": self.samples,
        }


# --- small HTTP helpers (raw asyncio streams, HTTP/1.1) -----------------------------------------------------
async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    raw = await reader.readuntil(b"\r\n\r\n")
    lines = raw.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for row in lines[1:]:
        name, sep, value = row.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    return status, headers


async def read_body(reader: asyncio.StreamReader, headers: dict[str, str], keep: int = 400) -> tuple[int, bytes]:
    """Read (and count, not keep) a response body: (its size, its first `keep` bytes)."""
    remaining = int(headers["content-length"]) if "content-length" in headers else None
    size = 0
    first = bytearray()
    while remaining is None or remaining > 0:
        chunk = await reader.read(1 << 16 if remaining is None else min(1 << 16, remaining))
        if not chunk:
            break
        size += len(chunk)
        if len(first) < keep:
            first += chunk[: keep - len(first)]
        if remaining is not None:
            remaining -= len(chunk)
    return size, bytes(first)


async def http(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    token: str | None = None,
    timeout: float = 30.0,
    source: tuple[str, int] | None = None,
) -> tuple[int, bytes]:
    """One request on its own connection (Connection: close) from `source`: (status, body)."""

    async def go() -> tuple[int, bytes]:
        reader, writer = await asyncio.open_connection(HOST, port, local_addr=source)
        try:
            data = b"" if body is None else json.dumps(body).encode()
            head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nConnection: close\r\n"
            if body is not None:
                head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
            if token:
                head += f"Authorization: Bearer {token}\r\n"
            writer.write(head.encode() + b"\r\n" + data)
            await writer.drain()
            status, headers = await read_head(reader)
            _, first = await read_body(reader, headers, keep=1 << 20)
            return status, first
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async with asyncio.timeout(timeout):
        return await go()


async def settle(task: asyncio.Future[Any], grace: float = 5.0) -> None:
    """Cancel `task` and give it `grace` s to end. Never `await task` after a cancel: Python 3.11's `wait_for`
    can swallow a cancellation that meets its own completion, and the await would then never return."""
    if not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=grace)
    if task.done() and not task.cancelled():
        task.exception()  # retrieved: no "exception was never retrieved" at exit


async def create_game(port: int) -> tuple[str, dict[str, str]]:
    body = {"game": "stratego", "variant": "classic", "opponent": "hotseat"}
    status, data = await http(port, "POST", "/api/games", body, source=attacker_addr())
    if status != 201:
        raise RuntimeError(f"POST /api/games answered {status}: {data[:200]!r}")
    created = json.loads(data)
    return created["game"]["id"], created["seats"]


class Probe:
    """A legitimate client during an attack: GET /healthz every `every` s, each on a new connection."""

    def __init__(self, port: int, every: float = 0.5, timeout: float = 5.0) -> None:
        self.port, self.every, self.timeout = port, every, timeout
        self.latencies: list[float] = []
        self.failures: Counter[str] = Counter()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    async def _run(self) -> None:
        while not self._stopping:
            t0 = time.perf_counter()
            try:
                status, _ = await http(self.port, "GET", "/healthz", timeout=self.timeout, source=(PROBE_SOURCE, 0))
                if status == 200:
                    self.latencies.append(time.perf_counter() - t0)
                else:
                    self.failures[f"http {status}"] += 1
            except TimeoutError:
                self.failures["timeout"] += 1
            except (OSError, asyncio.IncompleteReadError, ValueError, IndexError) as exc:
                self.failures[type(exc).__name__] += 1
            if not self._stopping:
                await asyncio.sleep(max(0.0, self.every - (time.perf_counter() - t0)))

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> dict[str, Any]:
        self._stopping = True  # the probe ends by itself, even if a cancellation is lost
        if self._task is not None:
            await settle(self._task, self.timeout + 2.0)
        lat = sorted(self.latencies)
        return {
            "probes": len(lat) + sum(self.failures.values()),
            "probe_ok": len(lat),
            "probe_p50_ms": 1000 * lat[len(lat) // 2] if lat else None,
            "probe_max_ms": 1000 * lat[-1] if lat else None,
            "probe_failures": dict(self.failures),
        }


# --- 1. large bodies ----------------------------------------------------------------------------------------
def body_pieces(prefix: bytes, filler: int, suffix: bytes, chunk: int) -> Iterator[bytes]:
    """The body, piece by piece: one `chunk`-sized bytes object is yielded again and again, never the whole."""
    yield prefix
    block = b"a" * chunk
    while filler > 0:
        n = min(chunk, filler)
        yield block if n == chunk else block[:n]
        filler -= n
    yield suffix


def tcp_queues(local: tuple[str, int], remote: tuple[str, int]) -> tuple[int, int] | None:
    """(tx_queue, rx_queue) in bytes of the loopback TCP socket `local` -> `remote` (/proc/net/tcp); None if gone."""

    def key(addr: tuple[str, int]) -> str:
        a, b, c, d = (int(x) for x in addr[0].split("."))
        return f"{d:02X}{c:02X}{b:02X}{a:02X}:{addr[1]:04X}"

    want = (key(local), key(remote))
    try:
        rows = Path("/proc/net/tcp").read_text().splitlines()[1:]
    except OSError:
        return None
    for row in rows:
        cols = row.split()
        if (cols[1], cols[2]) == want:
            tx, rx = cols[4].split(":")
            return int(tx, 16), int(rx, 16)
    return None


async def upload(
    port: int,
    path: str,
    prefix: bytes,
    suffix: bytes,
    size: int,
    chunk: int,
    chunked: bool,
    token: str | None,
    timeout: float,
    after_answer: float,
) -> dict[str, Any]:
    """Stream one large body; what the client saw. Bytes count as on the wire (with chunked framing)."""
    out: dict[str, Any] = {"status": None, "outcome": None, "sent_mb": 0.0}
    reader, writer = await asyncio.open_connection(HOST, port, local_addr=attacker_addr())
    mine: tuple[str, int] = writer.get_extra_info("sockname")[:2]
    theirs: tuple[str, int] = writer.get_extra_info("peername")[:2]
    head = f"POST {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nContent-Type: application/json\r\n"
    if token:
        head += f"Authorization: Bearer {token}\r\n"
    head += "Transfer-Encoding: chunked\r\n" if chunked else f"Content-Length: {size}\r\n"
    writer.write(head.encode() + b"\r\n")
    sent = 0  # body bytes handed to the transport
    t0 = time.perf_counter()
    deadline = t0 + timeout
    answered = asyncio.Event()  # the status line arrived, or the server closed the connection

    def server_read() -> float | None:
        """MB of the body the server has read: sent, less what waits in our buffer and in the two kernel queues;
        None once the server's socket is gone (what it held unread is then unknown)."""
        ours, server = tcp_queues(mine, theirs), tcp_queues(theirs, mine)
        if ours is None or server is None:
            return None
        return (sent - writer.transport.get_write_buffer_size() - ours[0] - server[1]) / MB

    async def response() -> None:
        try:
            status, headers = await read_head(reader)
        except (asyncio.IncompleteReadError, ConnectionError):
            out["closed_at_s"] = time.perf_counter() - t0
            out["read_at_close_mb"] = server_read()
            answered.set()
            return
        out["status"] = status
        out["answer_s"] = time.perf_counter() - t0
        out["sent_at_answer_mb"] = sent / MB
        out["read_at_answer_mb"] = server_read()
        answered.set()
        try:
            out["resp_bytes"], first = await read_body(reader, headers)
            out["resp_head"] = first[:160].decode("utf-8", "replace")
            out["resp_done_s"] = time.perf_counter() - t0
            try:  # does the server close the connection after its answer?
                out["closed_after_answer"] = await asyncio.wait_for(reader.read(1), after_answer + 1.0) == b""
            except TimeoutError:
                out["closed_after_answer"] = False
        except ConnectionError:
            out["closed_after_answer"] = True

    reading = asyncio.create_task(response())
    answer = asyncio.create_task(answered.wait())
    pieces = body_pieces(prefix, size - len(prefix) - len(suffix), suffix, chunk)
    if chunked:
        pieces = (b"%x\r\n%b\r\n" % (len(p), p) for p in pieces)  # one piece copied at a time
    stop_at = deadline
    try:
        for piece in pieces:
            if writer.transport.is_closing():
                raise ConnectionResetError("the server closed the connection")
            if answered.is_set() and stop_at == deadline:  # answered (or closed): offer a little more, then stop
                stop_at = min(deadline, time.perf_counter() + after_answer)
                out["sent_at_stop_mb"] = sent / MB
            if time.perf_counter() >= stop_at:
                break
            writer.write(piece)
            sent += len(piece)
            if writer.transport.get_write_buffer_size() > 4 * chunk:
                drain = asyncio.ensure_future(writer.drain())
                waiting = {drain} if answered.is_set() else {drain, answer}
                await asyncio.wait(waiting, timeout=stop_at - time.perf_counter(), return_when="FIRST_COMPLETED")
                if drain.done():
                    drain.result()  # raises if the connection was lost
                else:
                    await settle(drain, 1.0)
        else:
            if chunked:
                writer.write(b"0\r\n\r\n")
            out["upload_complete"] = True
            out["upload_s"] = time.perf_counter() - t0
        out.setdefault("upload_complete", False)
        await asyncio.wait({reading}, timeout=max(0.0, deadline - time.perf_counter()))
    except ConnectionError as exc:
        out["write_error"] = type(exc).__name__
        out.setdefault("upload_complete", False)
        await asyncio.wait({reading}, timeout=2.0)
    finally:
        for task in (reading, answer):
            await settle(task)
        writer.transport.abort()
    out["sent_mb"] = sent / MB
    if "sent_at_stop_mb" in out:
        out["sent_after_answer_mb"] = out["sent_mb"] - out["sent_at_stop_mb"]
    if out["status"] is not None:
        out["outcome"] = f"answered {out['status']}"
    elif "closed_at_s" in out or "write_error" in out:
        out["outcome"] = "closed by server, no answer"
    else:
        out["outcome"] = f"no answer within {timeout:.0f} s"
    out["wall_s"] = time.perf_counter() - t0
    return out


async def attack_bodies(port: int, stats: ProcStats, args: argparse.Namespace, record: Callable[..., None]) -> None:
    game_id, seats = await create_game(port)
    size = int(args.body_mb * MB)
    targets = {
        "act": (f"/api/games/{game_id}/act", b'{"type":"action","id":"x","action":"', seats["0"]),
        "games": ("/api/games", b'{"game":"stratego","variant":"classic","opponent":"hotseat","name":"', None),
        "setup-preview": ("/api/setup-preview", b'{"game":"stratego","variant":"classic","seat":0,"setup":"', None),
        "import": ("/api/replay/import?name=big.json", b'{"record":"', None),
    }
    for mode in args.body_modes:
        for name in args.body_endpoints:
            path, prefix, token = targets[name]
            probe = Probe(port)
            probe.start()
            with Sampler(stats, args.sample_interval) as sampler:
                seen = await upload(
                    port,
                    path,
                    prefix,
                    b'"}',
                    size,
                    args.chunk_kb * 1024,
                    mode == "chunked",
                    token,
                    args.body_timeout,
                    args.after_answer,
                )
            figures = {**seen, **await probe.stop(), **sampler.figures()}
            label = f"body {name} ({mode})"
            record(label, figures, body_line(size, figures))


def resp_gist(head: str) -> str:
    """The error code of a JSON answer (or the type of FastAPI's first validation error), in brackets."""
    if head.startswith('{"detail":[{"type":"'):  # a validation error, possibly cut short
        return "(" + head[20:].split('"')[0] + ")"
    try:
        data = json.loads(head)
    except ValueError:
        return f"({head[:40]})" if head else ""
    if isinstance(data, dict):
        return f"({str(data.get('error') or data.get('detail') or '')[:40]})"
    return ""


def body_line(size: int, f: dict[str, Any]) -> str:
    parts = [f"{f['outcome']}"]
    if f.get("answer_s") is not None:
        read = f["read_at_answer_mb"]
        parts.append(
            f"after {f['answer_s']:.2f} s, sent@answer {f['sent_at_answer_mb']:.1f} MB, "
            f"read@answer {'?' if read is None else f'{read:.1f}'} MB of {size / MB:.0f} MB"
        )
        parts.append(f"resp {f.get('resp_bytes', 0):,} B {resp_gist(f.get('resp_head', ''))}".rstrip())
        if "closed_after_answer" in f:
            parts.append("closed after answer" if f["closed_after_answer"] else "kept open after answer")
        if "sent_after_answer_mb" in f:
            parts.append(f"then {f['sent_after_answer_mb']:.1f} MB more written")
    else:
        parts.append(f"sent {f['sent_mb']:.1f} MB in {f['wall_s']:.1f} s")
    if f.get("write_error"):
        parts.append(f"write error {f['write_error']}")
    return "; ".join(parts)


# --- 2. slowloris ---------------------------------------------------------------------------------------------
@dataclass
class Conn:
    reader: asyncio.StreamReader | None = None
    writer: asyncio.StreamWriter | None = None
    opened_at: float = 0.0
    closed_at: float | None = None
    how: str = ""
    answer: str = ""
    events: list[str] = field(default_factory=list)


async def open_many(
    port: int, n: int, timeout: float = 10.0, concurrency: int = 200, source: tuple[str, int] | None = None
) -> tuple[list[Conn], Counter[str]]:
    """Open `n` TCP connections (at most `concurrency` handshakes at once) from `source`, else from the
    attacker's addresses; the refusals by kind."""
    gate = asyncio.Semaphore(concurrency)
    refused: Counter[str] = Counter()

    async def one() -> Conn | None:
        async with gate:
            try:
                r, w = await asyncio.wait_for(
                    asyncio.open_connection(HOST, port, local_addr=source or attacker_addr()), timeout
                )
            except TimeoutError:
                refused["connect timeout"] += 1
                return None
            except OSError as exc:
                refused[type(exc).__name__] += 1
                return None
            return Conn(r, w, time.perf_counter())

    got = await asyncio.gather(*(one() for _ in range(n)))
    return [c for c in got if c is not None], refused


def close_all(conns: list[Conn]) -> None:
    for c in conns:
        if c.writer is not None:
            c.writer.transport.abort()


async def watch_close(c: Conn, until: float) -> None:
    """Wait (at most until `until`) for the server to close `c` or answer on it."""
    assert c.reader is not None
    while c.closed_at is None:
        left = until - time.perf_counter()
        if left <= 0:
            return
        try:
            data = await asyncio.wait_for(c.reader.read(4096), left)
        except TimeoutError:
            return
        except ConnectionError as exc:
            c.closed_at, c.how = time.perf_counter(), type(exc).__name__
            return
        if not data:
            c.closed_at, c.how = time.perf_counter(), "EOF"
            return
        if not c.answer:
            c.answer = data.split(b"\r\n", 1)[0].decode("latin-1")[:40]


async def attack_slowloris(port: int, stats: ProcStats, args: argparse.Namespace, record: Callable[..., None]) -> None:
    head = f"GET /healthz HTTP/1.1\r\nHost: {HOST}:{port}\r\nX-Slow: ".encode() + b"a" * 4096
    probe = Probe(port)
    probe.start()
    with Sampler(stats, args.sample_interval) as sampler:
        t0 = time.perf_counter()
        end = t0 + args.slow_duration
        conns, refused = await open_many(port, args.slow_conns)

        async def drip(c: Conn) -> None:
            assert c.writer is not None
            i = 0
            while c.closed_at is None and time.perf_counter() < end and i < len(head):
                try:
                    c.writer.write(head[i : i + 1])
                    await c.writer.drain()
                except ConnectionError as exc:
                    c.closed_at, c.how = time.perf_counter(), type(exc).__name__
                    return
                i += 1
                await watch_close(c, min(end, time.perf_counter() + args.slow_interval))

        checkpoints: list[dict[str, Any]] = []

        async def observe() -> None:
            for at in args.slow_checkpoints:
                if at > args.slow_duration:
                    break
                await asyncio.sleep(max(0.0, t0 + at - time.perf_counter()))
                rss, fds = sampler.sample()
                still = sum(1 for c in conns if c.closed_at is None)
                checkpoints.append({"at_s": at, "open": still, "server_fds": fds, "server_rss_mb": rss / 1024})
                print(
                    f"  slowloris t={at:>3.0f} s: {still}/{len(conns)} still open, "
                    f"server fds {fds}, rss {rss / 1024:.0f} MB"
                )

        await asyncio.gather(observe(), *(drip(c) for c in conns))
        wall = time.perf_counter() - t0
        close_all(conns)
    closed = [c for c in conns if c.closed_at is not None]
    figures = {
        "connections": args.slow_conns,
        "opened": len(conns),
        "refused": dict(refused),
        "checkpoints": checkpoints,
        "open_at_end": len(conns) - len(closed),
        "closed_by_server": len(closed),
        "closed_after_s": sorted(round(c.closed_at - c.opened_at, 2) for c in closed if c.closed_at)[:20],
        "answers": dict(Counter(c.answer for c in conns if c.answer)),
        "wall_s": wall,
        **await probe.stop(),
        **sampler.figures(),
    }
    held = ", ".join(f"{cp['open']} at {cp['at_s']:.0f} s" for cp in checkpoints)
    line = (
        f"{len(conns)}/{args.slow_conns} opened ({sum(refused.values())} refused); still open: {held}; "
        f"{len(closed)} closed by the server in {wall:.0f} s"
        + (f"; server answers {figures['answers']}" if figures["answers"] else "")
    )
    record("slowloris", figures, line)


# --- 3. idle connections ------------------------------------------------------------------------------------------
async def attack_idle(port: int, stats: ProcStats, args: argparse.Namespace, record: Callable[..., None]) -> None:
    probe = Probe(port)
    probe.start()
    with Sampler(stats, args.sample_interval) as sampler:
        t0 = time.perf_counter()
        conns, refused = await open_many(port, args.idle_conns)
        # the control is a legitimate client: from the probe's address, out of the attacker's per-address cap
        control, control_refused = await open_many(port, args.idle_control, source=(PROBE_SOURCE, 0))
        for c in control:  # one complete keep-alive request each, then nothing
            assert c.writer is not None and c.reader is not None
            try:
                c.writer.write(f"GET /healthz HTTP/1.1\r\nHost: {HOST}:{port}\r\n\r\n".encode())
                await c.writer.drain()
                status, headers = await asyncio.wait_for(read_head(c.reader), 10)
                await asyncio.wait_for(read_body(c.reader, headers), 10)
                c.answer = f"HTTP {status}"
            except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError, IndexError) as exc:
                c.answer = f"request failed: {type(exc).__name__}"
            c.opened_at = time.perf_counter()  # the control's idle time starts after its answer
        end = t0 + args.idle_wait
        await asyncio.gather(*(watch_close(c, end) for c in conns + control))
        wall = time.perf_counter() - t0
        close_all(conns + control)

    def summary(group: list[Conn]) -> dict[str, Any]:
        times = sorted(c.closed_at - c.opened_at for c in group if c.closed_at is not None)
        return {
            "opened": len(group),
            "closed_by_server": len(times),
            "open_at_end": len(group) - len(times),
            "close_after_min_s": times[0] if times else None,
            "close_after_median_s": statistics.median(times) if times else None,
            "close_after_max_s": times[-1] if times else None,
            "how": dict(Counter(c.how for c in group if c.closed_at is not None)),
            "answers": dict(Counter(c.answer for c in group if c.answer)),
        }

    silent, ctl = summary(conns), summary(control)
    figures = {
        "silent": {**silent, "refused": dict(refused)},
        "control": {**ctl, "refused": dict(control_refused)},
        "wait_s": args.idle_wait,
        "wall_s": wall,
        **await probe.stop(),
        **sampler.figures(),
    }

    def describe(s: dict[str, Any]) -> str:
        if not s["closed_by_server"]:
            return f"none of {s['opened']} closed by the server in {args.idle_wait:.0f} s"
        return (
            f"{s['closed_by_server']}/{s['opened']} closed by the server after "
            f"{s['close_after_min_s']:.1f}-{s['close_after_max_s']:.1f} s (median {s['close_after_median_s']:.1f})"
            f", {s['open_at_end']} still open at {args.idle_wait:.0f} s"
            + (f" (answers {s['answers']})" if s["answers"] else "")
        )

    record("idle", figures, f"silent: {describe(silent)}; after one request: {describe(ctl)}")


# --- 4. websocket churn --------------------------------------------------------------------------------------------
async def ws_spectator(url: str, timeout: float) -> ClientConnection:
    """Connect as a spectator, say hello, wait for the first state; the open connection."""
    source = attacker_addr()
    extra: dict[str, Any] = {} if source is None else {"local_addr": source}
    ws = await connect(url, open_timeout=timeout, ping_interval=None, close_timeout=2, max_size=1 << 22, **extra)
    try:
        await ws.send(json.dumps({"type": "hello"}))
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), timeout))
            if msg.get("type") == "state":
                return ws
            if msg.get("type") == "error":
                raise RuntimeError(f"refused: {msg.get('error')}")
    except BaseException:
        ws.transport.abort()
        raise


def error_kind(exc: BaseException) -> str:
    if isinstance(exc, ConnectionClosed):
        frame = exc.rcvd
        return f"closed by server {frame.code} {frame.reason!r}" if frame else "connection lost, no close frame"
    if isinstance(exc, InvalidStatus):
        return f"handshake refused: HTTP {exc.response.status_code}"
    text = str(exc)
    return f"{type(exc).__name__}: {text[:60]}" if text else type(exc).__name__


async def attack_ws(port: int, stats: ProcStats, args: argparse.Namespace, record: Callable[..., None]) -> None:
    game_id, _ = await create_game(port)
    url = f"ws://{HOST}:{port}/ws/games/{game_id}"

    # churn: connect, hello, first state, drop (even: abort the TCP connection, no close frame; odd: clean close)
    gate = asyncio.Semaphore(args.ws_concurrency)
    errors: Counter[str] = Counter()
    drops: Counter[str] = Counter()

    async def churn(i: int) -> None:
        async with gate:
            try:
                ws = await ws_spectator(url, 10.0)
            except Exception as exc:
                errors[error_kind(exc)] += 1
                return
            if i % 2 == 0:
                ws.transport.abort()
                drops["abrupt"] += 1
            else:
                try:
                    await asyncio.wait_for(ws.close(), 5)
                    drops["clean"] += 1
                except Exception as exc:
                    errors[f"close: {error_kind(exc)}"] += 1

    probe = Probe(port)
    probe.start()
    with Sampler(stats, args.sample_interval) as sampler:
        t0 = time.perf_counter()
        await asyncio.gather(*(churn(i) for i in range(args.ws)))
        wall = time.perf_counter() - t0
    figures = {
        "connects": args.ws,
        "accepted": sum(drops.values()),
        "drops": dict(drops),
        "errors": dict(errors),
        "wall_s": wall,
        "per_s": args.ws / wall if wall else None,
        **await probe.stop(),
        **sampler.figures(),
    }
    record(
        "ws churn",
        figures,
        f"{figures['accepted']}/{args.ws} accepted and dropped ({drops['abrupt']} abrupt, {drops['clean']} clean) "
        f"in {wall:.1f} s; errors {sum(errors.values())}" + (f" {dict(errors)}" if errors else ""),
    )

    # held: M spectators open at once
    held: list[ClientConnection] = []
    errors = Counter()

    async def hold() -> None:
        async with gate:
            try:
                held.append(await ws_spectator(url, 10.0))
            except Exception as exc:
                errors[error_kind(exc)] += 1

    probe = Probe(port)
    probe.start()
    with Sampler(stats, args.sample_interval) as sampler:
        t0 = time.perf_counter()
        await asyncio.gather(*(hold() for _ in range(args.ws)))
        opened_s = time.perf_counter() - t0
        _, fds_all_open = sampler.sample()
        await asyncio.sleep(args.ws_hold)
        still = sum(1 for ws in held if ws.close_code is None and not ws.transport.is_closing())
        close_gate = asyncio.Semaphore(100)

        async def close(ws: ClientConnection) -> None:
            async with close_gate:
                try:
                    await asyncio.wait_for(ws.close(), 5)
                except Exception:
                    ws.transport.abort()

        await asyncio.gather(*(close(ws) for ws in held))
    figures = {
        "sockets": args.ws,
        "accepted": len(held),
        "errors": dict(errors),
        "open_after_hold": still,
        "hold_s": args.ws_hold,
        "open_s": opened_s,
        "fds_all_open": fds_all_open,
        **await probe.stop(),
        **sampler.figures(),
    }
    record(
        "ws held",
        figures,
        f"{len(held)}/{args.ws} accepted at once in {opened_s:.1f} s, {still} still open after {args.ws_hold:.0f} s"
        f"; server fds with all open {fds_all_open}; errors {sum(errors.values())}"
        + (f" {dict(errors)}" if errors else ""),
    )


# --- 5. many games in memory ----------------------------------------------------------------------------------------
async def attack_games(port: int, stats: ProcStats, args: argparse.Namespace, record: Callable[..., None]) -> None:
    gate = asyncio.Semaphore(args.games_concurrency)
    ids: list[str] = []
    errors: Counter[str] = Counter()

    async def make() -> None:
        async with gate:
            try:
                game_id, _ = await create_game(port)
                ids.append(game_id)
            except Exception as exc:
                errors[f"create: {error_kind(exc)}"] += 1

    async def read(game_id: str) -> None:
        async with gate:
            try:
                status, _ = await http(port, "GET", f"/api/games/{game_id}", source=attacker_addr())
                if status != 200:
                    errors[f"read: http {status}"] += 1
            except Exception as exc:
                errors[f"read: {error_kind(exc)}"] += 1

    probe = Probe(port)
    probe.start()
    with Sampler(stats, args.sample_interval) as sampler:
        before = stats.mem_kb()[0]
        t0 = time.perf_counter()
        await asyncio.gather(*(make() for _ in range(args.games)))
        create_s = time.perf_counter() - t0
        after_create = stats.mem_kb()[0]
        t1 = time.perf_counter()
        await asyncio.gather(*(read(g) for g in ids))
        read_s = time.perf_counter() - t1
        after_read = stats.mem_kb()[0]
        await asyncio.sleep(args.games_settle)
        settled = stats.mem_kb()[0]
    per_game = (settled - before) / len(ids) if ids else 0.0
    figures = {
        "games": args.games,
        "created": len(ids),
        "errors": dict(errors),
        "create_s": create_s,
        "read_s": read_s,
        "rss_before_mb": before / 1024,
        "rss_after_create_mb": after_create / 1024,
        "rss_after_read_mb": after_read / 1024,
        "rss_settled_mb": settled / 1024,
        "settle_s": args.games_settle,
        "kb_per_game": per_game,
        **await probe.stop(),
        **sampler.figures(),
    }
    record(
        "games",
        figures,
        f"{len(ids)}/{args.games} created in {create_s:.1f} s, read in {read_s:.1f} s; rss {before / 1024:.0f} -> "
        f"{after_create / 1024:.0f} -> {after_read / 1024:.0f} MB, {settled / 1024:.0f} MB {args.games_settle:.0f} s "
        f"later (~{per_game:.0f} kB a game); errors {sum(errors.values())}",
    )


# --- the run -------------------------------------------------------------------------------------------------------
def fmt_ms(v: float | None) -> str:
    return "-" if v is None else f"{v:.0f}"


async def run(
    port: int, stats: ProcStats, proc: subprocess.Popen[bytes], args: argparse.Namespace, results: list[dict[str, Any]]
) -> None:
    """The attacks in turn; each appends its figures to `results` (kept if the run is interrupted)."""

    def record(label: str, figures: dict[str, Any], line: str) -> None:
        results.append({"attack": label, "summary": line, **figures})
        print(f"{label:<30} {line}")
        print(
            f"{'':<30} server rss: hwm {figures['rss_hwm_mb']:.0f} MB ({figures['hwm_scope']}), sampled peak "
            f"{figures['rss_peak_mb']:.0f} MB, {figures['rss_start_mb']:.0f} -> {figures['rss_end_mb']:.0f} MB; "
            f"fds {figures['fds_start']} -> peak {figures['fds_peak']} -> {figures['fds_end']}; "
            f"probe {figures['probe_ok']}/{figures['probes']} ok, p50 {fmt_ms(figures['probe_p50_ms'])} ms, "
            f"max {fmt_ms(figures['probe_max_ms'])} ms"
            + (f", failures {figures['probe_failures']}" if figures["probe_failures"] else ""),
            flush=True,
        )

    steps: dict[str, Callable[..., Awaitable[None]]] = {
        "bodies": attack_bodies,
        "slowloris": attack_slowloris,
        "idle": attack_idle,
        "ws": attack_ws,
        "games": attack_games,
    }
    for name in args.attacks:
        if proc.poll() is not None:
            results.append({"attack": name, "error": f"the server had exited (code {proc.returncode})"})
            print(f"{name:<30} skipped: the server had exited (code {proc.returncode})")
            continue
        t0 = time.perf_counter()
        try:
            await steps[name](port, stats, args, record)
        except Exception as exc:
            results.append({"attack": name, "error": error_kind(exc)})
            print(f"{name:<30} FAILED: {error_kind(exc)}")
        print(f"{'':<30} ({name}: {time.perf_counter() - t0:.0f} s)", flush=True)


def table(results: list[dict[str, Any]]) -> Table:
    t = Table(title="fogofwar server under slow attacks (server process figures from /proc)")
    for col, just in (
        ("attack", "left"),
        ("attacker saw", "left"),
        ("rss hwm MB", "right"),
        ("rss peak MB", "right"),
        ("rss end MB", "right"),
        ("fds peak", "right"),
        ("fds end", "right"),
        ("probe max ms", "right"),
    ):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    for r in results:
        if "error" in r:
            t.add_row(r["attack"], f"[red]{r['error']}[/red]", *[""] * 6)
            continue
        probe = fmt_ms(r["probe_max_ms"]) + (
            f" ({sum(r['probe_failures'].values())} failed)" if r["probe_failures"] else ""
        )
        t.add_row(
            r["attack"],
            r["summary"],
            f"{r['rss_hwm_mb']:.0f}",
            f"{r['rss_peak_mb']:.0f}",
            f"{r['rss_end_mb']:.0f}",
            str(r["fds_peak"]),
            str(r["fds_end"]),
            probe,
        )
    return t


def csv_list(kind: type, choices: tuple[str, ...] | None = None) -> Callable[[str], list[Any]]:
    def parse(text: str) -> list[Any]:
        items = [kind(x.strip()) for x in text.split(",") if x.strip()]
        if choices is not None:
            bad = [x for x in items if x not in choices]
            if bad:
                raise argparse.ArgumentTypeError(f"unknown {', '.join(bad)}; choose from {', '.join(choices)}")
        return items

    return parse


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--attacks", type=csv_list(str, ATTACKS), default=list(ATTACKS), help=f"default {','.join(ATTACKS)}")
    p.add_argument("--port", type=int, default=0, help="port for the started server (default: a free one)")
    p.add_argument("--json", metavar="OUT", help="also write the figures as JSON to OUT")
    p.add_argument(
        "--sources",
        type=int,
        default=1,
        help="attack from N loopback addresses 127.0.1.1..127.0.1.N, in turn (default 1: 127.0.0.1 alone);\n"
        "everything still goes to 127.0.0.1. N > 1 spreads per-address caps, as an attack from many hosts",
    )
    p.add_argument("--probe-source", default="127.0.0.2", help="the legitimate client's loopback address")
    p.add_argument("--sample-interval", type=float, default=0.1, help="seconds between /proc samples (default 0.1)")
    g = p.add_argument_group("bodies")
    g.add_argument("--body-mb", type=float, default=300.0, help="body size in MB (default 300)")
    g.add_argument("--chunk-kb", type=int, default=64, help="write size in kB (default 64)")
    g.add_argument(
        "--body-endpoints",
        type=csv_list(str, ENDPOINTS),
        default=list(ENDPOINTS),
        help=f"default {','.join(ENDPOINTS)}",
    )
    g.add_argument(
        "--body-modes",
        type=csv_list(str, ("length", "chunked")),
        default=["length", "chunked"],
        help="Content-Length header and/or chunked encoding (default length,chunked)",
    )
    g.add_argument("--body-timeout", type=float, default=40.0, help="seconds one upload may take (default 40)")
    g.add_argument("--after-answer", type=float, default=1.0, help="seconds of upload offered after the answer")
    g = p.add_argument_group("slowloris")
    g.add_argument("--slow-conns", type=int, default=450, help="connections (default 450)")
    g.add_argument("--slow-interval", type=float, default=5.0, help="seconds between bytes (default 5)")
    g.add_argument("--slow-duration", type=float, default=75.0, help="seconds in all (default 75)")
    g.add_argument("--slow-checkpoints", type=csv_list(float), default=[10.0, 30.0, 70.0], help="default 10,30,70")
    g = p.add_argument_group("idle")
    g.add_argument("--idle-conns", type=int, default=300, help="silent connections (default 300)")
    g.add_argument("--idle-control", type=int, default=10, help="connections idle after one request (default 10)")
    g.add_argument("--idle-wait", type=float, default=40.0, help="seconds watched (default 40)")
    g = p.add_argument_group("ws")
    g.add_argument("--ws", type=int, default=500, help="websocket connects/drops, then sockets held (default 500)")
    g.add_argument("--ws-concurrency", type=int, default=50, help="handshakes at once (default 50)")
    g.add_argument("--ws-hold", type=float, default=5.0, help="seconds all sockets are held open (default 5)")
    g = p.add_argument_group("games")
    g.add_argument("--games", type=int, default=300, help="games created and read (default 300)")
    g.add_argument("--games-concurrency", type=int, default=10, help="requests at once (default 10)")
    g.add_argument("--games-settle", type=float, default=5.0, help="seconds before the last RSS reading (default 5)")
    args = p.parse_args()
    if not sys.platform.startswith("linux"):
        raise SystemExit("this script reads /proc: Linux only")
    if not 1 <= args.sources <= 250:
        raise SystemExit("--sources: 1 to 250")
    if not args.probe_source.startswith("127."):
        raise SystemExit("--probe-source must be a loopback address (127.x.x.x)")
    global SOURCES, PROBE_SOURCE
    SOURCES = [HOST] if args.sources == 1 else [f"127.0.1.{i}" for i in range(1, args.sources + 1)]
    PROBE_SOURCE = args.probe_source

    def terminate(_sig: int, _frame: object) -> None:
        logging.getLogger("asyncio").setLevel(logging.CRITICAL)  # no "Task was destroyed" for each connection
        raise KeyboardInterrupt  # SIGTERM (e.g. from `timeout`): stop the server and delete the directory

    signal.signal(signal.SIGTERM, terminate)
    port = args.port or free_port()
    tmp = tempfile.TemporaryDirectory(prefix="fogofwar-attacks-")
    log = Path(tmp.name) / "server.log"
    proc: subprocess.Popen[bytes] | None = None
    results: list[dict[str, Any]] = []
    interrupted = died = False
    t0 = time.perf_counter()
    try:
        proc = start_server(port, f"sqlite:///{Path(tmp.name) / 'attacks.db'}", log)
        stats = ProcStats(proc.pid)
        rss, _ = stats.mem_kb()
        print(
            f"server   fogofwar serve on {HOST}:{port}, pid {proc.pid}, fresh SQLite in {tmp.name}; "
            f"rss {rss / 1024:.0f} MB, fds {stats.fds()}; {os.cpu_count()} CPUs"
        )
        print(
            f"attacks  {', '.join(args.attacks)}; attacker from {SOURCES[0]}"
            + (f" .. {SOURCES[-1]} ({len(SOURCES)} addresses)" if len(SOURCES) > 1 else "")
            + f", probe from {PROBE_SOURCE}, all to {HOST}:{port}",
            flush=True,
        )
        asyncio.run(run(port, stats, proc, args, results))
        died = proc.poll() is not None
    except KeyboardInterrupt:
        logging.getLogger("asyncio").setLevel(logging.CRITICAL)
        interrupted = True
    finally:
        if proc is not None:
            stop_server(proc)
        log_lines = log.read_text(errors="replace").splitlines() if log.exists() else []
        tmp.cleanup()
    wall = time.perf_counter() - t0

    Console(width=200).print(table(results))
    notes = [row for row in log_lines if not row.startswith("fogofwar: open")]
    print(f"server log: {len(notes)} lines" + (" (last 5 below)" if notes else ""))
    for row in notes[-5:]:
        print(f"  {row[:200]}")
    print(
        f"wall     {wall:.0f} s"
        + ("; THE SERVER DIED" if died else "")
        + ("; interrupted: the server was stopped, its directory removed" if interrupted else "")
    )
    if args.json:
        out = {
            "argv": sys.argv,
            "args": vars(args),
            "port": port,
            "cpus": os.cpu_count(),
            "wall_s": wall,
            "server_died": died,
            "interrupted": interrupted,
            "server_log_tail": notes[-20:],
            "results": results,
        }
        Path(args.json).write_text(json.dumps(out, indent=2, default=str) + "\n")
        print(f"json     {args.json}")
    if interrupted:
        return 130
    return 1 if died or any("error" in r for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
