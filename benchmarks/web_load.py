"""Load test of the web app: many concurrent games played over websockets by random agents.

    .venv/bin/python benchmarks/web_load.py                          # 200 games on a fresh local server
    .venv/bin/python benchmarks/web_load.py --games 20 --max-moves 40
    .venv/bin/python benchmarks/web_load.py --url http://127.0.0.1:8000   # a server already running
    .venv/bin/python benchmarks/web_load.py --games 2000 --pace 3 --spectators 1 --max-moves 20  # human pace
    .venv/bin/python benchmarks/web_load.py --games 2000 --pace 3 --spectators 1 --max-moves 60 --ramp 60  # arriving
    .venv/bin/python benchmarks/web_load.py --postgres                    # on a throwaway PostgreSQL server
    .venv/bin/python benchmarks/web_load.py --server-src ../other/src     # another checkout's server, this client
    .venv/bin/python benchmarks/web_load.py --workers 2                   # fogofwar serve --workers 2
    .venv/bin/python benchmarks/web_load.py --workers 2 --kill-worker-after 5   # kill -9 one worker under load

Without --url the script starts the app itself (uvicorn on loopback, in a separate process, on a
temporary SQLite file that is deleted afterwards). Each game is a hot-seat game created over REST;
its two seats are two websocket clients that set up at random ("random" setup command) and then
play uniformly random legal moves until the game ends, at the latest at the move cap (--max-moves,
a draw). Every command is timed from sending it to receiving its acknowledgement, which the
server sends only once the event is stored (committed to the database), so the latency includes
the rules check, the database commit and the event loop's queueing under load. The clients keep each seat's
state from the server's whole views and deltas (`delta.follow`); a delta that does not follow is counted as an
error ("gap") and mended with a "sync" request.

Reports: games finished, commands acknowledged, latency p50/p90/p99/max for moves (and for setups),
throughput (acknowledged commands per second over the run), what the clients received (messages and bytes
of websocket payload per acknowledged command) and every error (refusals, dropped connections, timeouts,
gaps). Exits 1 if any game did not finish or any error was seen. The move latencies are also split in two
phases: the start (moves sent while games are still being created, connected and set up: a burst no site sees at
human pace) and after it (every game in play). `lag` is how late this client's own event loop woke (a 10 ms
tick): latency the client adds to every figure. `cpu` after the start gives the server's, this client's and the
whole machine's CPU per move, `busiest` the cores busy over the busiest 10 s (the rest: PostgreSQL's processes,
the kernel). `--samples FILE` writes every move's send time and latency, to look at the run over time.

--kill-worker-after S (with --workers N > 1) kills worker 0 with SIGKILL S seconds into the run. The clients then
reconnect when their connection drops (as the browser does) and play on; the report adds how many games dropped
(and whether any belonged to another worker: there must be none), how long they took to resume (from the kill to
their first acknowledged command after it), and every acknowledged action that is not in the database afterwards
(there must be none). Connections dropped by the kill are not errors then; a lost action or an undisturbed
worker's dropped game is.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from local_server import HOST, free_port, stop_server, wait_until_up
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # this checkout's client side, whatever server
from fogofwar.frontends.server.collector import quiet_collector  # noqa: E402
from fogofwar.frontends.server.delta import follow  # noqa: E402
from fogofwar.frontends.server.routing import owner, slots  # noqa: E402

SERVER = """
import sys
from fogofwar.frontends.server import Limits, serve
db, port, fsync, workers = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", int(sys.argv[4])
# Every client of the benchmark comes from 127.0.0.1: the per-address caps are raised to let them all in.
limits = Limits(connections_per_ip=20000, sockets_per_ip=20000, max_connections=20000, live_games=20000)
several = {"workers": workers} if workers > 1 else {}  # a server of before --workers takes one process only
sys.exit(serve("127.0.0.1", port, limits=limits, db=db, fsync=fsync, **several))
"""
READY_LINE = re.compile(r"worker (\d+) ready \(pid (\d+)\)")
SPARE_LINE = "spare worker ready"


@dataclass
class Stats:
    games: int = 0  # games the run plays
    started: float = 0.0  # perf_counter at the start of the run
    move_latency: list[float] = field(default_factory=list)
    move_sent: list[float] = field(default_factory=list)  # when each timed move was sent (perf_counter)
    setup_latency: list[float] = field(default_factory=list)
    create_latency: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    error_examples: list[str] = field(default_factory=list)
    finished: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    watched: int = 0  # states and deltas received by spectators
    received: Counter[str] = field(default_factory=Counter)  # messages received by every client, by type
    received_bytes: int = 0  # their websocket payload
    acked: list[tuple[str, int, str, Any]] = field(default_factory=list)  # (game, seq, command, action) acknowledged
    killed_at: float | None = None  # when a worker was killed (--kill-worker-after)
    dropped: Counter[str] = field(default_factory=Counter)  # game id -> connections it lost and opened again
    resumed: dict[str, float] = field(default_factory=dict)  # game id -> seconds from the kill to its next ack
    set_up: int = 0  # games whose two setups are acknowledged
    all_set_up: float | None = None  # when the last game's setups were acknowledged: every game is in play
    lag: list[float] = field(default_factory=list)  # this client's event loop: how late each 10 ms tick woke
    setups: Counter[str] = field(default_factory=Counter)  # game id -> setups acknowledged
    cpu: list[tuple[float, float, float, float]] = field(default_factory=list)  # each second: (at, machine, server,
    # this client) CPU seconds used so far
    server_rss: int = 0  # the most resident memory the server's processes held together, sampled each second

    def setup_acked(self, gid: str) -> None:
        self.setups[gid] += 1
        if self.setups[gid] == 2:
            self.set_up += 1
            if self.set_up == self.games:
                self.all_set_up = time.perf_counter()

    def count(self, raw: str | bytes, kind: str) -> None:
        self.received[kind] += 1
        self.received_bytes += len(raw.encode("utf-8") if isinstance(raw, str) else raw)

    def error(self, kind: str, detail: str) -> None:
        self.errors[kind] += 1
        if len(self.error_examples) < 10:
            self.error_examples.append(f"{kind}: {detail[:200]}")


# --- the server ---------------------------------------------------------------------------------------
@dataclass
class Server:
    proc: subprocess.Popen[bytes]
    base: str
    pids: dict[int, int] = field(default_factory=dict)  # worker slot -> pid of its current process


def start_server(db: str, fsync: bool, src: str | None = None, workers: int = 1) -> Server:
    """The app on a free loopback port; `src`: the source tree it runs from (default: the one Python finds). With
    several workers, returns once each has said it is ready (their pids, from the supervisor's lines on stderr),
    and the spare too (its imports would take CPU from the run)."""
    port = free_port()
    env = None
    if src is not None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, *filter(None, [os.environ.get("PYTHONPATH")])])}
    args = [sys.executable, "-c", SERVER, db, str(port), "1" if fsync else "0", str(workers)]
    proc = subprocess.Popen(args, env=env, stderr=subprocess.PIPE)
    server = Server(proc, f"http://{HOST}:{port}")
    everyone = threading.Event()
    spare = [False]

    def relay() -> None:  # the server's stderr, passed on, and the workers' pids read from it
        assert proc.stderr is not None
        for raw in proc.stderr:
            sys.stderr.write(raw.decode(errors="replace"))
            text = raw.decode(errors="replace")
            ready = READY_LINE.search(text)
            if ready:
                server.pids[int(ready.group(1))] = int(ready.group(2))
            spare[0] = spare[0] or SPARE_LINE in text
            if len(server.pids) >= workers and spare[0]:
                everyone.set()

    threading.Thread(target=relay, daemon=True).start()
    wait_until_up(proc, server.base)
    if workers > 1 and not everyone.wait(60):
        stop_server(proc)
        raise SystemExit(f"the server's {workers} workers did not all start within 60 s")
    return server


# --- one game ----------------------------------------------------------------------------------------
def post_json(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req, timeout=60) as r:
        data: dict[str, Any] = json.loads(r.read())
        return data


async def create_game(base: str, args: argparse.Namespace, stats: Stats, gate: asyncio.Semaphore) -> dict[str, Any]:
    body = {
        "game": "stratego",
        "variant": args.variant,
        "opponent": "hotseat",
        "options": {"max_moves": args.max_moves},
        "name": "load",
    }
    async with gate:
        t0 = time.perf_counter()
        created = await asyncio.to_thread(post_json, base + "/api/games", body)
        stats.create_latency.append(time.perf_counter() - t0)
    return created


RECONNECTS = 20
"""Times one client opens its connection again after it dropped (--kill-worker-after), at most."""


@dataclass
class Seat:
    """What one seat's client knows across its connections."""

    gid: str
    seat: int
    token: str
    rng: random.Random
    pace: float
    acked_seq: int = 0
    counter: int = 0
    latest: dict[str, Any] | None = None


async def seat_client(ws_url: str, me: Seat, stats: Stats, reconnect: bool = False) -> dict[str, Any] | None:
    """Play one seat to the end of the game (thinking `pace` seconds a move, give or take half); returns the last
    state it held. `reconnect`: a dropped connection is opened again (as the browser does) and play goes on."""
    for attempt in range(RECONNECTS + 1):
        try:
            async with connect(ws_url, max_size=1 << 22, open_timeout=60, ping_interval=None) as ws:
                final = await play_seat(ws, me, stats, resuming=attempt > 0)
            if final is not None and final["game"]["status"] == "over":
                return final
        except (ConnectionClosed, OSError):
            if not reconnect:
                raise
        if not reconnect:
            return me.latest
        stats.dropped[me.gid] += 1
        await asyncio.sleep(min(2.0, 0.05 * 2**attempt))
    raise ConnectionError(f"seat {me.seat} of game {me.gid}: no connection after {RECONNECTS} tries")


async def play_seat(ws: Any, me: Seat, stats: Stats, resuming: bool) -> dict[str, Any] | None:
    """One connection of a seat: hello, then play until the game is over (its last state) or the connection ends."""
    await ws.send(json.dumps({"type": "hello", "token": me.token}))
    pending: tuple[str, float, str, Any] | None = None  # (id, sent at, kind, action)
    me.latest = None  # a new connection starts from a whole view
    syncing = False
    async for raw in ws:
        msg = json.loads(raw)
        kind = msg.get("type")
        stats.count(raw, str(kind))
        if kind == "ack" and msg.get("id") == "sync":
            syncing = False
            continue
        if kind == "ack":
            if pending is not None and msg.get("id") == pending[0]:
                elapsed = time.perf_counter() - pending[1]
                if pending[2] == "setup":
                    stats.setup_latency.append(elapsed)
                    stats.setup_acked(me.gid)
                else:
                    stats.move_latency.append(elapsed)
                    stats.move_sent.append(pending[1])
                stats.acked.append((me.gid, int(msg["seq"]), pending[2], pending[3]))
                if resuming and stats.killed_at is not None and me.gid not in stats.resumed:
                    stats.resumed[me.gid] = time.perf_counter() - stats.killed_at
                pending = None
                me.acked_seq = int(msg["seq"])
            continue
        if kind == "error":
            stats.error(f"refused:{msg.get('error')}", str(msg.get("message")))
            pending = None
            continue
        if kind not in ("state", "delta"):
            continue
        held = follow(me.latest, msg)
        if held is None:  # a delta that does not follow: the whole view again
            stats.error("gap", f"seat {me.seat}: delta {msg.get('v')} after view {me.latest and me.latest.get('v')}")
            if not syncing:
                syncing = True
                await ws.send(json.dumps({"type": "sync", "id": "sync", "v": me.latest and me.latest.get("v")}))
            continue
        if held is me.latest:
            continue
        syncing = False
        msg = me.latest = held
        game = msg["game"]
        if game["status"] == "over":
            return msg
        if pending is not None or game["seq"] < me.acked_seq:
            continue  # our command is on its way, or this state is older than our last acknowledged one
        me.counter += 1
        ref = f"{me.seat}-{me.counter}"
        if game["status"] == "setup" and msg.get("setup") and not msg["setup"]["done"]:
            pending = (ref, time.perf_counter(), "setup", None)
            await ws.send(json.dumps({"type": "setup", "setup": "random", "id": ref}))
        elif game["status"] == "play" and game["to_move"] == me.seat and msg["legal"]:
            if me.pace:
                await asyncio.sleep(me.pace * me.rng.uniform(0.5, 1.5))  # a person thinking
            action = me.rng.choice(msg["legal"])
            pending = (ref, time.perf_counter(), "action", action)
            await ws.send(json.dumps({"type": "action", "action": action, "id": ref}))
    return me.latest


async def spectator(ws_url: str, stats: Stats, reconnect: bool = False) -> None:
    """Watch a game to its end, counting the states and deltas it receives (`reconnect`: after a drop, too)."""
    for attempt in range(RECONNECTS + 1):
        try:
            async with connect(ws_url, max_size=1 << 22, open_timeout=60, ping_interval=None) as ws:
                if await watch(ws, stats):
                    return
        except (ConnectionClosed, OSError):
            if not reconnect:
                raise
        if not reconnect:
            return
        await asyncio.sleep(min(2.0, 0.05 * 2**attempt))


async def watch(ws: Any, stats: Stats) -> bool:
    """One spectator connection: True once the game is over."""
    await ws.send(json.dumps({"type": "hello"}))
    held: dict[str, Any] | None = None
    async for raw in ws:
        msg = json.loads(raw)
        stats.count(raw, str(msg.get("type")))
        if msg.get("type") in ("state", "delta"):
            stats.watched += 1
            nxt = follow(held, msg)
            if nxt is None:
                stats.error("gap", f"spectator: delta {msg.get('v')} after view {held and held.get('v')}")
                await ws.send(json.dumps({"type": "sync"}))
                continue
            held = nxt
            if held["game"]["status"] == "over":
                return True
    return False


async def play_game(base: str, args: argparse.Namespace, index: int, stats: Stats, gate: asyncio.Semaphore) -> None:
    if args.ramp:  # games arrive one after another over the ramp, as players come to a site, not all at once
        await asyncio.sleep(args.ramp * index / args.games)
    try:
        created = await create_game(base, args, stats, gate)
    except (OSError, urllib.error.URLError, ValueError) as exc:
        stats.error("create", repr(exc))
        return
    gid = created["game"]["id"]
    ws_url = base.replace("http", "ws", 1) + f"/ws/games/{gid}"
    rng = random.Random(args.seed * 100_003 + index)
    again = args.kill_worker_after is not None
    clients = [
        seat_client(
            ws_url, Seat(gid, seat, created["seats"][str(seat)], random.Random(rng.random()), args.pace), stats, again
        )
        for seat in (0, 1)
    ]
    watchers = [spectator(ws_url, stats, again) for _ in range(args.spectators)]
    try:
        results = (await asyncio.wait_for(asyncio.gather(*clients, *watchers), args.timeout))[:2]
    except TimeoutError:
        stats.error("timeout", f"game {gid} did not finish within {args.timeout} s")
        return
    except Exception as exc:  # a dropped connection, a bad frame: counted, the other games go on
        stats.error("connection", f"game {gid}: {exc!r}")
        return
    last = results[0] or results[1]
    if last is None or last["game"]["status"] != "over":
        stats.error("unfinished", f"game {gid} ended its connections before the game was over")
        return
    stats.finished += 1
    outcome = last["game"]["outcome"] or {}
    stats.outcomes[str(outcome.get("termination"))] += 1


# --- the report ----------------------------------------------------------------------------------------
def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def phases(stats: Stats) -> tuple[list[float], list[float]]:
    """The move latencies in two phases: the start (moves sent while games were still being created, connected and
    set up) and after it (every game created and set up; fewer live as games end)."""
    start: list[float] = []
    after: list[float] = []
    for sent, latency in zip(stats.move_sent, stats.move_latency, strict=True):
        (start if stats.all_set_up is None or sent < stats.all_set_up else after).append(latency)
    return start, after


def busiest_cpu(stats: Stats, span: int = 10) -> tuple[float, float, float] | None:
    """The machine's, the server's and this client's cores busy over the `span` seconds the machine was busiest."""
    best: tuple[float, float, float] | None = None
    for (t0, machine0, server0, client0), (t1, machine1, server1, client1) in zip(
        stats.cpu, stats.cpu[span:], strict=False
    ):
        seconds = t1 - t0
        cores = ((machine1 - machine0) / seconds, (server1 - server0) / seconds, (client1 - client0) / seconds)
        if best is None or cores[0] > best[0]:
            best = cores
    return best


def line(name: str, values: list[float]) -> str:
    if not values:
        return f"{name:<8} none"
    ms = [v * 1000 for v in values]
    return (
        f"{name:<8} n={len(ms):>6}  p50={pct(ms, 50):7.1f} ms  p90={pct(ms, 90):7.1f} ms  "
        f"p99={pct(ms, 99):7.1f} ms  max={max(ms):7.1f} ms  mean={statistics.fmean(ms):7.1f} ms"
    )


def machine_cpu_seconds() -> float:
    """CPU seconds this machine's cores have spent busy since boot (every process: the server, this client, a
    PostgreSQL server, anything else)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


async def run(
    base: str, args: argparse.Namespace, victim: int | None = None, server: Server | None = None
) -> tuple[Stats, float]:
    """Play the games; `victim`: the pid of the worker to kill -9 after --kill-worker-after seconds; `server` (one
    started here): its CPU seconds and memory, sampled each second with the machine's CPU and this client's."""
    t0 = time.perf_counter()
    stats = Stats(games=args.games, started=t0)
    gate = asyncio.Semaphore(args.create_concurrency)

    async def sample_cpu() -> None:
        while True:
            at = time.perf_counter()
            stats.cpu.append((at, machine_cpu_seconds(), cpu_seconds(server) if server else 0.0, time.process_time()))
            if server is not None:
                stats.server_rss = max(stats.server_rss, rss_bytes(server))
            await asyncio.sleep(1.0)

    async def tick() -> None:  # how late this client's own loop runs: latency it adds to every figure
        while True:
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            stats.lag.append(time.perf_counter() - before - 0.01)

    async def kill_later() -> None:
        assert victim is not None
        await asyncio.sleep(args.kill_worker_after)
        stats.killed_at = time.perf_counter()
        os.kill(victim, signal.SIGKILL)
        print(f"killed   worker 0 (pid {victim}) with SIGKILL {args.kill_worker_after:g} s into the run", flush=True)

    killer = asyncio.create_task(kill_later()) if victim is not None else None
    ticker = asyncio.create_task(tick())
    sampler = asyncio.create_task(sample_cpu())
    await asyncio.gather(*(play_game(base, args, i, stats, gate) for i in range(args.games)))
    ticker.cancel()
    sampler.cancel()
    if killer is not None and not killer.done():
        killer.cancel()
        stats.error("kill", "the games ended before the worker was killed: use a shorter --kill-worker-after")
    return stats, time.perf_counter() - t0


def rss_bytes(server: Server) -> int:
    """The resident memory of the server's processes now (the started process and its workers)."""
    total = 0
    for pid in {server.proc.pid, *server.pids.values()}:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        kib = next((line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:")), "0")
        total += int(kib) * 1024
    return total


def cpu_seconds(server: Server) -> float:
    """User and system CPU seconds the server's processes have used: the started process (one process, or the
    supervisor), its workers alive now, and (in the supervisor's counts of its reaped children) the dead ones."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for pid in {server.proc.pid, *server.pids.values()}:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        except OSError:  # a worker killed and reaped: counted in its supervisor's children's time
            continue
        times = fields[11:15] if pid == server.proc.pid else fields[11:13]  # utime stime [cutime cstime]
        total += sum(int(t) for t in times) / tick
    return total


def lost_actions(db: str, acked: list[tuple[str, int, str, Any]]) -> list[str]:
    """Every acknowledged command that is not in the database's log at the place (seq) it was acknowledged for."""
    from fogofwar.frontends.server.store import Store

    store = Store(db)
    try:
        logs: dict[str, dict[int, Any]] = {}
        lost = []
        for gid, seq, kind, action in acked:
            if gid not in logs:
                logs[gid] = {ev.seq: ev for ev in store.events(gid)}
            ev = logs[gid].get(seq)
            if ev is None or ev.kind != kind or (kind == "action" and ev.payload.get("action") != action):
                lost.append(f"game {gid} event {seq}: {kind} {action if action is not None else ''}")
        return lost
    finally:
        store.close()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    p.add_argument("--variant", default="barrage", help="Stratego variant (default barrage: 8 pieces a side)")
    p.add_argument("--max-moves", type=int, default=100, help="move cap per game, a draw (default 100)")
    p.add_argument("--url", help="target a running server (http://host:port) instead of starting one")
    p.add_argument("--no-fsync", action="store_true", help="started server: commit without fsync (as the tests do)")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds a game may take (default 600)")
    p.add_argument("--create-concurrency", type=int, default=20, help="games created at once (default 20)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--pace", type=float, default=0.0, help="seconds a player thinks a move, +-50%% (default 0)")
    p.add_argument("--spectators", type=int, default=0, help="spectator websockets per game (default 0)")
    p.add_argument(
        "--ramp",
        type=float,
        default=0.0,
        metavar="S",
        help="create the games evenly over S seconds instead of as fast as the server takes them (default 0)",
    )
    p.add_argument("--json", action="store_true", help="also print the figures as one JSON line")
    p.add_argument("--samples", type=Path, help="write every move's send time and latency (seconds) to this CSV file")
    p.add_argument(
        "--server-src",
        help="started server: run it from this source tree (another checkout's src, to compare two servers with one"
        " client)",
    )
    p.add_argument("--workers", type=int, default=1, help="started server: worker processes (default 1)")
    p.add_argument(
        "--kill-worker-after",
        type=float,
        metavar="S",
        help="started server with --workers > 1: kill -9 worker 0 S seconds in; report lost actions and resume times",
    )
    p.add_argument(
        "--postgres",
        action="store_true",
        help="the started server on a throwaway PostgreSQL server (Debian's postgresql; fsync on unless --no-fsync)",
    )
    args = p.parse_args()
    if args.kill_worker_after is not None and (args.url or args.workers < 2):
        p.error("--kill-worker-after needs a started server (no --url) with --workers 2 or more")

    proc = None
    db = None
    server = None
    tmp = None
    postgres = None
    if args.url:
        base = args.url.rstrip("/")
        where = base
    elif args.postgres:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository: the tests' server helper
        from tests.frontends.server.postgres import PostgresServer, unusable

        problem = unusable()
        if problem:
            sys.exit(f"web_load: no PostgreSQL here: {problem}")
        postgres = PostgresServer(durable=not args.no_fsync)
        postgres.start()
        db = postgres.fresh_database()
        server = start_server(db, fsync=not args.no_fsync, src=args.server_src, workers=args.workers)
        where = f"{server.base} (started here; throwaway PostgreSQL, fsync {'off' if args.no_fsync else 'on'})"
    else:
        tmp = tempfile.TemporaryDirectory(prefix="fogofwar-load-")
        db = f"sqlite:///{Path(tmp.name) / 'load.db'}"
        server = start_server(db, fsync=not args.no_fsync, src=args.server_src, workers=args.workers)
        where = f"{server.base} (started here; temporary SQLite, fsync {'off' if args.no_fsync else 'on'})"
    if server is not None:
        proc, base = server.proc, server.base
        where += f"; {args.workers} worker processes" if args.workers > 1 else "; one process"
    if args.server_src and not args.url:
        where += f"; server from {args.server_src}"
    lost: list[str] = []
    server_cpu: float | None = None
    try:
        victim = server.pids.get(0) if server is not None and args.kill_worker_after is not None else None
        server_cpu = cpu_seconds(server) if server is not None else None
        # This client holds every game's sockets in one process: its own full collections (0.2-0.4 s each) would
        # count against the server in every latency measured, so it runs as the server does (collector.py).
        quiet_collector(every=None)
        client_cpu = time.process_time()
        stats, wall = asyncio.run(run(base, args, victim, server))
        client_cpu = time.process_time() - client_cpu
        if server is not None and server_cpu is not None:
            server_cpu = cpu_seconds(server) - server_cpu
        if proc is not None:
            stop_server(proc)
        if db is not None and args.kill_worker_after is not None:
            lost = lost_actions(db, stats.acked)
    finally:
        if proc is not None:
            stop_server(proc)
        if tmp is not None:
            tmp.cleanup()
        if postgres is not None:
            postgres.stop()

    acked = len(stats.move_latency) + len(stats.setup_latency)
    if args.samples:
        with args.samples.open("w", encoding="utf-8") as out:
            out.write("sent_s,latency_s\n")
            for sent, latency in zip(stats.move_sent, stats.move_latency, strict=True):
                out.write(f"{sent - stats.started:.4f},{latency:.5f}\n")
    print(f"server   {where}")
    print(
        f"load     {args.games} concurrent {args.variant} games, 2 websocket clients each, random moves, "
        f"cap {args.max_moves} moves; {os.cpu_count()} CPUs" + (f"; created over {args.ramp:g} s" if args.ramp else "")
    )
    print(line("move", stats.move_latency))
    start, after = phases(stats)
    if stats.all_set_up is not None:
        print(f"phases   every game created and set up {stats.all_set_up - stats.started:.1f} s into the run")
        print(line("  start", start))
        print(line("  after", after))
    print(line("lag", stats.lag))
    set_up = stats.all_set_up
    later = [sample for sample in stats.cpu if set_up is not None and sample[0] >= set_up]
    done = sum(1 for sent in stats.move_sent if later and later[0][0] <= sent < later[-1][0])
    if done:  # moves sent between the first and the last sample after the start
        (t0, m0, s0, c0), (t1, m1, s1, c1) = later[0], later[-1]
        print(
            f"cpu      after the start, {t1 - t0:.0f} s: server {1000 * (s1 - s0) / done:.2f} ms a move, this client "
            f"{1000 * (c1 - c0) / done:.2f} ms, the machine {1000 * (m1 - m0) / done:.2f} ms"
        )
    if stats.server_rss:
        print(f"memory   the server's processes held at most {stats.server_rss / 2**20:.0f} MiB together")
    busiest = busiest_cpu(stats)
    if busiest:
        machine, server_cores, client_cores = busiest
        print(
            f"busiest  10 s of the run: the machine {machine:.2f} of {os.cpu_count()} cores busy (server "
            f"{server_cores:.2f}, this client {client_cores:.2f}, the rest {machine - server_cores - client_cores:.2f})"
        )
    print(line("setup", stats.setup_latency))
    print(line("create", stats.create_latency))
    print(
        f"through  {acked} commands acknowledged in {wall:.1f} s = {acked / wall:.0f} commands/s "
        f"({len(stats.move_latency) / wall:.0f} moves/s)"
    )
    if server_cpu is not None and acked:
        print(
            f"cpu      server {server_cpu:.1f} s = {1000 * server_cpu / acked:.2f} ms a command "
            f"({server_cpu / wall:.2f} cores); this client {client_cpu:.1f} s = {1000 * client_cpu / acked:.2f} ms "
            f"a command ({client_cpu / wall:.2f} cores)"
        )
    per = stats.received_bytes / acked if acked else float("nan")
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(stats.received.items()))
    total = sum(stats.received.values())
    print(f"received {total} messages ({kinds}), {stats.received_bytes} bytes = {per:.0f} bytes a command")
    if args.spectators:
        print(f"watched  {args.spectators} spectator(s) a game received {stats.watched} states and deltas")
    if args.kill_worker_after is not None:
        names = slots(args.workers)
        elsewhere = sorted(gid for gid in stats.dropped if owner(gid, names) != "0")
        for gid in elsewhere:
            stats.error("disturbed", f"game {gid} of another worker lost its connection")
        for example in lost:
            stats.error("lost", example)
        waits = sorted(stats.resumed.values())
        resumed = (
            f"resumed after p50 {pct(waits, 50):.2f} s, max {waits[-1]:.2f} s (from the kill to their next ack)"
            if waits
            else "none resumed"
        )
        print(
            f"kill     {len(stats.dropped)} games lost their connections ({len(elsewhere)} of other workers); "
            f"{len(waits)} {resumed}; {len(lost)} of {len(stats.acked)} acknowledged commands lost"
        )
    ends = ", ".join(f"{k} {v}" for k, v in stats.outcomes.items())
    print(f"games    {stats.finished}/{args.games} finished: {ends}")
    errors = sum(stats.errors.values())
    print(f"errors   {errors}" + (": " + ", ".join(f"{k} {v}" for k, v in stats.errors.items()) if errors else ""))
    for example in stats.error_examples:
        print(f"         {example}")
    if args.json:
        ms = [v * 1000 for v in stats.move_latency]
        print(
            json.dumps(
                {
                    "games": args.games,
                    "finished": stats.finished,
                    "moves": len(ms),
                    "p50_ms": pct(ms, 50),
                    "p90_ms": pct(ms, 90),
                    "p99_ms": pct(ms, 99),
                    "start_moves": len(start),
                    "start_p99_ms": pct([v * 1000 for v in start], 99),
                    "after_p50_ms": pct([v * 1000 for v in after], 50),
                    "after_p99_ms": pct([v * 1000 for v in after], 99),
                    "client_lag_p99_ms": pct([v * 1000 for v in stats.lag], 99),
                    "server_rss_mib": stats.server_rss / 2**20,
                    "bytes_per_command": per,
                    "commands_per_s": acked / wall,
                    "errors": dict(stats.errors),
                    "wall_s": wall,
                    "pace_s": args.pace,
                    "ramp_s": args.ramp,
                    "spectators": args.spectators,
                    "workers": args.workers,
                    "lost": len(lost),
                    "dropped_games": len(stats.dropped),
                    "resume_max_s": max(stats.resumed.values(), default=None),
                    "server_cpu_ms_per_command": 1000 * server_cpu / acked if server_cpu and acked else None,
                    "client_cpu_ms_per_command": 1000 * client_cpu / acked if acked else None,
                }
            )
        )
    return 0 if errors == 0 and stats.finished == args.games else 1


if __name__ == "__main__":
    sys.exit(main())
