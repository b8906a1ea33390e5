"""Load test of the web app: many concurrent games played over websockets by random agents.

    .venv/bin/python benchmarks/web_load.py                          # 200 games on a fresh local server
    .venv/bin/python benchmarks/web_load.py --games 20 --max-moves 40
    .venv/bin/python benchmarks/web_load.py --url http://127.0.0.1:8000   # a server already running
    .venv/bin/python benchmarks/web_load.py --games 2000 --pace 3 --spectators 1 --max-moves 20  # human pace
    .venv/bin/python benchmarks/web_load.py --postgres                    # on a throwaway PostgreSQL server
    .venv/bin/python benchmarks/web_load.py --server-src ../other/src     # another checkout's server, this client

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
gaps). Exits 1 if any game did not finish or any error was seen.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from local_server import HOST, free_port, stop_server, wait_until_up
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # this checkout's client side, whatever server
from fogofwar.frontends.server.delta import follow  # noqa: E402

SERVER = """
import sys
from fogofwar.frontends.server import Limits, serve
db, port, fsync = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
# Every client of the benchmark comes from 127.0.0.1: the per-address caps are raised to let them all in.
limits = Limits(connections_per_ip=20000, sockets_per_ip=20000, max_connections=20000, live_games=20000)
serve("127.0.0.1", port, limits=limits, db=db, fsync=fsync)
"""


@dataclass
class Stats:
    move_latency: list[float] = field(default_factory=list)
    setup_latency: list[float] = field(default_factory=list)
    create_latency: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    error_examples: list[str] = field(default_factory=list)
    finished: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    watched: int = 0  # states and deltas received by spectators
    received: Counter[str] = field(default_factory=Counter)  # messages received by every client, by type
    received_bytes: int = 0  # their websocket payload

    def count(self, raw: str | bytes, kind: str) -> None:
        self.received[kind] += 1
        self.received_bytes += len(raw.encode("utf-8") if isinstance(raw, str) else raw)

    def error(self, kind: str, detail: str) -> None:
        self.errors[kind] += 1
        if len(self.error_examples) < 10:
            self.error_examples.append(f"{kind}: {detail[:200]}")


# --- the server ---------------------------------------------------------------------------------------
def start_server(db: str, fsync: bool, src: str | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """The app on a free loopback port; `src`: the source tree it runs from (default: the one Python finds)."""
    port = free_port()
    env = None
    if src is not None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, *filter(None, [os.environ.get("PYTHONPATH")])])}
    proc = subprocess.Popen([sys.executable, "-c", SERVER, db, str(port), "1" if fsync else "0"], env=env)
    base = f"http://{HOST}:{port}"
    wait_until_up(proc, base)
    return proc, base


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


async def seat_client(
    ws_url: str, token: str, seat: int, rng: random.Random, stats: Stats, pace: float = 0.0
) -> dict[str, Any] | None:
    """Play one seat to the end of the game (thinking `pace` seconds a move, give or take half); returns the last
    state it held."""
    async with connect(ws_url, max_size=1 << 22, open_timeout=60, ping_interval=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        pending: tuple[str, float, str] | None = None  # (id, sent at, kind)
        acked_seq = 0
        counter = 0
        latest: dict[str, Any] | None = None
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
                    (stats.setup_latency if pending[2] == "setup" else stats.move_latency).append(elapsed)
                    pending = None
                    acked_seq = int(msg["seq"])
                continue
            if kind == "error":
                stats.error(f"refused:{msg.get('error')}", str(msg.get("message")))
                pending = None
                continue
            if kind not in ("state", "delta"):
                continue
            held = follow(latest, msg)
            if held is None:  # a delta that does not follow: the whole view again
                stats.error("gap", f"seat {seat}: delta {msg.get('v')} after view {latest and latest.get('v')}")
                if not syncing:
                    syncing = True
                    await ws.send(json.dumps({"type": "sync", "id": "sync", "v": latest and latest.get("v")}))
                continue
            if held is latest:
                continue
            syncing = False
            msg = latest = held
            game = msg["game"]
            if game["status"] == "over":
                return msg
            if pending is not None or game["seq"] < acked_seq:
                continue  # our command is on its way, or this state is older than our last acknowledged one
            counter += 1
            ref = f"{seat}-{counter}"
            if game["status"] == "setup" and msg.get("setup") and not msg["setup"]["done"]:
                pending = (ref, time.perf_counter(), "setup")
                await ws.send(json.dumps({"type": "setup", "setup": "random", "id": ref}))
            elif game["status"] == "play" and game["to_move"] == seat and msg["legal"]:
                if pace:
                    await asyncio.sleep(pace * rng.uniform(0.5, 1.5))  # a person thinking
                pending = (ref, time.perf_counter(), "move")
                await ws.send(json.dumps({"type": "action", "action": rng.choice(msg["legal"]), "id": ref}))
        return latest


async def spectator(ws_url: str, stats: Stats) -> None:
    """Watch a game to its end, counting the states and deltas it receives."""
    async with connect(ws_url, max_size=1 << 22, open_timeout=60, ping_interval=None) as ws:
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
                    return


async def play_game(base: str, args: argparse.Namespace, index: int, stats: Stats, gate: asyncio.Semaphore) -> None:
    try:
        created = await create_game(base, args, stats, gate)
    except (OSError, urllib.error.URLError, ValueError) as exc:
        stats.error("create", repr(exc))
        return
    gid = created["game"]["id"]
    ws_url = base.replace("http", "ws", 1) + f"/ws/games/{gid}"
    rng = random.Random(args.seed * 100_003 + index)
    clients = [
        seat_client(ws_url, created["seats"][str(seat)], seat, random.Random(rng.random()), stats, args.pace)
        for seat in (0, 1)
    ]
    watchers = [spectator(ws_url, stats) for _ in range(args.spectators)]
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


def line(name: str, values: list[float]) -> str:
    if not values:
        return f"{name:<8} none"
    ms = [v * 1000 for v in values]
    return (
        f"{name:<8} n={len(ms):>6}  p50={pct(ms, 50):7.1f} ms  p90={pct(ms, 90):7.1f} ms  "
        f"p99={pct(ms, 99):7.1f} ms  max={max(ms):7.1f} ms  mean={statistics.fmean(ms):7.1f} ms"
    )


async def run(base: str, args: argparse.Namespace) -> tuple[Stats, float]:
    stats = Stats()
    gate = asyncio.Semaphore(args.create_concurrency)
    t0 = time.perf_counter()
    await asyncio.gather(*(play_game(base, args, i, stats, gate) for i in range(args.games)))
    return stats, time.perf_counter() - t0


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
    p.add_argument("--json", action="store_true", help="also print the figures as one JSON line")
    p.add_argument(
        "--server-src",
        help="started server: run it from this source tree (another checkout's src, to compare two servers with one"
        " client)",
    )
    p.add_argument(
        "--postgres",
        action="store_true",
        help="the started server on a throwaway PostgreSQL server (Debian's postgresql; fsync on unless --no-fsync)",
    )
    args = p.parse_args()

    proc = None
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
        proc, base = start_server(postgres.fresh_database(), fsync=not args.no_fsync, src=args.server_src)
        where = f"{base} (started here; throwaway PostgreSQL, fsync {'off' if args.no_fsync else 'on'})"
    else:
        tmp = tempfile.TemporaryDirectory(prefix="fogofwar-load-")
        db = f"sqlite:///{Path(tmp.name) / 'load.db'}"
        proc, base = start_server(db, fsync=not args.no_fsync, src=args.server_src)
        where = f"{base} (started here; temporary SQLite, fsync {'off' if args.no_fsync else 'on'})"
    if args.server_src and not args.url:
        where += f"; server from {args.server_src}"
    try:
        stats, wall = asyncio.run(run(base, args))
    finally:
        if proc is not None:
            stop_server(proc)
        if tmp is not None:
            tmp.cleanup()
        if postgres is not None:
            postgres.stop()

    acked = len(stats.move_latency) + len(stats.setup_latency)
    errors = sum(stats.errors.values())
    print(f"server   {where}")
    print(
        f"load     {args.games} concurrent {args.variant} games, 2 websocket clients each, random moves, "
        f"cap {args.max_moves} moves; {os.cpu_count()} CPUs"
    )
    print(line("move", stats.move_latency))
    print(line("setup", stats.setup_latency))
    print(line("create", stats.create_latency))
    print(
        f"through  {acked} commands acknowledged in {wall:.1f} s = {acked / wall:.0f} commands/s "
        f"({len(stats.move_latency) / wall:.0f} moves/s)"
    )
    per = stats.received_bytes / acked if acked else float("nan")
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(stats.received.items()))
    total = sum(stats.received.values())
    print(f"received {total} messages ({kinds}), {stats.received_bytes} bytes = {per:.0f} bytes a command")
    if args.spectators:
        print(f"watched  {args.spectators} spectator(s) a game received {stats.watched} states and deltas")
    ends = ", ".join(f"{k} {v}" for k, v in stats.outcomes.items())
    print(f"games    {stats.finished}/{args.games} finished: {ends}")
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
                    "bytes_per_command": per,
                    "commands_per_s": acked / wall,
                    "errors": dict(stats.errors),
                    "wall_s": wall,
                    "pace_s": args.pace,
                    "spectators": args.spectators,
                }
            )
        )
    return 0 if errors == 0 and stats.finished == args.games else 1


if __name__ == "__main__":
    sys.exit(main())
