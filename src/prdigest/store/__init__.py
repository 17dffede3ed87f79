"""The store: the one place with SQL. A `Store` wraps an injected connection."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from ..errors import StoreError
from ..models import Classification, PullRequest, Report
from ..timeutil import now, parse_datetime, to_iso
from .db import Database, connect_postgres, connect_sqlite
from .migrations import migrate

_CHUNK = 500  # SQLite's default limit on host parameters is far above this


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


@dataclass
class UpsertCounts:
    inserted: int = 0
    updated: int = 0
    unchanged: int = 0

    def add(self, other: UpsertCounts) -> None:
        self.inserted += other.inserted
        self.updated += other.updated
        self.unchanged += other.unchanged

    def bump(self, outcome: str, by: int = 1) -> None:
        setattr(self, outcome, getattr(self, outcome) + by)


class Store:
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

    def close(self) -> None:
        self.conn.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All or nothing; nested use joins the outer transaction."""
        if self._in_transaction:
            yield
            return
        self.conn.begin()
        self._in_transaction = True
        try:
            yield
        except BaseException as exc:
            self.conn.rollback()
            if isinstance(exc, self.conn.errors):
                raise StoreError(
                    f"database write failed: {exc}", "check the database is writable and not full"
                ) from exc
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

    # -- pull requests -------------------------------------------------------
    def upsert_pull_requests(self, repo: str, prs: Sequence[PullRequest]) -> UpsertCounts:
        """Insert or update landed PRs keyed by (repo, sha), in one transaction.

        Batched: one statement a table for the whole batch, not one a record."""
        from .upsert import PullRequestWriter  # loaded when first written (a sync: once git runs)

        writer = PullRequestWriter(self, repo)
        with self.transaction():
            writer.write(prs)
        return writer.counts

    def has_github_records(self, repo: str) -> bool:
        """Whether the GitHub source stored any PR of `repo` (to lay over git's rows)."""
        repo_id = self.repo_id(repo, create=False)
        return repo_id is not None and bool(
            self.conn.execute(
                "SELECT 1 FROM github_pull_requests WHERE repo_id = ? LIMIT 1", (repo_id,)
            ).fetchone()
        )

    def count_pull_requests(self, repo: str) -> int:
        row = self.conn.execute(
            "SELECT COUNT(*) FROM pull_requests p JOIN repositories r ON r.id = p.repo_id WHERE r.name = ?",
            (repo,),
        ).fetchone()
        return int(row[0])

    def merged_between(self, repo: str, start: datetime, end: datetime) -> list[PullRequest]:
        """Everything that landed in [start, end), oldest first (direct pushes included)."""
        return self._select_prs(
            "r.name = ? AND p.merged_at >= ? AND p.merged_at < ? ORDER BY p.merged_at, p.id",
            (repo, to_iso(start), to_iso(end)),
        )

    def pull_requests_by_number(self, repo: str, number: int) -> list[PullRequest]:
        return self._select_prs(
            "r.name = ? AND p.number = ? ORDER BY p.merged_at, p.id", (repo, number)
        )

    def merged_range(self, repo: str) -> tuple[datetime, datetime] | None:
        row = self.conn.execute(
            "SELECT MIN(p.merged_at), MAX(p.merged_at) FROM pull_requests p"
            " JOIN repositories r ON r.id = p.repo_id WHERE r.name = ?",
            (repo,),
        ).fetchone()
        if not row or row[0] is None:
            return None
        return parse_datetime(row[0]), parse_datetime(row[1])

    def authors_seen_before(self, repo: str, emails: Iterable[str], before: datetime) -> set[str]:
        """Which of these authors landed something before `before` (uses an index: cheap)."""
        wanted = sorted({e for e in emails if e})
        seen: set[str] = set()
        for i in range(0, len(wanted), _CHUNK):
            chunk = wanted[i : i + _CHUNK]
            rows = self.conn.execute(
                "SELECT DISTINCT p.author_email FROM pull_requests p JOIN repositories r ON r.id = p.repo_id"
                f" WHERE r.name = ? AND p.merged_at < ? AND p.author_email IN ({', '.join('?' * len(chunk))})",
                (repo, to_iso(before), *chunk),
            )
            seen.update(r[0] for r in rows)
        return seen

    def _select_prs(self, where: str, params: tuple[Any, ...]) -> list[PullRequest]:
        rows = self.conn.execute(
            "SELECT p.id, r.name, p.number, p.sha, p.number_source, p.title, p.body, p.author_name,"
            " p.author_email, p.author_login, p.created_at, p.merged_at, p.authored_at, p.updated_at,"
            " p.state, p.draft, p.source, p.parents, p.trailers, p.raw"
            f" FROM pull_requests p JOIN repositories r ON r.id = p.repo_id WHERE {where}",
            params,
        ).fetchall()
        ids = [r[0] for r in rows]
        files = self._children(
            ids,
            "SELECT pr_id, path, additions, deletions, old_path, is_binary FROM files",
            "position",
        )
        labels = self._children(ids, "SELECT pr_id, name FROM labels", "name")
        from .rows import _pr_from_row

        return [_pr_from_row(r, files.get(r[0], []), labels.get(r[0], [])) for r in rows]

    def _children(
        self, ids: list[int], select: str, order: str
    ) -> dict[int, list[tuple[Any, ...]]]:
        out: dict[int, list[tuple[Any, ...]]] = {}
        for i in range(0, len(ids), _CHUNK):
            chunk = ids[i : i + _CHUNK]
            rows = self.conn.execute(
                f"{select} WHERE pr_id IN ({', '.join('?' * len(chunk))}) ORDER BY pr_id, {order}",
                chunk,
            )
            for row in rows:
                out.setdefault(row[0], []).append(row[1:])
        return out

    # -- classifications -----------------------------------------------------
    def save_classifications(
        self, repo: str, decided: Iterable[tuple[PullRequest, Classification]]
    ) -> None:
        """One statement per key kind: landed PRs by commit, the others by number."""
        repo_id = self.repo_id(repo)
        rows: dict[str, list[tuple[Any, ...]]] = {"sha": [], "number": []}
        for pr, c in decided:
            key, value = ("sha", pr.sha) if pr.sha else ("number", pr.number)
            rows[key].append(
                (c.profile, c.area, c.kind, c.area_rule, c.kind_rule, c.confidence, repo_id, value)
            )
        with self.transaction():
            for key, values in rows.items():
                self.conn.executemany(
                    "INSERT INTO classifications"
                    " (pr_id, profile, area, kind, area_rule, kind_rule, confidence)"
                    f" SELECT id, ?, ?, ?, ?, ?, ? FROM pull_requests WHERE repo_id = ? AND {key} = ?"
                    " ON CONFLICT (pr_id, profile) DO UPDATE SET area = excluded.area,"
                    " kind = excluded.kind, area_rule = excluded.area_rule,"
                    " kind_rule = excluded.kind_rule, confidence = excluded.confidence",
                    values,
                )

    def classification_of(self, repo: str, sha: str, profile: str) -> Classification | None:
        row = self.conn.execute(
            "SELECT c.area, c.kind, c.area_rule, c.kind_rule, c.confidence, c.profile"
            " FROM classifications c JOIN pull_requests p ON p.id = c.pr_id"
            " JOIN repositories r ON r.id = p.repo_id WHERE r.name = ? AND p.sha = ? AND c.profile = ?",
            (repo, sha, profile),
        ).fetchone()
        return Classification(*row) if row else None

    # -- reports ---------------------------------------------------------------
    def save_report(self, report: Report) -> None:
        """Keep the latest report per repository, kind, window and writer."""
        repo_id = self.repo_id(report.repo)
        with self.transaction():
            self.conn.execute(
                "INSERT INTO reports (repo_id, kind, window_start, window_end, writer, title, markdown,"
                " context, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (repo_id, kind, window_start, window_end, writer) DO UPDATE SET"
                " title = excluded.title, markdown = excluded.markdown, context = excluded.context,"
                " created_at = excluded.created_at",
                (
                    repo_id,
                    report.kind,
                    report.window_start,
                    report.window_end,
                    report.writer,
                    report.title,
                    report.markdown,
                    json.dumps(report.context, sort_keys=True),
                    to_iso(report.created_at),
                ),
            )

    def reports(self, repo: str | None = None, kind: str | None = None) -> list[Report]:
        """Stored reports, newest window first."""
        where, params = ["1 = 1"], []
        if repo:
            where.append("r.name = ?")
            params.append(repo)
        if kind:
            where.append("t.kind = ?")
            params.append(kind)
        rows = self.conn.execute(
            "SELECT r.name, t.kind, t.window_start, t.window_end, t.writer, t.title, t.markdown,"
            " t.context, t.created_at FROM reports t JOIN repositories r ON r.id = t.repo_id"
            f" WHERE {' AND '.join(where)}"
            " ORDER BY t.window_end DESC, t.window_start DESC, r.name, t.kind, t.writer",
            params,
        )
        return [
            Report(name, k, ws, we, w, title, md, json.loads(ctx), parse_datetime(created))
            for name, k, ws, we, w, title, md, ctx, created in rows
        ]
