"""CPU cost of one accepted action in the server, without the network: GameManager driven directly.

    .venv/bin/python benchmarks/server_actions.py                    # 40 concurrent barrage games, fsync on
    .venv/bin/python benchmarks/server_actions.py --no-fsync --profile /tmp/actions.prof
    .venv/bin/python benchmarks/server_actions.py --deflate           # also compress each message as uvicorn does

Plays hot-seat Stratego games through `GameManager.submit` exactly as the websocket handler does (two
connections per game, one per seat; random setups, then uniformly random legal moves up to the move
cap), on a temporary SQLite file. Every message a connection receives is encoded as the websocket
would send it (`json.dumps` with Starlette's settings; with --deflate, also permessage-deflate with
uvicorn's settings), so the figure covers everything the server does per action except the socket
and the HTTP/websocket framing: the rules check, the database commit (in a worker thread, as served),
the views, their deltas and the JSON encoding. The driver keeps each seat's state from the whole view and
the deltas (`delta.follow`), off the server's CPU time like its decoding.

Reports the process CPU time (all threads) per stored event, not counting the driver's own decoding
of the messages it receives, and wall-clock throughput. --profile writes a cProfile of the event-loop
thread (the database thread's own time shows up as waiting in the loop).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import random
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

from fogofwar.frontends.server.delta import follow
from fogofwar.frontends.server.manager import Connection, GameManager
from fogofwar.frontends.server.session import ClientError, Command
from fogofwar.frontends.server.store import Store


class Encoder:
    """What the websocket does to each message before it reaches the socket."""

    def __init__(self, deflate: bool) -> None:
        self.deflate = deflate
        self.bytes = 0
        self.wire = 0
        self.messages = 0
        self.client_cpu = 0.0  # the driver's own decoding of text messages, taken off the server's CPU time

    def compressor(self) -> Any:
        # websockets' permessage-deflate as uvicorn configures it: 12 window bits, memLevel 5, context kept.
        return zlib.compressobj(wbits=-12, memLevel=5) if self.deflate else None

    def encode(self, msg: Any, comp: Any) -> None:
        text = msg if isinstance(msg, str) else json.dumps(msg, separators=(",", ":"), ensure_ascii=False)
        data = text.encode("utf-8")
        self.messages += 1
        self.bytes += len(data)
        if comp is not None:
            data = comp.compress(data) + comp.flush(zlib.Z_SYNC_FLUSH)
        self.wire += len(data)


async def seat_player(
    manager: GameManager, live: Any, conn: Connection, rng: random.Random, enc: Encoder, stats: dict[str, int]
) -> None:
    comp = enc.compressor()
    pending = False
    acked_seq = 0
    counter = 0
    held: dict[str, Any] | None = None
    while True:
        msg = await conn.queue.get()
        if msg is None:
            return
        enc.encode(msg, comp)
        t0 = time.thread_time()
        if isinstance(msg, str):  # a state or a delta as JSON text: the client decodes it (not the server's cost)
            msg = json.loads(msg)
        kind = msg.get("type")
        if kind in ("state", "delta"):
            held = follow(held, msg)
            assert held is not None, f"a delta that does not follow: {msg}"
            msg = held
        enc.client_cpu += time.thread_time() - t0
        if kind == "ack":
            pending = False
            acked_seq = int(msg["seq"])
            stats["acks"] += 1
            continue
        if kind == "error":
            stats["errors"] += 1
            pending = False
            continue
        if kind not in ("state", "delta"):
            continue
        game = msg["game"]
        if game["status"] == "over":
            return
        if pending or game["seq"] < acked_seq:
            continue
        counter += 1
        cmd: Command | None = None
        if game["status"] == "setup" and msg.get("setup") and not msg["setup"]["done"]:
            cmd = Command("setup", f"{conn.seat}-{counter}", setup="random")
        elif game["status"] == "play" and game["to_move"] == conn.seat and msg["legal"]:
            cmd = Command("action", f"{conn.seat}-{counter}", action=rng.choice(msg["legal"]))
        if cmd is None:
            continue
        pending = True
        assert conn.seat is not None
        # As the websocket handler: the command is handled in the connection's receiving task.
        try:
            await manager.submit(live, conn.seat, cmd, origin=conn)
        except ClientError as exc:
            conn.send(exc.to_json(cmd.ref))


async def play(manager: GameManager, args: argparse.Namespace, index: int, enc: Encoder, stats: dict[str, int]) -> None:
    created = await manager.create(
        "stratego", {"variant": args.variant, "max_moves": args.max_moves}, "hotseat", "red", "load"
    )
    live = await manager.get(created.info["id"])
    rng = random.Random(args.seed * 100_003 + index)
    conns = [await manager.connect(live, seat) for seat in (0, 1)]
    await asyncio.gather(*(seat_player(manager, live, c, random.Random(rng.random()), enc, stats) for c in conns))
    for c in conns:
        manager.disconnect(live, c)
    stats["finished"] += 1


async def run(args: argparse.Namespace, db: str) -> tuple[dict[str, int], Encoder, float, float]:
    store = Store(db, fsync=not args.no_fsync)
    manager = GameManager(store)
    enc = Encoder(args.deflate)
    stats = {"acks": 0, "errors": 0, "finished": 0}
    prof = cProfile.Profile() if args.profile else None
    cpu0, loop0, wall0 = time.process_time(), time.thread_time(), time.perf_counter()
    if prof is not None:
        prof.enable()
    await asyncio.gather(*(play(manager, args, i, enc, stats) for i in range(args.games)))
    if prof is not None:
        prof.disable()
        prof.dump_stats(args.profile)
    cpu, wall = time.process_time() - cpu0 - enc.client_cpu, time.perf_counter() - wall0
    stats["loop_cpu_us"] = round(1e6 * (time.thread_time() - loop0 - enc.client_cpu))
    await manager.stop()
    with store.engine.connect() as c:
        stats["events"] = int(c.exec_driver_sql("select count(*) from events").scalar_one())
    store.close()
    return stats, enc, cpu, wall


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--games", type=int, default=40, help="concurrent games (default 40)")
    p.add_argument("--variant", default="barrage")
    p.add_argument("--max-moves", type=int, default=100)
    p.add_argument("--no-fsync", action="store_true")
    p.add_argument("--deflate", action="store_true", help="also compress every message (permessage-deflate)")
    p.add_argument("--profile", help="write a cProfile of the event-loop thread to this file")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="fogofwar-actions-") as tmp:
        stats, enc, cpu, wall = asyncio.run(run(args, f"sqlite:///{Path(tmp) / 'actions.db'}"))
    n = stats["events"]
    print(
        f"{args.games} {args.variant} games ({stats['finished']} finished), {n} events stored, "
        f"{stats['acks']} commands acknowledged, {stats['errors']} errors; fsync {'off' if args.no_fsync else 'on'}"
    )
    loop = stats["loop_cpu_us"] / 1e6
    print(
        f"cpu      {cpu:.2f} s = {1000 * cpu / max(n, 1):.3f} ms per event (event loop {1000 * loop / max(n, 1):.3f}, "
        f"other threads {1000 * (cpu - loop) / max(n, 1):.3f}); wall {wall:.2f} s = {n / wall:.0f} events/s"
    )
    print(
        f"messages {enc.messages} = {enc.messages / max(n, 1):.2f} per event, {enc.bytes / max(enc.messages, 1):.0f} "
        f"bytes each" + (f" ({enc.wire / max(enc.messages, 1):.0f} deflated)" if args.deflate else "")
    )
    return 0 if stats["errors"] == 0 and stats["finished"] == args.games else 1


if __name__ == "__main__":
    sys.exit(main())
