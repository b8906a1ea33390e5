"""Replays, record export and record import: the routes of the replay viewer.

- `GET  /replay/{id}`, `GET /replay`         the replay viewer page (a game of this server; an uploaded file)
- `GET  /api/games/{id}/record?format=F`    a finished game's record: F = json (the project's record,
                                             the default) or gravon (Gravon XML, classic-board variants)
- `GET  /api/games/{id}/replay[?step=N]`    the game replayed step by step (see `records_io.build_replay`: a
                                             step is a move, or the dice of one roll in Admiral); with
                                             `step`, the whole view after step N. Everyone may replay
                                             a finished game (every rank shows); while it is on, only its
                                             players, each seeing its own observation (Bearer token)
- `POST /api/replay/import?name=FILE`       the body is a record file (JSON record or Gravon XML, at most
                                             1 MiB): answered with its replay and its export formats;
                                             nothing is stored
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import FileResponse, Response

from fogofwar.core.formats import record_formats
from fogofwar.core.protocol import GameError, RecordError
from fogofwar.frontends.server.manager import GameManager, LiveGame
from fogofwar.frontends.server.records_io import (
    MAX_IMPORT_BYTES,
    build_replay,
    export,
    gzip_json,
    record_from_upload,
    replay_of_record,
)
from fogofwar.frontends.server.session import ClientError

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
CACHE_SIZE = 32
"""Replays kept per process, by (game, events so far, viewer): stepping through one never replays it again."""

router = APIRouter()


def _manager(request: Request) -> GameManager:
    manager: GameManager = request.app.state.manager
    return manager


def _cache(request: Request) -> OrderedDict[tuple[str, int, int | None], dict[str, Any]]:
    cache = getattr(request.app.state, "replay_cache", None)
    if cache is None:
        cache = OrderedDict()
        request.app.state.replay_cache = cache
    return cache


def _viewer(live: LiveGame, game_id: str, authorization: str | None) -> int | None:
    """None (the full view) for a finished game; a player's seat while it is on; refused for anyone else."""
    token = None
    if authorization and authorization.lower().startswith("bearer "):
        token = authorization[7:].strip()
    if live.session.state.is_terminal():
        return None
    seat = live.session.seat_of(token) if token else None
    if token and seat is None:
        raise ClientError("forbidden", f"this token opens no seat of game {game_id}", 403)
    if seat is None:
        raise ClientError(
            "not_over",
            "a game in progress is replayed only for its players, each from its own side; "
            "everybody may replay it once it is over",
            409,
        )
    return seat


def _json(request: Request, data: Any) -> Response:
    body, headers = gzip_json(data, request.headers.get("accept-encoding"))
    return Response(body, media_type="application/json", headers=headers)


@router.get("/replay", include_in_schema=False)
async def replay_import_page() -> FileResponse:
    return FileResponse(WEB_DIR / "replay.html")


@router.get("/replay/{game_id}", include_in_schema=False)
async def replay_page(game_id: str) -> FileResponse:
    return FileResponse(WEB_DIR / "replay.html")


@router.get("/api/games/{game_id}/record")
async def record(request: Request, game_id: str, format: str = Query("json", max_length=16)) -> Response:
    live = await _manager(request).get(game_id)
    async with live.lock:  # the game as stored (a change on its way to the disk is not shown)
        if not live.session.state.is_terminal():
            raise ClientError("not_over", "the record is published once the game is over (it shows every setup)", 409)
        game_record = live.session.record()
    body, media, ext = export(game_record, format)
    return Response(
        body, media_type=media, headers={"content-disposition": f'attachment; filename="fogofwar-{game_id}.{ext}"'}
    )


@router.get("/api/games/{game_id}/replay")
async def replay(
    request: Request,
    game_id: str,
    step: int | None = Query(None, ge=0),
    authorization: str | None = Header(None),
) -> Response:
    live = await _manager(request).get(game_id)
    async with live.lock:  # a snapshot of the game as stored: the live game changes in place
        viewer = _viewer(live, game_id, authorization)
        session = live.session
        adapter, game, seq = session.adapter, session.game, session.seq
        data = session.state.to_json()
        info = session.info()
        setups = {str(s): t for s, t in sorted(session.setup_strings.items())} if viewer is None else {}

    def compute(stop_at: int | None) -> dict[str, Any]:
        try:
            return build_replay(adapter, game, data, viewer, stop_at)
        except RecordError as exc:
            status = 404 if stop_at is not None and "there is no move" in str(exc) else 500
            raise ClientError("no_step" if status == 404 else "broken", str(exc), status) from None

    if step is not None:
        rep = await asyncio.to_thread(compute, step)
        steps = rep["steps"]
        return _json(
            request,
            {
                "game": info,
                "perspective": viewer,
                "step": step,
                "move": {k: v for k, v in steps[-1].items() if k not in ("changes", "set")} if steps else None,
                "view": rep["view"],
            },
        )
    key = (game_id, seq, viewer)
    cache = _cache(request)
    cached = cache.get(key)
    if cached is None:
        rep = await asyncio.to_thread(compute, None)
        cached = {
            **rep,
            "game": info,
            "perspective": viewer,
            "setups": setups,
        }
        cache[key] = cached
        while len(cache) > CACHE_SIZE:
            cache.popitem(last=False)
    cache.move_to_end(key)
    return _json(request, cached)


async def _read_body(request: Request, limit: int) -> bytes:
    length = request.headers.get("content-length")
    too_large = ClientError("too_large", f"the file is over the limit of {limit:,} bytes", 413)
    if length is not None and length.isdigit() and int(length) > limit:
        raise too_large
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise too_large
    return bytes(body)


@router.post("/api/replay/import")
async def import_record(request: Request, name: str = Query("the file", max_length=200)) -> Response:
    data = await _read_body(request, MAX_IMPORT_BYTES)

    def run() -> dict[str, Any]:
        record, fmt = record_from_upload(data, name)
        rep = replay_of_record(record, name)
        exports: dict[str, Any] = {"json": record.to_json()}
        for name_, outside in record_formats().items():
            try:
                exports[name_] = outside.write(record)
            except GameError:  # RecordError among them
                exports[name_] = None  # this game has no place in that format
        rep["format"] = fmt
        rep["exports"] = exports
        return rep

    return _json(request, await asyncio.to_thread(run))
