"""The fogofwar web server: lobby, server-authoritative play over websockets, an event-log database.

`create_app(db)` builds the ASGI app; `fogofwar serve` runs it with uvicorn. The rules engine
is the only judge: clients send the actions they intend, the server checks them, stores them
and sends each seat only its own observation.
"""

from fogofwar.server.app import create_app, database_url

__all__ = ["create_app", "database_url"]
