"""The worker's own check that it owns the game of every request it serves (`fogofwar serve --workers N`).

The supervisor routes a connection by its first request (routing.py), but HTTP keep-alive lets the client send
more requests on it, for any game. Each request that names a game this worker does not own is answered with a
redirect to the same URL and `Connection: close`: the client sends it again on a new connection, which the
supervisor routes to the owner (browsers and most HTTP clients follow a 307 on their own, repeating the method
and the body). A websocket for such a game is refused before it opens (1013, try again later), and the page
reconnects. So a request is never served by a worker that does not own its game, whatever came before it.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Receive, Scope, Send

from fogofwar.frontends.server.routing import Ownership, game_in_path

TRY_AGAIN_LATER = 1013
"""The websocket close code for "the server cannot take this now; try again" (RFC 6455 registry)."""


class OwnerGuard:
    """ASGI middleware: requests for games of other workers go back to the supervisor (see the module doc)."""

    def __init__(self, app: ASGIApp, ownership: Ownership) -> None:
        self.app = app
        self.ownership = ownership

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            game_id = game_in_path(scope["path"])
            if game_id is not None and not self.ownership.owns(game_id):
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": TRY_AGAIN_LATER, "reason": "moved"})
                else:
                    await _redirect_to_itself(scope, send)
                return
        await self.app(scope, receive, send)


async def _redirect_to_itself(scope: Scope, send: Send) -> None:
    """307 to the request's own URL, closing the connection: asked again, it reaches the owner."""
    target = scope.get("raw_path") or scope["path"].encode()
    query: bytes = scope.get("query_string", b"")
    location = target + (b"?" + query if query else b"")
    body = json.dumps(
        {"error": "moved", "message": "this game is served by another worker process: send the request again"}
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 307,
            "headers": [
                (b"location", location),
                (b"connection", b"close"),
                (b"cache-control", b"no-store"),
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


__all__ = ["OwnerGuard"]
