"""Opening the store a path or URL names (the default: a SQLite file in the user data dir)."""

from __future__ import annotations

import sqlite3

from ..errors import StoreError
from .db import connect_postgres, connect_sqlite
from .location import SERVER_SCHEMES, sqlite_path
from .store import Store


def open_store(db: str | None = None) -> Store:
    """Open (creating and migrating) the store named by a path or URL."""
    if db and db.startswith(SERVER_SCHEMES):
        return Store(connect_postgres(db))
    path = sqlite_path(db)
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"cannot create {path.parent}: {exc.strerror}", "pick a writable --db path"
            ) from exc
    try:
        return Store(connect_sqlite(str(path) if path is not None else ":memory:"))
    except sqlite3.Error as exc:
        raise StoreError(
            f"cannot open database {path}: {exc}", "point --db at a prdigest database or a new path"
        ) from exc
