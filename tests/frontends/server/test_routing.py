"""The supervisor's routing: the request line read without consuming it, the game a path names, the owner of a
game, and the Router on real loopback connections (bad, huge and slow heads; where each connection goes)."""

from __future__ import annotations

import asyncio
import random
import socket
from collections import Counter
from collections.abc import Awaitable, Callable
from contextlib import suppress
from typing import Any

import pytest

from fogofwar.frontends.server import create_app
from fogofwar.frontends.server.front_door import Router
from fogofwar.frontends.server.limits import Limits
from fogofwar.frontends.server.routing import (
    MAX_REQUEST_LINE,
    BadHead,
    Ownership,
    game_in_path,
    owner,
    request_line,
    slots,
)

# --- the request line ---------------------------------------------------------------------------------


def test_a_request_line_is_read_once_complete() -> None:
    line = request_line(b"GET /api/games/abc/seat?x=1 HTTP/1.1\r\nHost: a\r\n")
    assert line is not None and line.method == "GET" and line.target == "/api/games/abc/seat?x=1"
    assert line.path == "/api/games/abc/seat"
    assert request_line(b"\r\n\r\nPOST /x HTTP/1.0\n") is not None  # empty lines first, a bare LF: allowed
    for partial in (b"", b"G", b"GET /api/ga", b"GET /api/games/abc HTTP/1.1"):
        assert request_line(partial) is None, partial


def test_the_path_is_read_as_the_app_reads_it() -> None:
    """Percent-encoding cannot send a game's request to another worker: the supervisor decodes as uvicorn does."""
    line = request_line(b"GET /api/games/%41bc/act HTTP/1.1\r\n")
    assert line is not None and line.path == "/api/games/Abc/act" and game_in_path(line.path) == "Abc"


@pytest.mark.parametrize(
    ("head", "status"),
    [
        (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", 400),  # a TLS hello on the plain port
        (b"GET /a HTTP/1.1 extra\r\n", 400),
        (b"GET /a\r\n", 400),  # HTTP/0.9
        (b"GET /a FTP/1.0\r\n", 400),
        (b"G(T /a HTTP/1.1\r\n", 400),
        (b"GET /\xc3\xa9 HTTP/1.1\r\n", 400),
        (b"GET /a\x7fb HTTP/1.1\r\n", 400),
        (b" GET /a HTTP/1.1\r\n", 400),
        (b"GET /" + b"a" * MAX_REQUEST_LINE + b" HTTP/1.1\r\n", 414),
        (b"GET /" + b"a" * (MAX_REQUEST_LINE + 10), 414),  # not even complete yet: too long already
        (b"\r\n" * (MAX_REQUEST_LINE // 2 + 2), 400),
    ],
)
def test_bad_request_lines_are_refused(head: bytes, status: int) -> None:
    with pytest.raises(BadHead) as caught:
        request_line(head)
    assert caught.value.status == status


def test_random_bytes_never_crash_the_reader() -> None:
    rng = random.Random(5)
    for _ in range(2000):
        head = bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
        try:
            line = request_line(head)
        except BadHead:
            continue
        assert line is None or line.target


# --- the game of a path ---------------------------------------------------------------------------------


def test_every_route_that_names_a_game_is_routed_by_it() -> None:
    """Each route of the app with a {game_id} (REST, websocket, pages) is routed by that id, and no other route is:
    a new game route the routing does not know fails here."""
    app = create_app("sqlite://")
    seen = 0
    for path in _paths(app.routes):
        example = path.replace("{game_id}", "G4m3_id-x").replace("{name}", "someone").replace("{doc}", "stratego")
        example = example.replace("{path:path}", "style.css")
        if "{game_id}" in path:
            seen += 1
            assert game_in_path(example) == "G4m3_id-x", path
        else:
            assert game_in_path(example) is None, path
    assert seen >= 12
    assert game_in_path("/api/games") is None and game_in_path("/api/games/") is None
    assert game_in_path("/static/game.js") is None and game_in_path("/api/gamesx/abc") is None


def _paths(routes: list[Any]) -> list[str]:
    """Every route's path, those of included routers too (FastAPI wraps them)."""
    out = []
    for route in routes:
        inner = getattr(getattr(route, "original_router", None), "routes", None)
        out.extend(_paths(inner) if inner is not None else [getattr(route, "path", "")])
    return out


# --- the owner of a game ------------------------------------------------------------------------------


def test_the_owner_is_one_of_the_workers_the_same_everywhere_and_spread_evenly() -> None:
    rng = random.Random(8)
    ids = ["".join(rng.choices("abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789_-", k=11)) for _ in range(4000)]
    for count in (2, 3, 4):
        names = slots(count)
        share = Counter(owner(i, names) for i in ids)
        assert set(share) == set(names)
        assert all(abs(n - len(ids) / count) < 0.1 * len(ids) / count for n in share.values()), share
        assert all(owner(i, names) == owner(i, list(reversed(names))) for i in ids[:200])
    # Rendezvous hashing: a third worker takes about a third of the games, and only from the others.
    two, three = slots(2), slots(3)
    moved = [i for i in ids if owner(i, two) != owner(i, three)]
    assert all(owner(i, three) == "2" for i in moved)
    assert 0.25 < len(moved) / len(ids) < 0.42
    with pytest.raises(ValueError):
        owner("x", [])


def test_a_worker_owns_its_share_and_creates_ids_it_owns() -> None:
    names = slots(2)
    zero, one = Ownership("0", names), Ownership("1", names)
    for _ in range(50):
        gid = zero.new_game_id()
        assert zero.owns(gid) and not one.owns(gid) and owner(gid, names) == "0"
    alone = Ownership()
    assert alone.alone and alone.owns("anything")
    with pytest.raises(ValueError):
        Ownership("2", names)


# --- the router on real connections -------------------------------------------------------------------


def _game_of(slot: str, count: int = 2) -> str:
    return Ownership(slot, slots(count)).new_game_id()


def _run(test: Callable[[Router, list[tuple[int | None, socket.socket]], socket.socket], Awaitable[None]]) -> None:
    """Run `test` with a Router on a loopback listener; dispatched connections are collected, not passed on."""

    async def main() -> None:
        routed: list[tuple[int | None, socket.socket]] = []
        limits = Limits(head_seconds=0.5, max_connections=8, connections_per_ip=4)
        router = Router(2, lambda slot, conn: routed.append((slot, conn)), limits)
        assert (router.head_seconds, router.max_heads, router.heads_per_ip) == (0.5, 8, 4)
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        listener.setblocking(False)
        loop = asyncio.get_running_loop()

        def accept() -> None:
            conn, addr = listener.accept()
            conn.setblocking(False)
            router.accepted(conn, addr[0])

        loop.add_reader(listener.fileno(), accept)
        try:
            await asyncio.wait_for(test(router, routed, listener), 20)
        finally:
            loop.remove_reader(listener.fileno())
            router.close()
            listener.close()
            for _, conn in routed:
                conn.close()

    asyncio.run(main())


async def _client(listener: socket.socket) -> socket.socket:
    client = socket.socket()
    client.setblocking(False)
    await asyncio.get_running_loop().sock_connect(client, listener.getsockname())
    return client


async def _answer(client: socket.socket, seconds: float = 5) -> bytes:
    """Everything the server sends until it closes the connection."""
    loop = asyncio.get_running_loop()
    out = b""
    while True:
        chunk = await asyncio.wait_for(loop.sock_recv(client, 4096), seconds)
        if not chunk:
            return out
        out += chunk


async def _until(predicate: Callable[[], bool], seconds: float = 5) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.005)


def test_connections_go_to_their_games_owner_and_the_bytes_stay_for_the_worker() -> None:
    a, b = _game_of("0"), _game_of("1")

    async def test(router: Router, routed: list[Any], listener: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        requests = [
            f"GET /ws/games/{a} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n\r\n".encode(),
            f"POST /api/games/{b}/act HTTP/1.1\r\nContent-Length: 2\r\n\r\n{{}}".encode(),
            b"GET /api/games HTTP/1.1\r\n\r\n",
            f"GET /game/{b} HTTP/1.1\r\n\r\n".encode(),
        ]
        for request in requests:
            client = await _client(listener)
            await loop.sock_sendall(client, request)
            await _until(lambda n=len(routed): len(routed) > n)
            slot, conn = routed[-1]
            # Nothing was consumed: the worker reads the whole request, and wakes for every byte.
            assert conn.recv(4096, socket.MSG_PEEK) == request
            assert conn.getsockopt(socket.SOL_SOCKET, socket.SO_RCVLOWAT) == 1
            client.close()
        assert [slot for slot, _ in routed] == [0, 1, None, 1]
        assert not router.waiting

    _run(test)


def test_a_request_line_sent_a_byte_at_a_time_is_routed_once_complete() -> None:
    b = _game_of("1")

    async def test(router: Router, routed: list[Any], listener: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        client = await _client(listener)
        request = f"GET /api/games/{b}/seat HTTP/1.1\r\n".encode()
        for byte in request[:-2]:
            await loop.sock_sendall(client, bytes([byte]))
            await asyncio.sleep(0.002)
        await asyncio.sleep(0.05)
        assert routed == [] and router.waiting  # not yet: the line is not complete
        await loop.sock_sendall(client, b"\r\n")
        await _until(lambda: len(routed) == 1)
        assert routed[0][0] == 1 and routed[0][1].getsockopt(socket.SOL_SOCKET, socket.SO_RCVLOWAT) == 1
        client.close()

    _run(test)


@pytest.mark.parametrize(
    ("send", "status"),
    [
        (b"\x16\x03\x01\x02\x00\x01\x00", b"400"),
        (b"GET /" + b"a" * (MAX_REQUEST_LINE + 100), b"414"),
        (b"GET /api/games/abc", b"408"),  # and then nothing more: slow
        (b"", b"408"),  # nothing at all
    ],
)
def test_bad_huge_and_slow_heads_are_answered_and_closed_never_routed(send: bytes, status: bytes) -> None:
    async def test(router: Router, routed: list[Any], listener: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        client = await _client(listener)
        started = loop.time()
        await loop.sock_sendall(client, send)
        answer = await _answer(client)
        assert answer.startswith(b"HTTP/1.1 " + status), answer
        assert b"connection: close" in answer
        if status == b"408":
            assert 0.45 < loop.time() - started < 3  # head_seconds is 0.5 here
        assert routed == [] and not router.waiting
        client.close()

    _run(test)


def test_a_client_that_leaves_before_its_request_line_costs_nothing() -> None:
    async def test(router: Router, routed: list[Any], listener: socket.socket) -> None:
        client = await _client(listener)
        await asyncio.get_running_loop().sock_sendall(client, b"GET /api")
        await _until(lambda: bool(router.waiting))
        client.close()
        await _until(lambda: not router.waiting, seconds=0.4)  # well before the head's deadline
        assert routed == []

    _run(test)


def test_connections_waiting_for_their_request_line_are_capped_per_address() -> None:
    async def test(router: Router, routed: list[Any], listener: socket.socket) -> None:
        clients = [await _client(listener) for _ in range(4)]
        await _until(lambda: router.waiting["127.0.0.1"] == 4)
        extra = await _client(listener)
        assert (await _answer(extra)).startswith(b"HTTP/1.1 503")
        for client in [*clients, extra]:
            client.close()

    _run(test)


# --- the supervisor's handoff ---------------------------------------------------------------------------


def test_connections_wait_for_a_worker_that_is_starting_and_get_503_past_the_wait(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The supervisor's side of a worker's restart, with the worker's end of the channel played here: connections
    routed to a slot whose worker is not ready wait, go over the channel (and leave the supervisor) once it is, and
    are answered 503 if it takes longer than RESTART_WAIT."""
    from fogofwar.frontends.server import supervisor as sup
    from fogofwar.frontends.server.handoff import READY, channel_pair, receive

    monkeypatch.setattr(sup, "RESTART_WAIT", 0.3)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        boss = sup.Supervisor(listener, lambda slot: None, 2)  # type: ignore[arg-type,return-value]
        expiring = asyncio.create_task(boss._expire_waiting())
        pairs = []
        try:
            for _ in range(3):
                client = socket.socket()
                client.connect(listener.getsockname())
                conn, _ = listener.accept()
                conn.setblocking(False)
                pairs.append((client, conn))
            boss.dispatch(1, pairs[0][1])  # worker 1 is starting: they wait
            boss.dispatch(1, pairs[1][1])
            assert len(boss.slots[1].waiting) == 2
            mine, theirs = channel_pair()
            mine.setblocking(False)
            theirs.setblocking(False)
            slot = boss.slots[1]
            slot.channel = mine
            loop.add_reader(mine.fileno(), boss._hear, slot)
            theirs.send(READY)  # the worker is up: what waited is handed over, in order
            await _until(lambda: not slot.waiting)
            await asyncio.sleep(0.05)
            received = receive(theirs)
            assert received is not None and not received.pinged
            handed = received.connections
            assert len(handed) == 2
            assert [h.getpeername() for h in handed] == [pairs[0][0].getsockname(), pairs[1][0].getsockname()]
            assert pairs[0][1].fileno() == -1  # the supervisor's copy is closed
            for h in handed:
                h.close()
            boss.dispatch(0, pairs[2][1])  # worker 0 never comes
            client = pairs[2][0]
            client.setblocking(False)
            assert (await _answer(client)).startswith(b"HTTP/1.1 503")
            assert not boss.slots[0].waiting
            loop.remove_reader(mine.fileno())
            mine.close()
            theirs.close()
        finally:
            expiring.cancel()
            listener.close()
            for client, conn in pairs:
                client.close()
                conn.close()

    asyncio.run(main())


def test_a_worker_whose_event_loop_stops_answering_is_killed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The supervisor pings its ready workers: one that answers lives on, one whose loop no longer answers (played
    here by a process that never reads its channel) is killed with SIGKILL, to be replaced as a dead worker."""
    import sys

    from fogofwar.frontends.server import supervisor as sup
    from fogofwar.frontends.server.handoff import PING, PONG, channel_pair

    monkeypatch.setattr(sup, "PING_SECONDS", 0.05)
    monkeypatch.setattr(sup, "HANG_SECONDS", 0.5)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        listener = socket.socket()
        boss = sup.Supervisor(listener, lambda slot: None, 2)  # type: ignore[arg-type,return-value]
        ends = []
        for slot in boss.slots:
            mine, theirs = channel_pair()
            mine.setblocking(False)
            theirs.setblocking(False)
            ends.append(theirs)
            slot.channel = mine
            slot.ready = True
            slot.answered = loop.time()
            slot.proc = await asyncio.create_subprocess_exec(sys.executable, "-c", "import time; time.sleep(60)")
            loop.add_reader(mine.fileno(), boss._hear, slot)

        def answer() -> None:  # worker 0's loop runs: it answers each ping
            with suppress(BlockingIOError):
                while ends[0].recv(64) == PING:
                    ends[0].send(PONG)

        loop.add_reader(ends[0].fileno(), answer)
        watching = asyncio.create_task(boss._watch_hangs())
        try:
            hung = boss.slots[1].proc
            assert hung is not None
            assert await asyncio.wait_for(hung.wait(), 10) == -9  # killed
            assert boss.slots[0].proc is not None and boss.slots[0].proc.returncode is None  # answered: alive
            assert loop.time() - boss.slots[0].answered < 0.5
        finally:
            watching.cancel()
            loop.remove_reader(ends[0].fileno())
            for slot in boss.slots:
                loop.remove_reader(slot.channel.fileno())  # type: ignore[union-attr]
                if slot.proc is not None and slot.proc.returncode is None:
                    slot.proc.kill()
                    await slot.proc.wait()
                slot.channel.close()  # type: ignore[union-attr]
            for end in ends:
                end.close()
            listener.close()

    asyncio.run(main())


def test_connections_for_a_busy_worker_queue_until_its_channel_drains_and_keep_their_order() -> None:
    """More connections than a worker's channel holds (a few hundred): the rest wait in the supervisor's outbox
    and go over, in order, as the worker takes them; none is lost or handed twice."""
    from fogofwar.frontends.server import supervisor as sup
    from fogofwar.frontends.server.handoff import channel_pair, receive

    async def main() -> None:
        loop = asyncio.get_running_loop()
        listener = socket.socket()
        boss = sup.Supervisor(listener, lambda slot: None, 1)  # type: ignore[arg-type,return-value]
        mine, theirs = channel_pair()
        mine.setblocking(False)
        theirs.setblocking(False)
        slot = boss.slots[0]
        slot.channel, slot.ready = mine, True
        clients = []
        for index in range(400):
            client, conn = socket.socketpair()
            client.send(index.to_bytes(2, "big"))  # which one it is, read by the "worker"
            clients.append(client)
            boss.dispatch(None, conn)
        assert slot.outbox, "the channel held them all: this test shows nothing"
        got: list[int] = []
        taken = asyncio.Event()

        def take() -> None:
            received = receive(theirs)
            assert received is not None
            for conn in received.connections:
                got.append(int.from_bytes(conn.recv(2), "big"))
                conn.close()
            if len(got) == len(clients):
                taken.set()

        loop.add_reader(theirs.fileno(), take)
        try:
            await asyncio.wait_for(taken.wait(), 10)
            assert got == list(range(400)) and not slot.outbox
        finally:
            loop.remove_reader(theirs.fileno())
            with suppress(ValueError):
                loop.remove_writer(mine.fileno())
            for client in clients:
                client.close()
            mine.close()
            theirs.close()
            listener.close()

    asyncio.run(main())
