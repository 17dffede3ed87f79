"""Where a store lives, and whether it is there yet (without creating it)."""

from __future__ import annotations

from pathlib import Path

SERVER_SCHEMES = ("postgresql://", "postgres://")


def default_db_path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("prdigest", appauthor=False)) / "prdigest.db"


def sqlite_path(db: str | None) -> Path | None:
    """The SQLite file a `--db` value names (the default one for None); None for a server
    URL or an in-memory database, whose existence a path cannot tell."""
    if db and db.startswith(SERVER_SCHEMES):
        return None
    path = Path(db.removeprefix("sqlite:///")) if db else default_db_path()
    return None if str(path) == ":memory:" else path


def describe(db: str | None) -> str:
    """The store as a person reads it: the SQLite file's path, or the URL without password."""
    path = sqlite_path(db)
    if path is not None:
        return str(path)
    if db and db.startswith(SERVER_SCHEMES):
        scheme, _, rest = db.partition("://")
        return f"{scheme}://{rest.rpartition('@')[2]}"
    return str(db)
