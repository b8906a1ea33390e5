"""The fogofwar web server: lobby, server-authoritative play over websockets, an event-log database.

`create_app(db)` builds the ASGI app; `fogofwar serve` runs it with uvicorn, in one process or, with
`--workers N`, in N worker processes behind a supervisor that routes each game's connections to the one worker
that owns the game (supervisor.py). The rules engine is the only judge: clients send the actions they intend, the
server checks them, stores them and sends each seat only its own observation.
"""

from typing import Any

from fogofwar.frontends.server.app import create_app, database_url
from fogofwar.frontends.server.limits import Limits, uvicorn_options

WORKER_OPTIONS = ("db", "agent_delay", "fsync", "seed")
"""The `create_app` options a multi-worker server passes on to its workers."""


def serve(
    host: str,
    port: int,
    *,
    limits: Limits | None = None,
    log_level: str = "warning",
    workers: int = 1,
    **app_options: Any,
) -> int:
    """Run the app with uvicorn under `limits` (the connection and header limits live in the HTTP
    protocol, so a server must be started this way to have them); `app_options` go to `create_app`.
    `workers` > 1: that many worker processes behind a supervisor (supervisor.py). Returns the exit status."""
    limits = limits or Limits()
    if workers > 1:
        return _serve_workers(host, port, limits, log_level, workers, app_options)
    import uvicorn

    from fogofwar.frontends.server.collector import quiet_collector

    app = create_app(limits=limits, **app_options)
    quiet_collector()
    uvicorn.run(app, host=host, port=port, log_level=log_level, **uvicorn_options(limits))
    return 0


def _serve_workers(
    host: str, port: int, limits: Limits, log_level: str, workers: int, app_options: dict[str, Any]
) -> int:
    from fogofwar.frontends.server import supervisor
    from fogofwar.frontends.server.handoff import WorkerSettings

    unknown = set(app_options) - set(WORKER_OPTIONS)
    if unknown:
        raise TypeError(f"options a worker cannot take: {', '.join(sorted(unknown))}")
    db = database_url(app_options.get("db"))

    def settings(slot: int) -> WorkerSettings:
        return WorkerSettings(
            slot=slot,
            workers=workers,
            db=db,
            limits=limits.model_dump(),
            agent_delay=float(app_options.get("agent_delay", 0.0)),
            fsync=bool(app_options.get("fsync", True)),
            seed=app_options.get("seed"),
            log_level=log_level,
        )

    return supervisor.run(host, port, settings, workers, limits)


__all__ = ["Limits", "create_app", "database_url", "serve"]
