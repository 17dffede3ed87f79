"""SQL of the GitHub source: its PR records, ETags, sync state and rate limits.

GitHub's view of a PR is kept in `github_pull_requests` (by number) and laid
over `pull_requests` so each PR has ONE row whichever source came first:

- a git/jsonl row with the merge commit's sha (or, failing that, the PR's
  number) takes GitHub's labels, created/updated dates, login and draft flag,
  and GitHub's files when GitHub has some; git's sha, dates and message stay,
  and its content hash too, so re-reading the same git history stays a no-op;
- otherwise the PR gets a row of its own (`source = 'github'`, `sha` NULL
  unless merged), replaced by the git row as soon as git brings the PR.

`reapply_github` is called after a git/jsonl batch so the order never matters.
The records' shapes (msgspec) are in github_records.py, loaded when first used.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..models import FileChange, PullRequest
from ..timeutil import now, to_iso
from .core import StoreCore
from .counts import UpsertCounts

if TYPE_CHECKING:
    from .github_records import GitHubSyncState

CURSOR_SOURCE = "github"
_CHUNK = 500


class GitHubTables(StoreCore):
    # -- sync state (a JSON cursor in sync_cursors) -----------------------------------
    def github_state(self, repo: str) -> GitHubSyncState:
        from .github_records import state_from_cursor

        return state_from_cursor(self.get_cursor(repo, CURSOR_SOURCE))

    def save_github_state(self, repo: str, state: GitHubSyncState) -> None:
        from .github_records import state_cursor

        self.set_cursor(repo, CURSOR_SOURCE, state_cursor(state))

    # -- ETags ---------------------------------------------------------------------------
    def get_etag(self, url: str) -> str | None:
        row = self.conn.execute("SELECT etag FROM github_etags WHERE url = ?", (url,)).fetchone()
        return str(row[0]) if row else None

    def put_etag(self, url: str, etag: str) -> None:
        with self.transaction():
            self.conn.execute(
                "INSERT INTO github_etags (url, etag, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (url) DO UPDATE SET etag = excluded.etag, updated_at = excluded.updated_at",
                (url, etag, to_iso(now())),
            )

    # -- rate limits ---------------------------------------------------------------------
    def save_rate_limits(self, api_url: str, rates: Iterable[Any]) -> None:
        """Keep the last rate-limit state seen per resource (RateState objects)."""
        with self.transaction():
            for rate in rates:
                self.conn.execute(
                    "INSERT INTO github_rate_limits (api_url, resource, quota, remaining, reset_at, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (api_url, resource) DO UPDATE SET"
                    " quota = excluded.quota, remaining = excluded.remaining,"
                    " reset_at = excluded.reset_at, updated_at = excluded.updated_at",
                    (
                        api_url,
                        rate.resource or "core",
                        rate.limit,
                        rate.remaining,
                        to_iso(rate.reset) if rate.reset else None,
                        to_iso(now()),
                    ),
                )

    # -- GitHub's PRs --------------------------------------------------------------------
    def known_updated_at(self, repo: str, numbers: Sequence[int]) -> dict[int, str]:
        """GitHub's `updated_at` already stored for these PR numbers."""
        repo_id = self.repo_id(repo, create=False)
        if repo_id is None:
            return {}
        found: dict[int, str] = {}
        wanted = list(numbers)
        for i in range(0, len(wanted), _CHUNK):
            chunk = wanted[i : i + _CHUNK]
            rows = self.conn.execute(
                "SELECT number, updated_at FROM github_pull_requests WHERE repo_id = ?"
                f" AND number IN ({', '.join('?' * len(chunk))})",
                (repo_id, *chunk),
            )
            found.update({int(n): str(u) for n, u in rows})
        return found

    def upsert_github_prs(self, repo: str, prs: Sequence[PullRequest]) -> UpsertCounts:
        """Store GitHub's records and lay each over its one PR row; in the caller's transaction."""
        import hashlib

        from .github_records import payload_of, payload_text

        repo_id = self.repo_id(repo)
        counts = UpsertCounts()
        with self.transaction():
            for pr in prs:
                payload = payload_of(pr)
                text = payload_text(payload)
                digest = hashlib.sha1(text.encode("utf-8")).hexdigest()
                row = self.conn.execute(
                    "SELECT content_hash FROM github_pull_requests WHERE repo_id = ? AND number = ?",
                    (repo_id, pr.number),
                ).fetchone()
                if row and row[0] == digest:
                    counts.unchanged += 1
                    continue
                self.conn.execute(
                    "INSERT INTO github_pull_requests (repo_id, number, updated_at, state, merge_commit_sha,"
                    " content_hash, payload) VALUES (?, ?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (repo_id, number) DO UPDATE SET updated_at = excluded.updated_at,"
                    " state = excluded.state, merge_commit_sha = excluded.merge_commit_sha,"
                    " content_hash = excluded.content_hash, payload = excluded.payload",
                    (repo_id, pr.number, payload.updated_at, pr.state, pr.sha, digest, text),
                )
                self._lay_over(repo_id, pr)
                if row:
                    counts.updated += 1
                else:
                    counts.inserted += 1
        self.generation += 1
        return counts

    def reapply_github(self, repo: str, numbers: Iterable[int | None]) -> int:
        """After git/jsonl rows were written: lay GitHub's records of these PRs over them again."""
        repo_id = self.repo_id(repo, create=False)
        wanted = sorted({n for n in numbers if n is not None})
        if repo_id is None or not wanted:
            return 0
        if not self.conn.execute(
            "SELECT 1 FROM github_pull_requests WHERE repo_id = ? LIMIT 1", (repo_id,)
        ).fetchone():
            return 0
        from .github_records import pr_from_payload

        applied = 0
        with self.transaction():
            for i in range(0, len(wanted), _CHUNK):
                chunk = wanted[i : i + _CHUNK]
                rows = self.conn.execute(
                    "SELECT payload FROM github_pull_requests WHERE repo_id = ?"
                    f" AND number IN ({', '.join('?' * len(chunk))})",
                    (repo_id, *chunk),
                ).fetchall()
                for (payload,) in rows:
                    self._lay_over(repo_id, pr_from_payload(repo, payload))
                    applied += 1
        return applied

    def _lay_over(self, repo_id: int | None, pr: PullRequest) -> None:
        from .rows import _pr_row

        conn = self.conn
        target = None
        if pr.sha:
            target = conn.execute(
                "SELECT id FROM pull_requests WHERE repo_id = ? AND sha = ? AND source <> 'github'",
                (repo_id, pr.sha),
            ).fetchone()
        if target is None:
            target = conn.execute(
                "SELECT id FROM pull_requests WHERE repo_id = ? AND number = ? AND source <> 'github'"
                " AND sha IS NOT NULL ORDER BY merged_at DESC, id DESC LIMIT 1",
                (repo_id, pr.number),
            ).fetchone()
        own = conn.execute(
            "SELECT id FROM pull_requests WHERE repo_id = ? AND number = ? AND source = 'github'",
            (repo_id, pr.number),
        ).fetchone()
        if target is not None:
            # git proves it landed: keep git's identity, dates and message; take GitHub's metadata.
            pr_id = int(target[0])
            if own is not None:
                conn.execute("DELETE FROM pull_requests WHERE id = ?", (own[0],))
            conn.execute(
                "UPDATE pull_requests SET author_login = COALESCE(?, author_login), created_at = ?,"
                " updated_at = ?, draft = 0, state = 'merged' WHERE id = ?",
                (pr.author_login, _iso(pr.created_at), _iso(pr.updated_at), pr_id),
            )
            self._replace_labels(pr_id, pr.labels)
            if pr.files:
                self._replace_files(pr_id, self._with_stored_patches(pr_id, pr.files))
            return
        row = _pr_row(repo_id, pr, "github:" + (pr.updated_at.isoformat() if pr.updated_at else ""))
        if own is not None:
            pr_id = int(own[0])
            conn.execute(
                f"UPDATE pull_requests SET {', '.join(f'{c} = ?' for c in row)} WHERE id = ?",
                (*row.values(), pr_id),
            )
        else:
            pr_id = int(
                conn.execute(
                    f"INSERT INTO pull_requests ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})"
                    " RETURNING id",
                    tuple(row.values()),
                ).fetchone()[0]
            )
        self._replace_labels(pr_id, pr.labels)
        self._replace_files(pr_id, pr.files)

    def _replace_labels(self, pr_id: int, labels: Sequence[str]) -> None:
        self.conn.execute("DELETE FROM labels WHERE pr_id = ?", (pr_id,))
        self.conn.executemany(
            "INSERT OR IGNORE INTO labels (pr_id, name) VALUES (?, ?)",
            [(pr_id, name) for name in labels],
        )

    def _with_stored_patches(
        self, pr_id: int, files: Sequence[FileChange]
    ) -> tuple[FileChange, ...]:
        """GitHub's file list with the diffs a JSONL sync stored for the same paths: the
        REST list carries no `patch` here, and laying it over must not lose them."""
        stored = {
            path: (patch, bool(truncated))
            for path, patch, truncated in self.conn.execute(
                "SELECT path, patch, patch_truncated FROM files WHERE pr_id = ? AND patch IS NOT NULL",
                (pr_id,),
            )
        }
        if not stored:
            return tuple(files)
        return tuple(
            replace(f, patch=stored[f.path][0], patch_truncated=stored[f.path][1])
            if f.patch is None and f.path in stored
            else f
            for f in files
        )

    def _replace_files(self, pr_id: int, files: Sequence[FileChange]) -> None:
        from .rows import file_rows

        self.conn.execute("DELETE FROM files WHERE pr_id = ?", (pr_id,))
        self.conn.executemany(
            "INSERT INTO files (pr_id, position, path, old_path, additions, deletions, is_binary,"
            " patch, patch_truncated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            file_rows(pr_id, files),
        )


def _iso(value: datetime | None) -> str | None:
    return to_iso(value) if value else None
