"""The store's ground: its connection, transactions, and what every table hangs off
(repositories and sync cursors). The table modules (prs.py, classifications.py,
reports.py) build on it; store.py puts them together as `Store`."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import ReadOnlyStoreError, StoreError
from ..timeutil import now, to_iso
from .db import Database
from .migrations import migrate


class StoreCore:
    def __init__(self, conn: Database | sqlite3.Connection) -> None:
        if isinstance(conn, sqlite3.Connection):
            conn.execute("PRAGMA foreign_keys=ON")
            conn = Database(conn)
        self.conn = conn
        try:
            migrate(conn)
        except conn.errors as exc:
            raise StoreError(
                f"not a usable database: {exc}", "point --db at a prdigest database or a new path"
            ) from exc
        self._in_transaction = False
        self.generation = 0  # bumped by every write of PRs: what caches of them compare
        # what readers derive from this store once per run (keyed by reader and repository)
        self.derived: dict[tuple[str, str], Any] = {}

    def close(self) -> None:
        self.conn.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All or nothing; nested use joins the outer transaction."""
        if self._in_transaction:
            yield
            return
        try:
            self.conn.begin()
        except self.conn.errors as exc:
            raise _write_error(exc) from exc
        self._in_transaction = True
        try:
            yield
        except BaseException as exc:
            self.conn.rollback()
            if isinstance(exc, self.conn.errors):
                raise _write_error(exc) from exc
            raise
        else:
            self.conn.commit()
        finally:
            self._in_transaction = False

    @property
    def dialect(self) -> str:
        return self.conn.dialect

    # -- repositories ------------------------------------------------------
    def repo_id(self, repo: str, *, create: bool = True) -> int | None:
        row = self.conn.execute("SELECT id FROM repositories WHERE name = ?", (repo,)).fetchone()
        if row:
            return int(row[0])
        if not create:
            return None
        with self.transaction():
            self.conn.execute(
                "INSERT INTO repositories (name) VALUES (?) ON CONFLICT (name) DO NOTHING", (repo,)
            )
        return self.repo_id(repo, create=False)

    def repositories(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT name FROM repositories ORDER BY name")]

    # -- sync cursors --------------------------------------------------------
    def get_cursor(self, repo: str, source: str) -> str | None:
        row = self.conn.execute(
            "SELECT c.value FROM sync_cursors c JOIN repositories r ON r.id = c.repo_id"
            " WHERE r.name = ? AND c.source = ?",
            (repo, source),
        ).fetchone()
        return row[0] if row else None

    def set_cursor(self, repo: str, source: str, value: str) -> None:
        repo_id = self.repo_id(repo)
        with self.transaction():
            self.conn.execute(
                "INSERT INTO sync_cursors (repo_id, source, value, updated_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (repo_id, source) DO UPDATE SET value = excluded.value,"
                " updated_at = excluded.updated_at",
                (repo_id, source, value, to_iso(now())),
            )


def _write_error(exc: BaseException) -> StoreError:
    """A failed write, told apart when the database is read-only (SQLite's "attempt to
    write a readonly database", PostgreSQL's read_only_sql_transaction)."""
    if "readonly" in str(exc).lower() or getattr(exc, "sqlstate", None) == "25006":
        return ReadOnlyStoreError(
            f"the database is read-only ({exc})", "make it writable, or give another --db"
        )
    return StoreError(
        f"database write failed: {exc}", "check the database is writable and not full"
    )
