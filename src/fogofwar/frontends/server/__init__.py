"""The fogofwar web server: lobby, server-authoritative play over websockets, an event-log database.

`create_app(db)` builds the ASGI app; `fogofwar serve` runs it with uvicorn. The rules engine
is the only judge: clients send the actions they intend, the server checks them, stores them
and sends each seat only its own observation.
"""

from typing import Any

from fogofwar.frontends.server.app import create_app, database_url
from fogofwar.frontends.server.limits import Limits, uvicorn_options


def serve(
    host: str, port: int, *, limits: Limits | None = None, log_level: str = "warning", **app_options: Any
) -> None:
    """Run the app with uvicorn under `limits` (the connection and header limits live in the HTTP
    protocol, so a server must be started this way to have them); `app_options` go to `create_app`."""
    import uvicorn

    limits = limits or Limits()
    app = create_app(limits=limits, **app_options)
    uvicorn.run(app, host=host, port=port, log_level=log_level, **uvicorn_options(limits))


__all__ = ["Limits", "create_app", "database_url", "serve"]
