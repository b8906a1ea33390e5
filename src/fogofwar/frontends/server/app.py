"""The web app: lobby REST API, one websocket per seat or spectator, and the static browser client.

REST (JSON; a seat proves itself with `Authorization: Bearer <token>`):

- `GET  /api/meta`                    games, variants, sample setups, computer players
- `GET  /api/games?limit=N`           public summaries, most recent first
- `POST /api/games`                   create: {game, variant, options, opponent, color, name, clock};
                                      returns the creator's seat token(s) and, for `invite` and `challenge`
                                      (an invitation listed in the lobby), the invite secret
- `GET  /api/challenges?limit=N`      open challenges waiting for an opponent, newest first
- `POST /api/games/{id}/accept`       {name}: take the open seat of an open challenge (not one's own)
- `GET  /api/games/{id}`              the public (spectator) view
- `GET  /api/games/{id}/seat`         the seat's own view (resume with a token)
- `POST /api/games/{id}/join`         {invite, name}: take the open seat of an invite game
- `POST /api/games/{id}/act`          a command (as on the websocket): answered once it is stored
- `POST /api/games/{id}/resign`
- `GET  /api/games/{id}/record`       the game record (?format=json or gravon), once the game is over
- `GET  /api/games/{id}/replay`       the game replayed move by move; `POST /api/replay/import` a record file
                                      (these three: replay_api.py)
- `POST /api/setup-preview`           {game, variant, seat, setup}: read a setup without playing it

Websocket `/ws/games/{id}`: the first message is {"type": "hello", "token": ...} (no token: a
spectator); the token goes in a message, not the URL, so that it never lands in access logs.
The server answers with the seat's whole view, {"type": "state", "v": 1, ...}, then after every change
sends only what changed for that seat: {"type": "delta", "v": n, "events": [{seq, kind, seat}], "patch"}
(delta.py: the patch turns the state message numbered n-1 into the one numbered n). A client that gets a delta
whose "v" does not follow its own asks for the whole view again with {"type": "sync", "v": its number}
(answered with a state, or an ack if it is up to date; a number never sent is refused); a new connection
starts with a whole view. It answers each accepted command with {"type": "ack", "id", "seq"} once it is
stored, and anything refused with {"type": "error", "error": code, "message"}, changing nothing. A secret
decision (Admiral's attack orders) joins the seat's draft: its ack carries "draft" (the draft's length), the
change goes to that seat alone, and {"type": "undo"} takes the last one back; the draft is stored when the
seat commits.
The server rolls every die itself. A rated game's connections are sent {"type": "rated", "game": id} once its
rating changes are written (after the game's end, later on a busy server): `/api/games/{id}/accounts` holds them.
Chat (chat.py): {"type": "chat", "text", "room"} writes in one of the game's two rooms ("players", "spectators";
no room: the first the client reads), acknowledged with {"type": "ack", "id", "chat"}; each room's messages go to
the connections that read it as {"type": "chat", "room", "messages": [{id, seat, name, text, at}]}, its recent
ones ("history": true) when a connection starts reading a room that has any. Chat is stored apart from the
game's event log. Every game's page is page.html around the game's own cards (`Adapter.page`: game.html for
Stratego, lotr.html, admiral.html); see `game_page_html`.
"""

from __future__ import annotations

import asyncio
import os
import string
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, model_validator
from starlette.types import ASGIApp, Receive, Scope, Send

from fogofwar.core.protocol import GameError, InvalidSetupError, NotationError
from fogofwar.core.randomness import Streams
from fogofwar.frontends.server.account_api import acting_user
from fogofwar.frontends.server.account_api import router as account_router
from fogofwar.frontends.server.account_store import AccountStore
from fogofwar.frontends.server.adapters import ADAPTERS, get_adapter
from fogofwar.frontends.server.help_pages import NoSuchPage, help_page, missing_page, rules_page
from fogofwar.frontends.server.limits import BodyLimit, BodyTooLarge, Limits, SocketGate
from fogofwar.frontends.server.manager import Connection, Created, GameManager, LiveGame
from fogofwar.frontends.server.owner_guard import OwnerGuard
from fogofwar.frontends.server.replay_api import router as replay_router
from fogofwar.frontends.server.routing import Ownership
from fogofwar.frontends.server.session import (
    DRAW_COMMANDS,
    MAX_MESSAGE_BYTES,
    ClientError,
    Command,
    check_json_text,
    parse_command,
)
from fogofwar.frontends.server.store import DEFAULT_DB, Store

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
HELLO_TIMEOUT = 15.0

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


def database_url(db: str | None = None) -> str:
    """The database to use: the argument, else $FOGOFWAR_DB, else a SQLite file in the working directory."""
    return db or os.environ.get("FOGOFWAR_DB") or DEFAULT_DB


class _Body(BaseModel):
    """A request body: besides its fields' own checks, no lone surrogate and no deep nesting anywhere."""

    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _text_only(cls, data: Any) -> Any:
        try:
            check_json_text(data, "the body")
        except ClientError as exc:
            raise ValueError(exc.message) from None
        return data


class CreateGame(_Body):
    game: str = Field("stratego", max_length=32)
    variant: str = Field("classic", max_length=32)
    options: dict[str, Any] = Field(default_factory=dict)
    opponent: str = Field(
        "heuristic", max_length=32, description="an agent name, 'hotseat', 'invite' or 'challenge' (in the lobby)"
    )
    color: str = Field("red", max_length=16, description="the creator's seat: red, blue or random")
    name: str = Field("", max_length=40)
    clock: str = Field("", max_length=20, description='time control: "5+3" (minutes + seconds), "2 days", or "" (none)')
    rated: bool = Field(False, description="counts for the ratings: needs a signed-in player (and CSRF token)")


class JoinGame(_Body):
    invite: str = Field(max_length=100)
    name: str = Field("", max_length=40)


class AcceptChallenge(_Body):
    name: str = Field("", max_length=40)


class SetupPreview(_Body):
    game: str = Field("stratego", max_length=32)
    variant: str = Field("classic", max_length=32)
    seat: int = Field(0, ge=0, le=1)
    setup: str | dict[str, str]


def game_page_html(page: str) -> str:
    """A game's page: page.html, the shell every game shares (header, board, curtain, status, result, join,
    invite, moves, tools), with the game's own cards from `page` (`Adapter.page`, e.g. "lotr.html") in its
    panel, the game's script (lotr.js) and its class on the body (body.lotr)."""
    shell = string.Template((WEB_DIR / "page.html").read_text(encoding="utf-8"))
    cards = (WEB_DIR / page).read_text(encoding="utf-8")
    return shell.substitute(page=page.removesuffix(".html"), cards=cards)


def _created(created: Created) -> dict[str, Any]:
    """What creating a game answers: its public facts, the creator's seat tokens, the invitation, its page."""
    return {
        "game": created.info,
        "seats": {str(s): t for s, t in created.tokens.items()},
        "invite": created.invite,
        "url": f"/game/{created.info['id']}",
    }


def _token(authorization: str | None) -> str:
    if not authorization or not authorization.lower().startswith("bearer "):
        raise ClientError("unauthorized", "send the seat's token as 'Authorization: Bearer <token>'", 401)
    return authorization[7:].strip()


class _SecurityHeaders:
    """Plain ASGI middleware (it must not wrap websockets): CSP and friends on every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (b"content-security-policy", CSP.encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(
    db: str | None = None,
    *,
    agent_delay: float = 0.0,
    fsync: bool = True,
    seed: int | None = None,
    limits: Limits | None = None,
    ownership: Ownership | None = None,
) -> FastAPI:
    """The ASGI app on database `db` (see `database_url`); `agent_delay` paces the computer's replies;
    `fsync=False` (tests only) keeps commits safe from a killed process but not from a power cut;
    `seed` (tests only) draws the games' secrets from it, so that a test plays the same games each run;
    `limits`: what one client may cost (`fogofwar.frontends.server.limits`; the connection limits need `serve`);
    `ownership`: the games this process serves when several worker processes share the database (routing.py)."""
    url = database_url(db)
    limits = limits or Limits()
    ownership = ownership or Ownership()
    gate = SocketGate(limits)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store, url, fsync)
        accounts = await asyncio.to_thread(AccountStore, store.engine)
        manager = GameManager(
            store, agent_delay=agent_delay, seed=seed, limits=limits, accounts=accounts, ownership=ownership
        )
        app.state.manager = manager
        app.state.accounts = accounts
        await manager.start()
        try:
            yield
        finally:
            await manager.stop()
            store.close()

    app = FastAPI(
        title="fogofwar", lifespan=lifespan, docs_url="/api/docs", redoc_url=None, openapi_url="/api/openapi.json"
    )
    app.add_middleware(BodyLimit, limits=limits)
    app.add_middleware(_SecurityHeaders)
    if not ownership.alone:
        app.add_middleware(OwnerGuard, ownership=ownership)  # the outermost: another worker's game costs nothing

    def manager_of(request: Request | WebSocket) -> GameManager:
        manager: GameManager = request.app.state.manager
        return manager

    @app.exception_handler(ClientError)
    async def client_error(_request: Request, exc: ClientError) -> JSONResponse:
        return JSONResponse(exc.to_json(), status_code=exc.status)

    @app.exception_handler(BodyTooLarge)
    async def body_too_large(_request: Request, exc: BodyTooLarge) -> JSONResponse:
        error = ClientError(exc.code, exc.message, exc.status)
        return JSONResponse(error.to_json(), status_code=exc.status, headers={"connection": "close"})

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        """What is wrong and where, never the input itself (it may be huge, or not encodable)."""
        problems = []
        for err in exc.errors()[:10]:
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "the body"
            problems.append(f"{where}: {err.get('msg', 'invalid')}")
        error = ClientError("bad_request", "; ".join(problems) or "the request is not valid", 422)
        return JSONResponse(error.to_json(), status_code=422)

    # --- pages ------------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html")

    @app.get("/game/{game_id}", include_in_schema=False)
    async def game_page(request: Request, game_id: str) -> HTMLResponse:
        return HTMLResponse(game_page_html(await manager_of(request).page_for(game_id)))

    @app.get("/help", include_in_schema=False)
    async def help_index() -> HTMLResponse:
        return HTMLResponse(help_page())

    @app.get("/rules/{doc}", include_in_schema=False)
    async def rules(doc: str) -> HTMLResponse:
        try:
            return HTMLResponse(rules_page(doc))
        except NoSuchPage as exc:
            return HTMLResponse(missing_page(str(exc)), status_code=404)

    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, str]:
        return {"status": "ok", "worker": ownership.me}

    # --- lobby ------------------------------------------------------------------------------
    @app.get("/api/meta")
    async def meta(request: Request) -> dict[str, Any]:
        return {
            "games": [a.describe() for a in ADAPTERS.values()],
            "agents": manager_of(request).agents(),
            "levels": [level for adapter in ADAPTERS.values() for level in adapter.levels()],
            "opponents": ["hotseat", "invite", "challenge"],
            "max_message_bytes": MAX_MESSAGE_BYTES,
        }

    @app.get("/api/games")
    async def list_games(request: Request, limit: int = Query(50, ge=1, le=200)) -> dict[str, Any]:
        return {"games": await manager_of(request).list_games(limit)}

    @app.post("/api/games", status_code=201)
    async def create_game(request: Request, body: CreateGame) -> dict[str, Any]:
        options = {"variant": body.variant, **body.options}
        user = await acting_user(request, required=body.rated)
        created = await manager_of(request).create(
            body.game, options, body.opponent, body.color, body.name.strip(), body.clock, user, body.rated
        )
        return _created(created)

    @app.post("/api/games/{game_id}/rematch", status_code=201)
    async def rematch(request: Request, game_id: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        live, seat = await seat_of(request, game_id, authorization)
        created = await manager_of(request).rematch(live, seat, await acting_user(request))
        return _created(created)

    @app.get("/api/games/{game_id}")
    async def get_game(request: Request, game_id: str) -> dict[str, Any]:
        manager = manager_of(request)
        return await manager.view(await manager.get(game_id), None)

    async def seat_of(request: Request, game_id: str, authorization: str | None) -> tuple[LiveGame, int]:
        live = await manager_of(request).get(game_id)
        seat = live.session.seat_of(_token(authorization))
        if seat is None:
            raise ClientError("forbidden", f"this token opens no seat of game {game_id}", 403)
        return live, seat

    @app.get("/api/games/{game_id}/seat")
    async def get_seat(request: Request, game_id: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        live, seat = await seat_of(request, game_id, authorization)
        return await manager_of(request).view(live, seat)

    @app.get("/api/challenges")
    async def list_challenges(request: Request, limit: int = Query(50, ge=1, le=200)) -> dict[str, Any]:
        return {"challenges": await manager_of(request).open_challenges(limit)}

    @app.post("/api/games/{game_id}/accept")
    async def accept_challenge(
        request: Request, game_id: str, body: AcceptChallenge, authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        token = _token(authorization) if authorization else None  # a seat's token: the challenger's own?
        user = await acting_user(request)
        seat, new, info = await manager_of(request).accept(game_id, body.name.strip(), token, user)
        return {"game": info, "seats": {str(seat): new}, "url": f"/game/{game_id}"}

    @app.post("/api/games/{game_id}/join")
    async def join_game(request: Request, game_id: str, body: JoinGame) -> dict[str, Any]:
        seat, token, info = await manager_of(request).join(
            game_id, body.invite, body.name.strip(), await acting_user(request)
        )
        return {"game": info, "seats": {str(seat): token}, "url": f"/game/{game_id}"}

    async def act(request: Request, game_id: str, authorization: str | None, cmd: Command) -> dict[str, Any]:
        live, seat = await seat_of(request, game_id, authorization)
        if cmd.kind not in ("action", "setup", "undo", "resign", "abort", *DRAW_COMMANDS):  # not chat, sync, ping
            raise ClientError(
                "malformed",
                f"{cmd.kind!r} is for the websocket; send action, setup, undo, resign, abort or a draw's message",
            )
        ev = await manager_of(request).submit(live, seat, cmd)
        return {"type": "ack", "id": cmd.ref, "seq": ev.seq, "state": await manager_of(request).view(live, seat)}

    @app.post("/api/games/{game_id}/act")
    async def act_http(request: Request, game_id: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        await seat_of(request, game_id, authorization)  # who asks, before reading what (BodyLimit caps it)
        body = await request.body()
        return await act(request, game_id, authorization, parse_command(body))

    @app.post("/api/games/{game_id}/resign")
    async def resign(request: Request, game_id: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        return await act(request, game_id, authorization, Command("resign"))

    # The record (JSON or Gravon XML), replays and record import: src/fogofwar/frontends/server/replay_api.py.
    app.include_router(replay_router)
    # Accounts, profiles and leaderboards: src/fogofwar/frontends/server/account_api.py.
    app.include_router(account_router)

    @app.post("/api/setup-preview")
    async def setup_preview(body: SetupPreview) -> dict[str, Any]:
        try:
            adapter = get_adapter(body.game)
            state = adapter.make_game({"variant": body.variant}).new_initial_state()
            placement = adapter.parse_setup(state, body.seat, body.setup, Streams.fresh().rng("preview"))
        except (InvalidSetupError, NotationError, GameError) as exc:
            raise ClientError("bad_setup", str(exc), 422) from None
        return {"placement": placement, "string": adapter.setup_string(state, body.seat, placement)}

    # --- websocket ----------------------------------------------------------------------------
    @app.websocket("/ws/games/{game_id}")
    async def game_socket(ws: WebSocket, game_id: str) -> None:
        await ws.accept()
        ip = ws.client.host if ws.client else ""
        refused = gate.enter(ip)
        if refused is not None:
            await _refuse(ws, ClientError("busy", refused, 429))
            return
        try:
            await _play_socket(ws, game_id, ip)
        finally:
            gate.leave(ip)

    async def _play_socket(ws: WebSocket, game_id: str, ip: str) -> None:
        manager = manager_of(ws)
        try:
            live = await manager.get(game_id)
            try:
                raw = await asyncio.wait_for(_receive(ws), HELLO_TIMEOUT)
            except TimeoutError:
                raise ClientError("timeout", 'say hello first: {"type": "hello", "token": ...}') from None
            if raw is None:
                return
            hello = parse_command(raw)
            if hello.kind != "hello":
                raise ClientError("malformed", 'the first message must be {"type": "hello", "token": ...}')
            seat = live.session.seat_of(hello.token) if hello.token else None
            if hello.token and seat is None:
                raise ClientError("forbidden", f"this token opens no seat of game {game_id}", 403)
            if seat is None and (refused := gate.watch(game_id)) is not None:
                raise ClientError("busy", refused, 429)
        except ClientError as exc:
            await _refuse(ws, exc)
            return
        conn = await manager.connect(live, seat, ip)
        sender = asyncio.create_task(_send_loop(ws, conn))
        try:
            while not conn.closed:
                try:
                    raw = await asyncio.wait_for(_receive(ws), limits.socket_idle_seconds)
                except TimeoutError:
                    idle = f"closed after {limits.socket_idle_seconds:g} s without a message (ping to stay)"
                    conn.send(ClientError("idle", idle, 408).to_json())
                    conn.end()
                    break
                if raw is None:
                    break
                await _handle(manager, live, conn, raw)
        except WebSocketDisconnect:
            pass
        finally:
            if seat is None:
                gate.unwatch(game_id)
            manager.disconnect(live, conn)
            with suppress(Exception):
                await sender

    return app


async def _refuse(ws: WebSocket, exc: ClientError) -> None:
    """Say why and close: a refused socket costs nothing after this."""
    with suppress(Exception):
        await ws.send_json(exc.to_json())
        await ws.close(code=4000 + min(exc.status, 999))


async def _receive(ws: WebSocket) -> str | bytes | None:
    """The next text or binary message, None once the client has gone."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    return text if text is not None else message.get("bytes") or b""


async def _handle(manager: GameManager, live: LiveGame, conn: Connection, raw: str | bytes) -> None:
    """One client message: an answer goes to this connection only, a change to everybody."""
    cmd: Command | None = None
    try:
        cmd = parse_command(raw)
        if cmd.kind == "ping":
            conn.send({"type": "pong", "id": cmd.ref})
            return
        if cmd.kind == "hello":
            raise ClientError("malformed", "hello was said already")
        if cmd.kind == "chat":
            await manager.chat(live, conn, cmd)
            return
        if cmd.kind == "sync":
            await manager.sync(live, conn, cmd)
            return
        if conn.seat is None:
            raise ClientError("forbidden", "spectators watch (and chat); only a seat's token lets a client play", 403)
        await manager.submit(live, conn.seat, cmd, origin=conn)
    except ClientError as exc:
        conn.send(exc.to_json(cmd.ref if cmd is not None else None))


async def _send_loop(ws: WebSocket, conn: Connection) -> None:
    while True:
        msg = await conn.queue.get()
        if msg is None:
            with suppress(Exception):
                await ws.close()
            return
        try:
            if isinstance(msg, str):  # a state or a delta, encoded once for all the connections of its seat
                await ws.send_text(msg)
            else:
                await ws.send_json(msg)
        except Exception:
            conn.close()
            return


__all__ = ["create_app", "database_url"]
