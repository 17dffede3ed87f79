"""Upserting landed PRs, piece by piece, inside one transaction.

A sync writes each batch as its records arrive (a few statements per piece), so
when the source ends only the last piece is left to write; the caller commits
the batch and its cursor together. Counts are those of the batch as a whole: a
commit met twice counts once, against what the store held before the batch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import StoreError
from ..models import PullRequest
from .counts import UpsertCounts
from .rows import UPSERT_PR, content_hash, file_rows, pr_values, raw_json

if TYPE_CHECKING:
    from .core import StoreCore

_CHUNK = 500  # SQLite's default limit on host parameters is far above this


class PullRequestWriter:
    """Writes pieces of one batch of landed PRs, keyed by (repo, sha). Use it inside a
    transaction (`Store.transaction`): the batch is all or nothing."""

    def __init__(self, store: StoreCore, repo: str) -> None:
        self._store = store
        self._repo = repo
        self._repo_id = store.repo_id(repo)
        self.counts = UpsertCounts()
        # sha → (content hash before the batch, None if new; how it was counted)
        self._seen: dict[str, tuple[str | None, str]] = {}

    def write(self, prs: Sequence[PullRequest]) -> None:
        latest: dict[str, PullRequest] = {}
        for pr in prs:
            if not pr.sha:
                raise StoreError(
                    f"PR #{pr.number} of {self._repo} has no commit", "report this as a bug"
                )
            latest[pr.sha] = pr  # the same commit twice: the last one wins
        current = self._hashes_by_sha(list(latest))
        rows: list[tuple[object, ...]] = []
        changed: list[PullRequest] = []
        for sha, pr in latest.items():
            raw = raw_json(pr)
            digest = content_hash(pr, raw)
            stored = current.get(sha)
            before = self._before(sha, stored)
            outcome = (
                "inserted" if before is None else "unchanged" if before == digest else "updated"
            )
            self.counts.bump(outcome)
            self._seen[sha] = (before, outcome)
            if stored and stored[1] == digest:
                continue
            rows.append(pr_values(self._repo_id, pr, digest, raw))
            changed.append(pr)
        if rows:
            self._write_rows(rows, changed)

    def _before(self, sha: str, stored: tuple[int, str] | None) -> str | None:
        """The hash the commit had before this batch; a repeat takes back its first count."""
        seen = self._seen.get(sha)
        if seen is None:
            return stored[1] if stored else None
        before, outcome = seen
        self.counts.bump(outcome, -1)
        return before

    def _write_rows(self, rows: list[tuple[object, ...]], changed: list[PullRequest]) -> None:
        conn = self._store.conn
        conn.executemany(UPSERT_PR, rows)  # ON CONFLICT: another writer may have been first
        written = self._hashes_by_sha([pr.sha or "" for pr in changed])
        ids = {sha: pr_id for sha, (pr_id, _) in written.items()}
        stale = [(ids[pr.sha or ""],) for pr in changed]
        conn.executemany("DELETE FROM files WHERE pr_id = ?", stale)
        conn.executemany("DELETE FROM labels WHERE pr_id = ?", stale)
        conn.executemany(
            "INSERT INTO files (pr_id, position, path, old_path, additions, deletions, is_binary,"
            " patch, patch_truncated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [row for pr in changed for row in file_rows(ids[pr.sha or ""], pr.files)],
        )
        conn.executemany(
            "INSERT OR IGNORE INTO labels (pr_id, name) VALUES (?, ?)",
            [(ids[pr.sha or ""], label) for pr in changed for label in pr.labels],
        )

    def _hashes_by_sha(self, shas: list[str]) -> dict[str, tuple[int, str]]:
        found: dict[str, tuple[int, str]] = {}
        for i in range(0, len(shas), _CHUNK):
            chunk = shas[i : i + _CHUNK]
            rows = self._store.conn.execute(
                f"SELECT sha, id, content_hash FROM pull_requests WHERE repo_id = ?"
                f" AND sha IN ({', '.join('?' * len(chunk))})",
                (self._repo_id, *chunk),
            )
            found.update({sha: (pr_id, h) for sha, pr_id, h in rows})
        return found
