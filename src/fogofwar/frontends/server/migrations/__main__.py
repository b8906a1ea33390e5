"""Write a new revision: `python -m fogofwar.frontends.server.migrations "games: clock"`.

Alembic's autogenerate compares the models of `store.py` with a scratch SQLite database brought to the newest
revision and writes what differs as `versions/v<next number>_<message>.py`, formatted by ruff when it is
installed. Read it before committing: autogenerate sees columns, types, indexes and constraints, but not a
renamed column (it writes a drop and an add) nor data that must move; docs/database.md has the rest.
"""

from __future__ import annotations

import importlib.util
import sys
import tempfile
from pathlib import Path

from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine

from fogofwar.frontends.server import migrations


def next_id() -> str:
    """The number after the newest revision's, as four digits ("0002" after "0001")."""
    numbers = [int(rev.revision) for rev in ScriptDirectory.from_config(migrations.config()).walk_revisions()]
    return f"{max(numbers, default=0) + 1:04d}"


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0].startswith("-"):
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as scratch:
        engine = create_engine(f"sqlite:///{Path(scratch) / 'scratch.db'}")
        try:
            migrations.upgrade(engine)
            with engine.begin() as conn:
                cfg = migrations.config(conn)
                if importlib.util.find_spec("ruff") is not None:
                    cfg.set_section_option("post_write_hooks", "hooks", "ruff_format,ruff_fix")
                    cfg.set_section_option("post_write_hooks", "ruff_format.type", "module")
                    cfg.set_section_option("post_write_hooks", "ruff_format.module", "ruff")
                    cfg.set_section_option("post_write_hooks", "ruff_format.options", "format REVISION_SCRIPT_FILENAME")
                    cfg.set_section_option("post_write_hooks", "ruff_fix.type", "module")
                    cfg.set_section_option("post_write_hooks", "ruff_fix.module", "ruff")
                    cfg.set_section_option(
                        "post_write_hooks", "ruff_fix.options", "check --fix --quiet REVISION_SCRIPT_FILENAME"
                    )
                command.revision(cfg, argv[0], autogenerate=True, rev_id=next_id())
        finally:
            engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
