"""The revisions, oldest first: v<number>_<what it does>.py (Alembic reads them by path; this file makes them
part of the installed package)."""
