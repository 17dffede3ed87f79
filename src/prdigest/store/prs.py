"""Landed pull requests: writing a batch, and reading them back by window, number or author."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from ..models import PullRequest
from ..timeutil import parse_datetime, to_iso
from .core import StoreCore
from .counts import UpsertCounts

_CHUNK = 500  # SQLite's default limit on host parameters is far above this


class PullRequestTables(StoreCore):
    def upsert_pull_requests(self, repo: str, prs: Sequence[PullRequest]) -> UpsertCounts:
        """Insert or update landed PRs keyed by (repo, sha), in one transaction.

        Batched: one statement a table for the whole batch, not one a record."""
        from .upsert import PullRequestWriter  # loaded when first written (a sync: once git runs)

        writer = PullRequestWriter(self, repo)
        with self.transaction():
            writer.write(prs)
        self.generation += 1
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

    def created_between(self, repo: str, start: datetime, end: datetime) -> list[PullRequest]:
        """PRs opened in [start, end) (known only from GitHub), oldest first, any state."""
        return self._select_prs(
            "r.name = ? AND p.number IS NOT NULL AND p.created_at >= ? AND p.created_at < ?"
            " ORDER BY p.created_at, p.id",
            (repo, to_iso(start), to_iso(end)),
        )

    def ambiguous_shas(self, repo: str, named: Iterable[tuple[str, datetime]]) -> frozenset[str]:
        """Of the abbreviated shas named (each with when it was named), those that start
        two or more commits landed before: a revert naming one says nothing of which."""
        repo_id = self.repo_id(repo, create=False)
        if repo_id is None:
            return frozenset()
        found = set()
        for prefix, named_at in set(named):
            row = self.conn.execute(
                "SELECT COUNT(*) FROM (SELECT 1 FROM pull_requests WHERE repo_id = ?"
                " AND sha COLLATE BINARY >= ? AND sha COLLATE BINARY < ? AND merged_at < ?"
                " LIMIT 2) two",
                (repo_id, prefix, prefix + "~", to_iso(named_at)),  # `~` sorts after hex digits
            ).fetchone()
            if int(row[0]) > 1:
                found.add(prefix)
        return frozenset(found)

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

    def newest_landing_before(self, repo: str, when: datetime) -> datetime | None:
        """When the newest PR or direct push landed before `when` (None: none did)."""
        row = self.conn.execute(
            "SELECT MAX(p.merged_at) FROM pull_requests p JOIN repositories r"
            " ON r.id = p.repo_id WHERE r.name = ? AND p.merged_at < ?",
            (repo, to_iso(when)),
        ).fetchone()
        return parse_datetime(row[0]) if row and row[0] is not None else None

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
            "SELECT pr_id, path, additions, deletions, old_path, is_binary, patch, patch_truncated"
            " FROM files",
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
