"""The tables of the games (`games`, `events`) and of the accounts (`users`, `user_sessions`, `game_accounts`,
`ratings`, `rated_games`); a database written before the migrations existed is adopted in place.

A new database gets every table. A database made by a fogofwar without migrations has some of them already and no
`alembic_version`: it gets the tables it lacks (the accounts' before accounts existed), its `games` is brought to
this revision's columns keeping every row, and it is stamped. The old `upgrade_schema` of those versions added
each new column of `games` with ALTER TABLE, so such a database may lack any of:
- `secret`: before the 256-bit secrets each game had a 31-bit `seed` (NOT NULL). Each game gets a fresh secret
  from the OS and `seed` goes: its stored setups and dice are in its log already, so only the computer's future
  choices differ (and nobody can compute them from the seed any longer). A `secret` that `upgrade_schema` added
  is nullable: it becomes NOT NULL (every row has one);
- `clock` (nullable JSON): the games made before clocks are untimed (NULL);
- `public` (boolean, NOT NULL): no challenge was open then (false; the column keeps that server default).
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

from fogofwar.core.randomness import new_secret

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    tables = set(sa.inspect(op.get_bind()).get_table_names())
    if "games" in tables:
        _adopt_games()
    else:
        _create_games()
    for name, create in _TABLES.items():  # the others, each made by its first version: kept as they are
        if name not in tables:
            create()


def _create_games() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("mode", sa.String(length=16), nullable=False),
        sa.Column("agent", sa.String(length=64), nullable=True),
        sa.Column("agent_seat", sa.Integer(), nullable=True),
        sa.Column("secret", sa.String(length=64), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("token_hashes", sa.JSON(), nullable=False),
        sa.Column("invite_hash", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("to_move", sa.Integer(), nullable=True),
        sa.Column("move_count", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.JSON(), nullable=True),
        sa.Column("clock", sa.JSON(), nullable=True),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_games_status"), "games", ["status"], unique=False)
    op.create_index(op.f("ix_games_updated_at"), "games", ["updated_at"], unique=False)


def _create_events() -> None:
    op.create_table(
        "events",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("game_id", "seq"),
    )


def _create_users() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(length=20), nullable=False),
        sa.Column("name_key", sa.String(length=20), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name_key"),
    )


def _create_user_sessions() -> None:
    op.create_table(
        "user_sessions",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("csrf", sa.String(length=64), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    op.create_index(op.f("ix_user_sessions_user_id"), "user_sessions", ["user_id"], unique=False)


def _create_game_accounts() -> None:
    op.create_table(
        "game_accounts",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("game_id", "seat"),
    )
    op.create_index(op.f("ix_game_accounts_user_id"), "game_accounts", ["user_id"], unique=False)


def _create_ratings() -> None:
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("mode", sa.String(length=64), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("user_id", "mode"),
    )


def _create_rated_games() -> None:
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("mode", sa.String(length=64), nullable=False),
        sa.Column("changes", sa.String(length=200), nullable=False),
        sa.Column("rated_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("game_id"),
    )


_TABLES: dict[str, Callable[[], None]] = {
    "events": _create_events,
    "users": _create_users,
    "user_sessions": _create_user_sessions,
    "game_accounts": _create_game_accounts,
    "ratings": _create_ratings,
    "rated_games": _create_rated_games,
}
"""The tables besides `games`, in an order that makes each one's references before it."""


def _adopt_games() -> None:
    """Bring a `games` table written before the migrations to this revision's columns, keeping every row."""
    bind = op.get_bind()
    columns = {c["name"]: c for c in sa.inspect(bind).get_columns("games")}
    if "clock" not in columns:
        op.add_column("games", sa.Column("clock", sa.JSON(), nullable=True))
    if "public" not in columns:
        op.add_column("games", sa.Column("public", sa.Boolean(), nullable=False, server_default=sa.false()))
    if "secret" not in columns:
        op.add_column("games", sa.Column("secret", sa.String(length=64), nullable=True))
        games = sa.table("games", sa.column("id", sa.String()), sa.column("secret", sa.String()))
        for (game_id,) in bind.execute(sa.select(games.c.id)).all():
            bind.execute(games.update().where(games.c.id == game_id).values(secret=new_secret().hex()))
    if "seed" in columns or "secret" not in columns or columns["secret"]["nullable"]:
        # SQLite can neither drop NULL from a column nor (before 3.35) drop one: batch mode rebuilds the table.
        with op.batch_alter_table("games") as batch:
            batch.alter_column("secret", existing_type=sa.String(length=64), nullable=False)
            if "seed" in columns:
                batch.drop_column("seed")


def downgrade() -> None:
    for name in reversed(["games", *_TABLES]):
        op.drop_table(name)  # with its indexes
