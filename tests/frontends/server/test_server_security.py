"""The findings of the security review, each reproduced against the app: secrets a player could
compute, bodies read whole, messages that crashed the answer, games kept forever, and fuzzing of
every route and the websocket (only typed errors and 4xx come back; the server stays up).

The connection limits (slow headers, connection caps) need a real uvicorn: test_server_limits.py.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.exc import OperationalError
from starlette.routing import Mount, Route

from fogofwar.core.randomness import Streams
from fogofwar.frontends.server import create_app
from fogofwar.frontends.server.limits import BodyLimit, Limits
from fogofwar.frontends.server.manager import GameManager
from fogofwar.frontends.server.store import Store

from .server_helpers import BOTH_DATABASES, auth, create, hello, seat_view

# --- secrets -----------------------------------------------------------------------------------------


def _manager(client: TestClient) -> GameManager:
    manager: GameManager = client.app.state.manager  # type: ignore[attr-defined]
    return manager


@BOTH_DATABASES
def test_every_game_has_its_own_256_bit_secret_from_the_os(db_url: str) -> None:
    with TestClient(create_app(db_url, fsync=False)) as client:  # production mode: no test seed
        ids = [create(client, opponent="hotseat")["game"]["id"] for _ in range(30)]
        store = _manager(client).store
        secrets = [store.game(i).secret for i in ids]  # type: ignore[union-attr]
    assert all(len(s) == 32 for s in secrets) and len(set(secrets)) == 30
    assert max(int.from_bytes(s, "big") for s in secrets) > 2**224  # not a 31-bit number (odds 2**-960)


def test_the_computers_army_and_the_dice_come_from_separate_streams_of_the_secret(client: TestClient) -> None:
    """A player's random army is its own stream, the computer's play another, each die a third: the
    random army a player is given is exactly its stream's draw, and that stream is none of the others."""
    created = create(client, variant="classic", opponent="search")
    gid, token = created["game"]["id"], created["seats"]["0"]
    r = client.post(f"/api/games/{gid}/act", headers=auth(token), json={"type": "setup", "setup": "random"})
    assert r.status_code == 200, r.text
    session = _manager(client)._games[gid].session
    streams = Streams(session.meta.secret)
    again = session.adapter.parse_setup(
        session.game.new_initial_state(), 0, "random", streams.rng("setup", 0, r.json()["seq"])
    )
    assert again == r.json()["state"]["setup"]["placement"]
    keys = {
        streams.key("setup", 0, 1),
        streams.key("setup", 1, 1),
        streams.key("agent", 1, 0),
        streams.key("chance", 2),
    }
    assert len(keys) == 4


@BOTH_DATABASES
def test_the_secret_is_never_sent(client: TestClient, db_url: str) -> None:
    created = create(client, variant="barrage", opponent="hotseat")
    gid, tokens = created["game"]["id"], created["seats"]
    secret = _manager(client)._games[gid].session.meta.secret
    seen = [json.dumps(created), client.get(f"/api/games/{gid}").text, client.get("/api/games").text]
    seen += [json.dumps(seat_view(client, gid, tokens[s])) for s in ("0", "1")]
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        seen.append(json.dumps(hello(ws, None)))
    text = "".join(seen)
    assert secret.hex() not in text and str(int.from_bytes(secret, "big")) not in text


# --- bodies ------------------------------------------------------------------------------------------


def _run_body_limit(limits: Limits, path: str, chunks: int, chunk: bytes, length: int | None = None) -> tuple[int, int]:
    """Drive BodyLimit around an app that reads the whole body; returns (status, chunks the client got to send)."""
    sent = 0

    async def receive() -> dict[str, Any]:
        nonlocal sent
        sent += 1
        return {"type": "http.request", "body": chunk, "more_body": sent < chunks}

    async def reader(scope: Any, rcv: Any, send: Any) -> None:
        while (await rcv()).get("more_body"):
            pass
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    statuses: list[int] = []

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    headers = [(b"content-length", str(length).encode())] if length is not None else []
    scope = {"type": "http", "path": path, "method": "POST", "headers": headers}
    asyncio.run(BodyLimit(reader, limits)(scope, receive, send))
    return statuses[0], sent


def test_a_huge_body_is_refused_while_it_is_read() -> None:
    """300 MB to /act used to be read whole before the 4 KiB check (96 -> 677 MiB): now reading stops at the cap."""
    limits = Limits()
    status, sent = _run_body_limit(limits, "/api/games/x/act", chunks=300 * 1024, chunk=b"x" * 1024)
    assert status == 413 and sent == limits.message_bytes // 1024 + 1
    status, sent = _run_body_limit(limits, "/api/games", chunks=300 * 1024, chunk=b"x" * 1024)
    assert status == 413 and sent == limits.body_bytes // 1024 + 1
    status, sent = _run_body_limit(limits, "/api/games", chunks=1, chunk=b"", length=300 * 1024 * 1024)
    assert status == 413 and sent == 0  # a declared size over the cap: refused before reading
    assert _run_body_limit(limits, "/api/games", chunks=4, chunk=b"x" * 1024) == (200, 4)


def test_every_post_route_refuses_an_oversized_body(client: TestClient) -> None:
    created = create(client, opponent="hotseat")
    gid, token = created["game"]["id"], created["seats"]["0"]
    limits = Limits()
    for path in ("/api/games", f"/api/games/{gid}/act", f"/api/games/{gid}/join", "/api/setup-preview",
                 f"/api/games/{gid}/resign", "/api/replay/import"):  # fmt: skip
        cap = limits.body_cap(path)
        r = client.post(path, content=b" " * (cap + 1), headers=auth(token))
        assert r.status_code == 413, (path, r.text)
        assert len(r.text) < 300 and "limit" in r.json()["message"]
    assert seat_view(client, gid, token)["game"]["seq"] == 0


def test_a_chunked_body_past_the_cap_is_413_on_every_route(client: TestClient) -> None:
    """Without a Content-Length the cap bites while reading: FastAPI used to turn that into a 400 and keep
    reading what followed."""

    def chunks() -> Iterator[bytes]:
        for _ in range(2000):  # 2000 KiB: past every route's cap
            yield b" " * 1024

    created = create(client, opponent="hotseat")
    gid, token = created["game"]["id"], created["seats"]["0"]
    for path in ("/api/games", "/api/setup-preview", f"/api/games/{gid}/act", "/api/replay/import"):
        r = client.post(path, content=chunks(), headers={"content-type": "application/json", **auth(token)})
        assert r.status_code == 413, (path, r.text)
        assert r.json()["error"] == "too_large" and r.headers["connection"] == "close"


def test_act_checks_the_token_before_reading_the_body(client: TestClient) -> None:
    gid = create(client, opponent="hotseat")["game"]["id"]
    r = client.post(f"/api/games/{gid}/act", content=b"{not json", headers=auth("wrong"))
    assert r.status_code == 403


# --- messages that crashed the answer -----------------------------------------------------------------


def test_a_lone_surrogate_in_a_command_is_refused_and_nothing_is_played(client: TestClient) -> None:
    created = create(client, opponent="hotseat")
    gid, token = created["game"]["id"], created["seats"]["0"]
    body = b'{"type": "setup", "setup": "random", "id": "\\ud800"}'
    r = client.post(f"/api/games/{gid}/act", content=body, headers=auth(token))
    assert r.status_code == 400 and "surrogate" in r.json()["message"]
    assert seat_view(client, gid, token)["game"]["seq"] == 0  # was: committed, then a 500
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        hello(ws, token)
        ws.send_text(body.decode())
        assert ws.receive_json()["error"] == "malformed"
        ws.send_json({"type": "ping", "id": 1})
        assert ws.receive_json() == {"type": "pong", "id": 1}  # was: the socket silently stopped sending


@pytest.mark.parametrize(
    "body",
    [
        b'{"type": "setup", "setup": ' + b"[" * 2000 + b"]" * 2000 + b"}",
        b'{"type": "action", "action": ' + b"9" * 5000 + b"}",
        b'{"type": "setup", "setup": {"a": ' * 20 + b"1" + b"}" * 40,
    ],
    ids=["nested-2000", "5000-digits", "nested-20"],
)
def test_deep_nesting_and_huge_integers_get_a_clear_error(client: TestClient, body: bytes) -> None:
    created = create(client, opponent="hotseat")
    gid, token = created["game"]["id"], created["seats"]["0"]
    r = client.post(f"/api/games/{gid}/act", content=body[:4096], headers=auth(token))
    assert r.status_code in (400, 413) and r.json()["type"] == "error"
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        hello(ws, token)
        ws.send_bytes(body[:4096])
        assert ws.receive_json()["type"] == "error"
        ws.send_json({"type": "ping", "id": 2})
        assert ws.receive_json() == {"type": "pong", "id": 2}


def test_a_record_with_a_huge_integer_is_refused(client: TestClient) -> None:
    body = b'{"format": "fogofwar-record", "seed": ' + b"7" * 5000 + b"}"
    r = client.post("/api/replay/import", content=body)
    assert r.status_code == 422 and r.json()["error"] == "bad_record"


def test_a_raw_surrogate_in_create_is_a_422_not_a_500(client: TestClient) -> None:
    js = {"content-type": "application/json"}
    r = client.post("/api/games", content=b'{"game": "stratego", "name": "\\ud800"}', headers=js)
    assert r.status_code == 422 and "surrogate" in r.json()["message"]
    body = b'{"game": "\\ud800\\ud800", "opponent": ' + b"[" * 50 + b"]" * 50 + b"}"
    r = client.post("/api/games", content=body, headers=js)
    assert r.status_code == 422 and r.json()["error"] == "bad_request"


def test_validation_errors_do_not_echo_the_input(client: TestClient) -> None:
    r = client.post("/api/games", json={"game": "x" * 10_000})
    assert r.status_code == 422 and len(r.text) < 1000 and "xxxxxxxxxx" not in r.text


def test_create_on_a_read_only_database_is_503(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def read_only(*_args: Any) -> None:
        raise OperationalError("INSERT INTO games", {}, Exception("attempt to write a readonly database"))

    monkeypatch.setattr(Store, "create_game", read_only)
    r = client.post("/api/games", json={"opponent": "hotseat"})
    assert r.status_code == 503 and r.json()["error"] == "unavailable"


# --- memory -------------------------------------------------------------------------------------------


@BOTH_DATABASES
def test_idle_games_leave_memory_and_come_back_from_the_log(db_url: str) -> None:
    with TestClient(create_app(db_url, fsync=False, seed=3, limits=Limits(live_games=4))) as client:
        games = [create(client, opponent="hotseat") for _ in range(10)]
        manager = _manager(client)
        assert manager.live_count() <= 4
        first = games[0]
        gid, token = first["game"]["id"], first["seats"]["0"]
        r = client.post(f"/api/games/{gid}/act", headers=auth(token), json={"type": "setup", "setup": "sample"})
        assert r.status_code == 200, r.text  # reloaded from its log
        assert manager.evict_idle(now=time.monotonic() + Limits().idle_game_seconds + 1) >= 1
        assert manager.live_count() == 0
        assert seat_view(client, gid, token)["game"]["seq"] == 1


# --- fuzzing ------------------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(min_value=10**30) | st.floats() | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
commands = st.fixed_dictionaries(
    {"type": st.sampled_from(["action", "setup", "undo", "resign", "ping", "hello", "nope"])},
    optional={
        "action": json_values,
        "move": json_values,
        "setup": json_values,
        "id": json_values,
        "token": json_values,
    },
)
bodies = json_values | commands | st.binary(max_size=64).map(lambda b: b.decode("latin-1"))


@pytest.fixture(scope="module")
def fuzz_client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = tmp_path_factory.mktemp("fuzz") / "fuzz.db"
    with TestClient(create_app(f"sqlite:///{db}", fsync=False, seed=11)) as c:
        created = create(c, opponent="hotseat")
        yield c, created["game"]["id"], created["seats"]


def _post(client: TestClient, path: str, body: Any, token: str | None) -> int:
    content = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else json.dumps(body).encode()
    headers = auth(token) if token else {}
    return client.post(path, content=content, headers=headers).status_code


FUZZ: dict[str, Any] = {
    "derandomize": True,
    "deadline": None,
    "suppress_health_check": [HealthCheck.function_scoped_fixture],
}


def _http_routes() -> list[tuple[str, str]]:
    """(method, path template) of every HTTP route of the app, from the app itself: a new route is fuzzed too."""
    out: list[tuple[str, str]] = []

    def walk(routes: list[Any]) -> None:
        for route in routes:
            if isinstance(route, APIRoute | Route) and not isinstance(route, Mount):
                out.extend((m, route.path) for m in sorted(route.methods or ()) if m != "HEAD")
            elif hasattr(route, "original_router"):  # an included router (FastAPI wraps it)
                walk(route.original_router.routes)

    walk(create_app("sqlite://").routes)
    return out


ROUTES = _http_routes()
texts = st.sampled_from(["", "x", "%00", "..", "\u00e9" * 40, "-1", "99999999999999999999"]) | st.text(max_size=12)


@settings(max_examples=400, **FUZZ)
@given(
    body=bodies,
    route=st.sampled_from(ROUTES),
    path_text=texts,
    query=st.dictionaries(st.sampled_from(["step", "format", "name", "limit"]), texts, max_size=2),
    seat=st.sampled_from([None, "0", "1", "bogus"]),
)
def test_fuzz_every_route(
    fuzz_client: Any, body: Any, route: tuple[str, str], path_text: str, query: dict[str, str], seat: str | None
) -> None:
    """Arbitrary bodies, path parameters, queries and tokens at every route: never a 5xx, the server stays up."""
    client, gid, tokens = fuzz_client
    method, template = route
    path = re.sub(r"\{[^}]+\}", lambda _m: quote(path_text or gid, safe=""), template)
    headers = auth(tokens.get(seat, seat)) if seat else {}
    if isinstance(body, str):
        content = body.encode("utf-8", "surrogatepass")
    else:
        content = json.dumps(body).encode()
        headers["content-type"] = "application/json"
    r = client.request(method, path, content=content if method == "POST" else None, params=query, headers=headers)
    assert r.status_code < 500, (method, path, r.text[:200])  # a server exception is re-raised by the TestClient
    assert client.get("/healthz").status_code == 200


def test_the_fuzzed_routes_are_all_of_them() -> None:
    paths = {p for _m, p in ROUTES}
    assert {"/api/games", "/api/games/{game_id}/act", "/api/replay/import", "/api/setup-preview"} <= paths
    assert len(ROUTES) >= 15


@settings(max_examples=100, **FUZZ)
@given(messages=st.lists(bodies, min_size=1, max_size=5))
def test_fuzz_the_websocket(fuzz_client: Any, messages: list[Any]) -> None:
    client, gid, tokens = fuzz_client
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        hello(ws, tokens["1"])
        for m in messages:
            if isinstance(m, str):
                ws.send_bytes(m.encode("utf-8", "surrogatepass"))
            else:
                ws.send_text(json.dumps(m))
            reply = ws.receive_json()
            while reply["type"] in ("state", "delta"):  # an accepted command broadcasts a change first
                reply = ws.receive_json()
            assert reply["type"] in ("error", "ack", "pong"), reply
        ws.send_json({"type": "ping", "id": "last"})
        reply = ws.receive_json()
        while reply["type"] in ("state", "delta"):
            reply = ws.receive_json()
        assert reply == {"type": "pong", "id": "last"}


def test_path_parameters_with_odd_text_are_404(client: TestClient, tmp_path: Path) -> None:
    for gid in ("%ff", "a" * 5000, "%F0%9F%92%A9", "..%2f..%2fetc"):
        assert client.get(f"/api/games/{gid}").status_code in (404, 422)
