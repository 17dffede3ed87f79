"""Numbered, append-only schema migrations, recorded in `schema_migrations`.

Each migration is a file `NNNN_name.sql` beside this module; a database runs
every file whose number it has not recorded yet, in order, each in its own
transaction. Never edit a released file: add the next number. A file whose first line
is `-- dialect: sqlite` (or `postgresql`) runs on that database only.
"""

from __future__ import annotations

import contextlib
import sqlite3
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING

from ..errors import StoreError
from ..timeutil import now, to_iso

if TYPE_CHECKING:
    from .db import Database


@dataclass(frozen=True)
class Migration:
    number: int
    name: str
    sql: str


def available_migrations() -> list[Migration]:
    found = []
    for entry in resources.files(__package__).joinpath("migrations").iterdir():
        stem, dot, ext = entry.name.partition(".")
        if ext != "sql":
            continue
        number, _, name = stem.partition("_")
        found.append(Migration(int(number), name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.number)
    numbers = [m.number for m in found]
    if len(set(numbers)) != len(numbers):
        raise StoreError("two migrations share a number", "renumber the newer migration file")
    return found


def migrate(conn: Database) -> list[int]:
    """Apply pending migrations; returns the numbers applied.

    Concurrent processes may start at once (several workers): a lock serialises
    them, and each re-reads what is applied once it holds the lock."""
    try:
        conn.begin()
        conn.lock_schema()
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " number INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
        conn.commit()
    except conn.errors as exc:
        with contextlib.suppress(*conn.errors):
            conn.rollback()
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise StoreError(
            f"cannot prepare the database: {reason}",
            "point --db at a prdigest database (or a new path) that this user may write",
        ) from exc
    applied = _applied(conn)
    done: list[int] = []
    for migration in available_migrations():
        if migration.number in applied:
            continue
        try:
            conn.begin()
            conn.lock_schema()
            if migration.number in _applied(conn):
                conn.rollback()  # another process applied it while we waited
                continue
            for statement in _statements(migration.sql) if _for(migration, conn) else ():
                conn.execute(conn.adapt_ddl(statement))
            conn.execute(
                "INSERT INTO schema_migrations (number, name, applied_at) VALUES (?, ?, ?)",
                (migration.number, migration.name, to_iso(now())),
            )
            conn.commit()
        except conn.errors as exc:
            conn.rollback()
            raise StoreError(
                f"migration {migration.number:04d}_{migration.name} failed: {exc}",
                "check the database file is a prdigest database and is writable",
            ) from exc
        done.append(migration.number)
    return done


def _for(migration: Migration, conn: Database) -> bool:
    """Whether the migration applies to this database: a first line `-- dialect: NAME`
    limits it to one (it is recorded as applied on the others, with nothing run)."""
    first = migration.sql.split("\n", 1)[0].strip()
    if first.startswith("-- dialect:"):
        return first.removeprefix("-- dialect:").strip() == conn.dialect
    return True


def _statements(sql: str) -> list[str]:
    # sqlite3.complete_statement knows where a statement ends, comments and strings included.
    statements, current = [], ""
    for line in sql.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            statements.append(current.strip())
            current = ""
    if current.strip() and not current.strip().startswith("--"):
        statements.append(current.strip())
    return statements


def _applied(conn: Database) -> set[int]:
    return {int(row[0]) for row in conn.execute("SELECT number FROM schema_migrations").fetchall()}
