"""Opening the store a path or URL names (the default: a SQLite file in the user data dir)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ..errors import StoreError
from .db import connect_postgres, connect_sqlite
from .store import Store


def default_db_path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("prdigest", appauthor=False)) / "prdigest.db"


def open_store(db: str | None = None) -> Store:
    """Open (creating and migrating) the store named by a path or URL."""
    if db and db.startswith(("postgresql://", "postgres://")):
        return Store(connect_postgres(db))
    path = Path(db.removeprefix("sqlite:///")) if db else default_db_path()
    if str(path) != ":memory:":
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"cannot create {path.parent}: {exc.strerror}", "pick a writable --db path"
            ) from exc
    try:
        return Store(connect_sqlite(str(path)))
    except sqlite3.Error as exc:
        raise StoreError(
            f"cannot open database {path}: {exc}", "point --db at a prdigest database or a new path"
        ) from exc
