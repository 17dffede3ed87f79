"""Numbered, append-only schema migrations, recorded in `schema_migrations`.

Each migration is a file `NNNN_name.sql` beside this module; a database runs
every file whose number it has not recorded yet, in order, each in its own
transaction. Never edit a released file: add the next number.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from importlib import resources

from ..errors import StoreError
from ..timeutil import now, to_iso


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


def migrate(conn: sqlite3.Connection) -> list[int]:
    """Apply pending migrations; returns the numbers applied."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " number INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    applied = {row[0] for row in conn.execute("SELECT number FROM schema_migrations")}
    done = []
    for migration in available_migrations():
        if migration.number in applied:
            continue
        try:
            conn.execute("BEGIN")
            for statement in _statements(migration.sql):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO schema_migrations (number, name, applied_at) VALUES (?, ?, ?)",
                (migration.number, migration.name, to_iso(now())),
            )
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            conn.execute("ROLLBACK")
            raise StoreError(
                f"migration {migration.number:04d}_{migration.name} failed: {exc}",
                "check the database file is a prdigest database and is writable",
            ) from exc
        done.append(migration.number)
    return done


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
